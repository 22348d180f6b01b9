package temporal_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/durable/temporal"
	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
)

// fixture is the test agent on memory stores and the fake model.
type fixture struct {
	model *durabletest.Model
	sst   *session.MemoryStore
	st    *durable.MemoryStore
	acts  *temporal.Activities
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	model, err := durabletest.StartModel()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	p, err := durabletest.Provider(model.URL)
	if err != nil {
		t.Fatal(err)
	}
	sst, err := session.NewMemoryStore(durabletest.Slices()...)
	if err != nil {
		t.Fatal(err)
	}
	st := durable.NewMemoryStore()
	return &fixture{model: model, sst: sst, st: st, acts: &temporal.Activities{Store: st, Agent: durabletest.Agent(sst, ledger.NewMemory(), p), Worker: "suite"}}
}

func (f *fixture) start(t *testing.T, run, sess string) {
	t.Helper()
	if _, err := f.st.Create(context.Background(), durable.Record{ID: run, Session: sess,
		Input: durable.EncodeMessages([]loop.Message{loop.UserMessage("Credit alice 100 and bob 50, take 30 from alice, credit carol 7.")})}); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) env(s *testsuite.WorkflowTestSuite) *testsuite.TestWorkflowEnvironment {
	env := newEnv(s)
	temporal.Register(env, f.acts)
	return env
}

// TestWorkflow runs the script as a workflow in Temporal's test environment (no server): the held call
// waits for the approval signal, the status query reports it, and the run ends with every change once
// and one model request per turn.
func TestWorkflow(t *testing.T) {
	t.Run("activities", func(t *testing.T) { testWorkflow(t, false) })
	t.Run("local", func(t *testing.T) { testWorkflow(t, true) })
}

func testWorkflow(t *testing.T, local bool) {
	var s testsuite.WorkflowTestSuite
	f := newFixture(t)
	f.start(t, "r", "s")
	env := f.env(&s)
	var queried temporal.WorkflowStatus
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(temporal.QueryStatus)
		if err != nil {
			t.Error(err)
			return
		}
		if err := v.Get(&queried); err != nil {
			t.Error(err)
		}
		// The provider's call id names no held call (providers reuse ids): only the hold id does.
		env.SignalWorkflow(temporal.SignalApproval, temporal.Decision{Hold: durabletest.HeldCallID, Approved: true})
		env.SignalWorkflow(temporal.SignalApproval, temporal.Decision{Hold: durable.HoldID("r", 2, 0), Approved: true})
	}, 48*time.Hour) // days of waiting cost the history two events
	env.ExecuteWorkflow(temporal.WorkflowName, temporal.NewInput("r", temporal.Options{Session: "s", LocalActivities: local}))
	if !env.IsWorkflowCompleted() {
		t.Fatal("workflow not completed")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var out temporal.Output
	if err := env.GetWorkflowResult(&out); err != nil || out.Stop != "done" || out.Turns != 4 {
		t.Fatalf("result %+v %v", out, err)
	}
	if queried.State != "held" || len(queried.Held) != 1 || queried.Held[0].Hold != durable.HoldID("r", 2, 0) || queried.Held[0].CallID != durabletest.HeldCallID ||
		queried.Held[0].Tool != "transfer" || !strings.Contains(queried.Held[0].Question, `"cents":30`) || queried.Turn != 2 {
		t.Fatalf("status while held: %+v", queried)
	}
	verify(t, f, "r", "s", "")
}

func verify(t *testing.T, f *fixture, run, sess, crashed string) {
	t.Helper()
	rec, steps, err := f.st.Load(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	st, err := durable.Rebuild(rec, steps)
	if err != nil {
		t.Fatal(err)
	}
	st.State, st.Stop = durable.Done, loop.StopDone
	if err := durabletest.Verify(context.Background(), f.sst, sess, run, "", f.model.Counts(), crashed, st); err != nil {
		t.Fatal(err)
	}
}

// TestWorkflowDenied: a denial signal is recorded and the model reads it.
func TestWorkflowDenied(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	f := newFixture(t)
	f.start(t, "r", "s")
	env := f.env(&s)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(temporal.SignalApproval, temporal.Decision{Hold: durable.HoldID("r", 2, 0), Reason: "no"})
	}, time.Minute)
	env.ExecuteWorkflow(temporal.WorkflowName, temporal.NewInput("r", temporal.Options{Session: "s"}))
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	rec, steps, _ := f.st.Load(context.Background(), "r")
	st, _ := durable.Rebuild(rec, steps)
	if m := st.Messages[5].Result; m.Success || m.CallID != durabletest.HeldCallID {
		t.Fatalf("denied call: %+v", m)
	}
}

// TestContinueAsNew: with two turns per workflow run, the run continues as new carrying only its turn,
// and the continued run finishes from the store's checkpoints without asking the model again.
func TestContinueAsNew(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	f := newFixture(t)
	f.start(t, "r", "s")
	env := f.env(&s)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(temporal.SignalApproval, temporal.Decision{Hold: durable.HoldID("r", 2, 0), Approved: true})
	}, time.Minute)
	env.ExecuteWorkflow(temporal.WorkflowName, temporal.NewInput("r", temporal.Options{Session: "s", TurnsPerRun: 2}))
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("want continue-as-new, got %v", err)
	}
	var next temporal.Input
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil || next.Turn != 3 {
		t.Fatalf("continued input %+v %v", next, err)
	}
	env2 := f.env(&s)
	env2.ExecuteWorkflow(temporal.WorkflowName, next)
	if err := env2.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	verify(t, f, "r", "s", "")
}

// TestActivityCrash makes an activity attempt die at each crash point outside a handler (the attempt
// panics there; Temporal retries it): the retry answers from the checkpoints, so no model request is
// repeated and no change is made twice.
func TestActivityCrash(t *testing.T) {
	for _, local := range []bool{false, true} {
		for _, point := range []string{durabletest.BeforeModel, durabletest.AfterModel, durabletest.BeforeTool, durabletest.AfterCommit} {
			name := point
			if local {
				name = "local/" + point
			}
			t.Run(name, func(t *testing.T) { activityCrash(t, point, local) })
		}
	}
}

func activityCrash(t *testing.T, point string, local bool) {
	var s testsuite.WorkflowTestSuite
	f := newFixture(t)
	f.start(t, "r", "s")
	var once atomic.Bool
	var died atomic.Bool
	f.acts.Observe, _ = durabletest.CrashAt(point, func() bool { return once.CompareAndSwap(false, true) }, func() {
		died.Store(true)
		panic("worker killed at " + point)
	})
	env := f.env(&s)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(temporal.SignalApproval, temporal.Decision{Hold: durable.HoldID("r", 2, 0), Approved: true})
	}, time.Minute)
	env.ExecuteWorkflow(temporal.WorkflowName, temporal.NewInput("r", temporal.Options{Session: "s", RetryInterval: time.Millisecond, LocalActivities: local}))
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if !died.Load() {
		t.Fatal("no attempt died at " + point)
	}
	verify(t, f, "r", "s", point)
}
