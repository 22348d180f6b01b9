package mcpserver

// Streamable HTTP resumability (MCP 2025-11-25, SEP-1699), as far as the Go SDK (v1.8.0) allows.
//
// DESIGN-notes. What a stateful HTTPHandler does:
//   - Every stream event is kept in an event store (WithHTTPOptions's EventStore, else an in-memory
//     store like mcp.MemoryEventStore: DefaultEventStoreBytes across sessions, a session's events
//     dropped when it ends, its memory returned when most sessions have ended), so the SDK writes a priming event (an id and empty data) first on every POST SSE stream of
//     a client on 2025-11-25, and a client that lost a stream reconnects with GET and Last-Event-ID and
//     receives what it missed (the SDK replays it from the store).
//   - Every SSE response starts with a "retry:" field (WithSSERetry, DefaultSSERetry) telling the client
//     how long to wait before reconnecting; the SDK itself writes one only in the event that closes a
//     stream on purpose.
//   - A handler may close its call's stream, asking the client to come back later (CloseSSEStream); the
//     call goes on and its answer is replayed when the client reconnects. Only a stream that began with
//     a priming event is closed: the SDK closes any stream it is asked to, and a
//     client without the event's id cannot reconnect to it, so its answer was lost.
//
// What the SDK does not allow: it decides by the request's Mcp-Protocol-Version header, so a request
// whose header names a version before 2025-11-25 gets no priming event (and so cannot resume a POST
// stream it loses before the first event with an id), even on a session that negotiated 2025-11-25;
// 2026-07-28 removed resumable streams (SEP-2575) and the SDK writes neither there. A stateless server
// keeps no event store (no session to resume, and the SDK refuses GET). The in-memory store does not
// survive the process nor reach other workers: a fleet behind a load balancer needs an mcp.EventStore
// shared by its workers, given with WithHTTPOptions.

import (
	"context"
	"errors"
	"iter"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultSSERetry is the reconnection delay HTTPHandler sends at the start of every SSE response.
const DefaultSSERetry = time.Second

// WithSSERetry sets the reconnection delay HTTPHandler sends in the "retry:" field at the start of
// every SSE response; a negative d sends none. The default is DefaultSSERetry.
func WithSSERetry(d time.Duration) Option {
	return func(c *config) { c.sseRetry = d }
}

type closeStreamKey struct{}

// CloseSSEStream closes the SSE stream that carries the current tools/call's answer (ctx is the
// handler's *wink.ToolContext or a context derived from it), telling the client to reconnect after
// retryAfter: the call goes on, and the client receives its answer, with everything else it missed, by
// reconnecting with Last-Event-ID. It closes only a stream the client can resume, one that started
// with a priming event: a stream of a stateful HTTPHandler (which keeps an event store) answering a
// request of protocol 2025-11-25 as SSE. Everywhere else it closes nothing and reports false, and the
// answer goes on the open stream: over stdio, on a server made with New (which cannot know whether its
// HTTP handler keeps events), on a stateless handler, for a response sent as JSON
// (StreamableHTTPOptions.JSONResponse), and for requests of protocol 2025-06-18 or earlier (no priming
// event: the client could not resume) or 2026-07-28 (no resumable streams).
func CloseSSEStream(ctx context.Context, retryAfter time.Duration) bool {
	f, _ := ctx.Value(closeStreamKey{}).(func(mcp.CloseSSEStreamArgs))
	if f == nil {
		return false
	}
	f(mcp.CloseSSEStreamArgs{RetryAfter: retryAfter})
	return true
}

// withCloseStream returns ctx carrying req's CloseSSEStream when the client can resume the stream it
// closes: the server's streams are resumable (resumableStreams) and the request's
// stream started with a priming event. The SDK writes that event, on a stream with an event store, for a
// request whose Mcp-Protocol-Version header is 2025-11-25 or later and before 2026-07-28, and closes a
// stream when asked whether it wrote one or not: a client at 2025-06-18 or earlier then lost the answer,
// and a JSON response got a close event in place of its body.
func (s *server) withCloseStream(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if !s.resumableStreams || req == nil || req.Extra == nil || req.Extra.CloseSSEStream == nil {
		return ctx
	}
	if v := req.Extra.Header.Get("Mcp-Protocol-Version"); v < version20251125 || v >= version20260728 {
		return ctx
	}
	return context.WithValue(ctx, closeStreamKey{}, req.Extra.CloseSSEStream)
}

// resumableStreams reports whether a handler with options o keeps its POST streams resumable: a stateful
// handler with an event store, answering as SSE.
func resumableStreams(o *mcp.StreamableHTTPOptions) bool {
	return !o.Stateless && o.EventStore != nil && !o.JSONResponse
}

// resumable completes the HTTP options of a stateful handler with an event store.
func resumable(o *mcp.StreamableHTTPOptions) *mcp.StreamableHTTPOptions {
	if !o.Stateless && o.EventStore == nil {
		o.EventStore = newEventStore()
	}
	return o
}

// withRetry wraps h so that every SSE response starts with a "retry:" field of d (none when d < 0).
func withRetry(h http.Handler, d time.Duration) http.Handler {
	if d == 0 {
		d = DefaultSSERetry
	}
	if d < 0 {
		return h
	}
	field := []byte("retry: " + strconv.FormatInt(d.Milliseconds(), 10) + "\n\n")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &retryWriter{ResponseWriter: w, field: field}
		h.ServeHTTP(rw, r)
		// A stream closed before its first event (CloseSSEStream) still says when to come back.
		rw.start()
	})
}

// retryWriter writes field before the first bytes of a text/event-stream body. A block holding only a
// "retry:" field sets the client's reconnection delay and dispatches no event.
type retryWriter struct {
	http.ResponseWriter
	field []byte
	done  bool
}

func (w *retryWriter) start() {
	if w.done {
		return
	}
	w.done = true
	if ct := w.Header().Get("Content-Type"); len(ct) >= len("text/event-stream") && ct[:len("text/event-stream")] == "text/event-stream" {
		_, _ = w.ResponseWriter.Write(w.field)
	}
}

func (w *retryWriter) WriteHeader(code int) {
	if code == http.StatusOK {
		defer w.start()
	} else {
		w.done = true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *retryWriter) Write(b []byte) (int, error) {
	if !w.done {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Flush implements http.Flusher.
func (w *retryWriter) Flush() {
	if !w.done {
		w.WriteHeader(http.StatusOK)
	}
	http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *retryWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// DefaultEventStoreBytes bounds the stream events HTTPHandler's default event store keeps, across
// sessions; past it, the oldest events of the streams are dropped (a client resuming from before them
// is told they are gone).
const DefaultEventStoreBytes = 10 << 20

// eventStore is HTTPHandler's default mcp.EventStore: mcp.MemoryEventStore's behaviour, with the map
// of sessions rebuilt when most of its sessions have ended (a Go map keeps the memory of its largest
// size, and a server with many short sessions would keep the memory of its busiest moment).
type eventStore struct {
	mu       sync.Mutex
	maxBytes int
	nBytes   int
	peak     int
	sessions map[string]map[string]*eventList // session id -> stream id -> events
}

// eventList is the events of one stream; first is the stream index of data[0].
type eventList struct {
	size, first int
	data        [][]byte
}

func newEventStore() *eventStore {
	return &eventStore{maxBytes: DefaultEventStoreBytes, sessions: map[string]map[string]*eventList{}}
}

func (s *eventStore) list(sessionID, streamID string) *eventList {
	sm := s.sessions[sessionID]
	if sm == nil {
		sm = map[string]*eventList{}
		s.sessions[sessionID] = sm
		s.peak = max(s.peak, len(s.sessions))
	}
	l := sm[streamID]
	if l == nil {
		l = &eventList{}
		sm[streamID] = l
	}
	return l
}

// Open implements mcp.EventStore.
func (s *eventStore) Open(_ context.Context, sessionID, streamID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list(sessionID, streamID)
	return nil
}

// Append implements mcp.EventStore.
func (s *eventStore) Append(_ context.Context, sessionID, streamID string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.list(sessionID, streamID)
	for s.nBytes+len(data) > s.maxBytes && s.dropOldest() {
	}
	l.data = append(l.data, data)
	l.size += len(data)
	s.nBytes += len(data)
	return nil
}

// dropOldest removes the first event of every stream that has one; false when none had.
func (s *eventStore) dropOldest() bool {
	dropped := false
	for _, sm := range s.sessions {
		for _, l := range sm {
			if len(l.data) == 0 {
				continue
			}
			s.nBytes -= len(l.data[0])
			l.size -= len(l.data[0])
			l.data[0] = nil
			l.data = l.data[1:]
			l.first++
			dropped = true
		}
	}
	return dropped
}

// After implements mcp.EventStore.
func (s *eventStore) After(_ context.Context, sessionID, streamID string, index int) iter.Seq2[[]byte, error] {
	s.mu.Lock()
	var data [][]byte
	var err error
	if l := s.sessions[sessionID][streamID]; l == nil {
		err = errors.New("mcpserver: no events of stream " + strconv.Quote(streamID) + " in session " + strconv.Quote(sessionID))
	} else if start := index + 1 - l.first; start < 0 {
		err = mcp.ErrEventsPurged
	} else if start < len(l.data) {
		data = slices.Clone(l.data[start:])
	}
	s.mu.Unlock()
	return func(yield func([]byte, error) bool) {
		if err != nil {
			yield(nil, err)
			return
		}
		for _, d := range data {
			if !yield(d, nil) {
				return
			}
		}
	}
}

// SessionClosed implements mcp.EventStore.
func (s *eventStore) SessionClosed(_ context.Context, sessionID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.sessions[sessionID] {
		s.nBytes -= l.size
	}
	delete(s.sessions, sessionID)
	if s.peak >= 64 && len(s.sessions) <= s.peak/4 {
		s.sessions = maps.Clone(s.sessions)
		if s.sessions == nil {
			s.sessions = map[string]map[string]*eventList{}
		}
		s.peak = len(s.sessions)
	}
	return nil
}
