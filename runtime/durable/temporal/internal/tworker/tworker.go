// Package tworker is the worker process of the Temporal engine's crash tests and benchmarks: the test
// agent (runtime/durable/internal/durabletest) served by a Temporal worker, its sessions and checkpoints
// in PostgreSQL.
package tworker

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/durable/pgdurable"
	"github.com/winkgen/wink/runtime/durable/temporal"
	"github.com/winkgen/wink/runtime/durable/temporal/internal/devserver"
	"github.com/winkgen/wink/runtime/session/pgstore"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
)

// Main runs a worker until its standard input closes:
//
//	worker -hostport H -queue Q -dsn DSN -model URL [-effects FILE] [-crash POINT -marker FILE] [-name N]
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hostport := fs.String("hostport", "", "Temporal frontend")
	queue := fs.String("queue", temporal.TaskQueue, "task queue")
	dsn := fs.String("dsn", "", "PostgreSQL DSN")
	model := fs.String("model", "", "fake model base URL")
	effects := fs.String("effects", "", "file of outside effects")
	crash := fs.String("crash", "", "crash point")
	marker := fs.String("marker", "", "file claimed by the worker that crashes")
	name := fs.String("name", "", "worker name")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	durabletest.EffectsFile = *effects
	ctx := context.Background()
	fail := func(err error) int { fmt.Fprintln(stderr, "worker:", err); return 1 }
	pool, err := pgxpool.New(ctx, *dsn)
	if err != nil {
		return fail(err)
	}
	defer pool.Close()
	sst, err := pgstore.New(ctx, pool, durabletest.Slices()...)
	if err != nil {
		return fail(err)
	}
	st, err := pgdurable.New(ctx, pool)
	if err != nil {
		return fail(err)
	}
	led, err := durabletest.PGLedger(ctx, pool)
	if err != nil {
		return fail(err)
	}
	p, err := durabletest.Provider(*model)
	if err != nil {
		return fail(err)
	}
	c, err := client.Dial(client.Options{HostPort: *hostport, Logger: devserver.Quiet(), Identity: *name})
	if err != nil {
		return fail(err)
	}
	defer c.Close()
	acts := &temporal.Activities{Store: st, Agent: durabletest.Agent(sst, led, p), Worker: *name}
	if *crash != "" {
		acts.Observe, durabletest.CrashInHandler = durabletest.CrashAt(*crash, durabletest.ClaimFile(*marker), durabletest.Kill)
	}
	w := worker.New(c, *queue, worker.Options{StickyScheduleToStartTimeout: time.Second})
	temporal.Register(w, acts)
	stop := make(chan interface{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stop)
	}()
	fmt.Fprintln(stdout, "worker", *name, "ready")
	if err := w.Run(stop); err != nil {
		return fail(err)
	}
	return 0
}
