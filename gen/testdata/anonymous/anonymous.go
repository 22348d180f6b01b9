// Package anonymous uses anonymous struct types in fields, slices and pointers.
package anonymous

import "github.com/winkgen/wink/runtime/wink"

// Params has anonymous structs at several places.
type Params struct {
	Filter struct {
		Prefix string `json:"prefix"`
		Max    int    `json:"max,omitempty"`
	} `json:"filter"`
	Rows []struct {
		Key   string `json:"key"`
		Value *int   `json:"value"`
	} `json:"rows" wink:"maxItems=5"`
	Extra *struct {
		Note string `json:"note"`
	} `json:"extra,omitempty"`
}

// Out is the result.
type Out struct {
	N int `json:"n"`
}

// Anon counts rows.
//
//wink:tool
//wink:example desc="Rows" input={"filter":{"prefix":"p"},"rows":[{"key":"a","value":1},{"key":"b","value":null}],"extra":{"note":"x"}} output={"n":2}
func Anon(tc *wink.ToolContext, p Params) (wink.ToolResult[Out], error) {
	return wink.OK(Out{N: len(p.Rows)}, "counted"), nil
}
