// Package winktest holds annotated tools whose generated code (wink_gen.go,
// produced by `go run ./cmd/winkgen ./runtime/wink/internal/winktest`) the
// runtime's tests dispatch, so that they exercise real generated decoders and
// encoders.
package winktest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"errors"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// Notes is the session STATE slice the mutate tool appends to.
var Notes = session.NewSlice[string]("winktest.notes", session.Rollback)

// FailKind selects how mutate ends.
type FailKind string

// The ways mutate can end.
const (
	FailNone       FailKind = "none"
	FailResult     FailKind = "result"
	FailError      FailKind = "error"
	FailPanic      FailKind = "panic"
	FailValidation FailKind = "validation"
	FailToolError  FailKind = "tool_error"
)

// MutateParams are the arguments of mutate.
type MutateParams struct {
	// Note is appended to the notes slice.
	Note string `json:"note"`
	// Path is the file written, when set.
	Path string `json:"path,omitempty"`
	// Content is written to Path.
	Content string `json:"content,omitempty"`
	// Remove is a file removed, when set.
	Remove string `json:"remove,omitempty"`
	// Fail selects how the call ends.
	Fail FailKind `json:"fail"`
}

// MutateResult reports what mutate changed.
type MutateResult struct {
	// Notes is the number of notes after the call.
	Notes int `json:"notes"`
}

// Mutate appends a note, writes a file and then ends as asked.
//
//wink:tool
func Mutate(tc *wink.ToolContext, p MutateParams) (wink.ToolResult[MutateResult], error) {
	s := tc.Session()
	session.Append(s, Notes, p.Note)
	if fs := tc.Filesystem(); fs != nil {
		if p.Path != "" {
			if err := vfs.Write(fs, p.Path, []byte(p.Content)); err != nil {
				return wink.ToolResult[MutateResult]{}, err
			}
		}
		if p.Remove != "" {
			_ = vfs.Remove(fs, p.Remove)
		}
	}
	switch p.Fail {
	case FailResult:
		return wink.Failure[MutateResult]("mutate failed as asked"), nil
	case FailError:
		return wink.ToolResult[MutateResult]{}, errors.New("boom")
	case FailPanic:
		panic("kaboom")
	case FailValidation:
		return wink.ToolResult[MutateResult]{}, wink.InvalidArguments(strictjson.FieldError{Path: "note", Message: "must not be " + strconv.Quote(p.Note)})
	case FailToolError:
		return wink.ToolResult[MutateResult]{}, wink.NewToolError("try another note")
	}
	return wink.OK(MutateResult{Notes: session.Len(s, Notes)}, "Mutated."), nil
}

// PathParams name one file.
type PathParams struct {
	// Path is the file.
	Path string `json:"path"`
}

// FileContent is a file's content.
type FileContent struct {
	// Content is the text.
	Content string `json:"content"`
}

// ReadFile reads a file.
//
//wink:tool
func ReadFile(tc *wink.ToolContext, p PathParams) (wink.ToolResult[FileContent], error) {
	b, err := tc.Filesystem().Read(p.Path)
	if err != nil {
		return wink.ToolResult[FileContent]{}, wink.NewToolError(err.Error())
	}
	return wink.OK(FileContent{Content: string(b)}, ""), nil
}

// WriteParams are the arguments of write_file.
type WriteParams struct {
	// Path is the file.
	Path string `json:"path"`
	// Content is the new content.
	Content string `json:"content"`
}

// WriteFile writes a file.
//
//wink:tool
func WriteFile(tc *wink.ToolContext, p WriteParams) (wink.ToolResult[wink.NoValue], error) {
	if err := vfs.Write(tc.Filesystem(), p.Path, []byte(p.Content)); err != nil {
		return wink.ToolResult[wink.NoValue]{}, wink.NewToolError(err.Error())
	}
	return wink.Done[wink.NoValue]("Written."), nil
}

// EditParams are the arguments of edit_file.
type EditParams struct {
	// FilePath is the file.
	FilePath string `json:"file_path"`
	// Old is the text replaced.
	Old string `json:"old"`
	// New replaces it.
	New string `json:"new"`
}

// EditFile edits a file.
//
//wink:tool
func EditFile(tc *wink.ToolContext, p EditParams) (wink.ToolResult[wink.NoValue], error) {
	fs := tc.Filesystem()
	data, err := fs.Read(p.FilePath)
	if err != nil {
		return wink.ToolResult[wink.NoValue]{}, wink.NewToolError(err.Error())
	}
	if n := strings.Count(string(data), p.Old); p.Old == "" || n != 1 {
		return wink.ToolResult[wink.NoValue]{}, wink.NewToolError("old text matches " + strconv.Itoa(n) + " times, not once")
	}
	if err := vfs.Write(fs, p.FilePath, []byte(strings.Replace(string(data), p.Old, p.New, 1))); err != nil {
		return wink.ToolResult[wink.NoValue]{}, wink.NewToolError(err.Error())
	}
	return wink.Done[wink.NoValue]("Edited."), nil
}

// StepParams are the arguments of the build, test and deploy steps.
type StepParams struct {
	// Fail makes the step fail.
	Fail bool `json:"fail,omitempty"`
}

// step ends a step tool.
func step(name string, p StepParams) (wink.ToolResult[wink.NoValue], error) {
	if p.Fail {
		return wink.Failure[wink.NoValue](name + " failed."), nil
	}
	return wink.Done[wink.NoValue](name + " done."), nil
}

// Build builds.
//
//wink:tool
func Build(tc *wink.ToolContext, p StepParams) (wink.ToolResult[wink.NoValue], error) {
	return step("build", p)
}

// Test tests.
//
//wink:tool
func Test(tc *wink.ToolContext, p StepParams) (wink.ToolResult[wink.NoValue], error) {
	return step("test", p)
}

// Deploy deploys.
//
//wink:tool
func Deploy(tc *wink.ToolContext, p StepParams) (wink.ToolResult[wink.NoValue], error) {
	return step("deploy", p)
}

// Counters count handler runs of the idempotent tools.
var Counters struct {
	Charge, Book, Ping, Transfer atomic.Int64
}

// ChargeGate, when set, is received from before charge increments its
// counter (tests hold concurrent calls in the handler with it).
var ChargeGate chan struct{}

// ChargeParams are the arguments of charge.
type ChargeParams struct {
	// Account is charged.
	Account string `json:"account"`
	// Amount in cents.
	Amount int `json:"amount"`
	// Fail makes the charge fail.
	Fail bool `json:"fail,omitempty"`
}

// Receipt is a charge's receipt.
type Receipt struct {
	// Seq is the handler run that made the charge.
	Seq int64 `json:"seq"`
}

// Charge charges an account once per identical call.
//
//wink:tool
//wink:idempotent strategy=auto
func Charge(tc *wink.ToolContext, p ChargeParams) (wink.ToolResult[Receipt], error) {
	if ChargeGate != nil {
		<-ChargeGate
	}
	n := Counters.Charge.Add(1)
	session.Append(tc.Session(), Notes, "charge "+p.Account)
	if p.Fail {
		return wink.Failure[Receipt]("card declined"), nil
	}
	return wink.OK(Receipt{Seq: n}, "Charged "+p.Account+"."), nil
}

// TransferParams are the arguments of transfer.
type TransferParams struct {
	// To is the account credited.
	To string `json:"to"`
	// Amount in cents.
	Amount int `json:"amount"`
	// Meta is free-form data sent with the transfer.
	Meta wink.RawJSON `json:"meta"`
}

// Transfer moves money once per identical call (the free-form meta included).
//
//wink:tool
//wink:idempotent strategy=auto
func Transfer(tc *wink.ToolContext, p TransferParams) (wink.ToolResult[Receipt], error) {
	return wink.OK(Receipt{Seq: Counters.Transfer.Add(1)}, "Sent to "+p.To+"."), nil
}

// BookParams are the arguments of book.
type BookParams struct {
	// Room is booked.
	Room string `json:"room"`
	// Day is the day booked.
	Day int `json:"day"`
	// Note is free text, not part of the key.
	Note string `json:"note,omitempty"`
}

// Book books a room for a day, once per room and day whatever the note.
//
//wink:tool
//wink:idempotent strategy=params keys=room,day ttl=1h scope=global
func Book(tc *wink.ToolContext, p BookParams) (wink.ToolResult[Receipt], error) {
	return wink.OK(Receipt{Seq: Counters.Book.Add(1)}, "Booked "+p.Room+"."), nil
}

// PingParams are the arguments of ping.
type PingParams struct {
	// ID identifies the ping.
	ID string `json:"id"`
	// N is ignored by the key.
	N int `json:"n"`
}

// PingKey is ping's idempotency key: the id alone.
func PingKey(p PingParams) string { return p.ID }

// Ping answers once per id.
//
//wink:tool
//wink:idempotent strategy=custom func=PingKey
func Ping(tc *wink.ToolContext, p PingParams) (wink.ToolResult[Receipt], error) {
	return wink.OK(Receipt{Seq: Counters.Ping.Add(1)}, "Pong."), nil
}

// Probe reports what the handler sees.
type Probe struct {
	// HasDeadline reports a deadline on the context.
	HasDeadline bool `json:"has_deadline"`
	// InToolCall reports an open tool-call scope.
	InToolCall bool `json:"in_tool_call"`
	// BudgetLeft is the total tokens left.
	BudgetLeft int64 `json:"budget_left"`
}

// Inspect beats, consumes 10 tokens and reports what it sees.
//
//wink:tool
func Inspect(tc *wink.ToolContext) (wink.ToolResult[Probe], error) {
	tc.Beat()
	_, ok := tc.Deadline()
	res := tc.Resources()
	berr := tc.Budget().Consume(4, 6)
	if berr != nil {
		return wink.ToolResult[Probe]{}, berr
	}
	return wink.OK(Probe{HasDeadline: ok, InToolCall: res != nil && res.InToolCall(), BudgetLeft: tc.Budget().Remaining().Total}, ""), nil
}
