package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
)

// sseEvent is one block of an SSE stream: its fields as sent.
type sseEvent struct {
	event, id, retry, data string
	hasData                bool
}

// readSSE reads the blocks of an SSE body until it ends or stop says so.
func readSSE(t *testing.T, body io.Reader, stop func(sseEvent) bool) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	empty := true
	br := bufio.NewReader(body)
	for {
		line, err := br.ReadString('\n')
		line = strings.TrimSuffix(line, "\n")
		if line == "" && err == nil {
			if !empty {
				out = append(out, cur)
				if stop != nil && stop(cur) {
					return out
				}
			}
			cur, empty = sseEvent{}, true
			continue
		}
		if err != nil {
			return out
		}
		k, v, _ := strings.Cut(line, ":")
		v = strings.TrimPrefix(v, " ")
		empty = false
		switch k {
		case "event":
			cur.event = v
		case "id":
			cur.id = v
		case "retry":
			cur.retry = v
		case "data":
			cur.data, cur.hasData = cur.data+v, true
		}
	}
}

// post sends one JSON-RPC message to the handler's URL.
func post(t *testing.T, url, session, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// A stateful HTTP handler's streams are resumable: every SSE response starts with a
// retry field, a POST stream of a 2025-11-25 client starts with a priming event carrying an id, a
// handler can close its call's stream (CloseSSEStream, which sends the close event with its retry),
// and the client that reconnects with GET and Last-Event-ID receives the call's answer.
func TestStreamsAreResumable(t *testing.T) {
	h, err := mcpserver.HTTPHandler(testDispatcher(t))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)

	resp := post(t, hs.URL, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	session := resp.Header.Get("Mcp-Session-Id")
	init := readSSE(t, resp.Body, func(e sseEvent) bool { return strings.Contains(e.data, `"id":1`) })
	if session == "" || len(init) < 3 {
		t.Fatalf("initialize: session %q, events %+v", session, init)
	}
	if init[0].retry != "1000" || init[0].hasData {
		t.Errorf("the stream does not start with the retry field alone: %+v", init[0])
	}
	if init[1].id == "" || init[1].data != "" {
		t.Errorf("no priming event (an id, empty data) first: %+v", init[1])
	}
	post(t, hs.URL, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()

	resp = post(t, hs.URL, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"linger","arguments":{"ms":300}}}`)
	events := readSSE(t, resp.Body, nil) // the handler closes the stream before answering
	var prime, closing *sseEvent
	for i := range events {
		switch e := &events[i]; {
		case strings.Contains(e.data, `"id":2`):
			t.Fatalf("the answer came on the closed stream: %+v", events)
		case e.event == "prime" && e.id != "":
			prime = e
		case e.event == "close":
			closing = e
		}
	}
	if prime == nil || closing == nil || closing.retry != "10" || events[0].retry != "1000" {
		t.Fatalf("want retry, priming event, then close with retry 10; got %+v", events)
	}

	req, _ := http.NewRequest(http.MethodGet, hs.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Last-Event-ID", prime.id)
	got, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Body.Close()
	if got.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(got.Body)
		t.Fatalf("resuming: %s %s", got.Status, b)
	}
	done := make(chan []sseEvent, 1)
	go func() {
		done <- readSSE(t, got.Body, func(e sseEvent) bool { return strings.Contains(e.data, `"id":2`) })
	}()
	select {
	case resumed := <-done:
		last := resumed[len(resumed)-1]
		if !strings.Contains(last.data, `"id":2`) || !strings.Contains(last.data, `closed=true`) || last.id == "" {
			t.Errorf("resumed stream: %+v", resumed)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no answer on the resumed stream")
	}
}

// WithSSERetry sets the retry field or leaves it out; a stateless handler has no resumable streams but
// still says how long to wait.
func TestSSERetryField(t *testing.T) {
	for _, tt := range []struct {
		name  string
		opts  []mcpserver.Option
		retry string
	}{
		{"250ms", []mcpserver.Option{mcpserver.WithSSERetry(250 * time.Millisecond)}, "250"},
		{"none", []mcpserver.Option{mcpserver.WithSSERetry(-1)}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, err := mcpserver.HTTPHandler(testDispatcher(t), tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			hs := httptest.NewServer(h)
			t.Cleanup(hs.Close)
			resp := post(t, hs.URL, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
			events := readSSE(t, resp.Body, func(e sseEvent) bool { return strings.Contains(e.data, `"id":1`) })
			if len(events) == 0 {
				t.Fatal("no events")
			}
			if events[0].retry != tt.retry {
				t.Errorf("first block %+v, want retry %q", events[0], tt.retry)
			}
		})
	}
}

// CloseSSEStream outside a streamable HTTP call reports false and changes nothing: the call answers
// normally (in memory, the SDK's transport has no stream to close).
func TestCloseSSEStreamWithoutAStream(t *testing.T) {
	cs := inMemory(t, testDispatcher(t))
	checkResult(t, call(t, cs, "linger", `{"ms":0}`), false, "Lingered.\n\n\"closed=false\"", `"closed=false"`)
}

// CloseSSEStream closes only a stream the client can resume: one that started with a
// priming event (an event id), which the SDK writes on a stateful server with an event store, for a
// request of protocol 2025-11-25 sent as SSE. Everywhere else (a client at 2025-06-18 or earlier, a
// stateless server, JSON responses, 2026-07-28) it reports false, the stream stays open, and the answer
// arrives on it: before, the stream was closed and the answer lost.
func TestCloseSSEStreamOnlyWhenResumable(t *testing.T) {
	for _, c := range []struct {
		version string
		opts    mcp.StreamableHTTPOptions
		closed  bool
	}{
		{"2024-11-05", mcp.StreamableHTTPOptions{}, false},
		{"2025-03-26", mcp.StreamableHTTPOptions{}, false},
		{"2025-06-18", mcp.StreamableHTTPOptions{}, false},
		{"2025-11-25", mcp.StreamableHTTPOptions{}, true},
		{"2025-11-25", mcp.StreamableHTTPOptions{JSONResponse: true}, false},
		{"2025-06-18", mcp.StreamableHTTPOptions{JSONResponse: true}, false},
		{"2025-11-25", mcp.StreamableHTTPOptions{Stateless: true}, false},
		{"2025-06-18", mcp.StreamableHTTPOptions{Stateless: true}, false},
		{"2026-07-28", mcp.StreamableHTTPOptions{Stateless: true}, false},
	} {
		name := c.version
		if c.opts.JSONResponse {
			name += "/json"
		}
		if c.opts.Stateless {
			name += "/stateless"
		}
		t.Run(name, func(t *testing.T) {
			opts := c.opts
			h, err := mcpserver.HTTPHandler(testDispatcher(t), mcpserver.WithHTTPOptions(&opts))
			if err != nil {
				t.Fatal(err)
			}
			hs := httptest.NewServer(h)
			t.Cleanup(hs.Close)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cs, err := newClient().Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: 3},
				&mcp.ClientSessionOptions{ProtocolVersion: c.version})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "linger", Arguments: json.RawMessage(`{"ms":100}`)})
			if err != nil {
				t.Fatalf("the answer was lost: %v", err)
			}
			want := "closed=" + strconv.FormatBool(c.closed)
			if res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, want) {
				t.Fatalf("got %+v, want %s", res.Content, want)
			}
		})
	}
}

// A request whose Mcp-Protocol-Version header names 2025-06-18 gets no priming event even on a session
// that negotiated 2025-11-25 (the SDK decides by the header): its stream is not closed, and the answer
// comes on it.
func TestCloseSSEStreamKeepsAStreamWithoutPrimingEvent(t *testing.T) {
	h, err := mcpserver.HTTPHandler(testDispatcher(t))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	resp := post(t, hs.URL, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	session := resp.Header.Get("Mcp-Session-Id")
	readSSE(t, resp.Body, func(e sseEvent) bool { return strings.Contains(e.data, `"id":1`) })
	post(t, hs.URL, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()

	req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"linger","arguments":{"ms":50}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	got, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Body.Close()
	events := readSSE(t, got.Body, func(e sseEvent) bool { return strings.Contains(e.data, `"id":2`) })
	for _, e := range events {
		if e.event == "prime" || e.event == "close" {
			t.Errorf("a stream of a 2025-06-18 request has event %+v", e)
		}
	}
	if len(events) == 0 || !strings.Contains(events[len(events)-1].data, `closed=false`) {
		t.Fatalf("the answer did not come on the stream: %+v", events)
	}
}
