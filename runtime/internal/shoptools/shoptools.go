// Package shoptools is a support desk's tools, most of them deferred (//wink:tool defer): the tests and
// benchmarks of tool search use it as a realistic registry of twenty tools.
package shoptools

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import "github.com/winkgen/wink/runtime/wink"

// Answer is what every tool of the package returns.
type Answer struct {
	// Tool names the tool that answered.
	Tool string `json:"tool"`
	// Detail says what it did.
	Detail string `json:"detail"`
}

// CustomerRef is the arguments of some tools.
type CustomerRef struct {
	// The customer's id.
	CustomerID string `json:"customer_id"`
}

// Email is the arguments of some tools.
type Email struct {
	// The recipient's address.
	To string `json:"to"`
	// The subject line.
	Subject string `json:"subject"`
	// The message text.
	Body string `json:"body"`
}

// Refund is the arguments of some tools.
type Refund struct {
	// The order to refund.
	OrderID string `json:"order_id"`
	// How much to refund, in cents.
	AmountCents int64 `json:"amount_cents"`
}

// City is the arguments of some tools.
type City struct {
	// The city's name.
	City string `json:"city"`
	// How many days ahead.
	Days int `json:"days"`
}

// Ticket is the arguments of some tools.
type Ticket struct {
	// The customer's id.
	CustomerID string `json:"customer_id"`
	// A one-line summary.
	Title string `json:"title"`
	// What went wrong.
	Body string `json:"body"`
}

// TicketRef is the arguments of some tools.
type TicketRef struct {
	// The ticket's id.
	TicketID string `json:"ticket_id"`
}

// Note is the arguments of some tools.
type Note struct {
	// The ticket's id.
	TicketID string `json:"ticket_id"`
	// The note.
	Text string `json:"text"`
}

// OrderRef is the arguments of some tools.
type OrderRef struct {
	// The order's id.
	OrderID string `json:"order_id"`
}

// Address is the arguments of some tools.
type Address struct {
	// The order's id.
	OrderID string `json:"order_id"`
	// Street and number.
	Street string `json:"street"`
	// The city.
	City string `json:"city"`
	// The postal code.
	Postcode string `json:"postcode"`
}

// Coupon is the arguments of some tools.
type Coupon struct {
	// The order's id.
	OrderID string `json:"order_id"`
	// The coupon code.
	Code string `json:"code"`
}

// Product is the arguments of some tools.
type Product struct {
	// The product's stock keeping unit.
	SKU string `json:"sku"`
}

// Currency is the arguments of some tools.
type Currency struct {
	// The amount to convert.
	Amount float64 `json:"amount"`
	// ISO 4217 code of the amount's currency.
	From string `json:"from"`
	// ISO 4217 code of the wanted currency.
	To string `json:"to"`
}

// Callback is the arguments of some tools.
type Callback struct {
	// The customer's id.
	CustomerID string `json:"customer_id"`
	// The number to call.
	Phone string `json:"phone"`
	// When to call, RFC 3339.
	At string `json:"at"`
}

// Plan is the arguments of some tools.
type Plan struct {
	// The customer's id.
	CustomerID string `json:"customer_id"`
	// The new plan's name.
	Plan string `json:"plan"`
}

// LookupCustomer returns a customer's record: name, email and plan.
//
//wink:tool readonly
func LookupCustomer(tc *wink.ToolContext, p CustomerRef) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "lookup_customer", Detail: "done"}, ""), nil
}

// SearchOrders lists a customer's orders, newest first.
//
//wink:tool readonly
func SearchOrders(tc *wink.ToolContext, p CustomerRef) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "search_orders", Detail: "done"}, ""), nil
}

// SendEmail sends an email message to a customer. It is queued and delivered within minutes.
//
//wink:tool defer
func SendEmail(tc *wink.ToolContext, p Email) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "send_email", Detail: "done"}, ""), nil
}

// RefundOrder refunds an order's payment, in full or in part.
//
//wink:tool defer
func RefundOrder(tc *wink.ToolContext, p Refund) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "refund_order", Detail: "done"}, ""), nil
}

// ListInvoices lists the invoices of a customer's account.
//
//wink:tool readonly defer
func ListInvoices(tc *wink.ToolContext, p CustomerRef) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "list_invoices", Detail: "done"}, ""), nil
}

// GetWeather returns the weather forecast for a city.
//
//wink:tool readonly defer
func GetWeather(tc *wink.ToolContext, p City) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "get_weather", Detail: "done"}, ""), nil
}

// CreateTicket opens a support ticket for a customer's problem.
//
//wink:tool defer
func CreateTicket(tc *wink.ToolContext, p Ticket) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "create_ticket", Detail: "done"}, ""), nil
}

// CloseTicket closes a support ticket once the problem is solved.
//
//wink:tool defer
func CloseTicket(tc *wink.ToolContext, p TicketRef) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "close_ticket", Detail: "done"}, ""), nil
}

// AddNote adds an internal note to a support ticket.
//
//wink:tool defer
func AddNote(tc *wink.ToolContext, p Note) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "add_note", Detail: "done"}, ""), nil
}

// ShipmentStatus tracks the shipment of an order: carrier, position and expected delivery date.
//
//wink:tool readonly defer
func ShipmentStatus(tc *wink.ToolContext, p OrderRef) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "shipment_status", Detail: "done"}, ""), nil
}

// CancelOrder cancels an order that has not shipped yet.
//
//wink:tool defer
func CancelOrder(tc *wink.ToolContext, p OrderRef) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "cancel_order", Detail: "done"}, ""), nil
}

// ChangeAddress changes the delivery address of an order that has not shipped yet.
//
//wink:tool defer
func ChangeAddress(tc *wink.ToolContext, p Address) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "change_address", Detail: "done"}, ""), nil
}

// ApplyCoupon applies a discount coupon code to an order.
//
//wink:tool defer
func ApplyCoupon(tc *wink.ToolContext, p Coupon) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "apply_coupon", Detail: "done"}, ""), nil
}

// CheckStock checks how many units of a product are in stock, per warehouse.
//
//wink:tool readonly defer
func CheckStock(tc *wink.ToolContext, p Product) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "check_stock", Detail: "done"}, ""), nil
}

// ProductDetails returns a product's description, price and dimensions.
//
//wink:tool readonly defer
func ProductDetails(tc *wink.ToolContext, p Product) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "product_details", Detail: "done"}, ""), nil
}

// ExchangeRate converts an amount between two currencies at today's rate.
//
//wink:tool readonly defer
func ExchangeRate(tc *wink.ToolContext, p Currency) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "exchange_rate", Detail: "done"}, ""), nil
}

// ScheduleCallback schedules a phone callback from a support agent at a given time.
//
//wink:tool defer
func ScheduleCallback(tc *wink.ToolContext, p Callback) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "schedule_callback", Detail: "done"}, ""), nil
}

// ResetPassword sends a customer a link to reset the account password.
//
//wink:tool defer
func ResetPassword(tc *wink.ToolContext, p CustomerRef) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "reset_password", Detail: "done"}, ""), nil
}

// UpdatePlan moves a customer's subscription to another plan.
//
//wink:tool defer
func UpdatePlan(tc *wink.ToolContext, p Plan) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "update_plan", Detail: "done"}, ""), nil
}

// LoyaltyPoints returns a customer's loyalty points balance and their expiry.
//
//wink:tool readonly defer
func LoyaltyPoints(tc *wink.ToolContext, p CustomerRef) (wink.ToolResult[Answer], error) {
	return wink.OK(Answer{Tool: "loyalty_points", Detail: "done"}, ""), nil
}
