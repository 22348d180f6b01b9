// Package durations declares a tool with time.Duration fields: durations are Go duration strings.
package durations

import (
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// Params are the arguments of wait.
type Params struct {
	For      time.Duration   // how long to wait
	Timeout  time.Duration   `json:"timeout" wink:"default=1m30s"`
	Backoff  *time.Duration  `json:"backoff,omitempty"`
	Steps    []time.Duration `json:"steps,omitempty"`
	Deadline time.Time       `json:"deadline,omitempty"`
}

// Result is what wait returns.
type Result struct {
	Waited time.Duration `json:"waited"`
}

// Wait waits.
//
//wink:tool
//wink:example desc="Wait" input={"for":"1.5s","steps":["250ms","1h2m3s"]} output={"waited":"1.5s"}
func Wait(tc *wink.ToolContext, p Params) (wink.ToolResult[Result], error) {
	return wink.OK(Result{Waited: p.For}, "waited"), nil
}
