// Package shadow declares identifiers the generated code cannot work around: a package-level len and
// string shadow Go's predeclared ones, and a type named like a local variable of the generated decoder.
package shadow

import "github.com/winkgen/wink/runtime/wink"

type string = []rune

func len(x any) int { return 0 }

// s is a string type.
type s = int8

// Params are the arguments of shadow.
type Params struct {
	Name s `json:"name"`
	N    n `json:"n"`
}

type n uint8

// Shadow shadows.
//
//wink:tool
func Shadow(tc *wink.ToolContext, p Params) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}
