// Package buildtags declares tools in files with build constraints: each directive there is a diagnostic,
// whether or not this platform compiles the file.
package buildtags

import "github.com/winkgen/wink/runtime/wink"

// Params are the arguments of plain.
type Params struct {
	Opt Options `json:"opt"`
}

// Plain is a tool in an unconstrained file whose params use a type from a constrained one.
//
//wink:tool
func Plain(tc *wink.ToolContext, p Params) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}
