// Package diagexamples has examples that do not match their types.
package diagexamples

import "github.com/winkgen/wink/runtime/wink"

// Mode is an enum.
type Mode string

// Modes.
const (
	Fast Mode = "fast"
	Slow Mode = "slow"
)

// P is a params struct.
type P struct {
	Query string `json:"query" wink:"minLength=2"`
	Limit int    `json:"limit" wink:"max=10"`
	Mode  Mode   `json:"mode"`
}

// R is a result struct.
type R struct {
	Total int `json:"total"`
}

// Search searches.
//
//wink:tool
//wink:example desc="Bad input" input={"query":"a","limit":"5","mode":"medium","extra":1} output={"total":1}
//wink:example desc="Bad output" input={"query":"ab","limit":5,"mode":"fast"} output={"total":1.5}
//wink:example desc="Bad JSON" input={"query":
func Search(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) { return wink.ToolResult[R]{}, nil }
