// Package methods uses Validate and Render methods, overrides and a description that drops the function
// name.
package methods

import (
	"errors"

	"github.com/winkgen/wink/runtime/wink"
)

// Range is validated across fields.
type Range struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// Validate requires From <= To.
func (r *Range) Validate() error {
	if r.From > r.To {
		return errors.New("from must be <= to")
	}
	return nil
}

// Span is the result; it renders itself and validates itself.
type Span struct {
	Len int `json:"len"`
}

// Render writes the span for the model.
func (s Span) Render() string { return "span" }

// Validate checks the result.
func (s Span) Validate() error { return nil }

// Measure   measures   a range
// across lines.
//
//wink:tool overrides=true
func Measure(tc *wink.ToolContext, r Range) (wink.ToolResult[Span], error) {
	return wink.OK(Span{Len: r.To - r.From}, "measured"), nil
}
