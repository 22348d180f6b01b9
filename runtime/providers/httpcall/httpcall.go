// Package httpcall is what the HTTP providers share: sending a request with retries (exponential backoff
// with full jitter on 429, 5xx and overload, honouring Retry-After, bounded by a count and by the context's
// deadline) and reading a server-sent event stream.
package httpcall

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/winkgen/wink/runtime/strictjson"
)

// Retry configures retries. The zero value retries up to 4 times, starting at 500 ms and doubling up to
// 30 s.
type Retry struct {
	// MaxRetries is the number of retries after the first attempt; 0 means 4, a negative value none.
	MaxRetries int
	// BaseDelay is the first backoff (before jitter); 0 means 500 ms.
	BaseDelay time.Duration
	// MaxDelay caps a backoff and a server's Retry-After; 0 means 30 s.
	MaxDelay time.Duration
}

func (r Retry) norm() Retry {
	if r.MaxRetries == 0 {
		r.MaxRetries = 4
	}
	if r.BaseDelay <= 0 {
		r.BaseDelay = 500 * time.Millisecond
	}
	if r.MaxDelay <= 0 {
		r.MaxDelay = 30 * time.Second
	}
	return r
}

// Retryable reports whether a response with this status may succeed when sent again: 408, 409 (a
// conflicting concurrent request), 429, 500, 502, 503, 504 and 529 (Anthropic's "overloaded").
func Retryable(status int) bool {
	switch status {
	case 408, 409, 429, 500, 502, 503, 504, 529:
		return true
	}
	return false
}

// Attempts says how many times Do sent a request and how long that took, from the first send to the
// last answer.
type Attempts struct {
	N       int
	Elapsed time.Duration
}

// Suffix returns " (after 5 attempts over 3.2s)" for more than one attempt, "" otherwise: what an error
// after retries appends.
func (a Attempts) Suffix() string {
	if a.N <= 1 {
		return ""
	}
	return " (after " + strconv.Itoa(a.N) + " attempts over " + a.Elapsed.Round(time.Millisecond).String() + ")"
}

// RetriesError is a transport error after retries: the last attempt's error and the attempts made.
type RetriesError struct {
	Err error
	Attempts
}

// Error returns the last error followed by the attempts: "dial tcp: connection refused (after 5 attempts
// over 7.5s)".
func (e *RetriesError) Error() string { return e.Err.Error() + e.Suffix() }

// Unwrap returns the last attempt's error.
func (e *RetriesError) Unwrap() error { return e.Err }

// Do sends the request build returns (build is called once per attempt: a body cannot be read twice)
// and returns the first response that is not retryable, or the last one when the retries are spent or the
// next wait would pass ctx's deadline. A transport error is retried the same way unless ctx is done; after
// more than one attempt it is a *RetriesError saying how many were made over how long. The caller closes
// the returned body and reports a failing status with the Attempts (Suffix). Waits: the response's
// retry-after-ms or Retry-After (seconds or an HTTP date) when present, else BaseDelay·2^attempt with full
// jitter; both capped by MaxDelay.
func Do(ctx context.Context, client *http.Client, r Retry, build func() (*http.Request, error)) (*http.Response, Attempts, error) {
	if client == nil {
		client = http.DefaultClient
	}
	r = r.norm()
	start := time.Now()
	var at Attempts
	done := func(resp *http.Response, err error) (*http.Response, Attempts, error) {
		at.Elapsed = time.Since(start)
		if err != nil && at.N > 1 {
			err = &RetriesError{Err: err, Attempts: at}
		}
		return resp, at, err
	}
	for attempt := 0; ; attempt++ {
		req, err := build()
		if err != nil {
			return done(nil, err)
		}
		at.N++
		resp, err := client.Do(req.WithContext(ctx))
		if ctx.Err() != nil {
			if resp != nil {
				resp.Body.Close()
			}
			if err == nil || !errors.Is(err, ctx.Err()) {
				err = errors.Join(err, ctx.Err())
			}
			return done(nil, err)
		}
		if err == nil && !Retryable(resp.StatusCode) {
			return done(resp, nil)
		}
		if attempt >= r.MaxRetries {
			return done(resp, err)
		}
		wait := backoff(r, attempt)
		if resp != nil {
			if d, ok := retryAfter(resp.Header, time.Now()); ok {
				wait = min(d, r.MaxDelay)
			}
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return done(resp, err) // waiting would outlive the run: report what the server said
		}
		if resp != nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return done(nil, ctx.Err())
		case <-t.C:
		}
	}
}

// backoff is BaseDelay·2^attempt capped by MaxDelay, with full jitter (uniform in [d/2, d]).
func backoff(r Retry, attempt int) time.Duration {
	d := r.BaseDelay << min(attempt, 20)
	if d <= 0 || d > r.MaxDelay {
		d = r.MaxDelay
	}
	return d/2 + rand.N(d/2+1)
}

// retryAfter reads retry-after-ms (OpenAI, Anthropic) or Retry-After (delay-seconds or an HTTP date).
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// Event is one server-sent event.
type Event struct {
	// Name is the event's `event:` field ("" when absent).
	Name string
	// Data is its `data:` lines joined with "\n".
	Data []byte
}

// MaxLine bounds one line of an event stream, and MaxEvent the data of one event (its data lines joined):
// 8 MiB each, far beyond the largest event a provider sends (a long answer in one delta is a few MiB at
// most). Every provider reads events up to these bounds whole; beyond them the stream is an error, an
// *EventTooLargeError naming the bound, never a silently shortened answer.
const (
	MaxLine  = 8 << 20
	MaxEvent = 8 << 20
)

// EventTooLargeError reports a line or an event of a stream larger than its bound (MaxLine, MaxEvent).
type EventTooLargeError struct {
	What  string // "line" or "event"
	Bound int    // the bound it passed, in bytes
}

// Error returns "event stream event larger than 8388608 bytes (httpcall.MaxEvent)".
func (e *EventTooLargeError) Error() string {
	name := "MaxEvent"
	if e.What == "line" {
		name = "MaxLine"
	}
	return "event stream " + e.What + " larger than " + strconv.Itoa(e.Bound) + " bytes (httpcall." + name + ")"
}

// ReadEvents reads the server-sent events of r and calls f with each, in order, until r ends or f returns
// an error (which ReadEvents returns). Lines end with \n or \r\n; a byte order mark at the start, comment
// lines and fields other than event and data are ignored; "data:" may or may not be followed by a space,
// and an event's data lines are joined with \n. An event still open when r ends is dropped, as the protocol says.
// A line longer than MaxLine or an event whose data is longer than MaxEvent is an *EventTooLargeError.
func ReadEvents(r io.Reader, f func(Event) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var ev Event
	var data []byte
	has, hasData := false, false
	for first := true; ; first = false {
		line, err := readLine(br)
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if first {
			// The protocol ignores one byte order mark at the start of the stream
			// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
			line = bytes.TrimPrefix(line, []byte("\uFEFF"))
		}
		if len(line) == 0 {
			if has {
				ev.Data = data
				if err := f(ev); err != nil {
					return err
				}
			}
			ev, data, has, hasData = Event{}, nil, false, false
			continue
		}
		if line[0] == ':' {
			continue // a comment (keep-alive)
		}
		field, value, _ := bytes.Cut(line, []byte{':'})
		value = bytes.TrimPrefix(value, []byte{' '})
		switch string(field) {
		case "event":
			ev.Name = string(value)
			has = true
		case "data":
			if len(data)+1+len(value) > MaxEvent {
				return &EventTooLargeError{What: "event", Bound: MaxEvent}
			}
			if hasData {
				data = append(data, '\n')
			}
			data = append(data, value...)
			has, hasData = true, true
		}
	}
}

// readLine returns the next line without its ending (\n, \r\n or \r).
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > MaxLine+2 { // the line and its ending
			return nil, &EventTooLargeError{What: "line", Bound: MaxLine}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(line) > 0 {
				return nil, io.EOF // an unterminated last line: the event is incomplete
			}
			return nil, err
		}
		line = line[:len(line)-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		return line, nil
	}
}

// StatusError reports a response whose HTTP status is not 2xx.
type StatusError struct {
	// Provider names the provider package ("anthropichttp").
	Provider string
	// StatusCode is the HTTP status code.
	StatusCode int
	// Status is the HTTP status line ("429 Too Many Requests").
	Status string
	// Message is the API's error message, else the start of the body.
	Message string
	// Attempts are the requests sent, retries included, and how long they took.
	Attempts Attempts
}

// Error returns "anthropichttp: 429 Too Many Requests: rate limited", followed by the attempts when there
// were retries: " (after 5 attempts over 7.5s)".
func (e *StatusError) Error() string {
	return e.Provider + ": " + e.Status + ": " + e.Message + e.Attempts.Suffix()
}

// String returns obj's string member name ("" when obj is not an object, has no such member, or it is
// not a string).
func String(obj []byte, name string) string {
	raw, ok := strictjson.Member(obj, name)
	if !ok {
		return ""
	}
	var d strictjson.Decoder
	d.Reset(raw, strictjson.Limits{MaxBytes: len(raw) + 1})
	s, _ := d.String()
	return s
}

// Int returns obj's non-negative integer member name.
func Int(obj []byte, name string) (int, bool) {
	raw, ok := strictjson.Member(obj, name)
	if !ok {
		return 0, false
	}
	var d strictjson.Decoder
	d.Reset(raw, strictjson.Limits{})
	n, ok := d.Int(0, 1<<53)
	return int(n), ok
}

// ErrorMessage reads error.message (or a string error) of an error body, else returns the start of the
// body.
func ErrorMessage(data []byte) string {
	if e, ok := strictjson.Member(data, "error"); ok {
		if m := String(e, "message"); m != "" {
			return m
		}
		var d strictjson.Decoder
		d.Reset(e, strictjson.Limits{MaxBytes: len(e) + 1})
		if s, ok := d.String(); ok {
			return s
		}
	}
	return string(bytes.TrimSpace(data[:min(len(data), 200)]))
}

// Request is one provider request for PostStream.
type Request struct {
	// Provider names the provider package in errors ("anthropichttp").
	Provider string
	// URL is the endpoint.
	URL string
	// Body is the JSON body.
	Body []byte
	// Header holds the caller's extra headers (Config.Header), added first.
	Header http.Header
	// Set are the provider's own headers (authentication, version), set last.
	Set map[string]string
	// Client sends the request; nil means http.DefaultClient.
	Client *http.Client
	// Retry configures retries.
	Retry Retry
}

// PostStream posts r.Body (JSON, asking for an event stream) with retries (Do) and calls event with each
// server-sent event of a 2xx response. A non-2xx response is a *StatusError with the API's message. The
// error event returns is returned as is; a stream that breaks is an error only when started() is false
// (nothing usable arrived): otherwise what arrived stands, and the caller marks it incomplete. A line or
// an event past its bound (MaxLine, MaxEvent) is always an error: the answer would be missing a part. An
// error while ctx is done is joined with ctx.Err().
func PostStream(ctx context.Context, r Request, event func(Event) error, started func() bool) error {
	resp, at, err := Do(ctx, r.Client, r.Retry, func() (*http.Request, error) {
		hreq, err := http.NewRequest(http.MethodPost, r.URL, bytes.NewReader(r.Body))
		if err != nil {
			return nil, errors.New(r.Provider + ": " + err.Error())
		}
		for k, vs := range r.Header {
			for _, v := range vs {
				hreq.Header.Add(k, v)
			}
		}
		hreq.Header.Set("Content-Type", "application/json")
		hreq.Header.Set("Accept", "text/event-stream")
		for k, v := range r.Set {
			hreq.Header.Set(k, v)
		}
		return hreq, nil
	})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return &StatusError{Provider: r.Provider, StatusCode: resp.StatusCode, Status: resp.Status, Message: ErrorMessage(data), Attempts: at}
	}
	var eventErr error
	err = ReadEvents(resp.Body, func(ev Event) error {
		if err := event(ev); err != nil {
			eventErr = err
			return err
		}
		return nil
	})
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return errors.Join(err, ctx.Err())
	case eventErr != nil:
		return eventErr
	case errors.As(err, new(*EventTooLargeError)):
		return &streamError{provider: r.Provider, err: err}
	case !started():
		return errors.New(r.Provider + ": reading the stream: " + err.Error())
	}
	return nil // a connection cut mid-stream: what arrived stands
}

// streamError is an error reading a stream, prefixed with the provider's name; it unwraps to the cause.
type streamError struct {
	provider string
	err      error
}

func (e *streamError) Error() string { return e.provider + ": reading the stream: " + e.err.Error() }
func (e *streamError) Unwrap() error { return e.err }

// Settings fills a provider's base URL, model and key from the environment variables env[0], env[1] and
// env[2] where they are empty (the base URL then from defaultBase), and returns the endpoint: the base
// URL, without trailing slashes, followed by path. It fails when no model is set or the base URL is not
// an http or https URL; provider names the package in the errors.
func Settings(provider string, base, model, key *string, env [3]string, defaultBase, path string) (string, error) {
	for i, v := range []*string{base, model, key} {
		if *v == "" {
			*v = os.Getenv(env[i])
		}
	}
	if *base == "" {
		*base = defaultBase
	}
	if *model == "" {
		return "", errors.New(provider + ": no model: set Config.Model or " + env[1])
	}
	if !strings.HasPrefix(*base, "http://") && !strings.HasPrefix(*base, "https://") {
		return "", errors.New(provider + ": base URL " + strconv.Quote(*base) + " is not an http or https URL")
	}
	return strings.TrimRight(*base, "/") + path, nil
}
