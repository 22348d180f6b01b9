package buildtags

import "github.com/winkgen/wink/runtime/wink"

// Options are options, declared only on linux.
type Options struct {
	Fast bool `json:"fast"`
}

// OnLinux is a tool only linux compiles.
//
//wink:tool
func OnLinux(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}
