package pgstore_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/internal/pgcluster"
	"github.com/winkgen/wink/internal/pgtest"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/session/internal/storetest"
	"github.com/winkgen/wink/runtime/session/pgstore"
)

func TestMain(m *testing.M) {
	if os.Getenv("PGSTORE_WORKER") != "" {
		os.Exit(worker())
	}
	pgtest.Main(m)
}

func newStore(t testing.TB, dsn string) *pgstore.Store {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	st, err := pgstore.New(context.Background(), pool, storetest.Slices()...)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestStoreConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) session.Store { return newStore(t, pgtest.DSN(t)) })
}

func TestNewRefusesASliceWithoutCodec(t *testing.T) {
	pool, err := pgxpool.New(context.Background(), pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	_, err = pgstore.New(context.Background(), pool, storetest.Plan, storetest.Scratch)
	if err == nil || !strings.Contains(err.Error(), `session slice "test.scratch" has no codec`) {
		t.Fatalf("err = %v", err)
	}
}

// worker is a worker process: it adds PGSTORE_N to the shared counter of session conv-mp, one
// transaction per increment, and appends a log entry per increment.
func worker() int {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("PGSTORE_DSN"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer pool.Close()
	st, err := pgstore.New(ctx, pool, storetest.Slices()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	n, _ := strconv.Atoi(os.Getenv("PGSTORE_N"))
	s := session.New(session.WithID("conv-mp"), session.WithStore(st))
	for i := range n {
		tx, err := s.Begin(ctx, session.ReadWrite)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		c, _ := session.Latest(s, storetest.Counter)
		session.Seed(s, storetest.Counter, c+1)
		session.Append(s, storetest.Events, os.Getenv("PGSTORE_WORKER")+"-"+strconv.Itoa(i))
		if err := tx.End(ctx); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// TestWorkerProcessesShareOneSession runs worker processes that update one session concurrently
// through the database: every acknowledged increment is there, and a worker started afterwards (a
// restart) resumes from the last commit.
func TestWorkerProcessesShareOneSession(t *testing.T) {
	dsn := pgtest.DSN(t)
	newStore(t, dsn) // migrate once before the workers race
	const procs, each = 3, 40
	var cmds []*exec.Cmd
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "PGSTORE_WORKER=w"+strconv.Itoa(p), "PGSTORE_DSN="+dsn, "PGSTORE_N="+strconv.Itoa(each))
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
	s := session.New(session.WithID("conv-mp"), session.WithStore(newStore(t, dsn)))
	storetest.InTx(t, s, func() {
		if n, _ := session.Latest(s, storetest.Counter); n != procs*each {
			t.Fatalf("counter %d, want %d", n, procs*each)
		}
		if n := session.Len(s, storetest.Events); n != procs*each {
			t.Fatalf("%d log entries, want %d", n, procs*each)
		}
	})
}

// TestADatabaseThatIsDownFailsBegin: Begin returns an error (so the dispatcher does not run the
// handler) and nothing is half-written.
func TestADatabaseThatIsDownFailsBegin(t *testing.T) {
	c, err := pgcluster.Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	dsn, err := c.CreateDB(context.Background(), "down")
	if err != nil {
		t.Fatal(err)
	}
	st := newStore(t, dsn)
	s := session.New(session.WithID("conv-d"), session.WithStore(st))
	storetest.InTx(t, s, func() { session.Seed(s, storetest.Plan, "before") })
	c.Kill()
	if _, err := s.Begin(context.Background(), session.ReadWrite); err == nil || !strings.Contains(err.Error(), `pgstore: session "conv-d"`) {
		t.Fatalf("Begin on a database that is down = %v", err)
	}
}

// BenchmarkCommit measures a transaction that changes one STATE slice and appends one LOG entry, on the
// memory store and on PostgreSQL, for sessions holding 10 and 10,000 LOG entries.
func BenchmarkCommit(b *testing.B) {
	mem, err := session.NewMemoryStore(storetest.Slices()...)
	if err != nil {
		b.Fatal(err)
	}
	stores := []struct {
		name string
		st   session.Store
	}{{"memory", mem}, {"postgres", newStore(b, pgtest.DSN(b))}}
	for _, sc := range stores {
		for _, logLen := range []int{10, 10000} {
			b.Run(fmt.Sprintf("store=%s/log=%d", sc.name, logLen), func(b *testing.B) {
				id := "bench-" + strconv.Itoa(logLen)
				s := session.New(session.WithID(id), session.WithStore(sc.st))
				storetest.InTx(b, s, func() {
					for i := range logLen {
						session.Append(s, storetest.Events, "e"+strconv.Itoa(i))
					}
				})
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					storetest.InTx(b, s, func() {
						session.Seed(s, storetest.Counter, int64(i))
						session.Append(s, storetest.Events, "x")
					})
				}
			})
		}
	}
}
