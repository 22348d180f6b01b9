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
