// Package tasktest holds the task-supporting tools the tests of MCP tasks serve (runtime/mcpserver's
// tasks tests and the fleet's crash test): slow works for a while, ask asks the user's name, both
// report what their context said when it ended.
package tasktest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"os"
	"strconv"
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// Ended receives the error of every slow call whose context ended before its work did (tests read it).
var Ended = make(chan error, 64)

// SlowParams say how long to work.
type SlowParams struct {
	// Millis to work.
	Millis int `json:"millis" wink:"min=0,max=600000"`
	// Label is echoed in the result.
	Label string `json:"label,omitempty"`
}

// Slow works for the given milliseconds, then answers with its label and the process that finished it.
//
//wink:tool readonly task=optional
func Slow(tc *wink.ToolContext, p SlowParams) (wink.ToolResult[wink.NoValue], error) {
	select {
	case <-tc.Done():
		select {
		case Ended <- tc.Err():
		default:
		}
		return wink.ToolResult[wink.NoValue]{}, tc.Err()
	case <-time.After(time.Duration(p.Millis) * time.Millisecond):
	}
	return wink.Done[wink.NoValue]("worked on " + p.Label + " in process " + strconv.Itoa(os.Getpid())), nil
}

// Name is the answer to "what is your name".
//
//wink:form
type Name struct {
	// The user's name.
	Name string `json:"name"`
}

// Ask asks the user's name and greets them.
//
//wink:tool readonly task=required
func Ask(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	n, action, err := wink.Elicit(tc, "What is your name?", WinkFormName)
	if err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	if action != wink.ElicitAccept {
		return wink.Done[wink.NoValue]("Nobody answered."), nil
	}
	return wink.Done[wink.NoValue]("Hello, " + n.Name + "!"), nil
}
