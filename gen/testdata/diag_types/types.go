// Package diagtypes has unsupported field types.
package diagtypes

import "github.com/winkgen/wink/runtime/wink"

// Inner nests a bad field.
type Inner struct {
	Fn func() `json:"fn"`
}

// P has bad fields.
type P struct {
	Ch    chan int       `json:"ch"`
	Any   interface{}    `json:"any"`
	C     complex128     `json:"c"`
	ByInt map[int]string `json:"by_int"`
	In    Inner          `json:"in"`
	PP    **int          `json:"pp"`
	S     string         `json:"s,string"`
	Dup1  string         `json:"same"`
	Dup2  string         `json:"same"`
	Loop  List           `json:"loop"`
	Anon  map[string]struct {
		X int `json:"x"`
	} `json:"anon"`
}

// List is recursive without a struct.
type List []List

// R is a result struct.
type R struct {
	E error `json:"e"`
}

// Bad takes bad types.
//
//wink:tool
func Bad(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }
