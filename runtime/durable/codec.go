package durable

import (
	"encoding/binary"
	"errors"
	"strconv"
	"time"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/wink"
)

// The checkpoints' payloads are a small binary format of their own (a version byte, then varints and
// length-prefixed strings): no reflection and no JSON on the path every step takes. Each payload starts
// with codecVersion, so a later format can read older checkpoints.
//
// Version 2 adds an outcome's content blocks (wink.Outcome.Content: images, audio, embedded resources,
// resource links, more text) after its fields: version 1 dropped them, so a model resumed from a
// checkpoint saw its tools' results without them. Version 1 payloads still decode (with no blocks).
//
// Version 3 keeps what provider-native programs need to continue: a call's Caller, a response's and an
// assistant message's Container and Native, and a tool message's Found (the tools a search found).
//
// Version 4 adds an outcome's RetryAfter (a rate limit's refusal says when to call again) after its
// content blocks.
//
// Version 5 adds, after a tool step's outcome, the names of the tools the call found (a call of the
// client tool search, loop.Config.Search; loop.Message.Found): a run rebuilt from its checkpoints loads
// the same tools into its next requests.
const codecVersion = 5

// minCodecVersion is the oldest version the decoder reads.
const minCodecVersion = 1

// ErrCorrupt reports a checkpoint payload that does not decode.
var ErrCorrupt = errors.New("durable: corrupt checkpoint")

type enc struct{ b []byte }

func (e *enc) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) varint(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) str(s string)     { e.uvarint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) bytes(s []byte)   { e.uvarint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

type dec struct {
	b   []byte
	err error
	v   byte // the payload's version (version sets it)
}

func (d *dec) fail() {
	if d.err == nil {
		d.err = ErrCorrupt
	}
	d.b = nil
}

func (d *dec) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a length and checks that at least that many bytes (min each) remain, so a corrupt length
// never makes a huge allocation.
func (d *dec) count(min int) int {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) || (min > 0 && n > uint64(len(d.b)/min)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *dec) raw() []byte {
	n := d.count(1)
	if d.err != nil {
		return nil
	}
	s := d.b[:n:n]
	d.b = d.b[n:]
	return s
}

func (d *dec) str() string { return string(d.raw()) }

func (d *dec) bytes() []byte {
	r := d.raw()
	if r == nil {
		return nil
	}
	return append([]byte(nil), r...)
}

func (d *dec) bool() bool {
	if len(d.b) == 0 {
		d.fail()
		return false
	}
	v := d.b[0]
	d.b = d.b[1:]
	if v > 1 {
		d.fail()
	}
	return v == 1
}

func (d *dec) version() {
	if len(d.b) == 0 || d.b[0] < minCodecVersion || d.b[0] > codecVersion {
		d.fail()
		return
	}
	d.v = d.b[0]
	d.b = d.b[1:]
}

func (d *dec) finish(what string) error {
	if d.err == nil && len(d.b) != 0 {
		d.err = ErrCorrupt
	}
	if d.err != nil {
		return errors.New("durable: corrupt checkpoint (" + what + ")")
	}
	return nil
}

func (e *enc) call(c wink.Call) {
	e.str(c.ID)
	e.str(c.Name)
	e.bytes(c.Arguments)
	e.bool(c.PairMaps)
	e.bytes(c.Caller)
}

func (d *dec) call() wink.Call {
	c := wink.Call{ID: d.str(), Name: d.str(), Arguments: d.bytes(), PairMaps: d.bool()}
	if d.v >= 3 {
		c.Caller = d.bytes()
	}
	return c
}

func (e *enc) calls(cs []wink.Call) {
	e.uvarint(uint64(len(cs)))
	for _, c := range cs {
		e.call(c)
	}
}

func (d *dec) calls() []wink.Call {
	n := d.count(4)
	if n == 0 {
		return nil
	}
	cs := make([]wink.Call, 0, n)
	for range n {
		cs = append(cs, d.call())
	}
	return cs
}

// outcome writes every field of o the model's request is built from, its content blocks included.
func (e *enc) outcome(o wink.Outcome) {
	e.str(o.CallID)
	e.str(o.Name)
	e.bool(o.Success)
	e.str(o.Message)
	e.str(o.Output)
	e.bool(o.Replayed)
	blocks := o.Content.All()
	e.uvarint(uint64(len(blocks)))
	for i := range blocks {
		e.content(&blocks[i])
	}
	e.varint(int64(o.RetryAfter))
}

func (d *dec) outcome() wink.Outcome {
	o := wink.Outcome{CallID: d.str(), Name: d.str(), Success: d.bool(), Message: d.str(), Output: d.str(), Replayed: d.bool()}
	if d.v >= 2 {
		n := d.count(9) // a block is at least 9 bytes: its kind, 7 empty strings and a size
		if n > 0 {
			blocks := make([]wink.Content, n)
			for i := range blocks {
				blocks[i] = d.content()
			}
			o.Content = wink.BlocksOf(blocks...)
		}
	}
	if d.v >= 4 {
		o.RetryAfter = time.Duration(d.varint())
	}
	return o
}

// content writes a block field by field. Data keeps the difference between nil and empty (a resource
// with nil Data is textual, with empty Data binary): its length is written plus one, 0 for nil.
func (e *enc) content(c *wink.Content) {
	e.uvarint(uint64(c.Kind))
	e.str(c.Text)
	if c.Data == nil {
		e.uvarint(0)
	} else {
		e.uvarint(uint64(len(c.Data)) + 1)
		e.b = append(e.b, c.Data...)
	}
	e.str(c.MIMEType)
	e.str(c.URI)
	e.str(c.Name)
	e.str(c.Title)
	e.str(c.Description)
	e.varint(c.Size)
}

func (d *dec) content() wink.Content {
	var c wink.Content
	k := d.uvarint()
	if k > 255 {
		d.fail()
	}
	c.Kind = wink.ContentKind(k)
	c.Text = d.str()
	switch n := d.uvarint(); {
	case d.err != nil:
	case n > uint64(len(d.b))+1:
		d.fail()
	case n > 0:
		c.Data = append([]byte{}, d.b[:n-1]...)
		d.b = d.b[n-1:]
	}
	c.MIMEType = d.str()
	c.URI = d.str()
	c.Name = d.str()
	c.Title = d.str()
	c.Description = d.str()
	c.Size = d.varint()
	return c
}

// EncodeResponse returns a model response's checkpoint payload.
func EncodeResponse(r loop.Response) []byte {
	e := enc{b: make([]byte, 0, 64+len(r.Text))}
	e.b = append(e.b, codecVersion)
	e.str(r.Text)
	e.calls(r.ToolCalls)
	e.varint(int64(r.Usage.Input))
	e.varint(int64(r.Usage.Output))
	e.str(r.Stop)
	e.str(r.Container)
	e.bytes(r.Native)
	return e.b
}

// DecodeResponse decodes what EncodeResponse wrote.
func DecodeResponse(b []byte) (loop.Response, error) {
	d := dec{b: b}
	d.version()
	r := loop.Response{Text: d.str(), ToolCalls: d.calls()}
	r.Usage.Input = int(d.varint())
	r.Usage.Output = int(d.varint())
	r.Stop = d.str()
	if d.v >= 3 {
		r.Container, r.Native = d.str(), d.bytes()
	}
	return r, d.finish("model response")
}

// EncodeOutcome returns a tool call's checkpoint payload (EncodeToolStep without found tools).
func EncodeOutcome(o wink.Outcome) []byte { return EncodeToolStep(o, nil) }

// EncodeToolStep returns a tool call's checkpoint payload: its outcome, and the tools it found when it
// is a call of the client tool search (loop.Message.Found).
func EncodeToolStep(o wink.Outcome, found []string) []byte {
	e := enc{b: make([]byte, 0, 32+len(o.Output)+len(o.Message))}
	e.b = append(e.b, codecVersion)
	e.outcome(o)
	e.uvarint(uint64(len(found)))
	for _, f := range found {
		e.str(f)
	}
	return e.b
}

// DecodeOutcome decodes the outcome of what EncodeToolStep (or EncodeOutcome) wrote.
func DecodeOutcome(b []byte) (wink.Outcome, error) {
	o, _, err := DecodeToolStep(b)
	return o, err
}

// DecodeToolStep decodes what EncodeToolStep wrote: the outcome and the tools found (none before
// version 5).
func DecodeToolStep(b []byte) (wink.Outcome, []string, error) {
	d := dec{b: b}
	d.version()
	o := d.outcome()
	var found []string
	if d.v >= 5 {
		n := d.count(1)
		for range n {
			found = append(found, d.str())
		}
	}
	return o, found, d.finish("tool outcome")
}

// EncodeMessages returns the payload of a run's input messages.
func EncodeMessages(ms []loop.Message) []byte {
	e := enc{b: make([]byte, 0, 64)}
	e.b = append(e.b, codecVersion)
	e.uvarint(uint64(len(ms)))
	for _, m := range ms {
		e.str(string(m.Role))
		e.str(m.Text)
		e.calls(m.ToolCalls)
		e.outcome(m.Result)
		e.uvarint(uint64(len(m.Found)))
		for _, f := range m.Found {
			e.str(f)
		}
		e.str(m.Container)
		e.bytes(m.Native)
	}
	return e.b
}

// DecodeMessages decodes what EncodeMessages wrote.
func DecodeMessages(b []byte) ([]loop.Message, error) {
	d := dec{b: b}
	d.version()
	n := d.count(4)
	ms := make([]loop.Message, 0, n)
	for range n {
		m := loop.Message{Role: loop.Role(d.str()), Text: d.str(), ToolCalls: d.calls()}
		m.Result = d.outcome()
		if d.v >= 3 {
			for k := d.count(1); k > 0; k-- {
				m.Found = append(m.Found, d.str())
			}
			m.Container, m.Native = d.str(), d.bytes()
		}
		ms = append(ms, m)
	}
	return ms, d.finish("messages")
}

// EncodeCalls returns the payload of a list of calls (a run's held calls).
func EncodeCalls(cs []wink.Call) []byte {
	if len(cs) == 0 {
		return nil
	}
	e := enc{b: make([]byte, 0, 64)}
	e.b = append(e.b, codecVersion)
	e.calls(cs)
	return e.b
}

// DecodeCalls decodes what EncodeCalls wrote (nil or empty: no calls).
func DecodeCalls(b []byte) ([]wink.Call, error) {
	if len(b) == 0 {
		return nil, nil
	}
	d := dec{b: b}
	d.version()
	cs := d.calls()
	return cs, d.finish("calls")
}

// EncodeHeld returns the payload of a run's held calls: the calls as EncodeCalls writes them, then for
// each what a person deciding on it needs (the policy, the reason, the binding, the arguments as shown,
// and the question of a call held by Elicit).
func EncodeHeld(hs []*wink.HeldError) []byte {
	if len(hs) == 0 {
		return nil
	}
	e := enc{b: make([]byte, 0, 128)}
	e.b = append(e.b, codecVersion)
	e.uvarint(uint64(len(hs)))
	for _, h := range hs {
		e.call(h.Call)
	}
	for _, h := range hs {
		e.str(h.Call.Hold)
		e.str(h.Policy)
		e.str(h.Reason)
		b := h.Binding
		e.str(b.Hold)
		e.str(b.Tool)
		e.str(b.Digest)
		e.str(b.Session)
		e.str(b.Run)
		e.str(h.Arguments)
		e.bool(h.Elicitation != nil)
		if el := h.Elicitation; el != nil {
			e.str(el.Message)
			e.bytes(el.Schema)
			e.uvarint(uint64(el.Seq))
		}
	}
	return e.b
}

// DecodeHeld decodes what EncodeHeld wrote; a payload of EncodeCalls (a worker before bindings) gives
// calls without one (approving them fails: the run holds them again with their binding when it looks
// at them next).
func DecodeHeld(b []byte) ([]*wink.HeldError, error) {
	if len(b) == 0 {
		return nil, nil
	}
	d := dec{b: b}
	d.version()
	cs := d.calls()
	hs := make([]*wink.HeldError, len(cs))
	for i, c := range cs {
		hs[i] = &wink.HeldError{Call: c}
	}
	if len(d.b) > 0 && d.err == nil {
		for _, h := range hs {
			h.Call.Hold = d.str()
			h.Policy, h.Reason = d.str(), d.str()
			h.Binding = wink.Binding{Hold: d.str(), Tool: d.str(), Digest: d.str(), Session: d.str(), Run: d.str()}
			h.Arguments = d.str()
			if d.bool() {
				h.Elicitation = &wink.ElicitationRequest{Message: d.str(), Schema: d.bytes(), Seq: int(d.uvarint())}
			}
		}
	}
	return hs, d.finish("held calls")
}

// result is how a run ended: its stop reason and error text.
type result struct {
	stop loop.StopReason
	err  string
}

func encodeResult(r result) []byte {
	e := enc{b: make([]byte, 0, 8+len(r.err))}
	e.b = append(e.b, codecVersion)
	e.uvarint(uint64(r.stop))
	e.str(r.err)
	return e.b
}

func decodeResult(b []byte) (result, error) {
	if len(b) == 0 {
		return result{}, nil
	}
	d := dec{b: b}
	d.version()
	r := result{stop: loop.StopReason(d.uvarint()), err: d.str()}
	return r, d.finish("result")
}

// stepKey is the stable identity of a step of a run: the idempotency key handed to tool handlers.
func stepKey(run string, turn, index int) string {
	return "durable:" + run + ":" + strconv.Itoa(turn) + ":" + strconv.Itoa(index)
}
