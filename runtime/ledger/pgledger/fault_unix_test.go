//go:build unix

package pgledger_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/winkgen/wink/internal/pgtest"
)

// TestClaimantPausedPastItsLeaseIsFenced: a worker process stopped (SIGSTOP) in its handler past its
// lease, while this process takes the call over, then continued (SIGCONT): its record is refused (it
// lost the claim), so its session commit is aborted and it is answered with the error; the taker's
// result is the one kept and replayed, the session holds the change once.
func TestClaimantPausedPastItsLeaseIsFenced(t *testing.T) {
	dsn := pgtest.DSN(t)
	pool := openPool(t, dsn, 0)
	r := mustRig(t, pool)
	r.ledger.Lease, r.ledger.Poll = time.Second, 10*time.Millisecond
	sqlExec(t, pool, "CREATE TABLE started (who text); CREATE TABLE resume (x int)")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PGLEDGER_WORKER=session-pause", "PGLEDGER_DSN="+dsn)
	cmd.Stderr = os.Stderr
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	waitFor(t, "the worker's call to start", func() bool { return count(t, pool, "started") > 0 })
	const key = "session.conv-k:add:k"
	var pausedOwner string
	if err := pool.QueryRow(context.Background(), "SELECT owner FROM wink_ledger WHERE key = $1", key).Scan(&pausedOwner); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	type result struct {
		success, replayed bool
		output            string
		err               error
	}
	taker := make(chan result, 1)
	go func() {
		out, err := r.add(ctx, r.dispatcher("conv-k"), "k")
		taker <- result{out.Success, out.Replayed, out.Output, err}
	}()
	waitFor(t, "the call to be taken over", func() bool {
		var owner string
		_ = pool.QueryRow(context.Background(), "SELECT coalesce(owner, '') FROM wink_ledger WHERE key = $1", key).Scan(&owner)
		return owner != pausedOwner
	})
	sqlExec(t, pool, "INSERT INTO resume VALUES (1)")
	if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("paused worker: %v", err)
	}
	if got := stdout.String(); !strings.Contains(got, "answered false") || !strings.Contains(got, "was lost before the result was recorded") {
		t.Fatalf("the paused worker was answered %q, want the lost claim's error", got)
	}
	res := <-taker
	if res.err != nil || !res.success || res.replayed {
		t.Fatalf("taker: %+v", res)
	}
	if got := r.steps(t, "conv-k"); len(got) != 1 || got[0] != "k" {
		t.Fatalf("stored steps %v, want [k] once", got)
	}
	again, err := r.add(ctx, r.dispatcher("conv-k"), "k")
	if err != nil || !again.Replayed || again.Output != res.output {
		t.Fatalf("later call: %+v %v, want the taker's %q", again, err, res.output)
	}
}
