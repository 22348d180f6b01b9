package openaihttp

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// readStream assembles a streamed chat completion: the first choice's content deltas, its tool calls by
// their index (id and name from the first fragment, arguments concatenated), its finish_reason and the
// usage chunk.
func readStream(ctx context.Context, body io.Reader) (loop.Response, error) {
	var s chunks
	var chunkErr error
	err := httpcall.ReadEvents(body, func(ev httpcall.Event) error {
		if err := s.chunk(ev); err != nil {
			chunkErr = err
			return err
		}
		return nil
	})
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return loop.Response{}, errors.Join(err, cerr)
		}
		if s.apiErr != "" {
			return loop.Response{}, errors.New("openaihttp: the API returned an error: " + s.apiErr)
		}
		if chunkErr != nil {
			// A chunk that cannot be read is not a cut connection: what follows it would be missing.
			return loop.Response{}, chunkErr
		}
		if _, tooLarge := errors.AsType[*httpcall.EventTooLargeError](err); tooLarge || !s.started {
			// Past the bound a part of the answer is missing: an error, whatever arrived before.
			return loop.Response{}, &readError{err}
		}
	}
	if err := ctx.Err(); err != nil && s.finish == "" {
		return loop.Response{}, err
	}
	r := loop.Response{Text: s.text.String(), Usage: s.usage, Stop: s.finish}
	if r.Stop == "" {
		r.Stop = "incomplete"
	}
	for _, c := range s.calls {
		r.ToolCalls = append(r.ToolCalls, wink.Call{ID: c.id, Name: c.name, Arguments: c.args, PairMaps: true})
	}
	return r, nil
}

type chunks struct {
	text    strings.Builder
	calls   []streamCall // by tool call index
	usage   loop.Usage
	finish  string
	apiErr  string
	started bool
}

type streamCall struct {
	id, name string
	args     []byte
}

var chunkLimits = strictjson.Limits{MaxBytes: httpcall.MaxEvent + 1, MaxDepth: 256, MaxErrors: 4}

func (s *chunks) chunk(ev httpcall.Event) error {
	if string(ev.Data) == "[DONE]" {
		return nil
	}
	var d strictjson.Decoder
	d.Reset(ev.Data, chunkLimits)
	if d.Peek() != strictjson.KindObject {
		return nil
	}
	s.started = true
	d.ObjectStart()
	for d.NextKey() {
		switch string(d.Key()) {
		case "choices":
			if d.Null() || !d.ArrayStart() {
				continue
			}
			for d.NextElem() {
				s.choice(&d)
			}
			d.ArrayEnd()
		case "usage":
			if d.Null() {
				continue
			}
			u, _ := d.Raw()
			if n, ok := httpcall.Int(u, "prompt_tokens"); ok {
				s.usage.Input = n
			}
			if n, ok := httpcall.Int(u, "completion_tokens"); ok {
				s.usage.Output = n
			}
		case "error":
			if d.Null() {
				continue
			}
			e, _ := d.Raw()
			s.apiErr = httpcall.ErrorMessage([]byte(`{"error":` + string(e) + `}`))
		}
	}
	d.ObjectEnd()
	if errs := d.Finish(); errs != nil {
		return errors.New("openaihttp: malformed stream chunk: " + errs.Error())
	}
	if s.apiErr != "" {
		return errors.New(s.apiErr)
	}
	return nil
}

// choice reads one choice of a chunk; only the first choice (index 0) is kept.
func (s *chunks) choice(d *strictjson.Decoder) {
	c, _ := d.Raw()
	if n, _ := httpcall.Int(c, "index"); n != 0 {
		return
	}
	if f := httpcall.String(c, "finish_reason"); f != "" {
		s.finish = f
	}
	delta, ok := strictjson.Member(c, "delta")
	if !ok {
		return
	}
	s.text.WriteString(httpcall.String(delta, "content"))
	tcs, ok := strictjson.Member(delta, "tool_calls")
	if !ok {
		return
	}
	var td strictjson.Decoder
	td.Reset(tcs, strictjson.Limits{MaxBytes: len(tcs) + 1, MaxDepth: 256})
	if td.Peek() != strictjson.KindArray {
		return
	}
	td.ArrayStart()
	for td.NextElem() {
		tc, _ := td.Raw()
		i, ok := httpcall.Int(tc, "index")
		if !ok || i > 1024 {
			continue
		}
		for len(s.calls) <= i {
			s.calls = append(s.calls, streamCall{})
		}
		call := &s.calls[i]
		if id := httpcall.String(tc, "id"); id != "" {
			call.id = id
		}
		fn, _ := strictjson.Member(tc, "function")
		if n := httpcall.String(fn, "name"); n != "" {
			call.name = n
		}
		call.args = append(call.args, httpcall.String(fn, "arguments")...)
	}
	td.ArrayEnd()
}

// readError is an error reading the stream; it unwraps to the cause (an *httpcall.EventTooLargeError, a
// connection error).
type readError struct{ err error }

func (e *readError) Error() string { return "openaihttp: reading the stream: " + e.err.Error() }
func (e *readError) Unwrap() error { return e.err }
