// Package diagpatterns has patterns that are not complete expressions on their own, or that mean
// different things in RE2 (the decoder) and ECMA-262 (JSON Schema consumers).
package diagpatterns

import "github.com/winkgen/wink/runtime/wink"

// P has one bad pattern per field.
type P struct {
	Unbalanced   string `json:"unbalanced" wink:"pattern='a)|(b'"`
	Space        string `json:"space" wink:"pattern='a\\sb'"`
	Dot          string `json:"dot" wink:"pattern='a.c'"`
	Boundary     string `json:"boundary" wink:"pattern='\\bword'"`
	Flags        string `json:"flags" wink:"pattern='(?i)abc'"`
	Named        string `json:"named" wink:"pattern='(?P<x>a)'"`
	Posix        string `json:"posix" wink:"pattern='[[:alpha:]]+'"`
	Unicode      string `json:"unicode" wink:"pattern='\\pL+'"`
	LiteralBrace string `json:"literal_brace" wink:"pattern='a{'"`
	OddEscape    string `json:"odd_escape" wink:"pattern='a\\:b'"`
	BraceHex     string `json:"brace_hex" wink:"pattern='\\x{41}'"`
	Octal        string `json:"octal" wink:"pattern='\\101'"`
	// These are portable and accepted.
	Good1 string `json:"good1" wink:"pattern='^[a-z]+(?:-[a-z0-9]+)*$'"`
	Good2 string `json:"good2" wink:"pattern='[A-Z]{2,5}-\\d+|\\w*\\.\\x41[\\-\\]]'"`
}

// Do is a tool.
//
//wink:tool
func Do(tc *wink.ToolContext, p P) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}
