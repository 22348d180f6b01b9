// Package diagdirectives has directive mistakes.
package diagdirectives

import "github.com/winkgen/wink/runtime/wink"

// P is a params struct.
type P struct {
	A string `json:"a"`
}

// R is a result struct.
type R struct{}

// Unknown uses an unknown verb and key.
//
//wink:tool nmae=x
//wink:tol
func Unknown(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// BadName has an invalid name.
//
//wink:tool name=Bad.Name
func BadName(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// First declares dup.
//
//wink:tool name=dup
func First(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// Second declares dup again.
//
//wink:tool name=dup
func Second(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

//wink:tool
func NoDoc(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// NonASCII describes itself with a café.
//
//wink:tool
func NonASCII(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) {
	return wink.ToolResult[R]{}, nil
}

// Orphan has an example but no tool directive.
//
//wink:example desc="x" input={}
func Orphan(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// OnType is a type with a directive.
//
//wink:tool
type OnType struct{}

// Idem has idempotency mistakes.
//
//wink:tool
//wink:idempotent strategy=params keys=a,zzz ttl=1h
func Idem(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// Custom names a missing key function.
//
//wink:tool
//wink:idempotent strategy=custom func=NoSuchFunc
func Custom(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// Misplaced puts type constraints on a function.
//
//wink:tool
//wink:constraints minLength=1
func Misplaced(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) {
	return wink.ToolResult[R]{}, nil
}

// Name has two constraint directives.
//
//wink:constraints minLength=1
//wink:constraints maxLength=3
type Name string

// Scoped declares scopes that are not OAuth scope-tokens.
//
//wink:tool name=scoped scopes=tickets:read,tickets\write,,tickets:read
func Scoped(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// Tasked names a task support that does not exist.
//
//wink:tool name=tasked task=sometimes
func Tasked(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// Later defers with a value that is not a boolean.
//
//wink:tool name=later defer=later
func Later(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// Limited declares rates that make no sense.
//
//wink:tool name=limited rate=0/fortnight burst=0
func Limited(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// Bursty declares a burst without a rate.
//
//wink:tool name=bursty burst=5
func Bursty(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// Flood declares more than a million calls a second.
//
//wink:tool name=flood rate=5000/ms
func Flood(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }

// Callers names a caller that does not exist.
//
//wink:tool name=callers callers=model
func Callers(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }
