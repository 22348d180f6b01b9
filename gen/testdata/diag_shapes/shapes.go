// Package diagshapes has handlers of every wrong shape.
package diagshapes

import (
	"context"

	"github.com/winkgen/wink/runtime/wink"
)

// P is a params struct.
type P struct {
	A string `json:"a"`
}

// R is a result struct.
type R struct{}

// S is a receiver.
type S struct{}

// Method is a method.
//
//wink:tool
func (S) Method(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) {
	return wink.ToolResult[R]{}, nil
}

// NoContext takes a context.Context.
//
//wink:tool
func NoContext(ctx context.Context, p P) (wink.ToolResult[R], error) {
	return wink.ToolResult[R]{}, nil
}

// NotStruct takes a string.
//
//wink:tool
func NotStruct(tc *wink.ToolContext, s string) (wink.ToolResult[R], error) {
	return wink.ToolResult[R]{}, nil
}

// OneResult returns only the result.
//
//wink:tool
func OneResult(tc *wink.ToolContext, p P) wink.ToolResult[R] { return wink.ToolResult[R]{} }

// BadResult returns a channel, which has no JSON form.
//
//wink:tool
func BadResult(tc *wink.ToolContext, p P) (wink.ToolResult[chan int], error) {
	return wink.ToolResult[chan int]{}, nil
}

// TooMany has three parameters.
//
//wink:tool
func TooMany(tc *wink.ToolContext, p P, q P) (wink.ToolResult[R], error) {
	return wink.ToolResult[R]{}, nil
}

// Generic is generic.
//
//wink:tool
func Generic[T any](tc *wink.ToolContext, p P) (wink.ToolResult[R], error) {
	return wink.ToolResult[R]{}, nil
}
