// Package durbounds has bounds on durations (min=1s,max=24h), defaults of arrays and objects, and a
// free-form JSON field.
package durbounds

import (
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// Window is a time window.
type Window struct {
	// From is where it starts.
	From int `json:"from"`
	// To is where it ends.
	To int `json:"to"`
}

// Params are the arguments of wait_for.
type Params struct {
	// Timeout bounds the wait.
	Timeout time.Duration `json:"timeout" wink:"min=1s,max=24h"`
	// Poll is how often to look.
	Poll *time.Duration `json:"poll,omitempty" wink:"min=100ms,default=1s"`
	// Backoffs are the waits between retries.
	Backoffs []time.Duration `json:"backoffs,omitempty" wink:"max=1m,maxItems=5"`
	// Tags label the wait.
	Tags []string `json:"tags,omitempty" wink:"default=[\"a\",\"b\"],maxItems=3"`
	// Window narrows the wait.
	Window Window `json:"window,omitempty" wink:"default={\"from\":1,\"to\":2}"`
	// Weights by name.
	Weights map[string]int `json:"weights,omitempty" wink:"default={\"x\":1}"`
	// Options are passed to the backend as they are.
	Options wink.RawJSON `json:"options,omitempty"`
}

// WaitFor waits.
//
//wink:tool
//wink:example desc="A minute" input={"timeout":"1m"}
//wink:example desc="With options" input={"timeout":"2s","options":{"depth": [1, {"x":null}], "mode":"fast"}}
func WaitFor(tc *wink.ToolContext, p Params) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("waited " + p.Timeout.String()), nil
}
