package mcpserver_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// freshSessions gives each client a copy of the template with a new session, and counts what it makes
// and releases.
type freshSessions struct {
	template         *wink.Dispatcher
	made, released   atomic.Int64
	mu               sync.Mutex
	clients          []mcpserver.Client
	byHeader         map[string]*session.Session // X-Wink-Session -> stored session
	mappedFromHeader string
}

func (f *freshSessions) open(ctx context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clients = append(f.clients, c)
	d := *f.template
	if id := c.Header.Get("X-Wink-Session"); f.byHeader != nil && id != "" {
		s := f.byHeader[id]
		if s == nil {
			s = session.New(session.WithID(id))
			f.byHeader[id] = s
		}
		d.Session = s
	} else {
		d.Session = session.New()
	}
	f.made.Add(1)
	return &d, func() { f.released.Add(1) }, nil
}

// notes calls list_notes and returns the notes.
func notes(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res := call(t, cs, "list_notes", "")
	if res.IsError {
		t.Fatalf("list_notes failed: %s", text(res))
	}
	m, _ := resultValue(res).(map[string]any)
	items, _ := m["notes"].([]any)
	var out []string
	for _, it := range items {
		s, _ := it.(string)
		out = append(out, s)
	}
	return out
}

// text returns the text of a result's single content block.
func text(res *mcp.CallToolResult) string {
	if len(res.Content) != 1 {
		return "(" + strconv.Itoa(len(res.Content)) + " content blocks)"
	}
	tc, _ := res.Content[0].(*mcp.TextContent)
	if tc == nil {
		return "(not text)"
	}
	return tc.Text
}

// connectHTTP connects a new SDK client to the handler's server at url, with header added to every request.
func connectHTTP(t *testing.T, url string, header http.Header) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: headerTransport{header}}
	cs, err := newClient().Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type headerTransport struct{ h http.Header }

func (ht headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, vs := range ht.h {
		r.Header[k] = vs
	}
	return http.DefaultTransport.RoundTrip(r)
}

func serveHTTP(t *testing.T, d *wink.Dispatcher, opts ...mcpserver.Option) string {
	t.Helper()
	h, err := mcpserver.HTTPHandler(d, opts...)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return hs.URL
}

func TestEachHTTPClientHasItsOwnSession(t *testing.T) {
	f := &freshSessions{template: testDispatcher(t)}
	url := serveHTTP(t, f.template, mcpserver.WithSessions(f.open))
	a, b := connectHTTP(t, url, nil), connectHTTP(t, url, nil)
	checkResult(t, call(t, a, "add_note", `{"text":"from a"}`), false, "added", "")
	checkResult(t, call(t, b, "add_note", `{"text":"from b"}`), false, "added", "")
	if got := notes(t, a); strings.Join(got, ",") != "from a" {
		t.Errorf("client a sees %q, want only its own note", got)
	}
	if got := notes(t, b); strings.Join(got, ",") != "from b" {
		t.Errorf("client b sees %q, want only its own note", got)
	}
	if got := f.made.Load(); got != 2 {
		t.Errorf("factory called %d times for two clients, want 2 (once each, lazily)", got)
	}
	f.mu.Lock()
	for _, c := range f.clients {
		if c.SessionID == "" || c.Stateless || c.Header == nil {
			t.Errorf("client %+v: want an MCP session id, not stateless, a header", c)
		}
	}
	if len(f.clients) == 2 && f.clients[0].SessionID == f.clients[1].SessionID {
		t.Errorf("both clients have session id %q", f.clients[0].SessionID)
	}
	f.mu.Unlock()

	a.Close()
	waitFor(t, "the closed client's session to be released", func() bool { return f.released.Load() == 1 })
	checkResult(t, call(t, b, "add_note", `{"text":"b again"}`), false, "added", "")
	if got := notes(t, b); strings.Join(got, ",") != "from b,b again" {
		t.Errorf("client b sees %q after a left", got)
	}
}

func TestStatelessRequestsGetAFreshSessionUnlessMapped(t *testing.T) {
	f := &freshSessions{template: testDispatcher(t), byHeader: map[string]*session.Session{}}
	url := serveHTTP(t, f.template, mcpserver.WithSessions(f.open), mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true}))

	plain := connectHTTP(t, url, nil)
	checkResult(t, call(t, plain, "add_note", `{"text":"lost"}`), false, "added", "")
	if got := notes(t, plain); len(got) != 0 {
		t.Errorf("a stateless request sees %q from the one before, want a fresh session", got)
	}

	mapped := connectHTTP(t, url, http.Header{"X-Wink-Session": {"conv-7"}})
	checkResult(t, call(t, mapped, "add_note", `{"text":"kept"}`), false, "added", "")
	again := connectHTTP(t, url, http.Header{"X-Wink-Session": {"conv-7"}})
	if got := notes(t, again); strings.Join(got, ",") != "kept" {
		t.Errorf("a request mapped to conv-7 sees %q, want the note of the earlier request", got)
	}
	other := connectHTTP(t, url, http.Header{"X-Wink-Session": {"conv-8"}})
	if got := notes(t, other); len(got) != 0 {
		t.Errorf("conv-8 sees %q", got)
	}

	f.mu.Lock()
	for _, c := range f.clients {
		if !c.Stateless || c.SessionID != "" {
			t.Errorf("client %+v: want stateless without a session id", c)
		}
	}
	f.mu.Unlock()
	waitFor(t, "every stateless session to be released", func() bool { return f.released.Load() == f.made.Load() })
	if f.made.Load() != 5 {
		t.Errorf("factory called %d times for 5 tool calls, want one session per request", f.made.Load())
	}
}

func TestSharedStateWithoutAFactoryIsRefused(t *testing.T) {
	d := testDispatcher(t)
	d.Session = session.New()
	const want = "mcpserver: the dispatcher has a Session, Resources or Filesystem that every client would share; give each client its own with WithSessions (return this dispatcher from the factory to share them on purpose)"
	if _, err := mcpserver.New(d); err == nil || err.Error() != want {
		t.Errorf("New: %v\nwant %s", err, want)
	}
	if _, err := mcpserver.HTTPHandler(d); err == nil || err.Error() != want {
		t.Errorf("HTTPHandler: %v\nwant %s", err, want)
	}
	shared := func(context.Context, mcpserver.Client) (*wink.Dispatcher, func(), error) { return d, nil, nil }
	url := serveHTTP(t, d, mcpserver.WithSessions(shared))
	a, b := connectHTTP(t, url, nil), connectHTTP(t, url, nil)
	checkResult(t, call(t, a, "add_note", `{"text":"shared"}`), false, "added", "")
	if got := notes(t, b); strings.Join(got, ",") != "shared" {
		t.Errorf("a factory sharing one session: b sees %q", got)
	}
}

func TestSessionFactoryFailureIsAProtocolErrorAndIsRetried(t *testing.T) {
	d := testDispatcher(t)
	var calls atomic.Int64
	open := func(ctx context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
		switch calls.Add(1) {
		case 1:
			return nil, nil, errors.New("session store unreachable")
		case 2:
			other := testDispatcher(t)
			return other, nil, nil
		case 3:
			panic("factory bug")
		}
		cp := *d
		cp.Session = session.New()
		return &cp, nil, nil
	}
	cs := inMemory(t, d, mcpserver.WithSessions(open))
	for _, want := range []string{
		`tool "add_note" was not answered: no session for this client: session store unreachable`,
		`tool "add_note" was not answered: no session for this client: the session factory returned a dispatcher with another Registry than the one the server lists; leave Registry nil or use the same registry`,
		`tool "add_note" was not answered: no session for this client: the session factory panicked: factory bug`,
	} {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "add_note", Arguments: map[string]any{"text": "x"}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nwant it to contain %s", err, want)
		}
	}
	checkResult(t, call(t, cs, "add_note", `{"text":"x"}`), false, "added", "")
	checkResult(t, call(t, cs, "add_note", `{"text":"y"}`), false, "added", "")
	if got := calls.Load(); got != 4 {
		t.Errorf("factory called %d times, want 4 (three failures, then once for the rest)", got)
	}
}

func TestEventsOfAClientsDispatcherStillGetStructuredContent(t *testing.T) {
	d := testDispatcher(t)
	var seen atomic.Int64
	open := func(ctx context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
		cp := *d
		cp.Session = session.New()
		cp.Events = func(*wink.ToolInvoked) { seen.Add(1) }
		return &cp, nil, nil
	}
	cs := inMemory(t, d, mcpserver.WithSessions(open))
	checkResult(t, call(t, cs, "echo", `{"text":"hi"}`), false, "Echoed.\n\n{\"text\":\"hi\",\"length\":2}", `{"text":"hi","length":2}`)
	if seen.Load() != 1 {
		t.Errorf("the client's sink saw %d events, want 1", seen.Load())
	}
}

// waitFor polls cond for up to 10 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestLineConnectionIsOneClient(t *testing.T) {
	f := &freshSessions{template: testDispatcher(t)}
	cs := overLines(t, f.template, mcpserver.WithSessions(f.open))
	checkResult(t, call(t, cs, "add_note", `{"text":"one"}`), false, "added", "")
	checkResult(t, call(t, cs, "add_note", `{"text":"two"}`), false, "added", "")
	if got := notes(t, cs); strings.Join(got, ",") != "one,two" {
		t.Errorf("the connection's session holds %q", got)
	}
	f.mu.Lock()
	if c := f.clients; len(c) != 1 || c[0].SessionID != "" || c[0].Stateless || c[0].Header != nil || c[0].TokenInfo != nil {
		t.Errorf("factory saw %+v, want one client with no session id and no header", f.clients)
	}
	f.mu.Unlock()
	cs.Close()
	waitFor(t, "the connection's session to be released", func() bool { return f.released.Load() == 1 })
}
