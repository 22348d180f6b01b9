package mcpserver_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
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

// ltClient speaks the streamable HTTP transport with raw requests (cheap enough for thousands of
// sessions in one test).
type ltClient struct {
	url string
	hc  *http.Client
}

func newLTClient(url string) *ltClient {
	tr := &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64}
	return &ltClient{url: url, hc: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

// post sends one JSON-RPC message in session sid ("" for none) and returns the status, the session id
// the server set and the body.
func (c *ltClient) post(sid string, body io.Reader, size int64) (int, string, string, error) {
	req, err := http.NewRequest(http.MethodPost, c.url, body)
	if err != nil {
		return 0, "", "", err
	}
	req.ContentLength = size
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, "", "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(b), err
}

func (c *ltClient) postString(sid, body string) (int, string, string, error) {
	return c.post(sid, strings.NewReader(body), int64(len(body)))
}

// open initializes a session and calls add_note in it, so that the session factory runs.
func (c *ltClient) open(i int) (string, error) {
	status, sid, body, err := c.postString("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"lt","version":"1"}}}`)
	if err != nil || status != http.StatusOK || sid == "" {
		return "", ltErr("initialize", status, body, err)
	}
	if status, _, body, err = c.postString(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil || status != http.StatusAccepted {
		return "", ltErr("initialized", status, body, err)
	}
	if err := c.call(sid, `{"text":"note `+strconv.Itoa(i)+`"}`); err != nil {
		return "", err
	}
	return sid, nil
}

// call calls add_note with args in session sid.
func (c *ltClient) call(sid, args string) error {
	status, _, body, err := c.postString(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add_note","arguments":`+args+`}}`)
	if err != nil || status != http.StatusOK || !strings.Contains(body, `"added`) {
		return ltErr("tools/call", status, body, err)
	}
	return nil
}

func (c *ltClient) delete(sid string) error {
	req, _ := http.NewRequest(http.MethodDelete, c.url, nil)
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return ltErr("DELETE", resp.StatusCode, "", nil)
	}
	return nil
}

type ltError string

func (e ltError) Error() string { return string(e) }

func ltErr(what string, status int, body string, err error) error {
	msg := what + ": status " + strconv.Itoa(status) + ", body " + strconv.Quote(body)
	if err != nil {
		msg += ": " + err.Error()
	}
	return ltError(msg)
}

// liveHeap returns the live heap and the number of goroutines once the garbage is collected.
func liveHeap() (uint64, int) {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, runtime.NumGoroutine()
}

// closingSessions is a session factory whose sessions hold something to close (as a stored session
// or a watched workspace would): a buffer of 4 KiB, dropped by the release function.
type closingSessions struct {
	template       *wink.Dispatcher
	made, released atomic.Int64
	mu             sync.Mutex
	open           map[*session.Session][]byte
}

func (f *closingSessions) make(_ context.Context, _ mcpserver.Client) (*wink.Dispatcher, func(), error) {
	d := *f.template
	d.Session = session.New()
	f.mu.Lock()
	f.open[d.Session] = make([]byte, 4<<10)
	f.mu.Unlock()
	f.made.Add(1)
	return &d, func() {
		f.mu.Lock()
		delete(f.open, d.Session)
		f.mu.Unlock()
		f.released.Add(1)
	}, nil
}

// TestAbandonedSessionsAreReleased opens many streamable HTTP sessions on a server over loopback,
// deletes a quarter of them and abandons the rest, then checks that once the idle timeout passed
// every session was released (the factory's release ran for each) and the live heap and goroutines
// are back within a small margin of where they started.
func TestAbandonedSessionsAreReleased(t *testing.T) {
	sessions := 10_000
	if ltRace {
		sessions = 1000 // the race detector makes each request ten times slower
	}
	f := &closingSessions{template: testDispatcher(t), open: map[*session.Session][]byte{}}
	h, err := mcpserver.HTTPHandler(f.template, mcpserver.WithSessions(f.make), mcpserver.WithSessionTimeout(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	c := newLTClient(hs.URL)

	// Warm up (connections, the SDK's and the tools' one-time allocations), then measure.
	for i := range 8 {
		sid, err := c.open(i)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.delete(sid); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "the warm-up sessions to be released", func() bool { return f.released.Load() == 8 })
	heap0, g0 := liveHeap()

	// round opens the sessions, deletes a quarter, abandons the rest, waits for the idle timeout to
	// release them all, and returns the live heap and goroutines then.
	round := func(r int) (uint64, int) {
		base := f.released.Load()
		const workers = 8
		var wg sync.WaitGroup
		var failed atomic.Value
		var next atomic.Int64
		// The most goroutines alive at once: sampled while the sessions open, since under load the
		// first abandoned sessions may time out before the last open, so the count at the end is less.
		var most atomic.Int64
		for range workers {
			wg.Go(func() {
				for {
					i := int(next.Add(1)) - 1
					if i >= sessions || failed.Load() != nil {
						return
					}
					for n := int64(runtime.NumGoroutine()); ; {
						if m := most.Load(); n <= m || most.CompareAndSwap(m, n) {
							break
						}
					}
					sid, err := c.open(i)
					if err == nil && i%4 == 0 {
						err = c.delete(sid)
					}
					if err != nil {
						failed.Store(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if err, _ := failed.Load().(error); err != nil {
			t.Fatal(err)
		}
		heapOpen, gOpen := liveHeap()
		t.Logf("round %d: %d sessions open: live heap %+d KiB, %+d goroutines (%+d at the most)", r, sessions-sessions/4, (int64(heapOpen)-int64(heap0))>>10, gOpen-g0, int(most.Load())-g0)

		deadline := time.Now().Add(30 * time.Second)
		for f.released.Load() != base+int64(sessions) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if got := f.released.Load() - base; got != int64(sessions) {
			t.Fatalf("round %d: %d of %d sessions released after the idle timeout", r, got, sessions)
		}
		c.hc.CloseIdleConnections()
		var heap1 uint64
		var g1 int
		for {
			heap1, g1 = liveHeap()
			if g1 <= g0+4 || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("round %d: after the idle timeout: live heap %+d KiB, %+d goroutines (started at %d KiB, %d goroutines)",
			r, (int64(heap1)-int64(heap0))>>10, g1-g0, heap0>>10, g0)
		f.mu.Lock()
		left := len(f.open)
		f.mu.Unlock()
		if left != 0 {
			t.Errorf("round %d: %d sessions' resources are still open", r, left)
		}
		if g1 > g0+4 {
			t.Errorf("round %d: %d goroutines left behind by %d sessions", r, g1-g0, sessions)
		}
		return heap1, max(gOpen, int(most.Load())) - g0
	}
	heap1, peak := round(1)
	// After the first round the heap keeps what the Go runtime and maps keep at their peak for reuse,
	// not for the sessions: the descriptors of exited goroutines (a few hundred bytes each, for the
	// most goroutines alive at once: they are never freed) and map buckets sized for the most sessions
	// open at once (the SDK's session table, the test's own). So the first round is held to a margin
	// that counts the peak goroutines, and a second round of as many sessions must add (almost)
	// nothing: a leak of even 100 bytes a session would add about 1 MiB.
	if margin := uint64(2<<20) + uint64(peak)*512; heap1 > heap0+margin {
		t.Errorf("live heap grew by %d KiB after %d sessions ended (margin %d KiB for %d goroutines at the peak)", (heap1-heap0)>>10, sessions, margin>>10, peak)
	}
	heap2, _ := round(2)
	if margin := uint64(512 << 10); heap2 > heap1+margin {
		t.Errorf("a second round of %d sessions grew the live heap by %d KiB (margin %d KiB): something is kept per session", sessions, (int64(heap2)-int64(heap1))>>10, margin>>10)
	}
}

// TestIdleSessionTimeoutIsOnByDefault: without options HTTPHandler closes idle sessions after
// DefaultSessionTimeout; WithHTTPOptions's own SessionTimeout, and WithSessionTimeout, win.
func TestIdleSessionTimeoutIsOnByDefault(t *testing.T) {
	if mcpserver.DefaultSessionTimeout <= 0 {
		t.Fatalf("DefaultSessionTimeout = %v: idle sessions would never be released", mcpserver.DefaultSessionTimeout)
	}
	release := func(opts ...mcpserver.Option) (released func() int64, sid string, c *ltClient) {
		f := &closingSessions{template: testDispatcher(t), open: map[*session.Session][]byte{}}
		h, err := mcpserver.HTTPHandler(f.template, append(opts, mcpserver.WithSessions(f.make))...)
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(h)
		t.Cleanup(hs.Close)
		c = newLTClient(hs.URL)
		sid, err = c.open(0)
		if err != nil {
			t.Fatal(err)
		}
		return f.released.Load, sid, c
	}
	// The SDK's own timeout, set through WithHTTPOptions, is kept.
	released, sid, c := release(mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{SessionTimeout: 100 * time.Millisecond}))
	waitFor(t, "the idle session to be released", func() bool { return released() == 1 })
	if status, _, body, _ := c.postString(sid, `{"jsonrpc":"2.0","id":3,"method":"ping"}`); status != http.StatusNotFound {
		t.Errorf("a request to a timed-out session: status %d %q, want 404 (the client starts a new session)", status, body)
	}
	// WithSessionTimeout wins over WithHTTPOptions; a session in use is kept: calls 250 ms apart for twice
	// the timeout (a call would have to come over 1 s late, four times its gap, to lose the session).
	released, sid, c = release(mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{SessionTimeout: time.Hour}), mcpserver.WithSessionTimeout(time.Second))
	for range 8 {
		time.Sleep(250 * time.Millisecond)
		if err := c.call(sid, `{"text":"still here"}`); err != nil {
			t.Fatalf("a session in use was closed: %v", err)
		}
	}
	waitFor(t, "the idle session to be released", func() bool { return released() == 1 })
	// The default keeps a session for DefaultSessionTimeout: not released within a second.
	released, _, _ = release()
	time.Sleep(time.Second)
	if released() != 0 {
		t.Errorf("a session idle for a second was released by default (DefaultSessionTimeout %v)", mcpserver.DefaultSessionTimeout)
	}
}

// TestStatelessServerKeepsNothingPerRequest: every stateless request's session is released when the
// request is answered, and the heap and goroutines do not grow with the requests.
func TestStatelessServerKeepsNothingPerRequest(t *testing.T) {
	f := &closingSessions{template: testDispatcher(t), open: map[*session.Session][]byte{}}
	h, err := mcpserver.HTTPHandler(f.template, mcpserver.WithSessions(f.make), mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true}))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	c := newLTClient(hs.URL)
	call := func() {
		status, _, body, err := c.postString("", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add_note","arguments":{"text":"x"}}}`)
		if err != nil || status != http.StatusOK || !strings.Contains(body, `"added`) {
			t.Fatal(ltErr("stateless tools/call", status, body, err))
		}
	}
	for range 8 {
		call()
	}
	waitFor(t, "the warm-up requests to be released", func() bool { return f.released.Load() == 8 })
	heap0, g0 := liveHeap()
	n := 2000
	if ltRace {
		n = 200
	}
	for range n {
		call()
	}
	waitFor(t, "every request's session to be released", func() bool { return f.released.Load() == int64(8+n) })
	if f.made.Load() != int64(8+n) {
		t.Errorf("factory called %d times for %d requests", f.made.Load(), 8+n)
	}
	c.hc.CloseIdleConnections()
	heap1, g1 := liveHeap()
	t.Logf("after %d stateless requests: live heap %+d KiB, %+d goroutines", n, (int64(heap1)-int64(heap0))>>10, g1-g0)
	if g1 > g0+4 {
		t.Errorf("%d goroutines left behind by %d stateless requests", g1-g0, n)
	}
	if margin := uint64(512 << 10); heap1 > heap0+margin {
		t.Errorf("live heap grew by %d KiB after %d stateless requests", (heap1-heap0)>>10, n)
	}
}

// endless is a reader of n bytes of spaces inside a JSON string, allocated once.
type endless struct {
	n, off int64
	chunk  []byte
}

func (r *endless) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	k := int64(copy(p, r.chunk))
	k = min(k, r.n-r.off)
	r.off += k
	return int(k), nil
}

// TestOverLargeHTTPRequestIsRefusedWithoutReadingIt: a body over the limit is answered 413 with the
// limit in words, the server reads (and allocates) at most about the limit, and the session goes on.
func TestOverLargeHTTPRequestIsRefusedWithoutReadingIt(t *testing.T) {
	f := &closingSessions{template: testDispatcher(t), open: map[*session.Session][]byte{}}
	const limit = 1 << 20
	h, err := mcpserver.HTTPHandler(f.template, mcpserver.WithSessions(f.make), mcpserver.WithMaxRequestBytes(limit))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	c := newLTClient(hs.URL)
	sid, err := c.open(0)
	if err != nil {
		t.Fatal(err)
	}
	// A large body under the limit is served (the padding in params._meta, which the tool ignores).
	big := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"pad":"` + strings.Repeat("x", limit-200) +
		`"},"name":"add_note","arguments":{"text":"big"}}}`
	if status, _, body, err := c.postString(sid, big); err != nil || status != http.StatusOK || !strings.Contains(body, `"added`) {
		t.Fatalf("a body under the limit: %v", ltErr("tools/call", status, body, err))
	}

	const huge = 256 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	body := &endless{n: huge, chunk: bytes.Repeat([]byte(" "), 32<<10)}
	status, _, text, err := c.post(sid, body, huge)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("posting %d bytes: %v", huge, err)
	}
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(text, "request body exceeds "+strconv.Itoa(limit)+" bytes") {
		t.Fatalf("a %d-byte body: status %d %q, want 413 naming the limit", huge, status, text)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("refusing a %d MiB body allocated %d MiB", huge>>20, alloc>>20)
	}
	if err := c.call(sid, `{"text":"after the refusal"}`); err != nil {
		t.Fatalf("the session did not go on after the refused body: %v", err)
	}
}

// TestOverLongStdioLineIsRefusedWithoutKeepingIt: ServeStdio's line limit (WithMaxRequestBytes) over a
// line far larger than it: answered -32600, at most about the limit allocated, and the connection goes on.
func TestOverLongStdioLineIsRefusedWithoutKeepingIt(t *testing.T) {
	const limit = 1 << 20
	c := startLineServer(t, limit)
	c.initialize()
	const huge = 256 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	line := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`),
		&endless{n: huge, chunk: bytes.Repeat([]byte("x"), 32<<10)}, strings.NewReader("\"}}\n"))
	if _, err := io.Copy(c.w, line); err != nil {
		t.Fatal(err)
	}
	got := c.recv()
	runtime.ReadMemStats(&after)
	if want := errLine("null", -32600, "Invalid Request: the line is longer than "+strconv.Itoa(limit)+" bytes"); got != want {
		t.Errorf("answered\n%s\nwant\n%s", got, want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("refusing a %d MiB line allocated %d MiB", huge>>20, alloc>>20)
	}
	c.ping("2")
}
