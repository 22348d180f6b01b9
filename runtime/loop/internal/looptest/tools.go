// Package looptest holds the tools the loop tests dispatch: echo, which repeats its text, and step (and
// its read-only twin peek), which calls a hook the test installs (to observe order and concurrency) and
// may fail on request.
package looptest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"github.com/winkgen/wink/runtime/wink"
)

// EchoParams are the arguments of echo.
type EchoParams struct {
	// Text is repeated back.
	Text string `json:"text" wink:"minLength=1"`
}

// Echo repeats its text back.
//
//wink:tool
func Echo(tc *wink.ToolContext, p EchoParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("echo: " + p.Text), nil
}

// StepParams are the arguments of step.
type StepParams struct {
	// ID names the step.
	ID string `json:"id"`
}

// Hook, when set, is called by step with the call's context and the step's id. Tests set it before a run
// and reset it after.
var Hook func(tc *wink.ToolContext, id string)

// Step calls the test hook and reports the step done.
//
//wink:tool
func Step(tc *wink.ToolContext, p StepParams) (wink.ToolResult[wink.NoValue], error) {
	if Hook != nil {
		Hook(tc, p.ID)
	}
	return wink.Done[wink.NoValue]("step " + p.ID + " done"), nil
}

// Peek calls the test hook and reports the step seen: a read-only step, which Parallel runs concurrently.
//
//wink:tool readonly
func Peek(tc *wink.ToolContext, p StepParams) (wink.ToolResult[wink.NoValue], error) {
	if Hook != nil {
		Hook(tc, p.ID)
	}
	return wink.Done[wink.NoValue]("step " + p.ID + " done"), nil
}
