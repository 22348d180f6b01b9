// Package diagreserved declares an identifier winkgen reserves.
package diagreserved

import "github.com/winkgen/wink/runtime/wink"

// P is a params struct.
type P struct {
	A string `json:"a"`
}

// R is a result struct.
type R struct{}

// WinkTools clashes with the generated registry function.
func WinkTools() {}

// Do does.
//
//wink:tool
func Do(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }
