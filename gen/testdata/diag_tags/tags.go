// Package diagtags has constraint mistakes.
package diagtags

import "github.com/winkgen/wink/runtime/wink"

// Mode is an enum.
type Mode string

// Modes.
const (
	ModeA Mode = "a"
	ModeB Mode = "b"
)

// P has bad tags.
type P struct {
	A string  `json:"a" wink:"min=1"`
	B int     `json:"b" wink:"pattern='x'"`
	C string  `json:"c" wink:"pattern='(unclosed'"`
	D int     `json:"d" wink:"min=10,max=5"`
	E int     `json:"e" wink:"max=5,default=9"`
	F string  `json:"f" wink:"format=color"`
	G Mode    `json:"g" wink:"enum=a|z"`
	H int8    `json:"h" wink:"max=1000"`
	I int     `json:"i" wink:"min=1.5"`
	J string  `json:"j" wink:"minItems=1"`
	K []P     `json:"k" wink:"uniqueItems"`
	L string  `json:"l" wink:"minLenght=2"`
	M float64 `json:"m" wink:"multipleOf=0"`
	N string  `json:"n" wink:"patternDesc='a name'"`
	O float64 `json:"o" wink:"enum=1|1.0"`
	Q float64 `json:"q" wink:"enum=0.5|x"`
	S float64 `json:"s" wink:"enum=0.5|1,default=2"`
	T bool    `json:"t" wink:"enum=true"`
}

// R is a result struct.
type R struct{}

// Tags has bad tags.
//
//wink:tool
func Tags(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }
