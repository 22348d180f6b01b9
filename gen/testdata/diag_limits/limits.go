// Package limits has a tool whose params nest objects deeper than OpenAI's strict mode allows.
package limits

import "github.com/winkgen/wink/runtime/wink"

// L0 is level 0.
type L0 struct {
	Next L1 `json:"next"`
}

// L1 is level 1.
type L1 struct {
	Next L2 `json:"next"`
}

// L2 is level 2.
type L2 struct {
	Next L3 `json:"next"`
}

// L3 is level 3.
type L3 struct {
	Next L4 `json:"next"`
}

// L4 is level 4.
type L4 struct {
	Next L5 `json:"next"`
}

// L5 is level 5.
type L5 struct {
	Next L6 `json:"next"`
}

// L6 is level 6.
type L6 struct {
	Next L7 `json:"next"`
}

// L7 is level 7.
type L7 struct {
	Next L8 `json:"next"`
}

// L8 is level 8.
type L8 struct {
	Next L9 `json:"next"`
}

// L9 is level 9.
type L9 struct {
	Next L10 `json:"next"`
}

// L10 is level 10.
type L10 struct {
	Next L11 `json:"next"`
}

// L11 is level 11.
type L11 struct {
	Leaf string `json:"leaf"`
}

// DeepParams are the arguments of deep.
type DeepParams struct {
	Top L0 `json:"top"`
}

// Deep takes nested params.
//
//wink:tool
func Deep(tc *wink.ToolContext, p DeepParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}

// A1 to A5 nest five slices of structs: OpenAI's validator counts the array and its items as a level each,
// so the leaf is 11 levels deep though only six objects nest.
type A1 struct {
	Items []A2 `json:"items"`
}

// A2 is a level.
type A2 struct {
	Items []A3 `json:"items"`
}

// A3 is a level.
type A3 struct {
	Items []A4 `json:"items"`
}

// A4 is a level.
type A4 struct {
	Items []A5 `json:"items"`
}

// A5 is the last level.
type A5 struct {
	Leaf string `json:"leaf"`
}

// ListsParams are the arguments of lists.
type ListsParams struct {
	Items []A1 `json:"items"`
}

// Lists takes five nested lists.
//
//wink:tool
func Lists(tc *wink.ToolContext, p ListsParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}

// M1 to M3 nest three maps of structs: a map is sent as key/value pairs, three levels each (the property's
// array, its items, the pair's "value"), so the leaf is 10 levels deep, and the fourth map in M0 makes it
// 13.
type M1 struct {
	Pairs map[string]M2 `json:"pairs"`
}

// M2 is a level.
type M2 struct {
	Pairs map[string]M3 `json:"pairs"`
}

// M3 is the last level.
type M3 struct {
	Leaf string `json:"leaf"`
}

// FitsParams are the arguments of fits: three maps, at OpenAI's limit.
type FitsParams struct {
	Pairs map[string]M1 `json:"pairs"`
}

// Fits takes three nested maps, the most OpenAI's validator takes.
//
//wink:tool
func Fits(tc *wink.ToolContext, p FitsParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}

// M0 adds a fourth map.
type M0 struct {
	Pairs map[string]M1 `json:"pairs"`
}

// MapsParams are the arguments of maps: four maps, past OpenAI's limit.
type MapsParams struct {
	Pairs map[string]M0 `json:"pairs"`
}

// Maps takes four nested maps.
//
//wink:tool
func Maps(tc *wink.ToolContext, p MapsParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}
