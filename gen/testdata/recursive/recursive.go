// Package recursive declares tools over self- and mutually recursive types.
package recursive

import "github.com/winkgen/wink/runtime/wink"

// Tree is self-recursive.
type Tree struct {
	Label    string `json:"label"`
	Children []Tree `json:"children,omitempty"`
	Parent   *Tree  `json:"parent,omitempty"`
}

// Expr and Call are mutually recursive.
type Expr struct {
	Lit  *float64 `json:"lit,omitempty"`
	Call *Call    `json:"call,omitempty"`
}

// Call applies a function.
type Call struct {
	Fn   string `json:"fn" wink:"enum=add|mul"`
	Args []Expr `json:"args" wink:"minItems=1"`
}

// EvalParams wraps an expression.
type EvalParams struct {
	Expr Expr `json:"expr"`
	Tree Tree `json:"tree"`
}

// Value is a number.
type Value struct {
	V float64 `json:"v"`
}

// Eval evaluates an expression tree.
//
//wink:tool
//wink:example desc="Add" input={"expr":{"call":{"fn":"add","args":[{"lit":1},{"lit":2}]}},"tree":{"label":"r","children":[{"label":"c"}]}} output={"v":3}
func Eval(tc *wink.ToolContext, p EvalParams) (wink.ToolResult[Value], error) {
	return wink.OK(Value{V: 3}, "done"), nil
}

// Walk takes a tree as its root params type.
//
//wink:tool
func Walk(tc *wink.ToolContext, p Tree) (wink.ToolResult[Tree], error) {
	return wink.OK(p, "walked"), nil
}

// Dir is recursive through a required map: every level gives its entries, possibly none.
type Dir struct {
	Name    string         `json:"name"`
	Entries map[string]Dir `json:"entries"`
}

// List lists a directory tree.
//
//wink:tool
func List(tc *wink.ToolContext, p Dir) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("listed"), nil
}
