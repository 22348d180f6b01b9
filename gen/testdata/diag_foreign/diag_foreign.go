// Package diagforeign: diagnostics about another package's types point at their declarations there.
package diagforeign

import (
	"github.com/winkgen/wink/gen/testdata/diag_foreign/decls"
	"github.com/winkgen/wink/runtime/wink"
)

// P are the arguments of use.
type P struct {
	decls.Base
	In decls.Inner `json:"in"`
}

// Use uses them.
//
//wink:tool
func Use(tc *wink.ToolContext, p P) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}
