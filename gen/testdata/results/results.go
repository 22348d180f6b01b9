// Package results declares tools whose results are not named structs: MCP 2026-07-28 lets a tool's
// outputSchema be any JSON Schema, and winkgen encodes any type it can describe.
package results

import "github.com/winkgen/wink/runtime/wink"

// Query names what to look up.
type Query struct {
	Prefix string `json:"prefix"`
}

// Item is one entry.
type Item struct {
	Name string `json:"name"`
	Size int    `json:"size" wink:"min=0"`
}

// Tags are labels.
type Tags []string

// Level is a severity.
type Level string

// The levels.
const (
	Low  Level = "low"
	High Level = "high"
)

// ListItems returns the matching items as an array.
//
//wink:tool
//wink:example desc="Two items" input={"prefix":"a"} output=[{"name":"a1","size":1},{"name":"a2","size":2}]
func ListItems(tc *wink.ToolContext, p Query) (wink.ToolResult[[]Item], error) {
	return wink.OK([]Item{{Name: p.Prefix + "1", Size: 1}}, "Found."), nil
}

// CountItems returns how many items match.
//
//wink:tool
//wink:example desc="None" input={"prefix":"zz"} output=0
func CountItems(tc *wink.ToolContext, p Query) (wink.ToolResult[int], error) {
	return wink.OK(len(p.Prefix), "Counted."), nil
}

// Greet returns a greeting.
//
//wink:tool
func Greet(tc *wink.ToolContext, p Query) (wink.ToolResult[string], error) {
	return wink.OK("hello "+p.Prefix, "Greeted."), nil
}

// Sizes maps names to sizes.
//
//wink:tool
func Sizes(tc *wink.ToolContext, p Query) (wink.ToolResult[map[string]int], error) {
	return wink.OK(map[string]int{p.Prefix: 1}, "Sized."), nil
}

// FindItem returns the first match, or null.
//
//wink:tool
func FindItem(tc *wink.ToolContext, p Query) (wink.ToolResult[*Item], error) {
	return wink.OK[*Item](nil, "Not found."), nil
}

// Labels returns the prefix's labels.
//
//wink:tool
func Labels(tc *wink.ToolContext, p Query) (wink.ToolResult[Tags], error) {
	return wink.OK(Tags{"x"}, "Labelled."), nil
}

// MoreLabels returns more labels, sharing Labels' encoder-free result type.
//
//wink:tool
func MoreLabels(tc *wink.ToolContext, p Query) (wink.ToolResult[Tags], error) {
	return wink.OK(Tags{"y", "z"}, "Labelled."), nil
}

// Severity rates the prefix.
//
//wink:tool
func Severity(tc *wink.ToolContext, p Query) (wink.ToolResult[Level], error) {
	return wink.OK(High, "Rated."), nil
}
