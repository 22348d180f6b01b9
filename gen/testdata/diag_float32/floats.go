// Package diagfloat32 has bounds and defaults a float32 field cannot keep.
package diagfloat32

import "github.com/winkgen/wink/runtime/wink"

// P has float32 fields.
type P struct {
	NotFloat32Max float32  `json:"a" wink:"max=0.099999999"`
	NotFloat32Min float32  `json:"b" wink:"min=0.100000001"`
	ExclMax       float32  `json:"c" wink:"exclusiveMax=0.1"`
	ExclMin       float32  `json:"d" wink:"exclusiveMin=1"`
	Default       *float32 `json:"e" wink:"default=0.30000001"`
	// These are fine: bounds are float32 texts, a default at a bound, a bound beyond the type's range.
	AtBound *float32 `json:"f" wink:"min=0.1,max=0.5,default=0.1"`
	Huge    float32  `json:"g" wink:"max=1e39"`
	F64     float64  `json:"h" wink:"exclusiveMax=0.1"`
}

// Do is a tool.
//
//wink:tool
func Do(tc *wink.ToolContext, p P) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}
