package pgledger_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/internal/pgtest"
	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/ledger/pgledger"
)

func openPool(t testing.TB, dsn string, maxConns int32) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// cutCommits makes every session commit fail while the table cut_commits holds a row.
func cutCommits(t testing.TB, pool *pgxpool.Pool) {
	t.Helper()
	if _, err := pool.Exec(context.Background(), `CREATE TABLE cut_commits (x int);
		CREATE FUNCTION cut_commit() RETURNS trigger AS $$ BEGIN
			IF EXISTS (SELECT 1 FROM cut_commits) THEN RAISE EXCEPTION 'the commit was cut'; END IF;
			RETURN NEW; END $$ LANGUAGE plpgsql;
		CREATE TRIGGER cut_commit BEFORE UPDATE ON wink_sessions FOR EACH ROW EXECUTE FUNCTION cut_commit();`); err != nil {
		t.Fatal(err)
	}
}

func sqlExec(t testing.TB, pool *pgxpool.Pool, sql string) {
	t.Helper()
	if _, err := pool.Exec(context.Background(), sql); err != nil {
		t.Fatal(err)
	}
}

// An idempotent call whose session commit fails is not recorded: the record and the commit are one
// PostgreSQL transaction, so the retry runs the call (its change is kept once) instead of answering
// "success, replayed" for a change no session holds.
func TestRecordAndSessionCommitAreOneTransaction(t *testing.T) {
	ctx := context.Background()
	pool := openPool(t, pgtest.DSN(t), 0)
	r := mustRig(t, pool)
	cutCommits(t, pool)
	d := r.dispatcher("conv-1")
	sqlExec(t, pool, "INSERT INTO cut_commits VALUES (1)")
	out, err := r.add(ctx, d, "x")
	if err == nil || out.Success || !strings.Contains(err.Error(), "the commit was cut") {
		t.Fatalf("cut commit: %+v %v", out, err)
	}
	if st := ledgerState(t, pool, "session.conv-1:add:x"); st == "done" {
		t.Fatal("the ledger recorded a success whose session commit failed")
	}
	sqlExec(t, pool, "DELETE FROM cut_commits")
	for i, wantReplayed := range []bool{false, true} {
		out, err := r.add(ctx, d, "x")
		if err != nil || !out.Success || out.Replayed != wantReplayed {
			t.Fatalf("retry %d: %+v %v", i, out, err)
		}
	}
	if got := r.steps(t, "conv-1"); len(got) != 1 || got[0] != "x" {
		t.Fatalf("stored steps %v, want [x]", got)
	}
	if st := ledgerState(t, pool, "session.conv-1:add:x"); st != "done" {
		t.Fatalf("ledger state %q", st)
	}
	// A fresh worker replays it too.
	out, err = r.add(ctx, r.dispatcher("conv-1"), "x")
	if err != nil || !out.Replayed || out.Output != "added x (run 2)" {
		t.Fatalf("fresh worker: %+v %v", out, err)
	}
}

// With one small pool shared by the store and the ledger, many concurrent idempotent calls complete at
// once: no call holds a connection while it waits for another (they used to stall for a whole lease).
func TestConcurrentIdempotentCallsOnOneSmallPoolDoNotStall(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // a stall fails, not hangs
	defer cancel()
	pool := openPool(t, pgtest.DSN(t), 2)
	r := mustRig(t, pool)
	const calls = 24
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, calls)
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := "conv-" + strconv.Itoa(i%8)
			out, err := r.add(ctx, r.dispatcher(id), "t"+strconv.Itoa(i))
			if err != nil || !out.Success || out.Replayed {
				errs <- errors.New(id + ": " + out.Output + " " + errString(err))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("%d calls on a 2-connection pool took %v (lease %v)", calls, el, pgledger30s)
	}
	var done int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM wink_ledger WHERE state = 'done'").Scan(&done); err != nil || done != calls {
		t.Fatalf("%d recorded, want %d (%v)", done, calls, err)
	}
	total := 0
	for s := range 8 {
		total += len(r.steps(t, "conv-"+strconv.Itoa(s)))
	}
	if total != calls {
		t.Fatalf("%d steps stored, want %d", total, calls)
	}
}

const pgledger30s = 30 * time.Second

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// A claimant alive but slower than its lease (paused past it) loses the claim to the caller that takes
// the call over: the late claimant's record is refused (fencing by the claim's owner token), so its
// session commit does not happen and it is answered with the error, never with success. The session
// holds the change once; the external effect ran on both (at-least-once, as documented).
func TestALateClaimantLearnsItLostTheClaimAndKeepsNothing(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	poolA, poolB := openPool(t, dsn, 0), openPool(t, dsn, 0)
	a, b := mustRig(t, poolA), mustRig(t, poolB)
	a.ledger.Lease = time.Hour // its renewal never runs during the test: the test ends its lease
	b.ledger.Poll = 5 * time.Millisecond
	started, resume := make(chan struct{}), make(chan struct{})
	a.during = func(string) { close(started); <-resume }
	type result struct {
		out outcome
		err error
	}
	aDone := make(chan result, 1)
	go func() {
		out, err := a.add(ctx, a.dispatcher("conv-3"), "slow")
		aDone <- result{outcome{out.Success, out.Replayed, out.Output}, err}
	}()
	<-started
	const key = "session.conv-3:add:slow"
	var ownerA string
	if err := poolA.QueryRow(ctx, "SELECT owner FROM wink_ledger WHERE key = $1", key).Scan(&ownerA); err != nil {
		t.Fatal(err)
	}
	// A is paused past its lease.
	sqlExec(t, poolA, "UPDATE wink_ledger SET lease_until = clock_timestamp() - interval '1 second'")
	bDone := make(chan result, 1)
	go func() {
		out, err := b.add(ctx, b.dispatcher("conv-3"), "slow")
		bDone <- result{outcome{out.Success, out.Replayed, out.Output}, err}
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var owner string
		_ = poolA.QueryRow(ctx, "SELECT coalesce(owner, '') FROM wink_ledger WHERE key = $1", key).Scan(&owner)
		if owner != ownerA {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("B never took the call over")
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(resume) // A wakes up, past its lease
	ra, rb := <-aDone, <-bDone
	if _, lost := errors.AsType[*ledger.LostClaimError](ra.err); !lost || ra.out.success {
		t.Fatalf("late claimant: %+v %v, want a *ledger.LostClaimError and no success", ra.out, ra.err)
	}
	if rb.err != nil || !rb.out.success || rb.out.replayed {
		t.Fatalf("taker: %+v %v", rb.out, rb.err)
	}
	if got := a.steps(t, "conv-3"); len(got) != 1 || got[0] != "slow" {
		t.Fatalf("stored steps %v, want [slow] once", got)
	}
	if n := count(t, poolA, "effects"); n != 2 {
		t.Fatalf("%d external effects, want 2 (at-least-once when a claimant outlives its lease)", n)
	}
	out, err := a.add(ctx, a.dispatcher("conv-3"), "slow")
	if err != nil || !out.Replayed || out.Output != rb.out.output {
		t.Fatalf("later call: %+v %v, want the taker's result replayed", out, err)
	}
}

type outcome struct {
	success, replayed bool
	output            string
}

// With the ledger on a pool of its own (it cannot share the store's transaction), the record is made
// right after the session's commit: a commit that fails is still never recorded, and a committed call
// is replayed.
func TestLedgerOnAnotherPoolRecordsAfterTheCommit(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	storePool := openPool(t, dsn, 0)
	r := mustRig(t, storePool)
	ledgerPool := openPool(t, dsn, 0)
	l, err := pgledger.New(ctx, ledgerPool)
	if err != nil {
		t.Fatal(err)
	}
	r.ledger = l
	cutCommits(t, storePool)
	d := r.dispatcher("conv-5")
	sqlExec(t, storePool, "INSERT INTO cut_commits VALUES (1)")
	if out, err := r.add(ctx, d, "x"); err == nil || out.Success {
		t.Fatalf("cut commit: %+v %v", out, err)
	}
	if st := ledgerState(t, storePool, "session.conv-5:add:x"); st != "" {
		t.Fatalf("ledger state %q after a failed commit, want the key freed", st)
	}
	sqlExec(t, storePool, "DELETE FROM cut_commits")
	if out, err := r.add(ctx, d, "x"); err != nil || !out.Success || out.Replayed {
		t.Fatalf("retry: %+v %v", out, err)
	}
	if out, err := r.add(ctx, r.dispatcher("conv-5"), "x"); err != nil || !out.Replayed {
		t.Fatalf("replay: %+v %v", out, err)
	}
	if got := r.steps(t, "conv-5"); len(got) != 1 {
		t.Fatalf("stored steps %v", got)
	}
}
