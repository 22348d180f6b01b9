package pgledger_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/internal/pgcluster"
	"github.com/winkgen/wink/internal/pgtest"
)

// Fault tests: a worker killed (SIGKILL) between claiming an idempotent call and recording it, or
// during its session's commit, and PostgreSQL restarted in the middle of a call. In every case the
// call is either answered with success and kept (in the session and in the ledger, replayed ever
// after) or not answered with success and not kept, and a retry completes it once: never
// "acknowledged and lost", and the session's change is never kept twice.

// sessionWorker is a worker process dispatching add "k" on session conv-k through the rig. Mode
// "session-hang": the handler marks that it started, then never returns. Mode "session-commit": the
// call runs to its commit, which the test's trigger holds up.
func sessionWorker(ctx context.Context, mode string) int {
	dsn := os.Getenv("PGLEDGER_DSN")
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	external, err := pgxpool.New(ctx, dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	r, err := newRig(ctx, pool, external)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	r.ledger.Lease = time.Second
	if mode == "session-hang" {
		r.during = func(string) {
			_, _ = external.Exec(ctx, "INSERT INTO started (who) VALUES ('worker')")
			select {} // the test kills this process
		}
	}
	if mode == "session-pause" {
		r.during = func(string) {
			_, _ = external.Exec(ctx, "INSERT INTO started (who) VALUES ('worker')")
			for { // the test stops this process here, past its lease, then lets it go on
				var n int
				_ = external.QueryRow(ctx, "SELECT count(*) FROM resume").Scan(&n)
				if n > 0 {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
	out, err := r.add(ctx, r.dispatcher("conv-k"), "k")
	fmt.Println("answered", out.Success, err) // only a paused worker gets here: the others are killed first
	return 0
}

func spawnSessionWorker(t *testing.T, mode, dsn string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PGLEDGER_WORKER="+mode, "PGLEDGER_DSN="+dsn)
	cmd.Stderr = os.Stderr
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if strings.Contains(out.String(), "answered") {
			t.Errorf("the killed worker answered: %s", out.String())
		}
	})
	return cmd
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// takeOver completes the killed worker's call from this process and checks what is kept: the session
// holds the step once, the ledger replays the taker's result, and the external effect ran on both
// (at least once, as the ledger documents).
func takeOver(t *testing.T, r *rig, pool *pgxpool.Pool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d := r.dispatcher("conv-k")
	out, err := r.add(ctx, d, "k")
	if err != nil || !out.Success || out.Replayed {
		t.Fatalf("taking the call over: %+v %v", out, err)
	}
	if got := r.steps(t, "conv-k"); len(got) != 1 || got[0] != "k" {
		t.Fatalf("stored steps %v, want [k] once", got)
	}
	again, err := r.add(ctx, r.dispatcher("conv-k"), "k")
	if err != nil || !again.Replayed || again.Output != out.Output {
		t.Fatalf("later call: %+v %v, want %q replayed", again, err, out.Output)
	}
	if n := count(t, pool, "effects"); n != 2 {
		t.Fatalf("%d external effects, want 2 (the killed worker's and the taker's)", n)
	}
}

// TestWorkerKilledBetweenClaimAndRecordLosesNothing: the worker has claimed the call, run its effects
// and changed the session, and is killed before its commit (which would have recorded the call).
func TestWorkerKilledBetweenClaimAndRecordLosesNothing(t *testing.T) {
	dsn := pgtest.DSN(t)
	pool := openPool(t, dsn, 0)
	r := mustRig(t, pool)
	r.ledger.Lease, r.ledger.Poll = time.Second, 10*time.Millisecond
	sqlExec(t, pool, "CREATE TABLE started (who text)")
	cmd := spawnSessionWorker(t, "session-hang", dsn)
	waitFor(t, "the worker's call to start", func() bool { return count(t, pool, "started") > 0 })
	if st := ledgerState(t, pool, "session.conv-k:add:k"); st != "claimed" {
		t.Fatalf("ledger state %q while the call runs, want claimed", st)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	takeOver(t, r, pool)
}

// TestWorkerKilledDuringSessionCommitLosesNothing: the worker is killed while its session's commit
// (which carries the ledger's record) is in progress in the database.
func TestWorkerKilledDuringSessionCommitLosesNothing(t *testing.T) {
	dsn := pgtest.DSN(t)
	pool := openPool(t, dsn, 0)
	r := mustRig(t, pool)
	r.ledger.Lease, r.ledger.Poll = time.Second, 10*time.Millisecond
	sqlExec(t, pool, `CREATE TABLE slow_commits (x int); INSERT INTO slow_commits VALUES (1);
		CREATE FUNCTION slow_commit() RETURNS trigger AS $$ BEGIN
			IF EXISTS (SELECT 1 FROM slow_commits) THEN PERFORM pg_sleep(2); END IF;
			RETURN NEW; END $$ LANGUAGE plpgsql;
		CREATE TRIGGER slow_commit BEFORE UPDATE ON wink_sessions FOR EACH ROW EXECUTE FUNCTION slow_commit();`)
	cmd := spawnSessionWorker(t, "session-commit", dsn)
	waitFor(t, "the worker's commit to start", func() bool {
		var n int
		_ = pool.QueryRow(context.Background(), "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'").Scan(&n)
		return n > 0
	})
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	sqlExec(t, pool, "DELETE FROM slow_commits")
	takeOver(t, r, pool)
}

// TestPostgresRestartedMidCallIsNeverAcknowledgedAndLost: the database restarts while a call's
// handler runs; the call is answered with an error (its commit, and the record with it, never
// happened) and its retry runs it once.
func TestPostgresRestartedMidCallIsNeverAcknowledgedAndLost(t *testing.T) {
	c, err := pgcluster.Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	ctx := context.Background()
	dsn, err := c.CreateDB(ctx, "restart")
	if err != nil {
		t.Fatal(err)
	}
	pool := openPool(t, dsn, 0)
	r := mustRig(t, pool)
	r.ledger.Lease, r.ledger.Poll = time.Second, 10*time.Millisecond
	first := true
	r.during = func(string) {
		if first {
			first = false
			if err := c.Restart(); err != nil {
				t.Error(err)
			}
		}
	}
	d := r.dispatcher("conv-k")
	out, err := r.add(ctx, d, "k")
	if err == nil || out.Success {
		t.Fatalf("a call whose commit was cut by the restart: %+v %v, want an error", out, err)
	}
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	// The client retries until it is answered with success (the first attempts may meet connections
	// the restart cut: they fail, and keep nothing).
	for i := 0; ; i++ {
		out, err = r.add(rctx, d, "k")
		if err == nil && out.Success {
			break
		}
		if i == 20 {
			t.Fatalf("retry: %+v %v", out, err)
		}
		if got := r.steps(t, "conv-k"); len(got) != 0 {
			t.Fatalf("a call not answered with success kept %v", got)
		}
	}
	if out.Replayed {
		t.Fatalf("the first success was a replay: %+v", out)
	}
	if got := r.steps(t, "conv-k"); len(got) != 1 || got[0] != "k" {
		t.Fatalf("stored steps %v, want [k] once", got)
	}
	again, err := r.add(rctx, r.dispatcher("conv-k"), "k")
	if err != nil || !again.Replayed || again.Output != out.Output {
		t.Fatalf("later call: %+v %v", again, err)
	}
}
