package wink_test

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// What a handler (or a policy, or a hook) obtains through its ToolContext during a call and keeps, in a
// goroutine it started, reaches its own call's state or fails clearly: never another call's, and never
// racing with the dispatcher (these tests run under -race).

// countingParticipant records what a transaction did with it.
type countingParticipant struct {
	prepared, done, committed atomic.Int32
}

func (p *countingParticipant) Prepare(context.Context, any) error { p.prepared.Add(1); return nil }
func (p *countingParticipant) Done(_ context.Context, committed bool) {
	p.done.Add(1)
	if committed {
		p.committed.Add(1)
	}
}

// failures collects test failures from many goroutines, keeping the first few.
type failures struct {
	mu   sync.Mutex
	list []string
}

func (f *failures) add(s string) {
	f.mu.Lock()
	if len(f.list) < 10 {
		f.list = append(f.list, s)
	}
	f.mu.Unlock()
}

func (f *failures) report(t *testing.T) {
	t.Helper()
	for _, s := range f.list {
		t.Error(s)
	}
}

// TestKeptTxJoinDuringTheCommit: every handler of many concurrent calls on one session starts a goroutine
// that keeps joining participants to the call's transaction (and reading it) during the call, while the
// dispatcher commits, and after. A Join that succeeded is part of the commit: its participant is
// prepared once and told once that it committed. A Join that failed matches session.ErrTxEnded and its
// participant is never called. Once the call has returned, every Join fails. Nothing is half-applied
// and nothing races.
func TestKeptTxJoinDuringTheCommit(t *testing.T) {
	for _, stored := range []bool{false, true} {
		t.Run("stored="+strconv.FormatBool(stored), func(t *testing.T) {
			s := session.New()
			if stored {
				st, err := session.NewMemoryStore()
				if err != nil {
					t.Fatal(err)
				}
				s = session.New(session.WithID("kept-tx"), session.WithStore(st))
			}
			testKeptTxJoin(t, s)
		})
	}
}

func testKeptTxJoin(t *testing.T, s *session.Session) {
	const workers, calls, after = 4, 40, 30
	var fail failures
	type joined struct {
		p  *countingParticipant
		ok bool
	}
	type keptCall struct {
		ended, done chan struct{}
		joins       []joined
		late        int // Joins after Dispatch returned
	}
	var kept sync.Map // query -> *keptCall
	tool := echoTool(func(tc *wink.ToolContext, p searchParams) {
		v, _ := kept.Load(p.Query)
		k := v.(*keptCall)
		tx := tc.Tx()
		if tx == nil {
			fail.add("during the call, Tx() = nil")
			close(k.done)
			return
		}
		go func() {
			defer close(k.done)
			join := func() error {
				c := &countingParticipant{}
				err := tx.Join(c)
				k.joins = append(k.joins, joined{c, err == nil})
				if err != nil && !errors.Is(err, session.ErrTxEnded) {
					fail.add("Join: " + err.Error() + ", want an error matching session.ErrTxEnded")
				}
				_ = tx.StoreTx()
				if tx.Session() == nil || tx.Access() != session.ReadWrite {
					fail.add("the kept Tx lost its session or access")
				}
				return err
			}
			for {
				_ = join()
				select {
				case <-k.ended:
					for range after {
						k.late++
						if join() == nil {
							fail.add("Join after the call returned succeeded: its work can be in no transaction")
						}
						runtime.Gosched()
					}
					return
				default:
				}
				runtime.Gosched()
			}
		}()
		for range 4 {
			runtime.Gosched()
		}
	})
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{tool}), Session: s}
	var wg sync.WaitGroup
	var all sync.Map
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range calls {
				p := searchParams{Query: "q" + strconv.Itoa(w) + "-" + strconv.Itoa(i), Limit: i}
				k := &keptCall{ended: make(chan struct{}), done: make(chan struct{})}
				kept.Store(p.Query, k)
				all.Store(p.Query, k)
				args := `{"query":"` + p.Query + `","limit":` + strconv.Itoa(p.Limit) + `}`
				out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "search_docs", Arguments: []byte(args)})
				if err != nil || !out.Success {
					fail.add("Dispatch: " + out.Output + " " + errString(err))
				}
				close(k.ended)
				if i%3 == 2 {
					<-k.done
				}
			}
		}()
	}
	wg.Wait()
	accepted, refused := 0, 0
	all.Range(func(key, v any) bool {
		k := v.(*keptCall)
		<-k.done
		for _, j := range k.joins {
			pr, dn, cm := j.p.prepared.Load(), j.p.done.Load(), j.p.committed.Load()
			switch {
			case j.ok && (pr != 1 || dn != 1 || cm != 1):
				fail.add(key.(string) + ": a joined participant was prepared " + strconv.Itoa(int(pr)) + ", done " +
					strconv.Itoa(int(dn)) + ", committed " + strconv.Itoa(int(cm)) + " times; want 1, 1, 1")
			case !j.ok && (pr != 0 || dn != 0):
				fail.add(key.(string) + ": a refused participant was prepared " + strconv.Itoa(int(pr)) + ", done " +
					strconv.Itoa(int(dn)) + " times; want 0, 0")
			}
			if j.ok {
				accepted++
			} else {
				refused++
			}
		}
		return true
	})
	if accepted == 0 || refused < workers*calls*after {
		t.Errorf("%d Joins accepted, %d refused: the test did not join both during and after the calls", accepted, refused)
	}
	fail.report(t)
}

// toolCallThing is a tool-call resource; n tells instances apart.
type toolCallThing struct{ n int64 }

var thingKey = resources.NewKey[*toolCallThing]("Thing")

// TestKeptResourcesResolveInTheirOwnCall: a handler's goroutine keeps the *resources.Context it got from
// its ToolContext. During the call a tool-call resource resolves to the call's own instance; after the
// call it fails with ErrScope; never, while later calls run on the same dispatcher (concurrently, one
// session), does it give another call's instance. A policy's goroutine, which may run before the call's
// scope opens, gets the "outside a tool call" error or the call's own instance, never the instance of
// the call running then.
func TestKeptResourcesResolveInTheirOwnCall(t *testing.T) {
	const workers, calls, after = 4, 40, 30
	var fail failures
	var made atomic.Int64
	reg, err := resources.NewRegistry(resources.Bind(thingKey, func(*resources.Resolver) (*toolCallThing, error) {
		return &toolCallThing{n: made.Add(1)}, nil
	}).Scope(resources.ToolCall))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := reg.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	type keptCall struct {
		ended, done, policyDone chan struct{}
		own                     *toolCallThing   // the handler's instance
		policyGot               []*toolCallThing // what the policy's goroutine resolved
	}
	var kept sync.Map // call id -> *keptCall
	// get resolves through res, kept from the call whose instance is own.
	get := func(res *resources.Context, own *toolCallThing, ended bool, who string) {
		th, err := resources.Get(res, thingKey)
		switch {
		case err == nil && th != own:
			fail.add(who + ": got instance " + strconv.FormatInt(th.n, 10) + ", another call's")
		case err == nil && ended:
			fail.add(who + ": resolved a tool-call resource after its call ended")
		case err != nil && !errors.Is(err, resources.ErrScope):
			fail.add(who + ": " + err.Error() + ", want an error matching resources.ErrScope")
		}
		// An error before ended is seen is fine: the call may have ended before Dispatch returned.
	}
	tool := echoTool(func(tc *wink.ToolContext, p searchParams) {
		v, _ := kept.Load(tc.CallID)
		k := v.(*keptCall)
		res := tc.Resources()
		own, err := resources.Get(res, thingKey)
		if err != nil {
			fail.add("handler: " + err.Error())
		}
		k.own = own
		go func() {
			defer close(k.done)
			for {
				get(res, own, false, "handler's goroutine")
				select {
				case <-k.ended:
					for range after {
						get(res, own, true, "handler's goroutine after the call")
						runtime.Gosched()
					}
					return
				default:
				}
				runtime.Gosched()
			}
		}()
		for range 4 {
			runtime.Gosched()
		}
	})
	pol := policyFunc(func(tc *wink.ToolContext) {
		v, _ := kept.Load(tc.CallID)
		k := v.(*keptCall)
		res := tc.Resources()
		go func() {
			defer close(k.policyDone)
			for {
				th, err := resources.Get(res, thingKey)
				if err == nil {
					k.policyGot = append(k.policyGot, th)
				} else if !errors.Is(err, resources.ErrScope) {
					fail.add("policy's goroutine: " + err.Error())
				}
				select {
				case <-k.ended:
					return
				default:
				}
				runtime.Gosched()
			}
		}()
	})
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{tool}), Session: session.New(), Resources: rc,
		Policies: []wink.Policy{pol}}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range calls {
				p := searchParams{Query: "q" + strconv.Itoa(w) + "-" + strconv.Itoa(i), Limit: i}
				id := "c" + p.Query
				k := &keptCall{ended: make(chan struct{}), done: make(chan struct{}), policyDone: make(chan struct{})}
				kept.Store(id, k)
				args := `{"query":"` + p.Query + `","limit":` + strconv.Itoa(p.Limit) + `}`
				out, err := d.Dispatch(context.Background(), wink.Call{ID: id, Name: "search_docs", Arguments: []byte(args)})
				if err != nil || !out.Success {
					fail.add("Dispatch: " + out.Output + " " + errString(err))
				}
				close(k.ended)
				if i%3 == 2 {
					<-k.done
				}
			}
		}()
	}
	wg.Wait()
	kept.Range(func(id, v any) bool {
		k := v.(*keptCall)
		<-k.done
		<-k.policyDone
		for _, th := range k.policyGot {
			if th != k.own {
				fail.add(id.(string) + ": the policy's goroutine got instance " + strconv.FormatInt(th.n, 10) +
					", not the call's own " + strconv.FormatInt(k.own.n, 10))
				break
			}
		}
		return true
	})
	fail.report(t)
}

// policyFunc is a policy that allows every call after calling f.
type policyFunc func(tc *wink.ToolContext)

func (policyFunc) Name() string { return "keeper" }
func (f policyFunc) Check(tc *wink.ToolContext, _ *wink.Tool, _ any) wink.Decision {
	f(tc)
	return wink.Decision{Allow: true}
}
func (policyFunc) OnResult(*wink.ToolContext, *wink.Tool, any, *wink.Outcome) {}

// newReadOnlySearch is a read-only search tool (//wink:tool readonly) around h.
func newReadOnlySearch(name string, h func(*wink.ToolContext, searchParams)) *wink.Tool {
	return wink.NewTool(wink.Spec{
		Name: name, Description: "Searches the docs.", Position: "search.go:40:1", ReadOnly: true,
		ParamsSchema: []byte(`{"type":"object"}`),
	}, &wink.Funcs[searchParams, searchResult]{
		Decode: decodeSearchParams, EncodeParams: encodeSearchParams, EncodeResult: encodeSearchResult,
		Handler: func(tc *wink.ToolContext, p searchParams) (wink.ToolResult[searchResult], error) {
			h(tc, p)
			return wink.OK(searchResult{Matches: []string{p.Query}, Total: p.Limit}, "Found."), nil
		},
	})
}

// TestPolicyGoroutinesUseTheToolContextBeforeTheHandler: a policy and the Check hook start goroutines
// that use the ToolContext while the dispatcher is still setting the call up (the session transaction,
// the tool-call scope, the filesystem resolved in it, a read-only call's read-only view). Every method is
// safe then (the race detector finds nothing); Tx is nil or the call's own transaction, on which Join
// succeeds or fails with ErrTxEnded; Filesystem is nil or the call's own, never another call's, and
// every call gets a filesystem of its own.
func TestPolicyGoroutinesUseTheToolContextBeforeTheHandler(t *testing.T) {
	const workers, calls = 4, 40
	var fail failures
	var made atomic.Int64
	reg, err := resources.NewRegistry(resources.Bind(wink.FilesystemKey, func(*resources.Resolver) (vfs.Filesystem, error) {
		fs := vfs.NewMemory()
		return fs, fs.Write("id", []byte(strconv.FormatInt(made.Add(1), 10)))
	}).Scope(resources.ToolCall))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := reg.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	type keptCall struct {
		ended   chan struct{}
		started sync.WaitGroup
		mu      sync.Mutex
		ownFS   string        // the id of the handler's filesystem
		ownTx   *session.Tx   // the handler's transaction
		gotFS   []string      // the ids of the filesystems the goroutines got
		gotTx   []*session.Tx // the transactions the goroutines got
	}
	var kept sync.Map // call id -> *keptCall
	fsID := func(fs vfs.Filesystem) string {
		b, err := fs.Read("id")
		if err != nil {
			return "unreadable: " + err.Error()
		}
		return string(b)
	}
	use := func(tc *wink.ToolContext, k *keptCall, who string) {
		defer k.started.Done()
		for {
			if tx := tc.Tx(); tx != nil {
				if err := tx.Join(&countingParticipant{}); err != nil && !errors.Is(err, session.ErrTxEnded) {
					fail.add(who + ": Join: " + err.Error())
				}
				k.mu.Lock()
				k.gotTx = append(k.gotTx, tx)
				k.mu.Unlock()
			}
			if fs := tc.Filesystem(); fs != nil {
				id := fsID(fs)
				k.mu.Lock()
				k.gotFS = append(k.gotFS, id)
				k.mu.Unlock()
			}
			_ = tc.Session()
			_ = tc.Resources()
			_ = tc.CanonicalArguments()
			select {
			case <-k.ended:
				return
			default:
			}
			runtime.Gosched()
		}
	}
	start := func(tc *wink.ToolContext, who string) {
		v, _ := kept.Load(tc.CallID)
		k := v.(*keptCall)
		k.started.Add(1)
		go use(tc, k, who)
	}
	pol := policyFunc(func(tc *wink.ToolContext) { start(tc, "policy's goroutine") })
	var ids sync.Map // filesystem id -> call id
	handler := func(tc *wink.ToolContext, p searchParams) {
		v, _ := kept.Load(tc.CallID)
		k := v.(*keptCall)
		fs := tc.Filesystem()
		if fs == nil {
			fail.add("handler: no filesystem")
			return
		}
		id := fsID(fs)
		if other, dup := ids.LoadOrStore(id, tc.CallID); dup {
			fail.add("calls " + other.(string) + " and " + tc.CallID + " got the same tool-call filesystem")
		}
		k.mu.Lock()
		k.ownFS, k.ownTx = id, tc.Tx()
		k.mu.Unlock()
		for range 4 {
			runtime.Gosched()
		}
	}
	rw := echoTool(func(tc *wink.ToolContext, p searchParams) { handler(tc, p) })
	ro := newReadOnlySearch("search_ro", handler)
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{rw, ro}), Session: session.New(), Resources: rc,
		Policies: []wink.Policy{pol},
		Hooks: wink.Hooks{Check: func(tc *wink.ToolContext, _ *wink.Tool, _ any) *wink.Denial {
			start(tc, "Check hook's goroutine")
			return nil
		}}}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range calls {
				name := "search_docs"
				if i%2 == 1 {
					name = "search_ro"
				}
				id := "c" + strconv.Itoa(w) + "-" + strconv.Itoa(i)
				k := &keptCall{ended: make(chan struct{})}
				kept.Store(id, k)
				out, err := d.Dispatch(context.Background(), wink.Call{ID: id, Name: name, Arguments: []byte(`{"query":"x","limit":1}`)})
				if err != nil || !out.Success {
					fail.add("Dispatch: " + out.Output + " " + errString(err))
				}
				close(k.ended)
				k.started.Wait()
			}
		}()
	}
	wg.Wait()
	kept.Range(func(id, v any) bool {
		k := v.(*keptCall)
		for _, got := range k.gotFS {
			if got != k.ownFS {
				fail.add(id.(string) + ": a goroutine's Filesystem() is " + got + ", the call's is " + k.ownFS)
				break
			}
		}
		for _, got := range k.gotTx {
			if got != k.ownTx {
				fail.add(id.(string) + ": a goroutine's Tx() is not the call's")
				break
			}
		}
		return true
	})
	fail.report(t)
}

// countingClient is a wink.Client counting what it is asked.
type countingClient struct{ samples, elicits, logs atomic.Int32 }

func (c *countingClient) Log(context.Context, wink.LogLevel, string, string) error {
	c.logs.Add(1)
	return nil
}
func (c *countingClient) Sample(context.Context, wink.SampleRequest) (wink.SampleResult, error) {
	c.samples.Add(1)
	return wink.SampleResult{Role: "assistant", Content: wink.Text("ok")}, nil
}
func (c *countingClient) Elicit(context.Context, string, []byte) (wink.ElicitAction, []byte, error) {
	c.elicits.Add(1)
	return wink.ElicitDecline, nil, nil
}

// TestKeptToolContextAsksTheClientNothingAfterTheCall: the client of a call (an MCP server's request)
// is asked nothing through a ToolContext kept past the call: Sample, Elicit and a Round's Wait fail with
// ErrNotAvailable without reaching it, Progress reports nothing; during the call all of them reach it.
func TestKeptToolContextAsksTheClientNothingAfterTheCall(t *testing.T) {
	cl := &countingClient{}
	var progress atomic.Int32
	var kept *wink.ToolContext
	use := func(tc *wink.ToolContext) []error {
		_, err1 := tc.SampleText("hi", 5)
		_, _, err2 := wink.Elicit(tc, "Sure?", confirmForm)
		r := wink.NewRound(tc)
		r.Sample("k", wink.SampleRequest{Messages: []wink.SampleMessage{{Role: "user", Content: wink.Text("hi")}}})
		err3 := r.Wait()
		tc.Progress(1, 2, "half")
		return []error{err1, err2, err3}
	}
	tool := echoTool(func(tc *wink.ToolContext, _ searchParams) {
		kept = tc
		for i, err := range use(tc) {
			if err != nil {
				t.Errorf("during the call, question %d: %v", i, err)
			}
		}
	})
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{tool})}
	ctx := wink.WithProgress(wink.WithClient(context.Background(), cl), func(float64, float64, string) { progress.Add(1) })
	if out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: "search_docs", Arguments: []byte(`{"query":"a","limit":1}`)}); err != nil || !out.Success {
		t.Fatal(out, err)
	}
	s, e, p := cl.samples.Load(), cl.elicits.Load(), progress.Load()
	if s != 2 || e != 1 || p != 1 {
		t.Fatalf("during the call the client got %d samples, %d elicitations, %d progress reports; want 2, 1, 1", s, e, p)
	}
	for i, err := range use(kept) {
		if !errors.Is(err, wink.ErrNotAvailable) {
			t.Errorf("after the call, question %d: %v, want an error matching ErrNotAvailable", i, err)
		}
	}
	if s2, e2, p2 := cl.samples.Load(), cl.elicits.Load(), progress.Load(); s2 != s || e2 != e || p2 != p {
		t.Errorf("after the call the client got %d more samples, %d elicitations, %d progress reports; want none", s2-s, e2-e, p2-p)
	}
}
