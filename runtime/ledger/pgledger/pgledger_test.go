package pgledger_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/internal/pgcluster"
	"github.com/winkgen/wink/internal/pgtest"
	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/ledger/pgledger"
)

func TestMain(m *testing.M) {
	if os.Getenv("PGLEDGER_WORKER") != "" {
		os.Exit(worker())
	}
	pgtest.Main(m)
}

func open(t testing.TB, dsn string) (*pgledger.Ledger, *pgxpool.Pool) {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	l, err := pgledger.New(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	return l, pool
}

func ok(msg string) func() (ledger.Entry, bool) {
	return func() (ledger.Entry, bool) { return ledger.Entry{Message: msg, Rendered: msg + "!"}, true }
}

func TestDoRecordsSuccessesAndReplaysThem(t *testing.T) {
	l, _ := open(t, pgtest.DSN(t))
	ctx := context.Background()
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	e, replayed, err := l.Do(ctx, "k", "tool", time.Hour, now, ok("first"))
	if err != nil || replayed || e.Message != "first" {
		t.Fatalf("first: %+v %v %v", e, replayed, err)
	}
	e, replayed, err = l.Do(ctx, "k", "tool", time.Hour, now, ok("second"))
	if err != nil || !replayed || e.Message != "first" || e.Rendered != "first!" || e.Tool != "tool" || e.Value != nil {
		t.Fatalf("replay: %+v %v %v", e, replayed, err)
	}
	// A failure is not recorded: the next call runs.
	e, replayed, _ = l.Do(ctx, "f", "tool", time.Hour, now, func() (ledger.Entry, bool) { return ledger.Entry{Message: "no"}, false })
	if replayed || e.Message != "no" {
		t.Fatalf("failure: %+v", e)
	}
	if e, replayed, _ = l.Do(ctx, "f", "tool", time.Hour, now, ok("ran")); replayed || e.Message != "ran" {
		t.Fatalf("after a failure: %+v %v", e, replayed)
	}
	// TTL expiry by the caller's clock.
	clock = clock.Add(2 * time.Hour)
	if e, replayed, _ = l.Do(ctx, "k", "tool", time.Hour, now, ok("third")); replayed || e.Message != "third" {
		t.Fatalf("after expiry: %+v %v", e, replayed)
	}
	// Invalidate, InvalidateTool, Clear, PruneExpired.
	l.Invalidate("k")
	if _, found := l.Lookup("k", clock); found {
		t.Fatal("invalidated key found")
	}
	_, _, _ = l.Do(ctx, "a", "t1", 0, now, ok("a"))
	_, _, _ = l.Do(ctx, "b", "t2", time.Minute, now, ok("b"))
	l.InvalidateTool("t1")
	if _, found := l.Lookup("a", clock); found {
		t.Fatal("InvalidateTool left an entry")
	}
	if n := l.PruneExpired(clock.Add(time.Hour)); n != 2 { // b and f expired; "a" is gone already
		t.Fatalf("PruneExpired removed %d", n)
	}
	_, _, _ = l.Do(ctx, "c", "t3", 0, now, ok("c"))
	l.Clear()
	if _, found := l.Lookup("c", clock); found {
		t.Fatal("Clear left an entry")
	}
}

func TestConcurrentIdenticalCallsRunTheHandlerOnce(t *testing.T) {
	l, _ := open(t, pgtest.DSN(t))
	var runs atomic.Int32
	var wg sync.WaitGroup
	var replays atomic.Int32
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, replayed, err := l.Do(context.Background(), "same", "tool", 0, nil, func() (ledger.Entry, bool) {
				runs.Add(1)
				time.Sleep(50 * time.Millisecond)
				return ledger.Entry{Message: "done"}, true
			})
			if err != nil {
				t.Error(err)
			}
			if replayed {
				replays.Add(1)
			}
		}()
	}
	wg.Wait()
	if runs.Load() != 1 || replays.Load() != 19 {
		t.Fatalf("handler ran %d times, %d replays", runs.Load(), replays.Load())
	}
}

func TestAbandonedClaimIsTakenOverAfterItsLease(t *testing.T) {
	l, pool := open(t, pgtest.DSN(t))
	l.Lease = 300 * time.Millisecond
	// A claim whose owner is gone: its lease is running out.
	if _, err := pool.Exec(context.Background(), `INSERT INTO wink_ledger (key, tool, state, owner, lease_until)
		VALUES ('k', 'tool', 'claimed', 'dead', clock_timestamp() + interval '300 milliseconds')`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	e, replayed, err := l.Do(context.Background(), "k", "tool", 0, nil, ok("taken over"))
	if err != nil || replayed || e.Message != "taken over" {
		t.Fatalf("%+v %v %v", e, replayed, err)
	}
	if waited := time.Since(start); waited < 200*time.Millisecond {
		t.Fatalf("took over after %v, before the lease ran out", waited)
	}
}

func TestDoOnADatabaseThatIsDownReturnsAnErrorAndDoesNotRun(t *testing.T) {
	c, err := pgcluster.Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	dsn, err := c.CreateDB(context.Background(), "down")
	if err != nil {
		t.Fatal(err)
	}
	l, _ := open(t, dsn)
	c.Kill()
	ran := false
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _, err = l.Do(ctx, "k", "tool", 0, nil, func() (ledger.Entry, bool) { ran = true; return ledger.Entry{}, true })
	if err == nil || ran || !strings.Contains(err.Error(), "pgledger:") {
		t.Fatalf("err = %v, ran = %v", err, ran)
	}
}

// worker is a worker process. Mode "calls": PGLEDGER_N calls of Do on one key, whose handler inserts
// one row into effects. Mode "hang": Do on key "hung" whose handler marks that it started and then
// never returns (the test kills the process).
func worker() int {
	ctx := context.Background()
	if mode := os.Getenv("PGLEDGER_WORKER"); strings.HasPrefix(mode, "session-") {
		return sessionWorker(ctx, mode)
	}
	pool, err := pgxpool.New(ctx, os.Getenv("PGLEDGER_DSN"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer pool.Close()
	l, err := pgledger.New(ctx, pool)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	l.Lease = time.Second
	l.Poll = 5 * time.Millisecond
	effect := func(marker string) func() (ledger.Entry, bool) {
		return func() (ledger.Entry, bool) {
			if _, err := pool.Exec(ctx, "INSERT INTO effects (who) VALUES ($1)", marker); err != nil {
				return ledger.Entry{}, false
			}
			return ledger.Entry{Message: "effect by " + marker}, true
		}
	}
	switch os.Getenv("PGLEDGER_WORKER") {
	case "calls":
		n, _ := strconv.Atoi(os.Getenv("PGLEDGER_N"))
		for range n {
			if _, _, err := l.Do(ctx, "one-effect", "tool", 0, nil, effect(os.Getenv("PGLEDGER_ID"))); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
	case "hang":
		_, _, _ = l.Do(ctx, "hung", "tool", 0, nil, func() (ledger.Entry, bool) {
			_, _ = pool.Exec(ctx, "INSERT INTO started (who) VALUES ('hung')")
			select {} // never returns: the test kills this process
		})
	}
	return 0
}

func effectsTable(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	if _, err := pool.Exec(context.Background(), "CREATE TABLE effects (who text); CREATE TABLE started (who text)"); err != nil {
		t.Fatal(err)
	}
}

func count(t *testing.T, pool *pgxpool.Pool, table string) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOneEffectAcrossWorkerProcesses: 4 worker processes make 1,000 identical idempotent calls between
// them; the handler's effect happens once.
func TestOneEffectAcrossWorkerProcesses(t *testing.T) {
	dsn := pgtest.DSN(t)
	_, pool := open(t, dsn)
	effectsTable(t, pool)
	var cmds []*exec.Cmd
	for w := range 4 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "PGLEDGER_WORKER=calls", "PGLEDGER_DSN="+dsn, "PGLEDGER_N=250", "PGLEDGER_ID=w"+strconv.Itoa(w))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("worker: %v", err)
		}
	}
	if n := count(t, pool, "effects"); n != 1 {
		t.Fatalf("the effect happened %d times over 1,000 calls in 4 processes, want once", n)
	}
}

// TestKilledClaimantsCallIsCompletedByAnotherWorker: a worker claims a call and is killed with SIGKILL
// while its handler runs; another caller takes the call over once the lease runs out and completes it,
// with one effect.
func TestKilledClaimantsCallIsCompletedByAnotherWorker(t *testing.T) {
	dsn := pgtest.DSN(t)
	l, pool := open(t, dsn)
	effectsTable(t, pool)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PGLEDGER_WORKER=hang", "PGLEDGER_DSN="+dsn)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for count(t, pool, "started") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the worker never started its call")
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = cmd.Process.Kill() // SIGKILL while holding the claim
	_ = cmd.Wait()
	l.Lease, l.Poll = time.Second, 10*time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e, replayed, err := l.Do(ctx, "hung", "tool", 0, nil, func() (ledger.Entry, bool) {
		if _, err := pool.Exec(ctx, "INSERT INTO effects (who) VALUES ('taker')"); err != nil {
			return ledger.Entry{}, false
		}
		return ledger.Entry{Message: "completed"}, true
	})
	if err != nil || replayed || e.Message != "completed" {
		t.Fatalf("%+v %v %v", e, replayed, err)
	}
	if n := count(t, pool, "effects"); n != 1 {
		t.Fatalf("%d effects, want 1", n)
	}
	if e, replayed, _ := l.Do(ctx, "hung", "tool", 0, nil, ok("again")); !replayed || e.Message != "completed" {
		t.Fatalf("later call: %+v %v", e, replayed)
	}
}

// BenchmarkDo compares Do on the memory ledger and on PostgreSQL: a replay (hit) and a new key (miss).
func BenchmarkDo(b *testing.B) {
	pl, _ := open(b, pgtest.DSN(b))
	for _, lc := range []struct {
		name string
		l    ledger.Doer
	}{{"memory", ledger.NewMemory()}, {"postgres", pl}} {
		ctx := context.Background()
		_, _, _ = lc.l.Do(ctx, "hit", "tool", 0, nil, ok("x"))
		b.Run("ledger="+lc.name+"/hit", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, replayed, err := lc.l.Do(ctx, "hit", "tool", 0, nil, ok("x")); err != nil || !replayed {
					b.Fatal(err)
				}
			}
		})
		b.Run("ledger="+lc.name+"/miss", func(b *testing.B) {
			b.ReportAllocs()
			prefix := lc.name + "-miss-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-" // new keys on every run
			i := 0
			for b.Loop() {
				i++
				if _, _, err := lc.l.Do(ctx, prefix+strconv.Itoa(i), "tool", 0, nil, ok("x")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
