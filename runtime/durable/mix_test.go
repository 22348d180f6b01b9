package durable_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// TestHeldWithSiblings runs a turn of three calls in every order of held, failing and committing
// calls (27 sequences): the held calls wait for their decision while their siblings fail or commit,
// then run once approved, though later siblings committed before them (or answer the model with the
// denial, with deny set). With crash set, the worker
// dispatching the first approved held call and the one dispatching the first committing call die
// after the call's commit and before the engine's checkpoint: the next worker answers the call from
// its commit in the session. Every run ends Done with each change made once; a run that no worker
// can advance would show here as a run that never ends.
func TestHeldWithSiblings(t *testing.T) {
	for _, deny := range []bool{false, true} {
		for _, crash := range []bool{false, true} {
			for _, seq := range durabletest.MixSequences(3) {
				if deny && !strings.Contains(seq, "H") {
					continue
				}
				name := seq
				if deny {
					name += "/deny"
				}
				if crash {
					name += "/crash"
				}
				t.Run(name, func(t *testing.T) { runMix(t, seq, deny, crash) })
			}
		}
	}
}

func runMix(t *testing.T, seq string, deny, crash bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	sst, err := session.NewMemoryStore(durabletest.Slices()...)
	if err != nil {
		t.Fatal(err)
	}
	store := durable.NewMemoryStore()
	prov := &durabletest.MixProvider{Seq: seq, Deny: deny}
	agent := durabletest.Agent(sst, nil, prov)
	// The calls whose commit kills its worker: the first held one (once approved) and the first
	// committing one.
	crashAt := map[int]bool{}
	if crash {
		for _, kind := range []byte{durabletest.Held, durabletest.Committed} {
			for i := range len(seq) {
				if seq[i] == kind {
					crashAt[i] = true
					break
				}
			}
		}
	}
	approved := false
	workers := 0
	// step gives the run to a new worker until it gives the run back or dies.
	step := func() {
		workers++
		k := &killable{Store: store}
		eng := &durable.Engine{Store: k, Agent: agent, Worker: "w" + string(rune('A'+workers-1)), Lease: 100 * time.Millisecond,
			HeldPoll: time.Hour, RetryDelay: time.Millisecond}
		eng.Observe = func(ev durable.Event) {
			if ev.Kind == durable.EventToolDispatched && crashAt[ev.Index] && (seq[ev.Index] != durabletest.Held || approved) {
				delete(crashAt, ev.Index)
				k.dead.Store(true)
				runtime.Goexit()
			}
		}
		for {
			done := make(chan bool)
			go func() {
				ran := false
				defer func() { done <- ran }()
				ran, err = eng.RunOne(ctx)
			}()
			if <-done || k.dead.Load() || ctx.Err() != nil {
				return
			}
			time.Sleep(5 * time.Millisecond) // the lease of a dead worker runs out
		}
	}
	if _, err := (&durable.Engine{Store: store}).Start(ctx, "r", []loop.Message{loop.UserMessage("mix")}, durable.StartOptions{Session: "s"}); err != nil {
		t.Fatal(err)
	}
	client := &durable.Engine{Store: store}
	var st durable.Status
	for range 12 {
		step()
		if st, err = client.Status(ctx, "r"); err != nil {
			t.Fatal(err)
		}
		if st.State.Terminal() {
			break
		}
		if st.State == durable.Held {
			for _, c := range st.Held {
				sess := session.New(session.WithID("s"), session.WithStore(sst))
				decide := policy.Approve(ctx, sess, c)
				if deny {
					decide = policy.Deny(ctx, sess, c, "not today")
				}
				if decide != nil {
					t.Fatal(decide)
				}
			}
			approved = true
			if err := client.Wake(ctx, "r"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := durabletest.VerifyMix(ctx, sst, "s", "r", prov, st); err != nil {
		t.Fatalf("after %d claims (state %s, attempts %d, last error %q): %v", workers, st.State, st.Attempts, st.Err, err)
	}
}

// TestStaleRunFails: a run whose session holds a commit of a later turn than its checkpoints (a
// session restored from a newer backup, or shared with another run of the same id) cannot be advanced:
// every call of it is refused as stale. The worker holding the claim ends it Failed with the reason
// instead of dropping it as a lost claim, which made every worker after it do the same, for ever.
func TestStaleRunFails(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sst, _ := session.NewMemoryStore(durabletest.Slices()...)
	d, err := durabletest.Dispatcher(sst, nil, "s")
	if err != nil {
		t.Fatal(err)
	}
	if o, err := durable.DispatchStep(ctx, d, durable.ToolStep{Run: "r", Turn: 5}, wink.Call{ID: "x", Name: "deposit",
		Arguments: []byte(`{"account":"x","cents":1}`)}); err != nil || !o.Success {
		t.Fatal(o, err)
	}
	store := durable.NewMemoryStore()
	prov := &durabletest.MixProvider{Seq: "C"}
	eng := &durable.Engine{Store: store, Agent: durabletest.Agent(sst, nil, prov), Lease: time.Second, RetryDelay: time.Millisecond}
	if _, err := eng.Start(ctx, "r", []loop.Message{loop.UserMessage("mix")}, durable.StartOptions{Session: "s"}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := eng.RunOne(ctx); err != nil {
			t.Fatal(err)
		}
	}
	st, err := eng.Status(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	if st.State != durable.Failed || st.Stop != loop.StopError || !strings.Contains(st.Err, "stale") || st.Attempts != 1 {
		t.Fatalf("want Failed with the reason after one claim, got %s (%s) %q after %d claims", st.State, st.Stop, st.Err, st.Attempts)
	}
}

// TestWorkerClockSkew: the store's clock (the database's) is an hour behind the worker's. A held run
// is looked at again HeldPoll after it was given back, and a run given back after an error is retried
// RetryDelay after, on the store's clock: the worker asks for a delay, the store times it. Before, the
// worker computed the due time on its own clock, and every run it gave back waited an hour more.
func TestWorkerClockSkew(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	store := durable.NewMemoryStore()
	store.Now = func() time.Time { return time.Now().Add(-time.Hour) }
	sst, _ := session.NewMemoryStore(durabletest.Slices()...)
	prov := &durabletest.MixProvider{Seq: "H"}
	failed := false
	agent := func(ctx context.Context, r durable.Run) (loop.Config, error) {
		if !failed { // the first claim cannot wire its agent: the run is given back to be retried
			failed = true
			return loop.Config{}, errors.New("database restarting")
		}
		return durabletest.Agent(sst, nil, prov)(ctx, r)
	}
	eng := &durable.Engine{Store: store, Agent: agent, Lease: time.Second, HeldPoll: 50 * time.Millisecond, RetryDelay: 50 * time.Millisecond}
	if _, err := eng.Start(ctx, "r", []loop.Message{loop.UserMessage("mix")}, durable.StartOptions{Session: "s"}); err != nil {
		t.Fatal(err)
	}
	// runSoon claims the run again within a second, or fails.
	runSoon := func(what string) {
		t.Helper()
		deadline := time.Now().Add(time.Second)
		for {
			ran, err := eng.RunOne(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if ran {
				return
			}
			if time.Now().After(deadline) {
				st, _ := eng.Status(ctx, "r")
				t.Fatalf("%s: the run was not due again within a second (%s, %q)", what, st.State, st.Err)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	runSoon("first claim")
	if st, _ := eng.Status(ctx, "r"); st.State != durable.Running || !strings.Contains(st.Err, "restarting") {
		t.Fatalf("after the failed wiring: %s %q", st.State, st.Err)
	}
	runSoon("retry after RetryDelay")
	held, _ := eng.Status(ctx, "r")
	if held.State != durable.Held || len(held.Held) != 1 || held.Held[0].Call.ID != durabletest.MixCallID(0) {
		t.Fatalf("want the call held, got %s %q", held.State, held.Err)
	}
	if err := policy.Approve(ctx, session.New(session.WithID("s"), session.WithStore(sst)), held.Held[0]); err != nil {
		t.Fatal(err)
	}
	runSoon("held run looked at again after HeldPoll") // no Wake: the poll finds the decision
	st, err := eng.Status(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	if err := durabletest.VerifyMix(ctx, sst, "s", "r", prov, st); err != nil {
		t.Fatal(err)
	}
}
