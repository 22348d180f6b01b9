package temporal_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/temporal"
	"github.com/winkgen/wink/runtime/internal/callertools"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/wink"
	"go.temporal.io/sdk/testsuite"
)

// programModel runs one program that looks an order up and pays it, then answers.
type programModel struct{}

func (programModel) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	for _, m := range req.Messages {
		if m.Role == loop.RoleTool {
			return loop.Response{Text: "Paid."}, nil
		}
	}
	return loop.Response{ToolCalls: []wink.Call{{ID: "p1", Name: "run_program",
		Arguments: []byte(`{"source":"o = lookup(id=3)\npaid = pay(id=o['id'])\nresult = paid['total']"}`)}}}, nil
}

// A program whose inner call a policy holds holds the workflow: the status query shows the inner call
// (pay, its arguments); the approval signal resumes it, and the program runs again with the inner call
// completed before the hold answered from its checkpoint (lookup runs once) and the approved one run
// once.
func TestWorkflowHeldProgram(t *testing.T) {
	callertools.Lookups.Store(0)
	callertools.Payments.Store(0)
	var s testsuite.WorkflowTestSuite
	st := durable.NewMemoryStore()
	sst, err := session.NewMemoryStore(durable.CommitSlice, policy.ApprovalSlice, eval.CheckpointSlice)
	if err != nil {
		t.Fatal(err)
	}
	reg := wink.MustRegistry(append(callertools.WinkTools(), eval.Program))
	acts := &temporal.Activities{Store: st, Worker: "suite",
		Agent: func(ctx context.Context, r durable.Run) (loop.Config, error) {
			return loop.Config{Provider: programModel{}, Dispatcher: &wink.Dispatcher{Registry: reg,
				Session:  session.New(session.WithID(r.Session), session.WithStore(sst)),
				Policies: []wink.Policy{policy.NewRequireApproval("pay")}}}, nil
		}}
	if _, err := st.Create(context.Background(), durable.Record{ID: "r", Session: "s",
		Input: durable.EncodeMessages([]loop.Message{loop.UserMessage("pay order 3")})}); err != nil {
		t.Fatal(err)
	}
	env := newEnv(&s)
	temporal.Register(env, acts)
	var held temporal.WorkflowStatus
	var lookupsWhileHeld, paymentsWhileHeld int64
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(temporal.QueryStatus)
		if err != nil {
			t.Error(err)
			return
		}
		if err := v.Get(&held); err != nil {
			t.Error(err)
			return
		}
		lookupsWhileHeld, paymentsWhileHeld = callertools.Lookups.Load(), callertools.Payments.Load()
		if len(held.Held) == 1 {
			env.SignalWorkflow(temporal.SignalApproval, temporal.Decision{Hold: held.Held[0].Hold, Approved: true})
		}
	}, time.Hour)
	env.ExecuteWorkflow(temporal.WorkflowName, temporal.NewInput("r", temporal.Options{Session: "s", RetryInterval: time.Millisecond}))
	if err := env.GetWorkflowError(); err != nil || !env.IsWorkflowCompleted() {
		t.Fatalf("workflow: completed %v, %v", env.IsWorkflowCompleted(), err)
	}
	if held.State != "held" || len(held.Held) != 1 || held.Held[0].Tool != "pay" || !strings.Contains(held.Held[0].Question, `{"id":3}`) {
		t.Fatalf("status while held: %+v", held)
	}
	if lookupsWhileHeld != 1 || paymentsWhileHeld != 0 {
		t.Errorf("before the approval lookup ran %d times, pay %d", lookupsWhileHeld, paymentsWhileHeld)
	}
	if l, p := callertools.Lookups.Load(), callertools.Payments.Load(); l != 1 || p != 1 {
		t.Errorf("lookup ran %d times, pay %d times; want each once", l, p)
	}
	var out temporal.Output
	if err := env.GetWorkflowResult(&out); err != nil || out.Stop != "done" {
		t.Fatalf("result %+v %v", out, err)
	}
	rec, steps, err := st.Load(context.Background(), "r")
	if err != nil {
		t.Fatal(err)
	}
	status, err := durable.Rebuild(rec, steps)
	if err != nil {
		t.Fatal(err)
	}
	if o := status.Messages[2].Result; !o.Success || !strings.Contains(o.Output, "result = 300") ||
		!strings.Contains(o.Output, "2 tool calls (1 answered from their checkpoints") {
		t.Errorf("the program's outcome: %+v", o)
	}
}
