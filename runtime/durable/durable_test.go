package durable_test

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// killable is a worker's view of the shared store: once dead, every call fails as a dead process's
// would never happen (claims find nothing, fenced writes are refused), so the other workers take over.
type killable struct {
	durable.Store
	dead atomic.Bool
}

func (k *killable) Claim(ctx context.Context, w string, lease time.Duration) (durable.Record, bool, error) {
	if k.dead.Load() {
		return durable.Record{}, false, nil
	}
	return k.Store.Claim(ctx, w, lease)
}
func (k *killable) Renew(ctx context.Context, id string, token int64, lease time.Duration) error {
	if k.dead.Load() {
		return durable.ErrLeaseLost
	}
	return k.Store.Renew(ctx, id, token, lease)
}
func (k *killable) Append(ctx context.Context, id string, token int64, s durable.Step) error {
	if k.dead.Load() {
		return durable.ErrLeaseLost
	}
	return k.Store.Append(ctx, id, token, s)
}
func (k *killable) Release(ctx context.Context, id string, token int64, r durable.Release) error {
	if k.dead.Load() {
		return durable.ErrLeaseLost
	}
	return k.Store.Release(ctx, id, token, r)
}

// TestCrashInProcess runs the script on three in-process workers sharing a memory store and a memory
// session store, and kills the worker holding the run at each crash point outside a handler (the
// goroutine driving the run exits on the spot and its store is cut off): another worker finishes the
// run, every change is in the session once and no completed model call is repeated. The handler crash
// needs a process to kill: see pgdurable's TestCrashWorkers.
func TestCrashInProcess(t *testing.T) {
	for _, point := range durabletest.CrashPoints {
		if point == durabletest.InHandler {
			continue
		}
		t.Run(point, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			model, err := durabletest.StartModel()
			if err != nil {
				t.Fatal(err)
			}
			defer model.Close()
			p, err := durabletest.Provider(model.URL)
			if err != nil {
				t.Fatal(err)
			}
			sst, err := session.NewMemoryStore(durabletest.Slices()...)
			if err != nil {
				t.Fatal(err)
			}
			store := durable.NewMemoryStore()
			led := ledger.NewMemory()
			var once atomic.Bool
			crashed := make(chan string, 3)
			var wg sync.WaitGroup
			wctx, stop := context.WithCancel(ctx)
			for i := range 3 {
				k := &killable{Store: store}
				eng := &durable.Engine{Store: k, Agent: durabletest.Agent(sst, led, p), Worker: "w" + string(rune('A'+i)),
					Lease: 300 * time.Millisecond, Poll: 10 * time.Millisecond, HeldPoll: 100 * time.Millisecond, RetryDelay: 10 * time.Millisecond}
				eng.Observe, _ = durabletest.CrashAt(point, func() bool { return once.CompareAndSwap(false, true) }, func() {
					k.dead.Store(true)
					crashed <- eng.WorkerName()
					runtime.Goexit()
				})
				wg.Go(func() { _ = eng.Work(wctx) })
			}
			defer func() { stop(); wg.Wait() }()
			client := &durable.Engine{Store: store}
			run := "run-" + point
			if _, err := client.Start(ctx, run, []loop.Message{loop.UserMessage("Credit alice 100 and bob 50, take 30 from alice, credit carol 7.")},
				durable.StartOptions{Session: "sess-" + point}); err != nil {
				t.Fatal(err)
			}
			st, err := client.WaitFor(ctx, run, func(s durable.Status) bool { return s.State == durable.Held || s.State.Terminal() })
			if err != nil {
				t.Fatalf("waiting for the held call: %v (status %+v)", err, st)
			}
			if st.State != durable.Held || len(st.Held) != 1 || st.Held[0].Call.ID != durabletest.HeldCallID {
				t.Fatalf("want the transfer held, got %s %v", st.State, st.Held)
			}
			if point == durabletest.WhileHeld {
				select { // the worker that held the run dies before the approval
				case <-crashed:
					crashed <- "again"
				case <-time.After(10 * time.Second):
					t.Fatal("no worker crashed while held")
				}
			}
			if err := durabletest.Approve(ctx, sst, "sess-"+point, st.Held[0]); err != nil {
				t.Fatal(err)
			}
			if err := client.Wake(ctx, run); err != nil {
				t.Fatal(err)
			}
			st, err = client.Wait(ctx, run)
			if err != nil {
				t.Fatalf("waiting for the run: %v (status %+v)", err, st)
			}
			select {
			case w := <-crashed:
				if st.Worker == w {
					t.Errorf("the run finished on the worker that crashed (%s)", w)
				}
			default:
				t.Fatal("no worker crashed at " + point)
			}
			if err := durabletest.Verify(ctx, sst, "sess-"+point, run, "", model.Counts(), point, st); err != nil {
				t.Fatal(err)
			}
			if st.Attempts < 2 {
				t.Errorf("attempts = %d, want a takeover", st.Attempts)
			}
		})
	}
}

// TestStatusWhileRunning reads a run's status from another engine while it is held: the transcript so
// far, the held call, and the model's final answer after the approval.
func TestStatusWhileRunning(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	model, err := durabletest.StartModel()
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	p, _ := durabletest.Provider(model.URL)
	sst, _ := session.NewMemoryStore(durabletest.Slices()...)
	store := durable.NewMemoryStore()
	eng := &durable.Engine{Store: store, Agent: durabletest.Agent(sst, ledger.NewMemory(), p), HeldPoll: time.Hour}
	if created, err := eng.Start(ctx, "r", []loop.Message{loop.UserMessage("go")}, durable.StartOptions{Session: "s"}); err != nil || !created {
		t.Fatal(created, err)
	}
	if created, err := eng.Start(ctx, "r", []loop.Message{loop.UserMessage("again")}, durable.StartOptions{Session: "s"}); err != nil || created {
		t.Fatalf("a second Start of the same id: created %v, %v", created, err)
	}
	if ran, err := eng.RunOne(ctx); !ran || err != nil {
		t.Fatal(ran, err)
	}
	st, err := (&durable.Engine{Store: store}).Status(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	if st.State != durable.Held || st.Turns != 2 || len(st.Messages) != 5 || st.Steps != 4 || len(st.Held) != 1 {
		t.Fatalf("held status: state %s turns %d messages %d steps %d held %v", st.State, st.Turns, len(st.Messages), st.Steps, st.Held)
	}
	// Nothing to do until the decision: the run is not claimable before HeldPoll.
	if ran, _ := eng.RunOne(ctx); ran {
		t.Fatal("a held run was claimed before its wake time")
	}
	if err := durabletest.Approve(ctx, sst, "s", st.Held[0]); err != nil {
		t.Fatal(err)
	}
	if err := eng.Wake(ctx, "r"); err != nil {
		t.Fatal(err)
	}
	if ran, err := eng.RunOne(ctx); !ran || err != nil {
		t.Fatal(ran, err)
	}
	st, err = eng.Status(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	if err := durabletest.Verify(ctx, sst, "s", "r", "", model.Counts(), "", st); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Status(ctx, "nope"); !errors.Is(err, durable.ErrNotFound) {
		t.Fatalf("status of an unknown run: %v", err)
	}
}

// TestDenied: a denial is recorded, the model reads it and the run goes on.
func TestDenied(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	model, _ := durabletest.StartModel()
	defer model.Close()
	p, _ := durabletest.Provider(model.URL)
	sst, _ := session.NewMemoryStore(durabletest.Slices()...)
	store := durable.NewMemoryStore()
	eng := &durable.Engine{Store: store, Agent: durabletest.Agent(sst, ledger.NewMemory(), p), HeldPoll: time.Hour}
	_, _ = eng.Start(ctx, "r", []loop.Message{loop.UserMessage("go")}, durable.StartOptions{Session: "s"})
	_, _ = eng.RunOne(ctx)
	held, _ := eng.Status(ctx, "r")
	if len(held.Held) != 1 {
		t.Fatalf("not held: %+v", held)
	}
	if err := denyHeld(ctx, sst, held.Held[0]); err != nil {
		t.Fatal(err)
	}
	_ = eng.Wake(ctx, "r")
	_, _ = eng.RunOne(ctx)
	st, _ := eng.Status(ctx, "r")
	if st.State != durable.Done || st.Messages[5].Result.Success || st.Messages[5].Result.CallID != durabletest.HeldCallID {
		t.Fatalf("denied call: %s %+v", st.State, st.Messages[5].Result)
	}
}

// TestIdempotencyKeyOutside: outside a durable run the key is empty.
func TestIdempotencyKeyOutside(t *testing.T) {
	if k := durable.IdempotencyKey(context.Background()); k != "" {
		t.Fatal(k)
	}
}

// TestCodecCorrupt: every truncation of a checkpoint is refused with an error, never a panic.
func TestCodecCorrupt(t *testing.T) {
	r := loop.Response{Text: "hi", Stop: "tool_calls", Usage: loop.Usage{Input: 3, Output: 4}}
	r.ToolCalls = append(r.ToolCalls, durabletestCall())
	b := durable.EncodeResponse(r)
	got, err := durable.DecodeResponse(b)
	if err != nil || got.Text != "hi" || got.ToolCalls[0].Name != "deposit" || got.Usage.Output != 4 {
		t.Fatal(got, err)
	}
	for i := range b {
		if _, err := durable.DecodeResponse(b[:i]); err == nil {
			t.Fatalf("truncated at %d: no error", i)
		}
	}
	if _, err := durable.DecodeResponse(append(b, 0)); err == nil {
		t.Fatal("trailing byte: no error")
	}
}

func durabletestCall() wink.Call {
	return wink.Call{ID: "c1", Name: "deposit", Arguments: []byte(`{"account":"a","cents":1}`), PairMaps: true}
}

func denyHeld(ctx context.Context, st session.Store, held *wink.HeldError) error {
	return policy.Deny(ctx, session.New(session.WithID("s"), session.WithStore(st)), held, "not today")
}

// TestMemoryStoreContract checks MemoryStore against the Store contract.
func TestMemoryStoreContract(t *testing.T) { durabletest.StoreContract(t, durable.NewMemoryStore()) }

// paused is a worker's view of the store whose renewals fail while cut is set, as a worker stopped by
// the scheduler (or cut off from the database) cannot renew its claim.
type paused struct {
	durable.Store
	cut atomic.Bool
}

func (p *paused) Renew(ctx context.Context, id string, token int64, lease time.Duration) error {
	if p.cut.Load() {
		return errors.New("cut off")
	}
	return p.Store.Renew(ctx, id, token, lease)
}

// TestPausedPastLease: worker A stops just before dispatching a call (its renewals stop too) until its
// lease has expired and worker B has taken the run over and run it up to the held call; then A resumes
// and dispatches its call. The call's transaction refuses it (A's claim is fenced off), so the change is
// made once, by B, and A gives the run up without writing anything.
func TestPausedPastLease(t *testing.T) {
	for _, withLedger := range []bool{false, true} {
		t.Run("ledger="+strconv.FormatBool(withLedger), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			model, _ := durabletest.StartModel()
			defer model.Close()
			p, _ := durabletest.Provider(model.URL)
			sst, _ := session.NewMemoryStore(durabletest.Slices()...)
			store := durable.NewMemoryStore()
			var led ledger.Doer
			if withLedger {
				led = ledger.NewMemory()
			}
			resume, stopped := make(chan struct{}), make(chan struct{})
			pa := &paused{Store: store}
			var released []durable.State
			var mu sync.Mutex
			a := &durable.Engine{Store: pa, Agent: durabletest.Agent(sst, led, p), Worker: "A", Lease: 100 * time.Millisecond, HeldPoll: time.Hour,
				Observe: func(ev durable.Event) {
					if ev.Kind == durable.EventToolStart && ev.Turn == 1 && ev.Index == 1 {
						pa.cut.Store(true)
						close(stopped)
						<-resume
					}
					if ev.Kind == durable.EventReleased {
						mu.Lock()
						released = append(released, ev.State)
						mu.Unlock()
					}
				}}
			b := &durable.Engine{Store: store, Agent: durabletest.Agent(sst, led, p), Worker: "B", Lease: time.Minute, HeldPoll: time.Hour}
			if _, err := a.Start(ctx, "r", []loop.Message{loop.UserMessage("go")}, durable.StartOptions{Session: "s"}); err != nil {
				t.Fatal(err)
			}
			aDone := make(chan struct{})
			go func() { defer close(aDone); _, _ = a.RunOne(ctx) }()
			<-stopped
			for { // B takes the run once A's lease has expired
				ran, err := b.RunOne(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if ran {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			st, _ := b.Status(ctx, "r")
			if st.State != durable.Held || st.Worker != "B" {
				t.Fatalf("after B: %s on %s", st.State, st.Worker)
			}
			pa.cut.Store(false) // A runs again: its renewals reach the store, and are refused
			close(resume)
			<-aDone
			mu.Lock()
			if len(released) != 0 {
				t.Errorf("A released the run it had lost: %v", released)
			}
			mu.Unlock()
			entries, err := durabletest.StoredEntries(ctx, sst, "s")
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 2 || entries[1].Account != "bob" {
				t.Fatalf("entries after A resumed: %+v", entries)
			}
			st, _ = b.Status(ctx, "r")
			if st.State != durable.Held || st.Steps != 4 {
				t.Fatalf("A changed the run: %s, %d steps", st.State, st.Steps)
			}
			// The run goes on as if A had never resumed.
			if err := durabletest.Approve(ctx, sst, "s", st.Held[0]); err != nil {
				t.Fatal(err)
			}
			_ = b.Wake(ctx, "r")
			if ran, err := b.RunOne(ctx); !ran || err != nil {
				t.Fatal(ran, err)
			}
			st, _ = b.Status(ctx, "r")
			if err := durabletest.Verify(ctx, sst, "s", "r", "", nil, "", st); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestStaleAttempt: an attempt of a step older than the run's latest commit is refused inside its
// transaction (ErrStaleStep), as a Temporal activity attempt overtaken by its retry would be.
func TestStaleAttempt(t *testing.T) {
	ctx := context.Background()
	sst, _ := session.NewMemoryStore(durabletest.Slices()...)
	d, err := durabletest.Dispatcher(sst, nil, "s")
	if err != nil {
		t.Fatal(err)
	}
	call := func(turn int, account string) (wink.Outcome, error) {
		return durable.DispatchStep(ctx, d, durable.ToolStep{Run: "r", Turn: turn}, wink.Call{ID: "c" + strconv.Itoa(turn), Name: "deposit",
			Arguments: []byte(`{"account":"` + account + `","cents":1}`)})
	}
	if o, err := call(2, "x"); err != nil || !o.Success {
		t.Fatal(o, err)
	}
	if o, err := call(2, "y"); err != nil || !o.Success || !strings.Contains(o.Message, "x") {
		t.Fatalf("the same step again must be answered from its commit: %+v %v", o, err)
	}
	if _, err := call(1, "z"); !errors.Is(err, durable.ErrStaleStep) {
		t.Fatalf("an older step: %v", err)
	}
	entries, _ := durabletest.StoredEntries(ctx, sst, "s")
	if len(entries) != 1 || entries[0].Account != "x" {
		t.Fatalf("entries: %+v", entries)
	}
}

// TestFencedClaim: worker A stops before a call until its lease expires and another worker claims the
// run (and has not run the call yet); when A resumes, its call is refused inside the call's transaction
// by the fence (its claim is no longer current): the handler does not run and A writes nothing.
func TestFencedClaim(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	model, _ := durabletest.StartModel()
	defer model.Close()
	p, _ := durabletest.Provider(model.URL)
	sst, _ := session.NewMemoryStore(durabletest.Slices()...)
	store := durable.NewMemoryStore()
	resume, stopped := make(chan struct{}), make(chan struct{})
	pa := &paused{Store: store}
	var dispatched atomic.Bool
	a := &durable.Engine{Store: pa, Agent: durabletest.Agent(sst, nil, p), Worker: "A", Lease: 100 * time.Millisecond, HeldPoll: time.Hour,
		Observe: func(ev durable.Event) {
			switch {
			case ev.Kind == durable.EventToolStart && ev.Turn == 1 && ev.Index == 1:
				pa.cut.Store(true)
				close(stopped)
				<-resume
			case ev.Kind == durable.EventToolDispatched && ev.Turn == 1 && ev.Index == 1:
				dispatched.Store(true)
			}
		}}
	if _, err := a.Start(ctx, "r", []loop.Message{loop.UserMessage("go")}, durable.StartOptions{Session: "s"}); err != nil {
		t.Fatal(err)
	}
	aDone := make(chan struct{})
	go func() { defer close(aDone); _, _ = a.RunOne(ctx) }()
	<-stopped
	var claimed durable.Record
	for { // another worker claims the run once A's lease has expired
		r, ok, err := store.Claim(ctx, "B", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			claimed = r
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	pa.cut.Store(false) // A runs again: its renewals and its fence reach the store, and are refused
	close(resume)
	<-aDone
	if dispatched.Load() {
		t.Fatal("A's call ran after its claim was taken over")
	}
	entries, _ := durabletest.StoredEntries(ctx, sst, "s")
	if len(entries) != 1 || entries[0].Account != "alice" {
		t.Fatalf("entries: %+v", entries)
	}
	rec, steps, _ := store.Load(ctx, "r")
	if rec.Owner != "B" || rec.Token != claimed.Token || len(steps) != 2 {
		t.Fatalf("A wrote after losing its claim: owner %s, %d steps", rec.Owner, len(steps))
	}
}
