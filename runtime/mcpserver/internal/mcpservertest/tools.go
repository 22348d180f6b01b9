// Package mcpservertest holds the tools the mcpserver tests serve besides the example agent's: one that
// panics, one that echoes, one that succeeds without a value although its result type has one, and one
// whose failure carries a value; count reports progress, wait waits for its cancellation, linger closes its
// SSE stream and answers later; words, measure
// and lookup return an array, a number and a nullable object (results.go).
package mcpservertest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"strconv"
	"strings"
	"time"

	"github.com/winkgen/wink/runtime/mcpserver"
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

// CountParams are the arguments of count.
type CountParams struct {
	// To is the number to count to.
	To int `json:"to" wink:"min=1,max=100"`
}

// Count counts to a number, reporting its progress at each step.
//
//wink:tool readonly
func Count(tc *wink.ToolContext, p CountParams) (wink.ToolResult[wink.NoValue], error) {
	for i := 1; i <= p.To; i++ {
		tc.Progress(float64(i), float64(p.To), "counted "+strconv.Itoa(i))
	}
	return wink.Done[wink.NoValue]("Counted to " + strconv.Itoa(p.To) + "."), nil
}

// Waits records the calls of wait that saw their context cancelled.
var Waits = make(chan error, 16)

// Wait waits until its call is cancelled, then reports the context's error on Waits.
//
//wink:tool readonly
func Wait(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	<-tc.Done()
	Waits <- tc.Err()
	return wink.ToolResult[wink.NoValue]{}, tc.Err()
}

// LingerParams are the arguments of linger.
type LingerParams struct {
	// Ms is how long the call goes on after closing its stream, in milliseconds.
	Ms int `json:"ms" wink:"min=0,max=10000"`
}

// Linger closes the SSE stream of its call when the client can resume it (asking the client to reconnect
// after 10 ms), then answers after ms milliseconds, saying whether it closed the stream.
//
//wink:tool readonly
func Linger(tc *wink.ToolContext, p LingerParams) (wink.ToolResult[string], error) {
	closed := mcpserver.CloseSSEStream(tc, 10*time.Millisecond)
	time.Sleep(time.Duration(p.Ms) * time.Millisecond)
	return wink.OK("closed="+strconv.FormatBool(closed), "Lingered."), nil
}
