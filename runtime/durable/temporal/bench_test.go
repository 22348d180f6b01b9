package temporal_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/durable/pgdurable"
	"github.com/winkgen/wink/runtime/durable/temporal"
	"github.com/winkgen/wink/runtime/durable/temporal/internal/devserver"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/session/pgstore"
	"github.com/winkgen/wink/runtime/wink"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
)

// benchTurns model turns each call deposit once, then the model answers: 2*benchTurns+1 steps per run.
const benchTurns = 4

const benchSteps = 2*benchTurns + 1

// benchModel answers in process (no HTTP), so that the benchmark measures the engines, not a model.
type benchModel struct{}

func (benchModel) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	n := 0
	for _, m := range req.Messages {
		if m.Role == loop.RoleAssistant {
			n++
		}
	}
	if n >= benchTurns {
		return loop.Response{Text: "done", Usage: loop.Usage{Input: 10, Output: 1}}, nil
	}
	id := "c" + strconv.Itoa(n)
	return loop.Response{ToolCalls: []wink.Call{{ID: id, Name: "deposit", Arguments: []byte(`{"account":"a","cents":1}`)}},
		Usage: loop.Usage{Input: 10, Output: 1}}, nil
}

// benchAgent wires the deposit tool on a session of id: in memory (st nil) or in st.
func benchAgent(st session.Store) durable.Agent {
	reg, err := wink.NewRegistry(durabletest.WinkTools())
	if err != nil {
		panic(err)
	}
	return func(_ context.Context, run durable.Run) (loop.Config, error) {
		opts := []session.Option{session.WithID(run.Session)}
		if st != nil {
			opts = append(opts, session.WithStore(st))
		}
		return loop.Config{Provider: benchModel{}, Dispatcher: &wink.Dispatcher{Registry: reg, Session: session.New(opts...)}}, nil
	}
}

func benchPG(b *testing.B) (*pgxpool.Pool, *pgstore.Store, *pgdurable.Store) {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dsn(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	sst, err := pgstore.New(ctx, pool, durabletest.Slices()...)
	if err != nil {
		b.Fatal(err)
	}
	st, err := pgdurable.New(ctx, pool)
	if err != nil {
		b.Fatal(err)
	}
	return pool, sst, st
}

var benchSeq atomic.Int64

func runID() string { return "b" + strconv.FormatInt(benchSeq.Add(1), 10) }

func report(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchSteps), "ns/step")
}

// BenchmarkStep measures the cost of one step (a model response or a tool call) of a run of the deposit
// agent (4 tool turns and a final answer: 9 steps) on every engine, side by side: the plain agent loop
// (loop.Run, no checkpoints), the embedded engine on its memory store and on PostgreSQL, and Temporal
// (the development server on loopback, an in-process worker; its steps as activities, run eagerly, or
// as local activities: temporal-local) with its payloads in memory or in PostgreSQL. Every engine's
// figure includes starting the run and waiting for its end (Temporal: the workflow's first task and the
// result's long poll), divided among its 9 steps. Sessions are in memory, or in pgstore next to a PostgreSQL engine (the loop too, in
// loop/postgres). The model answers in process. Run it with make bench-durable.
func BenchmarkStep(b *testing.B) {
	ctx := context.Background()
	input := []loop.Message{loop.UserMessage("deposit")}
	runLoop := func(b *testing.B, st session.Store) {
		agent := benchAgent(st)
		for b.Loop() {
			id := runID()
			cfg, _ := agent(ctx, durable.Run{ID: id, Session: id})
			if res, err := loop.Run(ctx, cfg, input); err != nil || res.Turns != benchTurns+1 {
				b.Fatal(res.Turns, err)
			}
		}
		report(b)
	}
	b.Run("loop/memory", func(b *testing.B) { runLoop(b, nil) })
	b.Run("loop/postgres", func(b *testing.B) {
		_, sst, _ := benchPG(b)
		runLoop(b, sst)
	})
	runEmbedded := func(b *testing.B, st durable.Store, sst session.Store) {
		eng := &durable.Engine{Store: st, Agent: benchAgent(sst), Worker: "bench"}
		for b.Loop() {
			id := runID()
			if _, err := eng.Start(ctx, id, input, durable.StartOptions{Session: id}); err != nil {
				b.Fatal(err)
			}
			if ran, err := eng.RunOne(ctx); !ran || err != nil {
				b.Fatal(ran, err)
			}
		}
		report(b)
		b.StopTimer()
		s, err := eng.Status(ctx, "b"+strconv.FormatInt(benchSeq.Load(), 10))
		if err != nil || s.State != durable.Done || s.Steps != benchSteps {
			b.Fatalf("last run: %s, %d steps, %v", s.State, s.Steps, err)
		}
	}
	b.Run("embedded/memory", func(b *testing.B) { runEmbedded(b, durable.NewMemoryStore(), nil) })
	b.Run("embedded/postgres", func(b *testing.B) {
		_, sst, st := benchPG(b)
		runEmbedded(b, st, sst)
	})
	runTemporal := func(b *testing.B, st durable.Store, sst session.Store, local bool) {
		srv := devServer(b)
		c, err := client.Dial(client.Options{HostPort: srv.HostPort, Logger: devserver.Quiet()})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		queue := "bench-" + runID()
		w := worker.New(c, queue, worker.Options{})
		temporal.Register(w, &temporal.Activities{Store: st, Agent: benchAgent(sst), Worker: "bench"})
		if err := w.Start(); err != nil {
			b.Fatal(err)
		}
		defer w.Stop()
		for b.Loop() {
			id := runID()
			if err := temporal.Start(ctx, c, st, id, input, temporal.Options{Session: id, TaskQueue: queue, LocalActivities: local}); err != nil {
				b.Fatal(err)
			}
			var out temporal.Output
			if err := c.GetWorkflow(ctx, id, "").Get(ctx, &out); err != nil || out.Stop != "done" {
				b.Fatal(out, err)
			}
		}
		report(b)
	}
	b.Run("temporal/memory", func(b *testing.B) { runTemporal(b, durable.NewMemoryStore(), nil, false) })
	b.Run("temporal/postgres", func(b *testing.B) {
		_, sst, st := benchPG(b)
		runTemporal(b, st, sst, false)
	})
	b.Run("temporal-local/memory", func(b *testing.B) { runTemporal(b, durable.NewMemoryStore(), nil, true) })
	b.Run("temporal-local/postgres", func(b *testing.B) {
		_, sst, st := benchPG(b)
		runTemporal(b, st, sst, true)
	})
}
