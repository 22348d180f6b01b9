// Package jsontypes uses types whose JSON winkgen does not model: byte slices and types with their own
// JSON or text methods. Each is a positioned diagnostic.
package jsontypes

import (
	"encoding/json"
	"net/netip"

	"github.com/winkgen/wink/runtime/wink"
)

// Celsius marshals itself.
type Celsius float64

// MarshalJSON writes c with a unit.
func (c Celsius) MarshalJSON() ([]byte, error) { return []byte(`"0C"`), nil }

// Code reads itself from text.
type Code string

// UnmarshalText reads a code.
func (c *Code) UnmarshalText(b []byte) error { *c = Code(b); return nil }

// Blob is a named byte slice.
type Blob []byte

// Params are the arguments of store.
type Params struct {
	Data   []byte          `json:"data"`
	Blob   Blob            `json:"blob"`
	Temp   Celsius         `json:"temp"`
	Code   Code            `json:"code"`
	Addr   netip.Addr      `json:"addr"`
	Raw    json.RawMessage `json:"raw"`
	Fixed  [4]byte         `json:"fixed"`
	Inline Embeds          `json:"inline"`
	Num    json.Number     `json:"num"`
}

// Embeds promotes a MarshalText method.
type Embeds struct {
	Code
}

// Store stores.
//
//wink:tool
func Store(tc *wink.ToolContext, p Params) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}
