package fleet

//go:generate go tool winkgen

import (
	"os"
	"strconv"
	"sync/atomic"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// Note is one thing the user asked the agent to remember.
//
//wink:state
type Note struct {
	// Text is the note.
	Text string `json:"text"`
	// Worker is the worker that wrote it.
	Worker string `json:"worker"`
}

// Notes is the session slice of the conversation's notes: a STATE slice with a codec, so the session
// store keeps it and any worker continues the conversation.
var Notes = session.NewSlice[Note]("fleet.notes", session.Rollback, session.WithCodec(WinkNoteCodec))

// Worker names this process in results ("A", "B", ...); set by the worker before it serves.
var Worker = "?"

// EffectsFile, when set, receives one line per payment actually made: the demo counts them.
var EffectsFile string

var charges atomic.Int64

// RememberParams are the arguments of remember.
type RememberParams struct {
	// Text to remember.
	Text string `json:"text" wink:"minLength=1,maxLength=200"`
}

// Remembered is what remember returns.
type Remembered struct {
	// Count is how many notes the conversation holds now.
	Count int `json:"count"`
	// Worker is the worker that answered.
	Worker string `json:"worker"`
}

// Remember stores a note in the conversation's session.
//
//wink:tool
func Remember(tc *wink.ToolContext, p RememberParams) (wink.ToolResult[Remembered], error) {
	s := tc.Session()
	session.Append(s, Notes, Note{Text: p.Text, Worker: Worker})
	return wink.OK(Remembered{Count: session.Len(s, Notes), Worker: Worker}, "Remembered."), nil
}

// Recalled is what recall returns.
type Recalled struct {
	// Notes are the conversation's notes, oldest first.
	Notes []Note `json:"notes"`
	// Worker is the worker that answered.
	Worker string `json:"worker"`
}

// Recall lists the notes of the conversation.
//
//wink:tool readonly
func Recall(tc *wink.ToolContext) (wink.ToolResult[Recalled], error) {
	return wink.OK(Recalled{Notes: session.All(tc.Session(), Notes), Worker: Worker}, "Recalled."), nil
}

// PayParams are the arguments of pay.
type PayParams struct {
	// Invoice to pay, like "INV-7".
	Invoice string `json:"invoice" wink:"pattern='INV-[0-9]{1,9}',patternDesc='an invoice number like INV-7'"`
	// Cents to pay.
	Cents int `json:"cents" wink:"min=1,max=100000000"`
}

// Receipt is what pay returns.
type Receipt struct {
	// Invoice paid.
	Invoice string `json:"invoice"`
	// Cents paid.
	Cents int `json:"cents"`
	// Payment identifies the payment: worker and its sequence number.
	Payment string `json:"payment"`
}

// Pay pays an invoice once: paying the same invoice again, on any worker, replays the first receipt.
//
//wink:tool
//wink:idempotent strategy=params keys=invoice scope=global
func Pay(tc *wink.ToolContext, p PayParams) (wink.ToolResult[Receipt], error) {
	payment := Worker + "-" + strconv.FormatInt(charges.Add(1), 10)
	if EffectsFile != "" {
		f, err := os.OpenFile(EffectsFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return wink.ToolResult[Receipt]{}, err
		}
		_, err = f.WriteString(p.Invoice + " " + strconv.Itoa(p.Cents) + " " + payment + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return wink.ToolResult[Receipt]{}, err
		}
	}
	return wink.OK(Receipt{Invoice: p.Invoice, Cents: p.Cents, Payment: payment}, "Paid."), nil
}
