package wink

import "github.com/winkgen/wink/runtime/strictjson"

// ToolResult is what a handler returns: a message for the model, an optional
// typed value and whether the call succeeded.
//
// Build it with OK, Done or Failure rather than by hand so that HasValue and
// Success agree with the intent.
type ToolResult[R any] struct {
	// Message is the text forwarded to the model. It comes first in the
	// rendered output.
	Message string
	// Value is the typed payload; it is meaningful only when HasValue is set.
	Value R
	// HasValue reports whether Value carries a payload. A result without a
	// value renders as its message alone.
	HasValue bool
	// Success separates normal results from failures. A failure rolls back
	// the call's effects.
	Success bool
	// ExcludeValueFromContext keeps Value out of the model's context (the
	// output is the message alone) and out of ToolInvoked.Value, while the
	// handler's effects stand. It is not a security boundary.
	ExcludeValueFromContext bool
	// Content holds blocks shown after the text on success: images, audio,
	// resources (see Content and WithContent).
	Content Blocks
}

// OK returns a successful result carrying value and message.
func OK[R any](value R, message string) ToolResult[R] {
	return ToolResult[R]{Message: message, Value: value, HasValue: true, Success: true}
}

// Done returns a successful result without a value: the model sees message
// alone.
func Done[R any](message string) ToolResult[R] {
	return ToolResult[R]{Message: message, Success: true}
}

// Failure returns a failed result; the model sees message verbatim and the
// call's effects are rolled back.
func Failure[R any](message string) ToolResult[R] {
	return ToolResult[R]{Message: message}
}

// WithoutValueInContext returns a copy of r whose value is kept out of the
// model's context (see ToolResult.ExcludeValueFromContext):
//
//	return wink.WithoutValueInContext(wink.OK(outline, "The outline has 12 entries.")), nil
//
// It is a function rather than a method because every method of a generic
// type is compiled for every result type, used or not.
func WithoutValueInContext[R any](r ToolResult[R]) ToolResult[R] {
	r.ExcludeValueFromContext = true
	return r
}

// NoValue is the result type of tools that return no value. Its JSON encoding
// is null, and the dispatcher never renders it: a result of type NoValue
// always shows as its message alone, even when HasValue is set.
type NoValue struct{}

// NoParams is the parameter type generated code uses for parameterless
// handlers. Its arguments are `{}`, `null` or an empty string.
type NoParams struct{}

// DecodeNoParams is the decoder of NoParams: it accepts `{}` (whitespace
// allowed), `null` and an empty or whitespace-only input, and reports every
// key as an error (see strictjson.DecodeEmpty).
func DecodeNoParams(d *strictjson.Decoder, _ *NoParams) {
	strictjson.DecodeEmpty(d)
}

// EncodeNoParams appends the JSON encoding of NoParams, `{}`, to dst.
func EncodeNoParams(dst []byte, _ *NoParams) []byte {
	return append(dst, '{', '}')
}

// EncodeNoValue appends the JSON encoding of NoValue, `null`, to dst.
func EncodeNoValue(dst []byte, _ *NoValue) []byte {
	return append(dst, "null"...)
}
