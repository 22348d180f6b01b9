//go:build unix

package pgdurable_test

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/durable/pgdurable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session/pgstore"
)

// TestPausedBeforeModelCall: of two worker processes, the one about to send turn 2's model request is
// stopped (SIGSTOP, as a scheduler or a frozen VM stops it) right before sending it, past its lease,
// until the other worker has taken the run over, sent that request, checkpointed the response and
// gone on to the held call; then it is continued (SIGCONT). It must not send the request: the turn is
// checkpointed and its response paid for. The fake model counts the requests of each turn.
func TestPausedBeforeModelCall(t *testing.T) {
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
	effects, marker := filepath.Join(dir, "effects"), filepath.Join(dir, "paused")
	var workers []*durabletest.Proc
	for _, name := range []string{"A", "B"} {
		workers = append(workers, durabletest.StartProc(t, workerEnv, "-name", name, "-dsn", dsn, "-model", model.URL, "-effects", effects,
			"-pause-before-model", "-marker", marker, "-lease", "1s"))
	}
	resumeAll := func() {
		for _, w := range workers {
			_ = w.Signal(syscall.SIGCONT)
		}
	}
	defer func() {
		resumeAll()
		for _, w := range workers {
			w.Stop()
		}
	}()
	client := &durable.Engine{Store: st}
	if _, err := client.Start(ctx, "run", []loop.Message{loop.UserMessage("Credit alice 100 and bob 50, take 30 from alice, credit carol 7.")},
		durable.StartOptions{Session: "sess"}); err != nil {
		t.Fatal(err)
	}
	s, err := client.WaitFor(ctx, "run", func(s durable.Status) bool { return s.State == durable.Held || s.State.Terminal() })
	if err != nil || s.State != durable.Held {
		t.Fatalf("waiting for the other worker to reach the held call: %v (%s, %s)", err, s.State, s.Err)
	}
	logs := func() string {
		resumeAll()
		var b strings.Builder
		for _, w := range workers {
			w.Stop()
			b.WriteString(w.Output())
		}
		return b.String()
	}
	if n := model.Counts()[2]; n != 1 {
		t.Fatalf("turn 2 asked %d times before the stopped worker continued; logs:\n%s", n, logs())
	}
	resumeAll()
	time.Sleep(2 * time.Second) // the continued worker would send at once
	if n := model.Counts()[2]; n != 1 {
		t.Fatalf("the worker stopped before turn 2's model call sent it after it was checkpointed: turn 2 asked %d times; logs:\n%s", n, logs())
	}
	held, err := client.WaitFor(ctx, "run", func(s durable.Status) bool { return s.State == durable.Held || s.State.Terminal() })
	if err != nil || len(held.Held) != 1 {
		t.Fatalf("want the run held: %v %+v", err, held)
	}
	if err := durabletest.Approve(ctx, sst, "sess", held.Held[0]); err != nil {
		t.Fatal(err)
	}
	if err := client.Wake(ctx, "run"); err != nil {
		t.Fatal(err)
	}
	s, err = client.Wait(ctx, "run")
	if err != nil {
		t.Fatal(err)
	}
	out := logs()
	if !strings.Contains(out, "stops before turn 2's model call") {
		t.Fatalf("no worker stopped; logs:\n%s", out)
	}
	if err := durabletest.Verify(ctx, sst, "sess", "run", effects, model.Counts(), "", s); err != nil {
		t.Fatalf("%v; logs:\n%s", err, out)
	}
}
