package mcpservertest

import (
	"sync/atomic"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// Interviews counts the runs of interview that got every answer and went on to write their note.
var Interviews atomic.Int32

// Reply is the form interview asks the user to fill.
//
//wink:form
type Reply struct {
	// Text is the user's answer.
	Text string `json:"text" wink:"minLength=1,maxLength=100"`
}

// InterviewParams are the arguments of interview.
type InterviewParams struct {
	// Topic is what the interview is about.
	Topic string `json:"topic" wink:"minLength=1,maxLength=100"`
}

// Interview asks the user two questions and the client's model one, then writes a note of the answers to the
// session (counted in Interviews).
//
//wink:tool
func Interview(tc *wink.ToolContext, p InterviewParams) (wink.ToolResult[string], error) {
	first, action, err := wink.Elicit(tc, "Who are you?", WinkFormReply)
	if err != nil {
		return wink.ToolResult[string]{}, err
	}
	if action != wink.ElicitAccept {
		return wink.Failure[string]("The user did not answer who they are."), nil
	}
	sample, err := tc.Sample(wink.SampleRequest{Messages: []wink.SampleMessage{{Role: "user", Content: wink.Text("Say something about " + p.Topic + ".")}}, MaxTokens: 50})
	if err != nil {
		return wink.ToolResult[string]{}, err
	}
	second, action, err := wink.Elicit(tc, "Anything to add?", WinkFormReply)
	if err != nil {
		return wink.ToolResult[string]{}, err
	}
	if action != wink.ElicitAccept {
		return wink.Failure[string]("The user added nothing."), nil
	}
	note := p.Topic + ": " + first.Text + " / " + sample.Content.Text + " / " + second.Text
	Interviews.Add(1)
	session.Append(tc.Session(), Notes, note)
	return wink.OK(note, "Interviewed."), nil
}

// Tallies counts the runs of tally.
var Tallies atomic.Int32

// TallyParams are the arguments of tally.
type TallyParams struct {
	// N is added to the tally.
	N int `json:"n" wink:"min=0,max=100"`
}

// Tally counts its run in Tallies (a side effect tests count) and returns n.
//
//wink:tool
func Tally(tc *wink.ToolContext, p TallyParams) (wink.ToolResult[int], error) {
	Tallies.Add(1)
	return wink.OK(p.N, "Tallied."), nil
}
