// Package approvaltest holds the tools the loop's approval-binding tests hold for a person: pay, with a
// free-form memo, and the destructive wipe.
package approvaltest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"sync/atomic"

	"github.com/winkgen/wink/runtime/wink"
)

// Runs counts the handler runs of Pay and Wipe.
var Runs struct {
	Pay, Wipe atomic.Int32
}

// PayParams are the arguments of pay.
type PayParams struct {
	// To is the payee.
	To string `json:"to"`
	// Cents is the amount.
	Cents int `json:"cents"`
	// Memo is free-form data sent with the payment.
	Memo wink.RawJSON `json:"memo,omitempty"`
}

// Pay pays someone (held for approval in the tests).
//
//wink:tool
func Pay(tc *wink.ToolContext, p PayParams) (wink.ToolResult[wink.NoValue], error) {
	Runs.Pay.Add(1)
	return wink.Done[wink.NoValue]("paid " + p.To), nil
}

// WipeParams are the arguments of wipe.
type WipeParams struct {
	// Path is removed, with everything under it.
	Path string `json:"path"`
}

// Wipe removes everything under a path (destructive; held for approval in the tests).
//
//wink:tool
func Wipe(tc *wink.ToolContext, p WipeParams) (wink.ToolResult[wink.NoValue], error) {
	Runs.Wipe.Add(1)
	return wink.Done[wink.NoValue]("wiped " + p.Path), nil
}
