// Package noparams declares a parameterless tool and a tool without a result value.
package noparams

import "github.com/winkgen/wink/runtime/wink"

// Pong answers a ping.
type Pong struct {
	At string `json:"at"`
}

// Ping checks liveness.
//
//wink:tool
//wink:example desc="Ping" input={} output={"at":"now"}
func Ping(tc *wink.ToolContext) (wink.ToolResult[Pong], error) {
	return wink.OK(Pong{At: "now"}, "pong"), nil
}

// ClearParams name what to clear.
type ClearParams struct {
	Key string `json:"key"`
}

// Clear forgets a key and returns no value.
//
//wink:tool name=clear-key
func Clear(tc *wink.ToolContext, p ClearParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("cleared"), nil
}

// Noop does nothing at all.
//
//wink:tool
func Noop(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("nothing"), nil
}
