// Package foreigndecl: a tool's params use another package's types (a struct, an enum whose constants are
// declared in two files and two on one line, a type with //wink:constraints): the schema holds their
// fields, values in declaration order and constraints as if they were declared here.
package foreigndecl

import (
	"github.com/winkgen/wink/gen/testdata/foreigndecl/decls"
	"github.com/winkgen/wink/runtime/wink"
)

// PaintParams are the arguments of paint.
type PaintParams struct {
	decls.Where
	Color  decls.Color   `json:"color"`
	Labels []decls.Label `json:"labels,omitempty"`
	Also   *decls.Where  `json:"also,omitempty"`
}

// Paint paints a place.
//
//wink:tool
func Paint(tc *wink.ToolContext, p PaintParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("painted"), nil
}
