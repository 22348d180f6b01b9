package temporal_test

import (
	"context"
	"testing"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/temporal"
	"github.com/winkgen/wink/runtime/durable/temporal/internal/devserver"
	"github.com/winkgen/wink/runtime/loop"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"
)

// TestStartTwice: starting a run whose id exists, while it runs or after it finished, changes nothing:
// the first execution stays the only one (Temporal's default id reuse policy would run a finished
// workflow again under the same id).
func TestStartTwice(t *testing.T) {
	ctx := context.Background()
	srv := devServer(t)
	c, err := client.Dial(client.Options{HostPort: srv.HostPort, Logger: devserver.Quiet()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st := durable.NewMemoryStore()
	queue := "twice"
	w := worker.New(c, queue, worker.Options{})
	temporal.Register(w, &temporal.Activities{Store: st, Agent: benchAgent(nil), Worker: "w"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	input := []loop.Message{loop.UserMessage("deposit")}
	o := temporal.Options{Session: "twice", TaskQueue: queue}
	for range 2 { // the second while the first runs
		if err := temporal.Start(ctx, c, st, "twice", input, o); err != nil {
			t.Fatal(err)
		}
	}
	run := c.GetWorkflow(ctx, "twice", "")
	var out temporal.Output
	if err := run.Get(ctx, &out); err != nil || out.Stop != "done" {
		t.Fatal(out, err)
	}
	if err := temporal.Start(ctx, c, st, "twice", input, o); err != nil {
		t.Fatalf("starting a finished run again: %v", err)
	}
	d, err := c.DescribeWorkflowExecution(ctx, "twice", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.WorkflowExecutionInfo.Execution.RunId; got != run.GetRunID() {
		t.Fatalf("a second execution %s was started (first %s)", got, run.GetRunID())
	}
	_, steps, err := st.Load(ctx, "twice")
	if err != nil || len(steps) != benchSteps {
		t.Fatalf("%d steps, %v", len(steps), err)
	}
}

// TestContinueAsNewOnServer: a run of 5 turns with 2 turns per workflow run continues as new twice on
// the development server and completes; the last execution's history starts from the previous one's and
// stays small, and every step is checkpointed once.
func TestContinueAsNewOnServer(t *testing.T) {
	for _, local := range []bool{false, true} {
		ctx := context.Background()
		srv := devServer(t)
		c, err := client.Dial(client.Options{HostPort: srv.HostPort, Logger: devserver.Quiet()})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		st := durable.NewMemoryStore()
		queue, id := "can", "can"
		if local {
			queue, id = "can-local", "can-local"
		}
		w := worker.New(c, queue, worker.Options{})
		temporal.Register(w, &temporal.Activities{Store: st, Agent: benchAgent(nil), Worker: "w"})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		if err := temporal.Start(ctx, c, st, id, []loop.Message{loop.UserMessage("deposit")},
			temporal.Options{Session: id, TaskQueue: queue, TurnsPerRun: 2, LocalActivities: local}); err != nil {
			t.Fatal(err)
		}
		var out temporal.Output
		if err := c.GetWorkflow(ctx, id, "").Get(ctx, &out); err != nil || out.Stop != "done" || out.Turns != benchTurns+1 {
			t.Fatalf("local=%v: %+v %v", local, out, err)
		}
		it := c.GetWorkflowHistory(ctx, id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		n := 0
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 && ev.GetWorkflowExecutionStartedEventAttributes().GetContinuedExecutionRunId() == "" {
				t.Errorf("local=%v: the last execution did not continue an earlier one", local)
			}
			n++
		}
		if n > 30 {
			t.Errorf("local=%v: the last execution (one turn) has %d events", local, n)
		}
		_, steps, err := st.Load(ctx, id)
		if err != nil || len(steps) != benchSteps {
			t.Fatalf("local=%v: %d steps, %v", local, len(steps), err)
		}
	}
}

// TestStartAfterCreate: a Start retried after the first one recorded the run but could not start its
// workflow starts the workflow with the recorded run's settings, not the retry's.
func TestStartAfterCreate(t *testing.T) {
	ctx := context.Background()
	srv := devServer(t)
	c, err := client.Dial(client.Options{HostPort: srv.HostPort, Logger: devserver.Quiet()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st := durable.NewMemoryStore()
	queue, id := "retried", "retried"
	w := worker.New(c, queue, worker.Options{})
	temporal.Register(w, &temporal.Activities{Store: st, Agent: benchAgent(nil), Worker: "w"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if _, err := st.Create(ctx, durable.Record{ID: id, Session: "first", Input: durable.EncodeMessages([]loop.Message{loop.UserMessage("deposit")}), MaxTurns: 7}); err != nil {
		t.Fatal(err)
	}
	if err := temporal.Start(ctx, c, st, id, []loop.Message{loop.UserMessage("other")}, temporal.Options{Session: "second", MaxTurns: 3, TaskQueue: queue}); err != nil {
		t.Fatal(err)
	}
	var out temporal.Output
	if err := c.GetWorkflow(ctx, id, "").Get(ctx, &out); err != nil || out.Stop != "done" {
		t.Fatal(out, err)
	}
	it := c.GetWorkflowHistory(ctx, id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	ev, err := it.Next()
	if err != nil {
		t.Fatal(err)
	}
	var in temporal.Input
	if err := converter.GetDefaultDataConverter().FromPayloads(ev.GetWorkflowExecutionStartedEventAttributes().GetInput(), &in); err != nil {
		t.Fatal(err)
	}
	if in.Session != "first" || in.MaxTurns != 7 {
		t.Fatalf("the workflow's input: %+v", in)
	}
}
