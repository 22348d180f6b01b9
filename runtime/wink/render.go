package wink

// Rendering a call's result for the model (the last step of the package doc's Dispatch): the message, a blank line, and
// the value (its Render method, else its generated JSON encoding), into pooled buffers.

import (
	"sync"
	"unsafe"
)

// render returns msg, a blank line, and v rendered (Render, else the JSON
// encoding). An empty msg or rendering yields the other part alone.
func (t *Tool) render(msg string, fr *frame) string {
	if s, ok := fr.render(); ok {
		switch {
		case s == "":
			return msg
		case msg == "":
			return s
		}
		return msg + "\n\n" + s
	}
	hint := int(t.renderHint.Load())
	if len(msg)+2+hint <= outputBuf {
		return t.renderShort(msg, hint, fr)
	}
	// The text is built in a buffer of its own, sized by the longest
	// encoding seen so far, and becomes the string without a copy: one
	// allocation, no pooled scratch buffer.
	b := t.appendOutput(make([]byte, 0, len(msg)+2+hint), msg, hint, fr)
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b)) // b is never written again
}

// renderShort renders an output expected to fit outputBuf bytes (hint is the longest encoding seen) in
// the frame's buffer. When it is the tool's last output again (a constant message with the same value:
// "Saved.", {"ok":true}), that string is returned and nothing is allocated; else it is copied out. The
// tool's last output is replaced at the first difference a frame sees, then at every 16th: a tool whose
// outputs vary pays one comparison per call, not a shared store.
func (t *Tool) renderShort(msg string, hint int, fr *frame) string {
	b := t.appendOutput(fr.out[:0], msg, hint, fr)
	if len(b) == 0 {
		return ""
	}
	if len(b) > len(fr.out) {
		return unsafe.String(&b[0], len(b)) // it outgrew the frame's buffer: append gave it its own, never written again
	}
	if last := t.lastOutput.Load(); last != nil && *last == string(b) {
		return *last
	}
	s := string(b)
	fr.misses++
	if fr.misses%16 == 1 {
		p := new(string)
		*p = s
		t.lastOutput.Store(p)
	}
	return s
}

// appendOutput appends msg, a blank line when msg is not empty, and the value's encoding to b, and
// raises the tool's render hint when the encoding is longer than hint, the longest seen so far.
func (t *Tool) appendOutput(b []byte, msg string, hint int, fr *frame) []byte {
	b = append(b, msg...)
	if msg != "" {
		b = append(b, '\n', '\n')
	}
	n := len(b)
	b = fr.appendValue(b)
	if enc := len(b) - n; enc > hint {
		t.renderHint.Store(int32(min(enc, maxRenderHint)))
	}
	return b
}

// outputBuf is the size of the frame's buffer for short outputs (renderShort).
const outputBuf = 128

// maxRenderHint caps the capacity render reserves for an encoding.
const maxRenderHint = 4 << 10

// bufPool holds scratch buffers (idempotency keys).
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// maxPooledBuf bounds the buffers bufPool keeps.
const maxPooledBuf = 64 << 10
