// Package callertools holds the tools the tests of who may call what (//wink:tool callers=) and of
// output schemas use with the real loop, providers, durable engines and MCP server: lookup (direct calls
// and programs), audit (programs only), refund (direct calls only), pay (both; the tests hold it for a
// person's approval), each counting its runs where it matters, and three results
// the model reads differently: price (the value alone), quote (a message and the value) and label (a
// value with a Render method).
package callertools

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"strconv"
	"sync/atomic"

	"github.com/winkgen/wink/runtime/wink"
)

// Refunds, Lookups and Payments count the runs of refund, lookup and pay.
var Refunds, Lookups, Payments atomic.Int64

// ID names an order.
type ID struct {
	// ID is the order's id.
	ID int `json:"id" wink:"min=1"`
}

// Order is what lookup and audit return.
type Order struct {
	// ID is the order's id.
	ID int `json:"id"`
	// Total is the order's total in cents.
	Total int `json:"total"`
}

// Lookup reads an order.
//
//wink:tool readonly
func Lookup(tc *wink.ToolContext, p ID) (wink.ToolResult[Order], error) {
	Lookups.Add(1)
	return wink.OK(Order{ID: p.ID, Total: 100 * p.ID}, ""), nil
}

// Audit reads an order's audit trail; only programs call it.
//
//wink:tool callers=program readonly
func Audit(tc *wink.ToolContext, p ID) (wink.ToolResult[Order], error) {
	return wink.OK(Order{ID: p.ID, Total: 0}, ""), nil
}

// Refund refunds an order; only the model's direct calls may.
//
//wink:tool callers=direct
func Refund(tc *wink.ToolContext, p ID) (wink.ToolResult[Order], error) {
	Refunds.Add(1)
	return wink.OK(Order{ID: p.ID}, "Refunded."), nil
}

// Pay pays an order; direct calls and programs may (the tests hold it for a person's approval).
//
//wink:tool callers=both
func Pay(tc *wink.ToolContext, p ID) (wink.ToolResult[Order], error) {
	Payments.Add(1)
	return wink.OK(Order{ID: p.ID, Total: 100 * p.ID}, "Paid."), nil
}

// Price is a price in cents.
type Price struct {
	// Cents is the price.
	Cents int `json:"cents"`
	// Currency is the price's currency.
	Currency string `json:"currency"`
}

// PriceOf returns an order's price: the value alone.
//
//wink:tool name=price readonly
func PriceOf(tc *wink.ToolContext, p ID) (wink.ToolResult[Price], error) {
	return wink.OK(Price{Cents: 100 * p.ID, Currency: "EUR"}, ""), nil
}

// Quote returns an order's price with a message.
//
//wink:tool readonly
func Quote(tc *wink.ToolContext, p ID) (wink.ToolResult[Price], error) {
	return wink.OK(Price{Cents: 100 * p.ID, Currency: "EUR"}, "Prices include VAT."), nil
}

// Label is a price the model reads as text (it has a Render method).
type Label struct {
	// Cents is the price.
	Cents int `json:"cents"`
}

// Render writes the label as the model reads it.
func (l Label) Render() string { return "price: " + strconv.Itoa(l.Cents) + " cents" }

// LabelOf returns an order's price label.
//
//wink:tool name=label readonly
func LabelOf(tc *wink.ToolContext, p ID) (wink.ToolResult[Label], error) {
	return wink.OK(Label{Cents: 100 * p.ID}, ""), nil
}
