// Package idempotent declares tools with each idempotency strategy.
package idempotent

import (
	"strings"

	"github.com/winkgen/wink/runtime/wink"
)

// PayParams describe a payment.
type PayParams struct {
	Account string `json:"account"`
	Amount  int64  `json:"amount"`
	Memo    string `json:"memo,omitempty"`
}

// Receipt confirms a payment.
type Receipt struct {
	ID string `json:"id"`
}

// Pay moves money once per account and amount.
//
//wink:tool
//wink:idempotent strategy=params keys=account,amount ttl=24h
func Pay(tc *wink.ToolContext, p PayParams) (wink.ToolResult[Receipt], error) {
	return wink.OK(Receipt{ID: "r1"}, "paid"), nil
}

// Refund is idempotent on all its arguments.
//
//wink:tool
//wink:idempotent
func Refund(tc *wink.ToolContext, p PayParams) (wink.ToolResult[Receipt], error) {
	return wink.OK(Receipt{ID: "r2"}, "refunded"), nil
}

// PayKey derives the idempotency key from the memo.
func PayKey(p PayParams) string { return strings.ToLower(p.Memo) }

// Transfer uses a custom key, globally scoped.
//
//wink:tool
//wink:idempotent strategy=custom func=PayKey scope=global ttl=90s
func Transfer(tc *wink.ToolContext, p PayParams) (wink.ToolResult[Receipt], error) {
	return wink.OK(Receipt{ID: "r3"}, "transferred"), nil
}
