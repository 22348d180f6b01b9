// Package programtest holds the tools the eval package's tests call from programs and directly.
package programtest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"errors"
	"strconv"
	"sync/atomic"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// Entry is one thing the session keeps.
//
//wink:state
type Entry struct {
	// Text is the entry.
	Text string `json:"text"`
}

// Entries is the session slice the tools write.
var Entries = session.NewSlice[Entry]("programtest.entries", session.Rollback, session.WithCodec(WinkEntryCodec))

// Runs counts the handlers' runs, by tool.
var Runs struct{ Lookup, Note, Pay, Broken, Wipe atomic.Int64 }

// LookupParams are the arguments of lookup.
type LookupParams struct {
	// ID of the record, 0 to 99.
	ID int `json:"id" wink:"min=0,max=99"`
	// Field to read.
	Field string `json:"field,omitempty" wink:"enum=name|price,default=name"`
}

// Record is a record.
type Record struct {
	// ID of the record.
	ID int `json:"id"`
	// Name of the record.
	Name string `json:"name"`
	// Price in cents.
	Price int `json:"price"`
}

// Lookup reads a record.
//
//wink:tool readonly
func Lookup(tc *wink.ToolContext, p LookupParams) (wink.ToolResult[Record], error) {
	Runs.Lookup.Add(1)
	return wink.OK(Record{ID: p.ID, Name: "item-" + strconv.Itoa(p.ID), Price: 100 + p.ID*7}, ""), nil
}

// NoteParams are the arguments of note.
type NoteParams struct {
	// Text to keep.
	Text string `json:"text" wink:"minLength=1,maxLength=100"`
}

// Noted is what note returns.
type Noted struct {
	// Count of entries now.
	Count int `json:"count"`
}

// Note keeps a text in the session.
//
//wink:tool
//wink:idempotent
func Note(tc *wink.ToolContext, p NoteParams) (wink.ToolResult[Noted], error) {
	Runs.Note.Add(1)
	session.Append(tc.Session(), Entries, Entry{Text: p.Text})
	return wink.OK(Noted{Count: session.Len(tc.Session(), Entries)}, "Noted."), nil
}

// PayParams are the arguments of pay.
type PayParams struct {
	// Cents to pay.
	Cents int `json:"cents" wink:"min=1,max=100000"`
}

// Paid is what pay returns.
type Paid struct {
	// Cents paid.
	Cents int `json:"cents"`
}

// Pay pays, once a person approves.
//
//wink:tool callers=both
func Pay(tc *wink.ToolContext, p PayParams) (wink.ToolResult[Paid], error) {
	Runs.Pay.Add(1)
	session.Append(tc.Session(), Entries, Entry{Text: "paid " + strconv.Itoa(p.Cents)})
	return wink.OK(Paid{Cents: p.Cents}, "Paid."), nil
}

// Broken writes to the session and then fails, so its write is rolled back.
//
//wink:tool callers=both
func Broken(tc *wink.ToolContext, p NoteParams) (wink.ToolResult[Noted], error) {
	Runs.Broken.Add(1)
	session.Append(tc.Session(), Entries, Entry{Text: p.Text})
	return wink.ToolResult[Noted]{}, errors.New("the disk is full")
}

// Wipe deletes every entry.
//
//wink:tool destructive=true
func Wipe(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	Runs.Wipe.Add(1)
	session.Replace(tc.Session(), Entries, func([]Entry) []Entry { return nil })
	return wink.OK(wink.NoValue{}, "Wiped."), nil
}

// Secret is only for programs.
//
//wink:tool callers=program readonly
func Secret(tc *wink.ToolContext) (wink.ToolResult[Record], error) {
	return wink.OK(Record{ID: 7, Name: "secret"}, ""), nil
}
