package mcpserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/mcpservertest"
	"github.com/winkgen/wink/runtime/wink"
)

// rawTransport sends one JSON-RPC message as written and returns the server's whole answer.
type rawTransport struct {
	name string
	send func(t *testing.T, msg string) (status int, body string)
}

// rawTransports are the transports a message reaches the server by: stdio (LineTransport), streamable
// HTTP stateful (after initialize, in the session) and stateless.
func rawTransports(t *testing.T, d *wink.Dispatcher) []rawTransport {
	t.Helper()
	lc := startLineServerWith(t, d, 0)
	lc.initialize()
	stdio := rawTransport{"stdio", func(t *testing.T, msg string) (int, string) {
		lc.send(msg)
		return 0, lc.recv()
	}}
	httpSend := func(url, session string) func(t *testing.T, msg string) (int, string) {
		return func(t *testing.T, msg string) (int, string) {
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(msg))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if session != "" {
				req.Header.Set("Mcp-Session-Id", session)
			}
			if !strings.HasPrefix(msg, "[") { // batches are for clients before 2025-06-18, which send no version
				req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
	}
	stateful, err := mcpserver.HTTPHandler(d)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(stateful)
	t.Cleanup(hs.Close)
	resp := post(t, hs.URL, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	session := resp.Header.Get("Mcp-Session-Id")
	readSSE(t, resp.Body, func(e sseEvent) bool { return strings.Contains(e.data, `"id":1`) })
	post(t, hs.URL, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()

	stateless, err := mcpserver.HTTPHandler(d, mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true}))
	if err != nil {
		t.Fatal(err)
	}
	hl := httptest.NewServer(stateless)
	t.Cleanup(hl.Close)
	return []rawTransport{stdio, {"http-stateful", httpSend(hs.URL, session)}, {"http-stateless", httpSend(hl.URL, "")}}
}

// rpcError is the error of a JSON-RPC answer.
func rpcError(t *testing.T, body string) (id any, code int, message string) {
	t.Helper()
	var m struct {
		ID    any `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &m); err != nil || m.Error == nil {
		return nil, 0, ""
	}
	return m.ID, m.Error.Code, m.Error.Message
}

// twiceSpelled are messages that give a member twice, at the envelope's level, in params, or deeper, some
// with the second spelling escaped; each would run tally when read by its last member, and other work
// (or another tool) when read by its first.
var twiceSpelled = []struct{ why, msg, member string }{
	{"method twice", `{"jsonrpc":"2.0","id":7,"method":"tools/list","method":"tools/call","params":{"name":"tally","arguments":{"n":1}}}`, `"method"`},
	{"method twice, escaped", `{"jsonrpc":"2.0","id":7,"method":"tools/list","m\u0065thod":"tools/call","params":{"name":"tally","arguments":{"n":1}}}`, `"method"`},
	{"params twice", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"}},"params":{"name":"tally","arguments":{"n":1}}}`, `"params"`},
	{"jsonrpc twice", `{"jsonrpc":"2.0","jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tally","arguments":{"n":1}}}`, `"jsonrpc"`},
	{"an unknown member twice", `{"jsonrpc":"2.0","id":7,"x":1,"x":2,"method":"tools/call","params":{"name":"tally","arguments":{"n":1}}}`, `"x"`},
	{"name twice", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","name":"tally","arguments":{"n":1}}}`, `"name" of "params"`},
	{"name twice, escaped", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","na\u006de":"tally","arguments":{"n":1}}}`, `"name" of "params"`},
	{"name twice, all escaped", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"\u006eame":"echo","\u006e\u0061\u006d\u0065":"tally","arguments":{"n":1}}}`, `"name" of "params"`},
	{"arguments twice", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tally","arguments":{"n":1},"arguments":{"n":2}}}`, `"arguments" of "params"`},
	{"_meta twice", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tally","arguments":{"n":1},"_meta":{},"_meta":{"progressToken":1}}}`, `"_meta" of "params"`},
	{"a member of _meta twice", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tally","arguments":{"n":1},"_meta":{"progressToken":1,"progress\u0054oken":2}}}`, `"progressToken" is given twice in "params._meta"`},
	{"requestState twice", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tally","arguments":{"n":1},"requestState":"a","requestState":"b"}}`, `"requestState" of "params"`},
	{"inputResponses twice", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tally","arguments":{"n":1},"inputResponses":{},"inputResponses":{}}}`, `"inputResponses" of "params"`},
	{"a member of inputResponses twice", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tally","arguments":{"n":1},"inputResponses":{"k":{"action":"decline"},"k":{"action":"accept"}}}}`, `"k" is given twice in "params.inputResponses"`},
	{"deep in an input response", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tally","arguments":{"n":1},"inputResponses":{"k":{"action":"decline","action":"accept"}}}}`, `"action" is given twice in "params.inputResponses"`},
	{"cursor twice (tools/list)", `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"a","cursor":"b"}}`, `"cursor" of "params"`},
	{"uri twice (resources/read)", `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"a:/x","uri":"a:/y"}}`, `"uri" of "params"`},
	{"arguments twice in prompts/get", `{"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{"name":"p","arguments":{"a":"1","a":"2"}}}`, `"a" is given twice in "params.arguments"`},
}

// A message that gives a member twice is refused on every transport with -32600 Invalid Request and
// nothing of it runs: the request that runs is the request every reader reads. The same
// message without the repeated member runs (so each case could fail), and a member given twice inside a
// tools/call's arguments is refused by the tool's strict decoder, which tells the model.
func TestMessagesGivingAMemberTwiceAreRefused(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(mcpservertest.WinkTools())}
	for _, tr := range rawTransports(t, d) {
		t.Run(tr.name, func(t *testing.T) {
			for _, c := range twiceSpelled {
				before := mcpservertest.Tallies.Load()
				status, body := tr.send(t, c.msg)
				id, code, msg := rpcError(t, body)
				if code != -32600 || id != float64(7) || !strings.Contains(msg, "member "+c.member) || !strings.Contains(msg, "given twice") {
					t.Errorf("%s: got %d %q, want a -32600 error of id 7 naming member %s", c.why, status, body, c.member)
				}
				if tr.name != "stdio" && status != http.StatusBadRequest {
					t.Errorf("%s: HTTP status %d, want 400", c.why, status)
				}
				if n := mcpservertest.Tallies.Load() - before; n != 0 {
					t.Errorf("%s: tally ran %d times", c.why, n)
				}
			}
			before := mcpservertest.Tallies.Load()
			_, body := tr.send(t, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"tally","arguments":{"n":1}}}`)
			if !strings.Contains(body, `"result":{"content":[{"type":"text","text":"Tallied.\n\n1"}]`) || mcpservertest.Tallies.Load()-before != 1 {
				t.Errorf("the same call given once: %q", body)
			}
			_, body = tr.send(t, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"tally","arguments":{"n":1,"\u006e":2}}}`)
			if !strings.Contains(body, `"isError":true`) || !strings.Contains(body, "duplicate field") || mcpservertest.Tallies.Load()-before != 1 {
				t.Errorf("a member twice in the arguments: %q", body)
			}
		})
	}
}

// Over HTTP a batch (which the SDK accepts from clients before 2025-06-18) is checked message by message:
// one message giving a member twice refuses the whole batch, and nothing of it runs.
func TestBatchGivingAMemberTwiceIsRefused(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(mcpservertest.WinkTools())}
	for _, tr := range rawTransports(t, d)[1:] {
		t.Run(tr.name, func(t *testing.T) {
			before := mcpservertest.Tallies.Load()
			status, body := tr.send(t, `[{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"tally","arguments":{"n":1}}},`+
				`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","na\u006de":"tally","arguments":{"n":1}}}]`)
			if id, code, _ := rpcError(t, body); status != http.StatusBadRequest || code != -32600 || id != float64(6) {
				t.Errorf("got %d %q", status, body)
			}
			if n := mcpservertest.Tallies.Load() - before; n != 0 {
				t.Errorf("tally ran %d times", n)
			}
			_, body = tr.send(t, `[{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"tally","arguments":{"n":1}}}]`)
			if !strings.Contains(body, `"Tallied.\n\n1"`) || mcpservertest.Tallies.Load()-before != 1 {
				t.Errorf("a good batch: %q", body)
			}
		})
	}
}

// HTTPHandler serves a browser page only from the server's own origin, a loopback one or one allowed by
// WithAllowedOrigins; any other Origin is refused with 403 and nothing runs, whatever
// the method. Requests without Origin (non-browser clients) are served.
func TestOriginIsChecked(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(mcpservertest.WinkTools())}
	h, err := mcpserver.HTTPHandler(d, mcpserver.WithAllowedOrigins("https://app.example.com", "http://tools.example.org:8080"),
		mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true, DisableLocalhostProtection: true}))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tally","arguments":{"n":1}}}`
	for _, c := range []struct {
		method, origin, host string
		ok                   bool
	}{
		{"POST", "", "", true},
		{"POST", "https://evil.example", "", false},
		{"POST", "null", "", false},
		{"POST", "https://mcp.example.com", "mcp.example.com", true},     // the server's own origin
		{"POST", "https://mcp.example.com:443", "mcp.example.com", true}, // the same, default port spelled
		{"POST", "https://mcp.example.com", "mcp.example.com:8443", false},
		{"POST", "http://mcp.example.com.evil.example", "mcp.example.com", false},
		{"POST", "http://localhost:6274", "", true}, // a page on the user's machine (the MCP Inspector)
		{"POST", "http://127.0.0.1:3000", "", true},
		{"POST", "http://[::1]:3000", "", true},
		{"POST", "https://APP.example.com", "", true}, // allowed
		{"POST", "https://app.example.com:443", "", true},
		{"POST", "http://app.example.com", "", false}, // another scheme
		{"POST", "http://tools.example.org:8080", "", true},
		{"POST", "http://tools.example.org", "", false}, // another port
		{"GET", "https://evil.example", "", false},
		{"DELETE", "https://evil.example", "", false},
	} {
		before := mcpservertest.Tallies.Load()
		var body io.Reader
		if c.method == "POST" {
			body = strings.NewReader(call)
		}
		req, _ := http.NewRequest(c.method, hs.URL, body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		if c.host != "" {
			req.Host = c.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		ran := mcpservertest.Tallies.Load() - before
		if !c.ok {
			if resp.StatusCode != http.StatusForbidden || ran != 0 || !strings.Contains(string(b), "WithAllowedOrigins") {
				t.Errorf("%s from %q to %q: %s %q, tally ran %d times; want 403", c.method, c.origin, c.host, resp.Status, b, ran)
			}
			continue
		}
		if resp.StatusCode != http.StatusOK || ran != 1 {
			t.Errorf("%s from %q to %q: %s %q, tally ran %d times; want it served", c.method, c.origin, c.host, resp.Status, b, ran)
		}
	}
}
