package pgdurable_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"syscall"
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

// TestDefaultPoolFleet wires two workers as the package documentation and the README show: each with
// one pgxpool.Pool of pgxpool's default size (MaxConns not set: 4 on a machine with up to 4 CPUs)
// shared by pgstore (with durable.CommitSlice), pgdurable and pgledger, and an Engine at its default
// Concurrency (8, twice the pool). Three times more runs than the fleet has connections, each of three
// committing tool calls, must all finish within a bound. Before, a call held its session
// transaction's connection and renewed its claim on a second one from the same pool: with every
// connection held by a call waiting for another, the workers hung for good, silently.
func TestDefaultPoolFleet(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dsn := pgtest.DSN(t)
	type worker struct {
		pool *pgxpool.Pool
		sst  *pgstore.Store
		eng  *durable.Engine
	}
	prov := map[string]*durabletest.MixProvider{}
	var provMu sync.Mutex
	conns := 0
	var workers []worker
	for _, name := range []string{"A", "B"} {
		pool, err := pgxpool.New(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		conns += int(pool.Config().MaxConns)
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
		// One model per run (its script is the run's), answering at once: the calls crowd the pool.
		agent := func(ctx context.Context, r durable.Run) (loop.Config, error) {
			provMu.Lock()
			p := prov[r.ID]
			provMu.Unlock()
			return durabletest.Agent(sst, led, p)(ctx, r)
		}
		workers = append(workers, worker{pool: pool, sst: sst, eng: &durable.Engine{Store: st, Agent: agent, Worker: name, Poll: 20 * time.Millisecond}})
	}
	if d := workers[0].eng.Concurrency; d != 0 {
		t.Fatalf("the engine's Concurrency must be the default, got %d", d)
	}
	if conns >= 2*durable.DefaultConcurrency {
		t.Fatalf("the pools (%d connections) are not smaller than the engines' concurrency (%d each)", conns, durable.DefaultConcurrency)
	}
	n := 3 * conns
	client := workers[0].eng
	for i := range n {
		id := "run-" + strconv.Itoa(i)
		provMu.Lock()
		prov[id] = &durabletest.MixProvider{Seq: "CCC"}
		provMu.Unlock()
		if _, err := client.Start(ctx, id, []loop.Message{loop.UserMessage("mix")}, durable.StartOptions{Session: "sess-" + strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Go(func() { _ = w.eng.Work(wctx) })
	}
	defer func() { stop(); wg.Wait() }()
	bound, bcancel := context.WithTimeout(ctx, 60*time.Second)
	defer bcancel()
	var stuck []string
	for i := range n {
		id := "run-" + strconv.Itoa(i)
		s, err := client.Wait(bound, id)
		if err != nil {
			s, _ = client.Status(ctx, id)
			stuck = append(stuck, id+" "+s.State.String()+" attempts "+strconv.Itoa(s.Attempts)+" steps "+strconv.Itoa(s.Steps)+" "+s.Err)
			continue
		}
		if err := durabletest.VerifyMix(ctx, workers[0].sst, "sess-"+strconv.Itoa(i), id, prov[id], s); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	if len(stuck) > 0 {
		t.Fatalf("%d of %d runs not done within the bound (pools of %d connections in all):\n%s", len(stuck), n, conns, strings.Join(stuck, "\n"))
	}
	t.Logf("%d runs on 2 workers (pools of %d connections in all, concurrency %d each) done in %v", n, conns, durable.DefaultConcurrency, time.Since(start).Round(time.Millisecond))
}

// TestDefaultPoolFleetKilled runs 24 runs of the script (a held call each, approved as it is held) on
// three worker processes wired as documented (one pgxpool.Pool of the default size each, the engine's
// default concurrency), and kills one worker with SIGKILL mid-way (seeded: which one, and when). Every
// run ends within a bound with every session change made once. Before, a fleet with a kill hung in
// half the seeds.
func TestDefaultPoolFleetKilled(t *testing.T) {
	for _, seed := range []int{1, 2} {
		t.Run("seed="+strconv.Itoa(seed), func(t *testing.T) { fleetKilled(t, seed) })
	}
}

func fleetKilled(t *testing.T, seed int) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
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
	var workers []*durabletest.Proc
	for _, name := range []string{"A", "B", "C"} {
		workers = append(workers, durabletest.StartProc(t, workerEnv, "-name", name, "-dsn", dsn, "-model", model.URL, "-lease", "1s", "-concurrency", "0"))
	}
	defer func() {
		for _, w := range workers {
			w.Stop()
		}
	}()
	client := &durable.Engine{Store: st}
	const n = 24
	for i := range n {
		if _, err := client.Start(ctx, "run-"+strconv.Itoa(i), []loop.Message{loop.UserMessage("Credit alice 100 and bob 50, take 30 from alice, credit carol 7.")},
			durable.StartOptions{Session: "sess-" + strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
	victim := workers[seed%len(workers)]
	kill := time.AfterFunc(time.Duration(100+150*seed)*time.Millisecond, func() { _ = victim.Signal(syscall.SIGKILL) })
	defer kill.Stop()
	bound, bcancel := context.WithTimeout(ctx, 90*time.Second)
	defer bcancel()
	approved := map[int]bool{}
	done := map[int]durable.Status{}
	for len(done) < n && bound.Err() == nil {
		for i := range n {
			if _, ok := done[i]; ok {
				continue
			}
			id := "run-" + strconv.Itoa(i)
			s, err := client.Status(bound, id)
			if err != nil {
				continue
			}
			switch {
			case s.State.Terminal():
				done[i] = s
			case s.State == durable.Held && !approved[i]:
				if err := durabletest.Approve(bound, sst, "sess-"+strconv.Itoa(i), s.Held[0]); err != nil {
					t.Fatal(err)
				}
				approved[i] = true
				_ = client.Wake(bound, id)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	var stuck []string
	for i := range n {
		id := "run-" + strconv.Itoa(i)
		s, ok := done[i]
		if !ok {
			s, _ = client.Status(ctx, id)
			stuck = append(stuck, id+" "+s.State.String()+" attempts "+strconv.Itoa(s.Attempts)+" steps "+strconv.Itoa(s.Steps)+" "+s.Err)
			continue
		}
		if err := durabletest.Verify(ctx, sst, "sess-"+strconv.Itoa(i), id, "", nil, "", s); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	if !victim.Killed() {
		t.Error("the worker was not killed")
	}
	if len(stuck) > 0 {
		t.Fatalf("%d of %d runs not done within the bound:\n%s", len(stuck), n, strings.Join(stuck, "\n"))
	}
}
