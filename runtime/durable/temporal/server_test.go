package temporal_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/internal/pgcluster"
	"github.com/winkgen/wink/internal/pgtest"
	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/durable/pgdurable"
	"github.com/winkgen/wink/runtime/durable/temporal"
	"github.com/winkgen/wink/runtime/durable/temporal/internal/devserver"
	"github.com/winkgen/wink/runtime/durable/temporal/internal/tworker"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session/pgstore"
	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

const workerEnv = "WINK_TEMPORAL_TEST_WORKER"

var (
	serverOnce sync.Once
	server     *devserver.Server
	serverErr  error
)

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" {
		os.Exit(tworker.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	code := m.Run()
	server.Stop()
	clusterMu.Lock()
	if cluster != nil {
		cluster.Stop()
	}
	clusterMu.Unlock()
	os.Exit(code)
}

var (
	clusterMu sync.Mutex
	cluster   *pgcluster.Cluster
)

// dsn returns a fresh database, remembering the throwaway cluster pgtest started so that TestMain stops
// it (pgtest.Main would exit before the Temporal server is stopped).
func dsn(t testing.TB) string {
	d := pgtest.DSN(t)
	clusterMu.Lock()
	cluster = pgtest.Cluster(t)
	clusterMu.Unlock()
	return d
}

// devServer returns the test process's development server, starting it on first use.
func devServer(t testing.TB) *devserver.Server {
	t.Helper()
	serverOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		server, serverErr = devserver.Start(ctx)
	})
	if serverErr != nil {
		t.Fatal(serverErr)
	}
	return server
}

// TestCrashWorkersTemporal runs the script as a workflow on a real Temporal server (the development
// server on loopback) with three worker processes sharing a PostgreSQL database for sessions and
// checkpoints, and kills (SIGKILL) the worker at each crash point: before a model call, after it, before
// a tool call, inside a handler, after a call's commit, and as a call is held. Every run completes on
// another worker with every change once, every outside effect once per key and no model request
// repeated.
func TestCrashWorkersTemporal(t *testing.T) {
	srv := devServer(t)
	for _, local := range []bool{false, true} {
		for _, point := range durabletest.CrashPoints {
			mode := "activities"
			if local {
				mode = "local"
			}
			t.Run(mode+"/"+point, func(t *testing.T) { crashWorkers(t, srv, point, local) })
		}
	}
}

// crashWorkers is one case of TestCrashWorkersTemporal: three workers, one killed at point, the steps
// as activities or as local activities.
func crashWorkers(t *testing.T, srv *devserver.Server, point string, local bool) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dsn := dsn(t)
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
	model, err := durabletest.StartModel()
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	dir := t.TempDir()
	effects, marker := filepath.Join(dir, "effects"), filepath.Join(dir, "crashed")
	suffix := point
	if local {
		suffix = "local-" + point
	}
	queue := "q-" + suffix
	var workers []*durabletest.Proc
	for _, name := range []string{"A", "B", "C"} {
		workers = append(workers, durabletest.StartProc(t, workerEnv, "-hostport", srv.HostPort, "-queue", queue, "-dsn", dsn, "-model", model.URL,
			"-effects", effects, "-crash", point, "-marker", marker, "-name", name))
	}
	var once sync.Once
	stopAll := func() {
		once.Do(func() {
			for _, w := range workers {
				w.Stop()
			}
		})
	}
	defer stopAll()
	c, err := client.Dial(client.Options{HostPort: srv.HostPort, Logger: devserver.Quiet()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	run, sess := "run-"+suffix, "sess-"+suffix
	if err := temporal.Start(ctx, c, st, run, []loop.Message{loop.UserMessage("Credit alice 100 and bob 50, take 30 from alice, credit carol 7.")},
		temporal.Options{Session: sess, TaskQueue: queue, ActivityTimeout: 3 * time.Second, RetryInterval: 100 * time.Millisecond,
			LocalActivities: local, WorkflowTaskTimeout: 2 * time.Second}); err != nil {
		t.Fatal(err)
	}
	var s durable.Status
	for {
		s, err = temporal.Status(ctx, c, st, run)
		if err == nil && s.State == durable.Held {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("waiting for the held call: %v %+v", err, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(s.Held) != 1 || s.Held[0].Call.ID != durabletest.HeldCallID || s.Held[0].Binding.Hold != durable.HoldID(run, 2, 0) || len(s.Messages) != 5 {
		t.Fatalf("held status: %+v", s)
	}
	if err := temporal.Approve(ctx, c, run, s.Held[0].Binding.Hold); err != nil {
		t.Fatal(err)
	}
	var out temporal.Output
	if err := c.GetWorkflow(ctx, run, "").Get(ctx, &out); err != nil || out.Stop != "done" {
		t.Fatalf("workflow: %+v %v", out, err)
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
	rec, steps, err := st.Load(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	s, err = durable.Rebuild(rec, steps)
	if err != nil {
		t.Fatal(err)
	}
	s.State, s.Stop = durable.Done, loop.StopDone
	if last := steps[len(steps)-1].Worker; last == killed[0] {
		t.Errorf("the last step was written by the killed worker %s", last)
	}
	if err := durabletest.Verify(ctx, sst, sess, run, effects, model.Counts(), point, s); err != nil {
		t.Fatal(err)
	}
	events, largest := historySize(ctx, t, c, run)
	if largest > 1024 {
		t.Errorf("the history carries a %d-byte event: payloads must stay in the store", largest)
	}
	t.Logf("%s: killed worker %s, last step by %s, model requests %v; history: %d events, largest %d bytes",
		point, killed[0], steps[len(steps)-1].Worker, model.Counts(), events, largest)
}

// historySize returns the number of events in the workflow's history and the size of its largest event,
// after replaying the history against the workflow code (and writing it to -record-history).
func historySize(ctx context.Context, t *testing.T, c client.Client, id string) (n, largest int) {
	h := &historypb.History{}
	it := c.GetWorkflowHistory(ctx, id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		n++
		largest = max(largest, proto.Size(ev))
		h.Events = append(h.Events, ev)
	}
	// The workflow code must replay this history (a crash, retries, the approval signal) without a
	// nondeterminism error.
	if err := replayer(t).ReplayWorkflowHistory(devserver.Quiet(), h); err != nil {
		t.Errorf("replaying the history of %s: %v", id, err)
	}
	if *recordHistory != "" {
		b, err := protojson.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*recordHistory, id+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return n, largest
}
