package pgdurable_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/internal/pgtest"
	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/durable/pgdurable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session/pgstore"
)

// workerEnv marks a run of this test binary as a worker process.
const workerEnv = "WINK_DURABLE_TEST_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" {
		os.Exit(durabletest.WorkerMain(os.Args[1:], os.Stdout, os.Stderr))
	}
	pgtest.Main(m)
}

func open(t *testing.T) (*pgxpool.Pool, string) {
	t.Helper()
	dsn := pgtest.DSN(t)
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool, dsn
}

// TestStoreContract checks the PostgreSQL store against the Store contract.
func TestStoreContract(t *testing.T) {
	pool, _ := open(t)
	st, err := pgdurable.New(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pgdurable.New(context.Background(), pool); err != nil {
		t.Fatalf("migrating twice: %v", err)
	}
	durabletest.StoreContract(t, st)
}

// TestCrashWorkers runs the script on three worker processes (this test binary) sharing a throwaway
// PostgreSQL database, the fake model on loopback, and kills (SIGKILL) the worker that reaches each
// crash point: before a model call, after one, before a tool call, inside a handler (after its outside
// effect), after a call's commit (before the engine's checkpoint), and while the run is held. Every run
// completes on another worker, every change is committed to the session once, every outside effect is
// made once per key (twice with the same key only for the killed handler's), and no model request is
// repeated.
func TestCrashWorkers(t *testing.T) {
	for _, point := range durabletest.CrashPoints {
		t.Run(point, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			pool, dsn := open(t)
			sst, err := pgstore.New(ctx, pool, durabletest.Slices()...)
			if err != nil {
				t.Fatal(err)
			}
			st, err := pgdurable.New(ctx, pool)
			if err != nil {
				t.Fatal(err)
			}
			model, err := durabletest.StartModel()
			if err != nil {
				t.Fatal(err)
			}
			defer model.Close()
			dir := t.TempDir()
			effects, marker := filepath.Join(dir, "effects"), filepath.Join(dir, "crashed")
			var workers []*durabletest.Proc
			for _, name := range []string{"A", "B", "C"} {
				workers = append(workers, durabletest.StartProc(t, workerEnv, "-name", name, "-dsn", dsn, "-model", model.URL, "-effects", effects,
					"-crash", point, "-marker", marker, "-lease", "1s"))
			}
			var stopOnce sync.Once
			stopAll := func() {
				stopOnce.Do(func() {
					for _, w := range workers {
						w.Stop()
					}
				})
			}
			defer stopAll()
			client := &durable.Engine{Store: st}
			run, sess := "run-"+point, "sess-"+point
			if _, err := client.Start(ctx, run, []loop.Message{loop.UserMessage("Credit alice 100 and bob 50, take 30 from alice, credit carol 7.")},
				durable.StartOptions{Session: sess}); err != nil {
				t.Fatal(err)
			}
			s, err := client.WaitFor(ctx, run, func(s durable.Status) bool { return s.State == durable.Held || s.State.Terminal() })
			if err != nil || s.State != durable.Held {
				t.Fatalf("waiting for the held call: %v (%s, %s)", err, s.State, s.Err)
			}
			if point == durabletest.WhileHeld {
				deadline := time.Now().Add(20 * time.Second)
				for !anyKilled(workers) && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
			}
			if err := durabletest.Approve(ctx, sst, sess, s.Held[0]); err != nil {
				t.Fatal(err)
			}
			if err := client.Wake(ctx, run); err != nil {
				t.Fatal(err)
			}
			s, err = client.Wait(ctx, run)
			if err != nil {
				t.Fatalf("waiting for the run: %v (%s, %s)", err, s.State, s.Err)
			}
			stopAll()
			var killed []string
			for i, w := range workers {
				if w.Killed() {
					killed = append(killed, string(rune('A'+i)))
				}
			}
			if len(killed) != 1 {
				var logs strings.Builder
				for _, w := range workers {
					logs.WriteString(w.Output())
				}
				t.Fatalf("want one worker killed at %s, got %v; logs:\n%s", point, killed, logs.String())
			}
			if s.Worker == killed[0] {
				t.Errorf("the run finished on the killed worker %s", s.Worker)
			}
			if err := durabletest.Verify(ctx, sst, sess, run, effects, model.Counts(), point, s); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: killed worker %s, finished on %s after %d claims, model requests %v", point, killed[0], s.Worker, s.Attempts, model.Counts())
		})
	}
}

func anyKilled(ws []*durabletest.Proc) bool {
	for _, w := range ws {
		if w.Killed() {
			return true
		}
	}
	return false
}
