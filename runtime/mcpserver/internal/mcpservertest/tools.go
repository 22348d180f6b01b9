// Package mcpservertest holds the tools the mcpserver tests serve besides the example agent's: one that
// panics, one that echoes, one that succeeds without a value although its result type has one, and one
// whose failure carries a value.
package mcpservertest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"strings"

	"github.com/winkgen/wink/runtime/wink"
)

// EchoParams are the arguments of echo.
type EchoParams struct {
	// Text is repeated back.
	Text string `json:"text" wink:"maxLength=100"`
}

// Echoed is what echo returns.
type Echoed struct {
	// Text is the text received.
	Text string `json:"text"`
	// Length is the text's length in bytes.
	Length int `json:"length"`
}

// Echo repeats its text back.
//
//wink:tool readonly title="Echo the text" destructive=false openworld=false
func Echo(tc *wink.ToolContext, p EchoParams) (wink.ToolResult[Echoed], error) {
	return wink.OK(Echoed{Text: p.Text, Length: len(p.Text)}, "Echoed."), nil
}

// ExplodeParams are the arguments of explode.
type ExplodeParams struct {
	// Reason is the panic value.
	Reason string `json:"reason"`
}

// Explode panics with the reason it is given.
//
//wink:tool
func Explode(tc *wink.ToolContext, p ExplodeParams) (wink.ToolResult[wink.NoValue], error) {
	panic("boom: " + p.Reason)
}

// Quiet succeeds without a value although its result type has one.
//
//wink:tool
func Quiet(tc *wink.ToolContext) (wink.ToolResult[Echoed], error) {
	return wink.Done[Echoed]("Nothing to report."), nil
}

// Reject fails with a value for the model to read.
//
//wink:tool
func Reject(tc *wink.ToolContext, p EchoParams) (wink.ToolResult[Echoed], error) {
	r := wink.Failure[Echoed]("Rejected " + strings.ToUpper(p.Text) + ".")
	r.Value, r.HasValue = Echoed{Text: p.Text, Length: len(p.Text)}, true
	return r, nil
}
