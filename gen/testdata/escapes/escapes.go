// Package escapes declares a tool whose enum values, defaults and examples hold characters a Go raw string
// cannot: a byte order mark, a backquote, a carriage return and a NUL.
package escapes

import "github.com/winkgen/wink/runtime/wink"

// Mark is a string enum with awkward values.
type Mark string

// The marks.
const (
	BOM       Mark = "\ufeffbom"
	Backquote Mark = "back`quote"
	Return    Mark = "car\rriage"
	Nul       Mark = "n\x00ul"
	Plain     Mark = "plain"
)

// Params are the arguments of mark.
type Params struct {
	Mark  Mark   `json:"mark"`
	Label string `json:"label" wink:"default='a\u2028b'"`
	Note  string `json:"note,omitempty" wink:"maxLength=40"`
}

// Mark marks.
//
//wink:tool
//wink:example desc="BOM" input={"mark":"\ufeffbom","note":"x\ufeffy`z\r\u0000"}
func MarkIt(tc *wink.ToolContext, p Params) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}
