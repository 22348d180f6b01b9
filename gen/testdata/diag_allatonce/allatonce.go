// Package diag_allatonce: every problem shows in one run, each saying how to fix it.
package diag_allatonce

import "github.com/winkgen/wink/runtime/wink"

// P has a free-form field and a misspelt tag key.
type P struct {
	// A is anything.
	A any `json:"a"`
	// B has a misspelt key.
	B string `json:"b" wink:"minLenght=3"`
}

// Q is used only by a handler of the wrong shape.
type Q struct {
	// X is a channel.
	X chan int `json:"x"`
}

// R is a result.
type R struct {
	// Ok says whether it worked.
	Ok bool `json:"ok"`
}

// G has a name Gemini refuses.
type G struct {
	// Weird is badly named.
	Weird string `json:"we ird"`
}

// BadName has an invalid name.
//
//wink:tool name=Bad-Name
func BadName(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.OK(R{}, ""), nil }

// First is named dup.
//
//wink:tool name=dup
func First(tc *wink.ToolContext, p R) (wink.ToolResult[R], error) { return wink.OK(R{}, ""), nil }

// Second is named dup too.
//
//wink:tool name=dup
func Second(tc *wink.ToolContext, p R) (wink.ToolResult[R], error) { return wink.OK(R{}, ""), nil }

// WrongShape forgets the tool context.
//
//wink:tool
func WrongShape(p Q) (wink.ToolResult[R], error) { return wink.OK(R{}, ""), nil }

// BadExample has a bad example and params Gemini refuses.
//
//wink:tool
//wink:example desc="Wrong" input={"weird":"x"}
func BadExample(tc *wink.ToolContext, p G) (wink.ToolResult[R], error) { return wink.OK(R{}, ""), nil }
