package temporal_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/durable/temporal"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"go.temporal.io/sdk/testsuite"
)

// TestHeldWithSiblingsTemporal runs a turn of three calls in every order of held, failing and
// committing calls (27 sequences) as a workflow: the held calls wait for their approval signals while
// their siblings fail or commit, then run once approved, though later siblings committed before them.
// With crash set, the attempt of the first approved held call and that of the first committing call
// die after the call's commit and before its checkpoint (Temporal retries them: the retry answers from
// the commit). With deny set, the held calls are denied: the model reads the denials. Every run ends with each change made once; before, an approved call after a committed
// sibling was refused as stale and retried for ever.
func TestHeldWithSiblingsTemporal(t *testing.T) {
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
				t.Run(name, func(t *testing.T) { mixTemporal(t, seq, deny, crash) })
			}
		}
	}
}

func mixTemporal(t *testing.T, seq string, deny, crash bool) {
	ctx := context.Background()
	sst, err := session.NewMemoryStore(durabletest.Slices()...)
	if err != nil {
		t.Fatal(err)
	}
	st := durable.NewMemoryStore()
	prov := &durabletest.MixProvider{Seq: seq, Deny: deny}
	acts := &temporal.Activities{Store: st, Agent: durabletest.Agent(sst, nil, prov), Worker: "suite"}
	crashAt := map[int]*atomic.Bool{}
	if crash {
		for _, kind := range []byte{durabletest.Held, durabletest.Committed} {
			for i := range len(seq) {
				if seq[i] == kind {
					crashAt[i] = new(atomic.Bool)
					break
				}
			}
		}
	}
	var approved atomic.Bool
	acts.Observe = func(ev durable.Event) {
		if ev.Kind != durable.EventToolDispatched {
			return
		}
		if c := crashAt[ev.Index]; c != nil && (seq[ev.Index] != durabletest.Held || approved.Load()) && c.CompareAndSwap(false, true) {
			panic("worker killed after the commit of call " + durabletest.MixCallID(ev.Index))
		}
	}
	if _, err := st.Create(ctx, durable.Record{ID: "r", Session: "s", Input: durable.EncodeMessages([]loop.Message{loop.UserMessage("mix")})}); err != nil {
		t.Fatal(err)
	}
	var s testsuite.WorkflowTestSuite
	env := newEnv(&s)
	temporal.Register(env, acts)
	env.RegisterDelayedCallback(func() {
		approved.Store(true)
		for i := range len(seq) {
			if seq[i] == durabletest.Held {
				env.SignalWorkflow(temporal.SignalApproval, temporal.Decision{Hold: durable.HoldID("r", 1, i), Approved: !deny, Reason: "not today"})
			}
		}
	}, time.Hour)
	env.ExecuteWorkflow(temporal.WorkflowName, temporal.NewInput("r", temporal.Options{Session: "s", RetryInterval: time.Millisecond}))
	if !env.IsWorkflowCompleted() {
		t.Fatal("workflow not completed")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	rec, steps, err := st.Load(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	status, err := durable.Rebuild(rec, steps)
	if err != nil {
		t.Fatal(err)
	}
	status.State, status.Stop = durable.Done, loop.StopDone
	if err := durabletest.VerifyMix(ctx, sst, "s", "r", prov, status); err != nil {
		t.Fatal(err)
	}
	for i, c := range crashAt {
		if !c.Load() {
			t.Errorf("call %d's attempt did not die", i)
		}
	}
}
