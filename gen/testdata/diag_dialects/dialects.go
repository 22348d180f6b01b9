// Package diagdialects has problems found in one run: a property name Gemini refuses, a duplicate tool
// name beside a tool with a bad tag.
package diagdialects

import "github.com/winkgen/wink/runtime/wink"

// P has a field named "-" (json:"-,") and one named with a dash.
type P struct {
	Dash   string `json:"-,"`
	DryRun bool   `json:"dry-run,omitempty"`
	Inner  Inner  `json:"inner"`
}

// Inner is nested.
type Inner struct {
	// Dotted is a name Gemini refuses too.
	Dotted string `json:"a.b"`
}

// Q has a bad tag.
type Q struct {
	N string `json:"n" wink:"min=1"`
}

// First is a tool.
//
//wink:tool name=same
func First(tc *wink.ToolContext, p P) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("done"), nil
}

// Second has the same name and a params type with a bad tag: both are reported in the same run.
//
//wink:tool name=same
func Second(tc *wink.ToolContext, q Q) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("done"), nil
}

// Third's name starts with a digit, which Gemini refuses as a function name.
//
//wink:tool name=2fa_check
func Third(tc *wink.ToolContext, q P) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("done"), nil
}
