package wink_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
	tt "github.com/winkgen/wink/runtime/wink/internal/winktest"
)

var testRegistry = wink.MustRegistry(tt.WinkTools())

// dumpFS returns every file of fs with its content, and every directory.
func dumpFS(t testing.TB, fs vfs.Filesystem) map[string]string {
	t.Helper()
	paths, err := vfs.Glob(fs, "**")
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]string, len(paths))
	for _, p := range paths {
		e, err := fs.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if e.IsDir {
			m[p] = "<dir>"
			continue
		}
		b, err := fs.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		m[p] = string(b)
	}
	return m
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func call(id, name, args string) wink.Call {
	return wink.Call{ID: id, Name: name, Arguments: []byte(args)}
}

func mutateArgs(note, path, content, remove string, fail tt.FailKind) string {
	b := []byte(`{"note":`)
	b = strconv.AppendQuote(b, note)
	if path != "" {
		b = append(b, `,"path":`...)
		b = strconv.AppendQuote(b, path)
		b = append(b, `,"content":`...)
		b = strconv.AppendQuote(b, content)
	}
	if remove != "" {
		b = append(b, `,"remove":`...)
		b = strconv.AppendQuote(b, remove)
	}
	b = append(b, `,"fail":`...)
	b = strconv.AppendQuote(b, string(fail))
	return string(append(b, '}'))
}

var failKinds = []tt.FailKind{tt.FailNone, tt.FailResult, tt.FailError, tt.FailPanic, tt.FailValidation, tt.FailToolError}

// TestPropertyFailedCallsLeaveNoTraceButTheLog runs random sequences of
// session mutations, file writes and removals ending in every failure kind,
// on both filesystems, and checks after every call that a failed call left
// the session's STATE and the filesystem exactly as before, a successful one
// applied its changes, and the log holds every call.
func TestPropertyFailedCallsLeaveNoTraceButTheLog(t *testing.T) {
	type fsCase struct {
		name      string
		sequences int
		make      func(t *testing.T) vfs.Filesystem
	}
	cases := []fsCase{
		{"memory", 300, func(*testing.T) vfs.Filesystem { return vfs.NewMemory() }},
		{"host", 100, func(t *testing.T) vfs.Filesystem {
			h, err := vfs.NewHost(t.TempDir(), vfs.BackupDir(t.TempDir()))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { h.Close() })
			return h
		}},
	}
	paths := []string{"a.txt", "dir/b.txt", "dir/sub/c.txt", "d.txt"}
	for _, fc := range cases {
		t.Run(fc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(fc.name))))
			calls := 0
			for seq := 0; seq < fc.sequences; seq++ {
				fs := fc.make(t)
				s := session.New()
				d := &wink.Dispatcher{Registry: testRegistry, Session: s, Filesystem: fs}
				for i := 0; i < 10; i++ {
					beforeNotes := session.All(s, tt.Notes)
					beforeFS := dumpFS(t, fs)
					fail := failKinds[rng.IntN(len(failKinds))]
					note := "n" + strconv.Itoa(i)
					var path, content, remove string
					if rng.IntN(4) > 0 {
						path, content = paths[rng.IntN(len(paths))], "v"+strconv.Itoa(rng.IntN(1000))
					}
					if rng.IntN(3) == 0 {
						remove = paths[rng.IntN(len(paths))]
					}
					out, err := d.Dispatch(context.Background(), call("c"+strconv.Itoa(i), "mutate", mutateArgs(note, path, content, remove, fail)))
					calls++
					if err != nil {
						t.Fatalf("seq %d call %d: %v", seq, i, err)
					}
					afterNotes := session.All(s, tt.Notes)
					afterFS := dumpFS(t, fs)
					if fail != tt.FailNone {
						if out.Success {
							t.Fatalf("seq %d call %d (%s): success", seq, i, fail)
						}
						if !slices.Equal(beforeNotes, afterNotes) || !equalMaps(beforeFS, afterFS) {
							t.Fatalf("seq %d call %d (%s): state changed\nnotes %v -> %v\nfs %v -> %v", seq, i, fail, beforeNotes, afterNotes, beforeFS, afterFS)
						}
						continue
					}
					if !out.Success {
						t.Fatalf("seq %d call %d: %s", seq, i, out.Output)
					}
					if want := append(beforeNotes, note); !slices.Equal(afterNotes, want) {
						t.Fatalf("notes %v, want %v", afterNotes, want)
					}
					if path != "" && path != remove && afterFS[path] != content {
						t.Fatalf("file %s = %q, want %q", path, afterFS[path], content)
					}
				}
				log := session.All(s, wink.ToolLog)
				if len(log) != 10 {
					t.Fatalf("log holds %d calls, want 10", len(log))
				}
				for i, ev := range log {
					if ev.CallID != "c"+strconv.Itoa(i) {
						t.Fatalf("log[%d] = %s", i, ev.CallID)
					}
				}
			}
			if calls < 1000 {
				t.Fatalf("only %d calls", calls)
			}
		})
	}
}

func TestFailureTextsOfEveryKindAndRollback(t *testing.T) {
	tests := []struct {
		fail tt.FailKind
		want string
	}{
		{tt.FailResult, "mutate failed as asked"},
		{tt.FailError, `Tool "mutate" failed: boom`},
		{tt.FailPanic, `Tool "mutate" failed: kaboom`},
		{tt.FailValidation, "Invalid arguments for tool \"mutate\":\n- note: must not be \"x\"\nFix the arguments and call mutate again."},
		{tt.FailToolError, "try another note"},
	}
	for _, tc := range tests {
		t.Run(string(tc.fail), func(t *testing.T) {
			s := session.New()
			fs := vfs.NewMemory()
			d := &wink.Dispatcher{Registry: testRegistry, Session: s, Filesystem: fs}
			out, err := d.Dispatch(context.Background(), call("1", "mutate", mutateArgs("x", "f.txt", "data", "", tc.fail)))
			if err != nil || out.Success || out.Output != tc.want {
				t.Fatalf("got %q, %v; want %q", out.Output, err, tc.want)
			}
			if n := session.Len(s, tt.Notes); n != 0 {
				t.Errorf("notes not rolled back: %d", n)
			}
			if _, err := fs.Stat("f.txt"); !errors.Is(err, vfs.ErrNotFound) {
				t.Errorf("file not rolled back: %v", err)
			}
			if n := session.Len(s, wink.ToolLog); n != 1 {
				t.Errorf("log holds %d events, want 1", n)
			}
		})
	}
}

func TestFilesystemFromResourcesIsRolledBackAndScopeIsOpenedAndClosed(t *testing.T) {
	mem := vfs.NewMemory()
	reg, err := resources.NewRegistry(resources.Instance(wink.FilesystemKey, vfs.Filesystem(mem)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := reg.Open()
	if err != nil {
		t.Fatal(err)
	}
	d := &wink.Dispatcher{Registry: testRegistry, Resources: rc, Session: session.New()}
	out, _ := d.Dispatch(context.Background(), call("1", "mutate", mutateArgs("x", "f.txt", "data", "", tt.FailError)))
	if out.Success {
		t.Fatal("success")
	}
	if _, err := mem.Stat("f.txt"); !errors.Is(err, vfs.ErrNotFound) {
		t.Errorf("resource filesystem not rolled back: %v", err)
	}
	out, _ = d.Dispatch(context.Background(), call("2", "inspect", ``))
	if !out.Success || !strings.Contains(out.Output, `"in_tool_call":true`) {
		t.Errorf("handler did not run in a tool-call scope: %s", out.Output)
	}
	if rc.InToolCall() {
		t.Error("tool-call scope left open")
	}
}

func TestToolCallScopeInstancesClosedAfterEveryCall(t *testing.T) {
	type conn struct{ id int }
	key := resources.NewKey[*conn]("Conn")
	var mu sync.Mutex
	made, closed := 0, 0
	reg, err := resources.NewRegistry(resources.Bind(key, func(*resources.Resolver) (*conn, error) {
		mu.Lock()
		defer mu.Unlock()
		made++
		return &conn{id: made}, nil
	}).Scope(resources.ToolCall).OnClose(func(*conn) error { mu.Lock(); closed++; mu.Unlock(); return nil }))
	if err != nil {
		t.Fatal(err)
	}
	rc, _ := reg.Open()
	def := wink.NewTool(wink.Spec{Name: "use_conn"}, &wink.Funcs[wink.NoParams, wink.NoValue]{
		Decode: wink.DecodeNoParams, EncodeResult: wink.EncodeNoValue,
		Handler: func(tc *wink.ToolContext, _ wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
			if _, err := resources.Get(tc.Resources(), key); err != nil {
				return wink.ToolResult[wink.NoValue]{}, err
			}
			panic("after getting the connection")
		},
	})
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{def}), Resources: rc}
	for i := 0; i < 3; i++ {
		d.Dispatch(context.Background(), call("1", "use_conn", ``))
	}
	if made != 3 || closed != 3 {
		t.Errorf("made %d, closed %d; want 3 and 3", made, closed)
	}
}

func TestDeadlineExpiredBeforeHandlerIsAnErrorAndHandlerSeesDeadline(t *testing.T) {
	beats := 0
	d := &wink.Dispatcher{Registry: testRegistry, Session: session.New(), Heartbeat: func(*wink.ToolContext) { beats++ },
		Budget: wink.NewBudget(wink.BudgetLimits{MaxTotalTokens: 25})}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	out, err := d.Dispatch(ctx, call("1", "inspect", ``))
	if err != nil || out.Output != `{"has_deadline":true,"in_tool_call":false,"budget_left":15}` {
		t.Fatalf("got %q, %v", out.Output, err)
	}
	if beats != 1 {
		t.Errorf("beats = %d", beats)
	}
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	_, err = d.Dispatch(expired, call("2", "mutate", mutateArgs("x", "", "", "", tt.FailNone)))
	if !errors.Is(err, wink.ErrDeadlineExpired) || err.Error() != `deadline expired before executing tool "mutate"` {
		t.Fatalf("err = %v", err)
	}
	if n := session.Len(d.Session, tt.Notes); n != 0 {
		t.Errorf("handler ran after the deadline")
	}
	// The third call exceeds the budget: the handler's error is a failure.
	d.Dispatch(ctx, call("3", "inspect", ``))
	out, _ = d.Dispatch(ctx, call("4", "inspect", ``))
	if out.Success || out.Output != `Tool "inspect" failed: token budget exceeded: 30 total tokens used, limit 25` {
		t.Errorf("over budget: %q", out.Output)
	}
}

// settableClock is a clock tests move by hand.
type settableClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *settableClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *settableClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestIdempotencyStrategiesReplayOnlySuccesses(t *testing.T) {
	clock := &settableClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	led := ledger.NewMemory()
	var events []*wink.ToolInvoked
	newDisp := func() *wink.Dispatcher {
		return &wink.Dispatcher{Registry: testRegistry, Session: session.New(), Ledger: led, Now: clock.now,
			Events: func(e *wink.ToolInvoked) { events = append(events, e) }}
	}
	d1, d2 := newDisp(), newDisp()
	type step struct {
		d            *wink.Dispatcher
		name, args   string
		advance      time.Duration
		wantReplayed bool
		wantOutput   string
	}
	tt.Counters.Charge.Store(0)
	tt.Counters.Book.Store(0)
	tt.Counters.Ping.Store(0)
	steps := []step{
		{d1, "charge", `{"account":"a","amount":5}`, 0, false, "Charged a.\n\n{\"seq\":1}"},
		{d1, "charge", `{"amount":5,"account":"a"}`, 0, true, "Charged a.\n\n{\"seq\":1}"},
		{d1, "charge", `{"account":"a","amount":6}`, 0, false, "Charged a.\n\n{\"seq\":2}"},
		{d2, "charge", `{"account":"a","amount":5}`, 0, false, "Charged a.\n\n{\"seq\":3}"}, // session scope
		{d1, "charge", `{"account":"b","amount":1,"fail":true}`, 0, false, "card declined"},
		{d1, "charge", `{"account":"b","amount":1,"fail":true}`, 0, false, "card declined"}, // failures not recorded
		{d1, "book", `{"room":"r1","day":3,"note":"x"}`, 0, false, "Booked r1.\n\n{\"seq\":1}"},
		{d2, "book", `{"room":"r1","day":3,"note":"other"}`, 0, true, "Booked r1.\n\n{\"seq\":1}"}, // global scope, keys only
		{d1, "book", `{"room":"r1","day":4}`, 0, false, "Booked r1.\n\n{\"seq\":2}"},
		{d1, "book", `{"room":"r1","day":3}`, 2 * time.Hour, false, "Booked r1.\n\n{\"seq\":3}"}, // TTL 1h expired
		{d1, "ping", `{"id":"p","n":1}`, 0, false, "Pong.\n\n{\"seq\":1}"},
		{d1, "ping", `{"id":"p","n":2}`, 0, true, "Pong.\n\n{\"seq\":1}"},
		{d2, "ping", `{"id":"p","n":2}`, 0, false, "Pong.\n\n{\"seq\":2}"},
	}
	for i, st := range steps {
		clock.add(st.advance)
		events = events[:0]
		out, err := st.d.Dispatch(context.Background(), call(strconv.Itoa(i), st.name, st.args))
		if err != nil || out.Output != st.wantOutput || out.Replayed != st.wantReplayed {
			t.Errorf("step %d %s %s: got %q replayed=%v err=%v; want %q replayed=%v", i, st.name, st.args, out.Output, out.Replayed, err, st.wantOutput, st.wantReplayed)
			continue
		}
		if ev := events[0]; ev.Replayed != st.wantReplayed || ev.IdempotencyKey == "" {
			t.Errorf("step %d: event replayed=%v key=%q", i, ev.Replayed, ev.IdempotencyKey)
		}
	}
	// Only the successful charge's handler ran for the replay; the failed
	// charge ran twice.
	if n := tt.Counters.Charge.Load(); n != 5 {
		t.Errorf("charge ran %d times, want 5", n)
	}
	// A failed charge was rolled back, a replay changed nothing.
	if got := session.All(d1.Session, tt.Notes); !slices.Equal(got, []string{"charge a", "charge a"}) {
		t.Errorf("notes = %v", got)
	}
	// Without a ledger every call runs.
	plain := &wink.Dispatcher{Registry: testRegistry}
	for range 2 {
		if out, _ := plain.Dispatch(context.Background(), call("x", "ping", `{"id":"q","n":1}`)); out.Replayed {
			t.Error("replayed without a ledger")
		}
	}
}

func TestIdempotencyKeysAreThoseOfTheLedger(t *testing.T) {
	s := session.New(session.WithID("S1"))
	d := &wink.Dispatcher{Registry: testRegistry, Session: s}
	lookup := func(name, args string) string {
		tool, _ := testRegistry.Lookup(name)
		p, err := tool.Decode([]byte(args), strictjson.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return d.IdempotencyKey(tool, p)
	}
	if got, want := lookup("charge", `{"account":"a","amount":5}`), ledger.AutoKey("session.S1", "charge", []byte(`{"account":"a","amount":5}`)); got != want {
		t.Errorf("auto key %q, want %q", got, want)
	}
	if got, want := lookup("book", `{"room":"r","day":2,"note":"n"}`), ledger.ParamsKey("global", "book", []ledger.Field{{Name: "room", JSON: []byte(`"r"`)}, {Name: "day", JSON: []byte(`2`)}}); got != want {
		t.Errorf("params key %q, want %q", got, want)
	}
	if got, want := lookup("ping", `{"id":"p","n":1}`), "session.S1:ping:p"; got != want {
		t.Errorf("custom key %q, want %q", got, want)
	}
	if got := lookup("mutate", `{"note":"x","fail":"none"}`); got != "" {
		t.Errorf("non-idempotent tool has key %q", got)
	}
}

// TestConcurrentIdenticalIdempotentCallsRunHandlerOnce is meant for -race.
func TestConcurrentIdenticalIdempotentCallsRunHandlerOnce(t *testing.T) {
	tt.Counters.Charge.Store(0)
	gate := make(chan struct{})
	tt.ChargeGate = gate
	defer func() { tt.ChargeGate = nil }()
	d := &wink.Dispatcher{Registry: testRegistry, Session: session.New(), Ledger: ledger.NewMemory()}
	const n = 32
	outs := make([]wink.Outcome, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			out, err := d.Dispatch(context.Background(), call(strconv.Itoa(i), "charge", `{"account":"z","amount":9}`))
			if err != nil {
				t.Error(err)
			}
			outs[i] = out
		})
	}
	close(gate)
	wg.Wait()
	if c := tt.Counters.Charge.Load(); c != 1 {
		t.Fatalf("handler ran %d times, want 1", c)
	}
	fresh := 0
	for _, o := range outs {
		if o.Output != "Charged z.\n\n{\"seq\":1}" || !o.Success {
			t.Errorf("outcome %+v", o)
		}
		if !o.Replayed {
			fresh++
		}
	}
	if fresh != 1 {
		t.Errorf("%d outcomes not replayed, want 1", fresh)
	}
	if got := session.Len(d.Session, wink.ToolLog); got != n {
		t.Errorf("log holds %d calls, want %d", got, n)
	}
}

// TestConcurrentDispatchOnManySessions is meant for -race: sessions are
// independent, each one's state ends up holding exactly its successes.
func TestConcurrentDispatchOnManySessions(t *testing.T) {
	tmpl := wink.Dispatcher{Registry: testRegistry, Ledger: ledger.NewMemory()}
	const sessions, callsPer = 16, 60
	var wg sync.WaitGroup
	for si := range sessions {
		wg.Go(func() {
			d := tmpl
			d.Session = session.New()
			fs := vfs.NewMemory()
			d.Filesystem = fs
			rng := rand.New(rand.NewPCG(uint64(si), 7))
			var want []string
			for i := range callsPer {
				fail := failKinds[rng.IntN(len(failKinds))]
				note := "s" + strconv.Itoa(si) + "-" + strconv.Itoa(i)
				out, err := d.Dispatch(context.Background(), call(note, "mutate", mutateArgs(note, "f"+strconv.Itoa(i%3), note, "", fail)))
				if err != nil {
					t.Error(err)
					return
				}
				if out.Success {
					want = append(want, note)
				}
				if i%10 == 0 {
					d.Dispatch(context.Background(), call("c", "charge", `{"account":"shared","amount":1}`))
				}
			}
			got := session.All(d.Session, tt.Notes)
			got = slices.DeleteFunc(got, func(s string) bool { return strings.HasPrefix(s, "charge") })
			if !slices.Equal(got, want) {
				t.Errorf("session %d: notes %v, want %v", si, got, want)
			}
		})
	}
	wg.Wait()
}
