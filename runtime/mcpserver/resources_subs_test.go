package mcpserver_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// watchedFS counts the Stat and Read calls on a filesystem and can hold them (gate) until released.
type watchedFS struct {
	vfs.Filesystem
	mu    sync.Mutex
	stats int
	reads int
	gate  chan struct{} // when not nil, Stat and Read wait for it to close
}

func (f *watchedFS) pass() {
	f.mu.Lock()
	g := f.gate
	f.mu.Unlock()
	if g != nil {
		<-g
	}
}

func (f *watchedFS) Stat(p string) (vfs.Entry, error) {
	f.mu.Lock()
	f.stats++
	f.mu.Unlock()
	f.pass()
	return f.Filesystem.Stat(p)
}

func (f *watchedFS) Read(p string) ([]byte, error) {
	f.mu.Lock()
	f.reads++
	f.mu.Unlock()
	f.pass()
	return f.Filesystem.Read(p)
}

func (f *watchedFS) counts() (stats, reads int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stats, f.reads
}

// workspaceServer is a server of the client test tools and a workspace over fs; connect adds a client
// (one MCP session) that records the resource updates it is sent.
type workspaceServer struct {
	t   *testing.T
	srv *mcp.Server
}

func newWorkspaceServer(t *testing.T, fs vfs.Filesystem, poll time.Duration, opts ...mcpserver.Option) *workspaceServer {
	t.Helper()
	opts = append(opts, mcpserver.WithWorkspace(fs, mcpserver.WorkspaceOptions{Poll: poll}))
	srv, err := mcpserver.New(&wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return &workspaceServer{t: t, srv: srv}
}

func (ws *workspaceServer) connect() (*mcp.ClientSession, *received) {
	var got received
	cs := connectServer(ws.t, ws.srv, "2025-11-25", &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		got.add(req.Params.URI)
	}})
	return cs, &got
}

func subscribe(cs *mcp.ClientSession, uri string) error {
	return cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri})
}

func unsubscribe(cs *mcp.ClientSession, uri string) error {
	return cs.Unsubscribe(context.Background(), &mcp.UnsubscribeParams{URI: uri})
}

// TestWorkspaceURISpellingsAreOneSubscription: every spelling of a workspace file's URI (dot segments,
// repeated slashes, percent-encoded unreserved characters and slashes) is one subscription, counted once
// (a session limited to one subscription can make them all, and no other), notified once under the
// file's one URI, and ended by an unsubscribe in any spelling. A URI leaving the workspace is refused.
func TestWorkspaceURISpellingsAreOneSubscription(t *testing.T) {
	fs := workspaceFS(t)
	ws := newWorkspaceServer(t, fs, 5*time.Millisecond, mcpserver.WithSubscriptionLimits(1, 0))
	cs, got := ws.connect()
	for _, uri := range []string{"workspace:///README.md", "workspace:///./README.md", "workspace:///src/../README.md",
		"workspace:////README.md", "workspace:///%52EADME%2emd", "workspace:///.%2FREADME.md", "workspace:///src%2F..%2FREADME.md"} {
		if err := subscribe(cs, uri); err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
	}
	if err := subscribe(cs, "workspace:///src/main.go"); err == nil || !strings.Contains(err.Error(), "this session already holds 1 subscriptions, the most one session may hold; unsubscribe") {
		t.Fatalf("a second file over a limit of one: %v", err)
	}
	for _, uri := range []string{"workspace:///../etc/passwd", "workspace:///a/../../x", "workspace:///%2E%2E/x", "workspace:///"} {
		if err := subscribe(cs, uri); err == nil || !strings.Contains(err.Error(), "names no file inside the workspace") {
			t.Errorf("%s: %v", uri, err)
		}
	}
	if err := fs.Write("README.md", []byte("# Changed\n")); err != nil {
		t.Fatal(err)
	}
	if g := got.wait(1); strings.Join(g, ",") != "workspace:///README.md" {
		t.Fatalf("notified %q", g)
	}
	time.Sleep(50 * time.Millisecond) // ten polls: no second notification for another spelling
	if g := got.wait(0); len(g) != 1 {
		t.Fatalf("notified %q, want one notification", g)
	}
	if err := unsubscribe(cs, "workspace:///src/./../README.md"); err != nil {
		t.Fatal(err)
	}
	if err := fs.Write("README.md", []byte("# Unwatched\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if g := got.wait(0); len(g) != 1 {
		t.Fatalf("notified %q after unsubscribing in another spelling", g)
	}
	if err := subscribe(cs, "workspace:///a%20b.txt"); err != nil { // the limit is free again
		t.Fatal(err)
	}
}

// TestUnsubscribeEndsOnlyThatSessionsSubscription: a client's unsubscribe, repeated, or for a file it
// never subscribed to, never ends another client's subscription.
func TestUnsubscribeEndsOnlyThatSessionsSubscription(t *testing.T) {
	fs := workspaceFS(t)
	ws := newWorkspaceServer(t, fs, 5*time.Millisecond)
	a, gotA := ws.connect()
	b, gotB := ws.connect()
	for _, uri := range []string{"workspace:///README.md", "workspace:///src/main.go"} {
		if err := subscribe(b, uri); err != nil {
			t.Fatal(err)
		}
	}
	if err := subscribe(a, "workspace:///README.md"); err != nil {
		t.Fatal(err)
	}
	for _, uri := range []string{"workspace:///README.md", "workspace:///README.md", "workspace:///./README.md", "workspace:///src/main.go", "workspace:///src/main.go"} {
		if err := unsubscribe(a, uri); err != nil {
			t.Fatal(err)
		}
	}
	if err := fs.Write("README.md", []byte("# Changed\n")); err != nil {
		t.Fatal(err)
	}
	if err := fs.Write("src/main.go", []byte("package changed\n")); err != nil {
		t.Fatal(err)
	}
	if g := gotB.wait(2); strings.Join(g, ",") != "workspace:///README.md,workspace:///src/main.go" && strings.Join(g, ",") != "workspace:///src/main.go,workspace:///README.md" {
		t.Fatalf("b was notified of %q, want both files", g)
	}
	if g := gotA.wait(0); len(g) != 0 {
		t.Fatalf("a, unsubscribed, was notified of %q", g)
	}
}

// TestSubscriptionBoundsAndRelease: subscriptions are bounded per session and per server with an error
// that says how to get under the bound, and a session's subscriptions are released when it ends: the
// server's whole allowance is free again, and once no one is subscribed the watcher stops looking at the
// files.
func TestSubscriptionBoundsAndRelease(t *testing.T) {
	mem := vfs.NewMemory()
	for i := range 6 {
		if err := mem.Write("f"+strconv.Itoa(i)+".txt", []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	fs := &watchedFS{Filesystem: mem}
	ws := newWorkspaceServer(t, fs, 2*time.Millisecond, mcpserver.WithSubscriptionLimits(2, 3))
	f := func(i int) string { return "workspace:///f" + strconv.Itoa(i) + ".txt" }
	a, _ := ws.connect()
	b, _ := ws.connect()
	for _, i := range []int{0, 1, 0} { // the repeated one is not a new subscription
		if err := subscribe(a, f(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := subscribe(a, f(2)); err == nil || !strings.Contains(err.Error(), `resources/subscribe "workspace:///f2.txt": this session already holds 2 subscriptions, the most one session may hold; unsubscribe from one it no longer needs (resources/unsubscribe) first`) {
		t.Fatalf("over the session's bound: %v", err)
	}
	if err := subscribe(b, f(2)); err != nil {
		t.Fatal(err)
	}
	if err := subscribe(b, f(3)); err == nil || !strings.Contains(err.Error(), `the server already holds 3 subscriptions for all its clients, the most it keeps; unsubscribe from one this session no longer needs, or try again later`) {
		t.Fatalf("over the server's bound: %v", err)
	}
	if err := subscribe(b, "test://elsewhere"); err == nil { // every URI counts, not only the workspace's
		t.Fatal("a subscription to another URI over the server's bound was accepted")
	}
	a.Close()
	eventually(t, "a's subscriptions released", func() bool { return subscribe(b, f(3)) == nil })
	b.Close()
	// All released: new sessions have the server's whole allowance.
	c, _ := ws.connect()
	d, _ := ws.connect()
	eventually(t, "b's subscriptions released", func() bool {
		return subscribe(c, f(4)) == nil && subscribe(c, f(5)) == nil && subscribe(d, f(0)) == nil
	})
	c.Close()
	d.Close()
	// Nothing subscribed: the watcher stops.
	stable := func() bool {
		s1, _ := fs.counts()
		time.Sleep(40 * time.Millisecond) // twenty polls
		s2, _ := fs.counts()
		return s1 == s2
	}
	eventually(t, "the watcher stopped", stable)
}

// eventually waits up to ten seconds for cond.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(end) {
			t.Fatalf("%s: not within 10s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestToolCallsDoNoWorkForSubscribers: with 250 subscribed files whose every Stat and Read is held (a
// slow disk, a fifo), every client's tools/call and another client's subscription still answer: change
// detection runs off every request path and holds no lock while it looks at files. Once the files can
// be read again, changes are still notified. (The call used to read every watched file under one lock
// before answering.)
func TestToolCallsDoNoWorkForSubscribers(t *testing.T) {
	mem := vfs.NewMemory()
	big := strings.Repeat("x", 64<<10)
	for i := range 250 {
		if err := mem.Write("w/"+strconv.Itoa(i)+".txt", []byte(big)); err != nil {
			t.Fatal(err)
		}
	}
	if err := mem.Write("other.txt", []byte("o")); err != nil {
		t.Fatal(err)
	}
	fs := &watchedFS{Filesystem: mem}
	ws := newWorkspaceServer(t, fs, 5*time.Millisecond)
	a, gotA := ws.connect()
	b, _ := ws.connect()
	for i := range 250 {
		if err := subscribe(a, "workspace:///w/"+strconv.Itoa(i)+".txt"); err != nil {
			t.Fatal(err)
		}
	}
	gate := make(chan struct{})
	fs.mu.Lock()
	fs.gate = gate
	fs.mu.Unlock()
	stats, _ := fs.counts()
	eventually(t, "the watcher is held", func() bool { s, _ := fs.counts(); return s > stats })
	for _, cs := range []*mcp.ClientSession{a, b, a, b} {
		done := make(chan struct{})
		go func() { defer close(done); callTool(t, cs, "chatty", map[string]any{}) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			close(gate)
			t.Fatal("a tools/call waited for the watched files")
		}
	}
	// Another client's subscribe does not wait either (it looks at its own file only; that one is not held).
	fs.mu.Lock()
	fs.gate = nil // new looks pass; the watcher's held one stays held
	fs.mu.Unlock()
	done := make(chan error, 1)
	go func() { done <- subscribe(b, "workspace:///other.txt") }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		close(gate)
		t.Fatal("a subscribe waited for the watcher")
	}
	close(gate)
	if err := mem.Write("w/7.txt", []byte("changed")); err != nil {
		t.Fatal(err)
	}
	if g := gotA.wait(1); len(g) != 1 || g[0] != "workspace:///w/7.txt" {
		t.Fatalf("notified %q", g)
	}
}

// TestSubscribeOnAStatelessRequestIsRefused: a stateless HTTP request has no session to hold a
// subscription nor a stream to notify it on, so resources/subscribe (up to 2025-11-25) is refused, saying
// so (and nothing is kept: the server's allowance of one is still free for a client with a session). On
// 2026-07-28 a subscription lives as long as its subscriptions/listen request.
func TestSubscribeOnAStatelessRequestIsRefused(t *testing.T) {
	fs := workspaceFS(t)
	d := &wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())}
	ws := mcpserver.WithWorkspace(fs, mcpserver.WorkspaceOptions{})
	url := serveHTTP(t, d, ws, mcpserver.WithSubscriptionLimits(1, 1), mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true}))
	stateless, err := newClient().Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer stateless.Close()
	for range 2 {
		err := subscribe(stateless, "workspace:///README.md")
		if err == nil || !strings.Contains(err.Error(), "resources/subscribe needs an MCP session: this request is stateless") {
			t.Fatalf("stateless: %v", err)
		}
	}
	withSession := connectHTTP(t, serveHTTP(t, d, ws, mcpserver.WithSubscriptionLimits(1, 1)), nil)
	if err := subscribe(withSession, "workspace:///README.md"); err != nil {
		t.Fatalf("with a session: %v", err)
	}
}

// TestSubscriptionsListenIsCountedAndReleased: on protocol 2026-07-28 (a stateless server), a
// subscription made through subscriptions/listen is keyed by the file's one URI, notified under it,
// counted against the server's bound, and given back when the client ends it.
func TestSubscriptionsListenIsCountedAndReleased(t *testing.T) {
	fs := workspaceFS(t)
	d := &wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())}
	url := serveHTTP(t, d, mcpserver.WithWorkspace(fs, mcpserver.WorkspaceOptions{Poll: 5 * time.Millisecond}),
		mcpserver.WithSubscriptionLimits(1, 1), mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true}))
	var got received
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		got.add(req.Params.URI)
	}}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := subscribe(cs, "workspace:///src/../README.md"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // the listen stream is open
	if err := fs.Write("README.md", []byte("# Changed\n")); err != nil {
		t.Fatal(err)
	}
	if g := got.wait(1); len(g) != 1 || g[0] != "workspace:///README.md" {
		t.Fatalf("notified %q", g)
	}
	// Over the server's bound of one: refused (the SDK client does not report a refused listen, so
	// the test looks at what the server does: no notification for that file).
	_ = subscribe(cs, "workspace:///a%20b.txt")
	if err := fs.Write("a b.txt", []byte("changed")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if g := got.wait(0); len(g) != 1 {
		t.Fatalf("notified %q: a subscription over the bound was kept", g)
	}
	if err := unsubscribe(cs, "workspace:///a%20b.txt"); err != nil {
		t.Fatal(err)
	}
	if err := unsubscribe(cs, "workspace:///src/../README.md"); err != nil {
		t.Fatal(err)
	}
	// Released: a new subscription fits and is notified.
	eventually(t, "the listen's subscription released", func() bool {
		if err := subscribe(cs, "workspace:///src/main.go"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
		if err := fs.Write("src/main.go", []byte("package x"+time.Now().String()+"\n")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Millisecond)
		ok := slices.Contains(got.wait(0), "workspace:///src/main.go")
		if !ok {
			_ = unsubscribe(cs, "workspace:///src/main.go")
		}
		return ok
	})
}
