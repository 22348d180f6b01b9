package mcpserver

// Streamable HTTP resumability (MCP 2025-11-25, SEP-1699), as far as the Go SDK (v1.8.0) allows.
//
// DESIGN-notes. What a stateful HTTPHandler does:
//   - Every stream event is kept in an event store (WithHTTPOptions's EventStore, else the in-memory
//     store of eventstore.go: DefaultSessionEventBytes per session and DefaultEventStoreBytes across
//     sessions, the oldest events dropped first, a session's events dropped when it ends), so the SDK
//     writes a priming event (an id and empty data) first on every POST SSE stream of
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
	"net/http"
	"strconv"
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
