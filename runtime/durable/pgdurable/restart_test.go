package pgdurable_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/internal/pgcluster"
	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/durable/pgdurable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session/pgstore"
)

// TestDatabaseRestart restarts PostgreSQL (every connection cut, open transactions rolled back) in the
// middle of a run on two in-process workers, at a point where the run's worker has something to write:
// after a call's commit and before its checkpoint, and after a model response's checkpoint. The restart
// outlasts the lease, so the other worker may take the run over; the run completes with every change
// once, one model request per turn, and its steps whole.
func TestDatabaseRestart(t *testing.T) {
	for _, at := range []durable.EventKind{durable.EventToolDispatched, durable.EventModelDone} {
		name := map[durable.EventKind]string{durable.EventToolDispatched: "after-commit", durable.EventModelDone: "after-model"}[at]
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cl, err := pgcluster.Start("")
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Stop()
			dsn, err := cl.CreateDB(ctx, "restart")
			if err != nil {
				t.Fatal(err)
			}
			pool, err := pgxpool.New(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer pool.Close()
			sst, err := pgstore.New(ctx, pool, durabletest.Slices()...)
			if err != nil {
				t.Fatal(err)
			}
			st, err := pgdurable.New(ctx, pool)
			if err != nil {
				t.Fatal(err)
			}
			led, err := durabletest.PGLedger(ctx, pool)
			if err != nil {
				t.Fatal(err)
			}
			model, err := durabletest.StartModel()
			if err != nil {
				t.Fatal(err)
			}
			defer model.Close()
			p, err := durabletest.Provider(model.URL)
			if err != nil {
				t.Fatal(err)
			}
			var restarted atomic.Bool
			var restartErr error
			var errs atomic.Int64
			observe := func(ev durable.Event) {
				if ev.Kind == durable.EventError {
					errs.Add(1)
				}
				if ev.Kind == at && ev.Turn == 1 && restarted.CompareAndSwap(false, true) {
					restartErr = cl.Restart() // on the run's goroutine: its next write meets the restarted server
				}
			}
			wctx, stop := context.WithCancel(ctx)
			var wg sync.WaitGroup
			for _, w := range []string{"A", "B"} {
				eng := &durable.Engine{Store: st, Agent: durabletest.Agent(sst, led, p), Worker: w, Observe: observe,
					Lease: 300 * time.Millisecond, Poll: 10 * time.Millisecond, HeldPoll: 50 * time.Millisecond, RetryDelay: 20 * time.Millisecond}
				wg.Go(func() { _ = eng.Work(wctx) })
			}
			defer func() { stop(); wg.Wait() }()
			client := &durable.Engine{Store: st}
			run, sess := "run", "sess"
			if _, err := client.Start(ctx, run, []loop.Message{loop.UserMessage("Credit alice 100 and bob 50, take 30 from alice, credit carol 7.")},
				durable.StartOptions{Session: sess}); err != nil {
				t.Fatal(err)
			}
			s, err := client.WaitFor(ctx, run, func(s durable.Status) bool { return s.State == durable.Held || s.State.Terminal() })
			if err != nil || s.State != durable.Held {
				t.Fatalf("waiting for the held call: %v %+v", err, s)
			}
			if err := durabletest.Approve(ctx, sst, sess, s.Held[0]); err != nil {
				t.Fatal(err)
			}
			if err := client.Wake(ctx, run); err != nil {
				t.Fatal(err)
			}
			s, err = client.Wait(ctx, run)
			if err != nil {
				t.Fatalf("waiting for the run: %v %+v", err, s)
			}
			if !restarted.Load() || restartErr != nil {
				t.Fatalf("restarted %v: %v", restarted.Load(), restartErr)
			}
			if errs.Load() == 0 {
				t.Error("no error was reported: the restart was not met")
			}
			if err := durabletest.Verify(ctx, sst, sess, run, "", model.Counts(), "", s); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d errors retried, %d attempts, finished by %s", name, errs.Load(), s.Attempts, s.Worker)
		})
	}
}
