package mcpservertest

import (
	"time"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// Notes is the session slice the note tools write: each client's notes live in its own session.
var Notes = session.NewSlice[string]("mcpservertest.notes", session.Rollback)

// SlowStarted, when set, is called by slow_fail once its note is written, before it waits; tests use it
// to send another call while slow_fail holds the session.
var SlowStarted func(text string)

// SlowDelay is how long slow_fail waits after writing its note before it fails.
var SlowDelay = 20 * time.Millisecond

// NoteParams are the arguments of the note tools.
type NoteParams struct {
	// Text is the note.
	Text string `json:"text" wink:"minLength=1,maxLength=100"`
}

// NoteList is what list_notes returns.
type NoteList struct {
	// Notes are the session's notes, oldest first.
	Notes []string `json:"notes"`
}

// AddNote appends a note to the session.
//
//wink:tool
func AddNote(tc *wink.ToolContext, p NoteParams) (wink.ToolResult[wink.NoValue], error) {
	session.Append(tc.Session(), Notes, p.Text)
	return wink.Done[wink.NoValue]("added"), nil
}

// SlowFail appends a note, waits a little, then fails: the dispatcher rolls the note back.
//
//wink:tool
func SlowFail(tc *wink.ToolContext, p NoteParams) (wink.ToolResult[wink.NoValue], error) {
	session.Append(tc.Session(), Notes, p.Text)
	if SlowStarted != nil {
		SlowStarted(p.Text)
	}
	time.Sleep(SlowDelay)
	return wink.Failure[wink.NoValue]("could not add " + p.Text), nil
}

// ListNotes returns the session's notes.
//
//wink:tool readonly
func ListNotes(tc *wink.ToolContext) (wink.ToolResult[NoteList], error) {
	return wink.OK(NoteList{Notes: session.All(tc.Session(), Notes)}, "Notes."), nil
}
