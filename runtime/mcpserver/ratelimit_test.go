package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/ratelimit"
	"github.com/winkgen/wink/runtime/wink"
)

const scheduleArgs = `{"title":"Ship v1","at":"2026-12-01T10:00:00Z","priority":3}`

func limiter(t *testing.T, limits ratelimit.Limits) *ratelimit.Limiter {
	t.Helper()
	l, err := ratelimit.New(limits, nil)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestRateLimitedCallIsAToolErrorSayingWhenToRetry: past its tool's rate, a call is answered with a tool
// error (isError) whose text says when to call again and whose _meta carries the seconds, in memory and
// over HTTP alike (a per-tool bound is not an HTTP 429).
func TestRateLimitedCallIsAToolErrorSayingWhenToRetry(t *testing.T) {
	for _, tc := range []struct {
		name    string
		connect func(*testing.T, *wink.Dispatcher, ...mcpserver.Option) *mcp.ClientSession
	}{{"in-memory", inMemory}, {"streamable-http", overHTTP}} {
		t.Run(tc.name, func(t *testing.T) {
			l := limiter(t, ratelimit.Limits{Tools: map[string]wink.Rate{"schedule_task": {Count: 1, Per: time.Hour}}})
			cs := tc.connect(t, exampleDispatcher(t), mcpserver.WithRateLimit(l))
			if res := call(t, cs, "schedule_task", scheduleArgs); res.IsError {
				t.Fatalf("first call: %v", res.Content)
			}
			res := call(t, cs, "schedule_task", scheduleArgs)
			text := ""
			if len(res.Content) == 1 {
				text = res.Content[0].(*mcp.TextContent).Text
			}
			if !res.IsError || !strings.HasPrefix(text, `tool "schedule_task" was not called: this tool's rate limit for the caller (1/h) is used up; call it again in 1h or later`) &&
				!strings.HasPrefix(text, `tool "schedule_task" was not called: this tool's rate limit for the caller (1/h) is used up; call it again in 59m59s or later`) {
				t.Fatalf("second call: isError %v, %q", res.IsError, text)
			}
			secs, ok := res.Meta[mcpserver.MetaRetryAfter].(float64)
			if !ok || secs < 3590 || secs > 3600 {
				t.Fatalf("_meta = %v, want %s about 3600", res.Meta, mcpserver.MetaRetryAfter)
			}
			// Other tools are not limited.
			if res := call(t, cs, "search_docs", `{"query":"x"}`); res.IsError && strings.Contains(toJSON(res.Content), "rate limit") {
				t.Fatalf("search_docs: %v", res.Content)
			}
		})
	}
}

// TestServerBoundOverHTTPIsA429WithRetryAfter: with the server-wide bucket empty, a tools/call over HTTP
// is answered with 429 Too Many Requests and Retry-After before anything runs; a request that calls no
// tool is not; over a transport without status codes, the server bound is the tool error.
func TestServerBoundOverHTTPIsA429WithRetryAfter(t *testing.T) {
	l := limiter(t, ratelimit.Limits{Server: wink.Rate{Count: 2, Per: time.Hour, Burst: 1}})
	h, err := mcpserver.HTTPHandler(exampleDispatcher(t), mcpserver.WithRateLimit(l))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	cs, err := newClient().Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if res := call(t, cs, "schedule_task", scheduleArgs); res.IsError {
		t.Fatalf("first call: %v", res.Content)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "schedule_task", Arguments: json.RawMessage(scheduleArgs)}); err == nil ||
		!strings.Contains(err.Error(), "Too Many Requests") {
		t.Fatalf("second call through the SDK client: err = %v, want the 429", err)
	}
	post := func(body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"schedule_task","arguments":` + scheduleArgs + `}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}]`,
	} {
		resp := post(body)
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "1800" {
			t.Fatalf("POST %s: %s, Retry-After %q; want 429 with Retry-After 1800", body, resp.Status, resp.Header.Get("Retry-After"))
		}
	}
	if resp := post(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"note":"tools/call"}}`); resp.StatusCode == http.StatusTooManyRequests {
		t.Fatal("a request that calls no tool was answered 429")
	}
	if res, err := cs.ListTools(context.Background(), nil); err != nil || len(res.Tools) == 0 {
		t.Fatalf("tools/list with the server bucket empty: %v", err)
	}

	// In memory (as over stdio): the same bound is a tool error.
	l2 := limiter(t, ratelimit.Limits{Server: wink.Rate{Count: 2, Per: time.Hour, Burst: 1}})
	ms := inMemory(t, exampleDispatcher(t), mcpserver.WithRateLimit(l2))
	call(t, ms, "schedule_task", scheduleArgs)
	res := call(t, ms, "schedule_task", scheduleArgs)
	if !res.IsError || !strings.Contains(toJSON(res.Content), "the server's rate limit (2/h burst=1) is used up") || res.Meta[mcpserver.MetaRetryAfter] == nil {
		t.Fatalf("in memory: %v %v", res.Content, res.Meta)
	}
}

// TestRateLimitHoldsAcrossClientsWithSessions: with WithSessions, every client's own dispatcher gets the
// limiter, so clients of one caller (here, the anonymous one) share its buckets.
func TestRateLimitHoldsAcrossClientsWithSessions(t *testing.T) {
	l := limiter(t, ratelimit.Limits{Tools: map[string]wink.Rate{"schedule_task": {Count: 1, Per: time.Hour}}})
	d := exampleDispatcher(t)
	sessions := mcpserver.WithSessions(func(context.Context, mcpserver.Client) (*wink.Dispatcher, func(), error) {
		return &wink.Dispatcher{Registry: d.Registry}, nil, nil
	})
	a := inMemory(t, d, sessions, mcpserver.WithRateLimit(l))
	b := inMemory(t, d, sessions, mcpserver.WithRateLimit(l))
	if res := call(t, a, "schedule_task", scheduleArgs); res.IsError {
		t.Fatalf("first client: %v", res.Content)
	}
	if res := call(t, b, "schedule_task", scheduleArgs); !res.IsError || res.Meta[mcpserver.MetaRetryAfter] == nil {
		t.Fatalf("second client of the same caller: %v %v, want the rate limit's tool error", res.Content, res.Meta)
	}
}
