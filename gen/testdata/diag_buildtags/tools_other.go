//go:build !linux

package buildtags

import "github.com/winkgen/wink/runtime/wink"

// Options are options, declared elsewhere.
type Options struct {
	Fast bool `json:"fast"`
}

// Elsewhere is a tool linux does not compile.
//
//wink:tool
func Elsewhere(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}
