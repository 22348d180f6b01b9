// Package tasktest holds the task-supporting tools the tests of MCP tasks serve (runtime/mcpserver's
// tasks tests and the fleet's crash test): slow works for a while, ask asks the user's name, both
// report what their context said when it ended.
package tasktest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"os"
	"strconv"
	"strings"
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

// WhoParams say how long to wait before answering.
type WhoParams struct {
	// Millis to wait.
	Millis int `json:"millis,omitempty" wink:"min=0,max=600000"`
}

// Who waits, then names who the call acts for (its principal's subject and scopes), the session it runs
// in and the process that answered.
//
//wink:tool readonly task=optional scopes=tasks:read
func Who(tc *wink.ToolContext, p WhoParams) (wink.ToolResult[wink.NoValue], error) {
	select {
	case <-tc.Done():
		return wink.ToolResult[wink.NoValue]{}, tc.Err()
	case <-time.After(time.Duration(p.Millis) * time.Millisecond):
	}
	who := "subject (none)"
	if pr := tc.Principal(); pr != nil {
		who = "subject " + pr.Subject + " scopes " + strings.Join(pr.Scopes, ",")
	}
	sess := "(none)"
	if s := tc.Session(); s != nil {
		sess = s.ID()
	}
	return wink.Done[wink.NoValue](who + " session " + sess + " in process " + strconv.Itoa(os.Getpid())), nil
}

// SummarizeParams hold the text to summarize.
type SummarizeParams struct {
	// Text to summarize.
	Text string `json:"text"`
}

// Summarize asks the client's model for a summary of the text.
//
//wink:tool readonly task=required
func Summarize(tc *wink.ToolContext, p SummarizeParams) (wink.ToolResult[wink.NoValue], error) {
	r, err := tc.Sample(wink.SampleRequest{MaxTokens: 50, SystemPrompt: "Be brief.",
		Messages: []wink.SampleMessage{{Role: "user", Content: wink.Content{Kind: wink.KindText, Text: "Summarize: " + p.Text}}}})
	if err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	return wink.Done[wink.NoValue]("Summary by " + r.Model + ": " + r.Content.Text), nil
}
