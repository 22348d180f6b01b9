package temporal_test

import (
	"bytes"
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/durable/temporal"
	"github.com/winkgen/wink/runtime/durable/temporal/internal/devserver"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
)

// TestTakeoverShowsTheModelEveryContentBlock is the embedded engine's test of that name on Temporal:
// the model's request after an activity attempt died (after the first call committed, its outcome then
// comes from the session's commit; or after its checkpoint) and after the held call was approved by
// signal is byte for byte the request of a plain loop.Run, content blocks of every kind included.
func TestTakeoverShowsTheModelEveryContentBlock(t *testing.T) {
	want, err := durabletest.UninterruptedBody(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, local := range []bool{false, true} {
		for _, point := range []string{"none", "after-commit", "after-checkpoint"} {
			name := point
			if local {
				name = "local/" + point
			}
			t.Run(name, func(t *testing.T) {
				model, err := durabletest.NewCaptureModel()
				if err != nil {
					t.Fatal(err)
				}
				sst, _ := session.NewMemoryStore(durabletest.Slices()...)
				st := durable.NewMemoryStore()
				var died atomic.Bool
				acts := &temporal.Activities{Store: st, Agent: durabletest.Agent(sst, nil, model), Worker: "suite",
					Observe: func(ev durable.Event) {
						hit := false
						switch point {
						case "after-commit":
							hit = ev.Kind == durable.EventToolDispatched && ev.Turn == 1 && ev.Index == 0
						case "after-checkpoint":
							hit = ev.Kind == durable.EventToolDone && ev.Turn == 1 && ev.Index == 0
						}
						if hit && died.CompareAndSwap(false, true) {
							panic("worker killed at " + point)
						}
					}}
				if _, err := st.Create(context.Background(), durable.Record{ID: "r", Session: "s", Input: durable.EncodeMessages(durabletest.CaptureInput)}); err != nil {
					t.Fatal(err)
				}
				var s testsuite.WorkflowTestSuite
				env := newEnv(&s)
				temporal.Register(env, acts)
				env.RegisterDelayedCallback(func() {
					env.SignalWorkflow(temporal.SignalApproval, temporal.Decision{Hold: durable.HoldID("r", 1, 1), Approved: true})
				}, time.Minute)
				env.ExecuteWorkflow(temporal.WorkflowName, temporal.NewInput("r", temporal.Options{Session: "s", RetryInterval: time.Millisecond, LocalActivities: local}))
				if err := env.GetWorkflowError(); err != nil {
					t.Fatal(err)
				}
				if point != "none" && !died.Load() {
					t.Fatal("no attempt died at " + point)
				}
				if got := model.Body(2); !bytes.Equal(got, want) {
					t.Errorf("the request after the %s takeover differs from the uninterrupted one:\n got %s\nwant %s", point, got, want)
				}
				if model.Sent(1) != 1 {
					t.Errorf("turn 1 sent %d times", model.Sent(1))
				}
			})
		}
	}
}

// TestSessionWriteDoesNotGrowWithRunsServed is the embedded engine's test of that name on Temporal: one
// session serves N workflow runs (N = 1, 10, 100), each making one tool call; the next run's tool call
// writes as many bytes whatever N, and the session keeps no commit of an ended run (the Forget activity
// removed them).
func TestSessionWriteDoesNotGrowWithRunsServed(t *testing.T) {
	ctx := context.Background()
	for _, local := range []bool{false, true} {
		var first, firstTotal int
		for _, n := range []int{1, 10, 100} {
			mem, _ := session.NewMemoryStore(durabletest.Slices()...)
			sst := &durabletest.MeteredStore{Store: mem}
			st := durable.NewMemoryStore()
			acts := &temporal.Activities{Store: st, Worker: "suite", Agent: func(ctx context.Context, r durable.Run) (loop.Config, error) {
				d, err := durabletest.Dispatcher(sst, nil, r.Session)
				return loop.Config{Provider: durabletest.SnapshotModel{}, Dispatcher: d}, err
			}}
			for i := range n + 1 {
				id := "run-" + strconv.Itoa(100000+i)
				if _, err := st.Create(ctx, durable.Record{ID: id, Session: "shared", Input: durable.EncodeMessages([]loop.Message{loop.UserMessage("look")})}); err != nil {
					t.Fatal(err)
				}
				var s testsuite.WorkflowTestSuite
				s.SetLogger(devserver.Quiet()) // a hundred workflows' debug lines would drown the test's
				env := newEnv(&s)
				temporal.Register(env, acts)
				env.ExecuteWorkflow(temporal.WorkflowName, temporal.NewInput(id, temporal.Options{Session: "shared", LocalActivities: local}))
				if err := env.GetWorkflowError(); err != nil || !env.IsWorkflowCompleted() {
					t.Fatalf("run %d: %v", i, err)
				}
			}
			sizes := sst.Last()
			got := sizes[durable.CommitSlice.Name()] + sizes[policy.ApprovalSlice.Name()]
			total := 0
			for _, b := range sizes {
				total += b
			}
			t.Logf("local %v, after %3d runs served: the next run's tool call writes %d bytes, %d of them commits and approvals (%v)", local, n, total, got, sizes)
			if n == 1 {
				first, firstTotal = got, total
			} else if got != first || total != firstTotal {
				t.Errorf("after %d runs the tool call writes %d bytes (%d of commits), after 1 it wrote %d (%d): it grows with the runs served", n, total, got, firstTotal, first)
			}
			left, err := durabletest.CommitsLeft(ctx, mem, "shared")
			if err != nil || left != 0 {
				t.Errorf("after %d ended runs the session keeps %d commits (%v)", n+1, left, err)
			}
		}
	}
}

// TestTakeoverShowsTheModelEveryContentBlockOnServer is TestTakeoverShowsTheModelEveryContentBlock on
// the development server with a real worker: an activity attempt dies after the first call's commit
// (Temporal retries it, and the call is answered from the commit), the held call is approved by signal,
// and the model's next request is byte for byte the uninterrupted one; the ended run leaves no commit.
func TestTakeoverShowsTheModelEveryContentBlockOnServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	want, err := durabletest.UninterruptedBody(ctx)
	if err != nil {
		t.Fatal(err)
	}
	srv := devServer(t)
	c, err := client.Dial(client.Options{HostPort: srv.HostPort, Logger: devserver.Quiet()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, local := range []bool{false, true} {
		model, err := durabletest.NewCaptureModel()
		if err != nil {
			t.Fatal(err)
		}
		sst, _ := session.NewMemoryStore(durabletest.Slices()...)
		st := durable.NewMemoryStore()
		queue := "content-" + strconv.FormatBool(local)
		var died atomic.Bool
		w := worker.New(c, queue, worker.Options{})
		temporal.Register(w, &temporal.Activities{Store: st, Agent: durabletest.Agent(sst, nil, model), Worker: "w",
			Observe: func(ev durable.Event) {
				if ev.Kind == durable.EventToolDispatched && ev.Turn == 1 && ev.Index == 0 && died.CompareAndSwap(false, true) {
					panic("worker killed after the commit")
				}
			}})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		if err := temporal.Start(ctx, c, st, queue, durabletest.CaptureInput,
			temporal.Options{Session: "s", TaskQueue: queue, LocalActivities: local, RetryInterval: 10 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		var held durable.Status
		for {
			s, err := temporal.Status(ctx, c, st, queue)
			if err == nil && s.State == durable.Held {
				held = s
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("local=%v: the run was never held: %+v %v", local, s, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if len(held.Held) != 1 || held.Held[0].Call.ID != durabletest.HeldCallID {
			t.Fatalf("local=%v: held %+v", local, held.Held)
		}
		if err := temporal.Approve(ctx, c, queue, held.Held[0].Binding.Hold); err != nil {
			t.Fatal(err)
		}
		var out temporal.Output
		if err := c.GetWorkflow(ctx, queue, "").Get(ctx, &out); err != nil || out.Stop != "done" {
			t.Fatalf("local=%v: %+v %v", local, out, err)
		}
		if !died.Load() {
			t.Fatalf("local=%v: no attempt died", local)
		}
		if got := model.Body(2); !bytes.Equal(got, want) {
			t.Errorf("local=%v: the request after the takeover differs from the uninterrupted one:\n got %s\nwant %s", local, got, want)
		}
		if left, err := durabletest.CommitsLeft(ctx, sst, "s"); err != nil || left != 0 {
			t.Errorf("local=%v: the ended run left %d commits (%v)", local, left, err)
		}
	}
}
