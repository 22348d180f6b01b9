// Package foreigncons uses a type of another package that carries //wink:constraints (the files suite's
// Path): its constraints apply here as in its own package.
package foreigncons

import (
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/wink"
)

// Params are the arguments of open.
type Params struct {
	Path files.Path       `json:"path"`
	Dir  files.PathOrRoot `json:"dir,omitempty"`
	Many []files.Path     `json:"many,omitempty"`
}

// Open opens.
//
//wink:tool
func Open(tc *wink.ToolContext, p Params) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}
