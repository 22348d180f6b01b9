// Package deferred declares tools loaded up front and tools deferred until a tool search finds them
// (//wink:tool defer): winkgen marks the deferred ones and generates WinkCatalog, their search index.
package deferred

import "github.com/winkgen/wink/runtime/wink"

// LookupParams names a customer.
type LookupParams struct {
	// CustomerID is the customer's id.
	CustomerID string `json:"customer_id"`
}

// Customer is a customer record.
type Customer struct {
	Name string `json:"name"`
}

// LookupCustomer returns a customer's record by id.
//
//wink:tool readonly
func LookupCustomer(tc *wink.ToolContext, p LookupParams) (wink.ToolResult[Customer], error) {
	return wink.OK(Customer{Name: p.CustomerID}, "found"), nil
}

// EmailParams is an email to send.
type EmailParams struct {
	To      string `json:"to"`
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

// SendEmail sends an email message to a customer. It is queued and delivered within minutes.
//
//wink:tool defer
func SendEmail(tc *wink.ToolContext, p EmailParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.OK(wink.NoValue{}, "done"), nil
}

// RefundParams is a refund.
type RefundParams struct {
	OrderID     string `json:"order_id"`
	AmountCents int64  `json:"amount_cents"`
}

// RefundOrder refunds an order's payment, in full or in part.
//
//wink:tool defer destructive=true
func RefundOrder(tc *wink.ToolContext, p RefundParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.OK(wink.NoValue{}, "done"), nil
}

// ListInvoices lists the invoices of the current account.
//
//wink:tool readonly defer=true
func ListInvoices(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	return wink.OK(wink.NoValue{}, "done"), nil
}
