package durabletest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/pgdurable"
	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/ledger/pgledger"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	"github.com/winkgen/wink/runtime/providers/openaihttp"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/session/pgstore"
	"github.com/winkgen/wink/runtime/wink"
)

// Slices are the session slices the test agent's store must keep.
func Slices() []session.Persistent {
	return []session.Persistent{Entries, durable.CommitSlice, policy.ApprovalSlice}
}

// Provider returns the OpenAI-compatible provider for the fake model at url.
func Provider(url string) (loop.Provider, error) {
	return openaihttp.New(openaihttp.Config{BaseURL: url, Model: "fake", APIKey: "-",
		Retry: httpcall.Retry{MaxRetries: 3, BaseDelay: 20 * time.Millisecond, MaxDelay: 200 * time.Millisecond}})
}

// Dispatcher returns the test agent's dispatcher on the stored session id: the two tools, transfer held
// for approval, deposit idempotent through led (nil: no ledger).
func Dispatcher(st session.Store, led ledger.Doer, id string) (*wink.Dispatcher, error) {
	reg, err := wink.NewRegistry(WinkTools())
	if err != nil {
		return nil, err
	}
	return &wink.Dispatcher{
		Registry: reg,
		Session:  session.New(session.WithID(id), session.WithStore(st)),
		Policies: []wink.Policy{policy.NewRequireApproval("transfer")},
		Ledger:   led,
	}, nil
}

// Agent returns the durable.Agent of the test agent: provider p, sessions in st (Run.Session is the id),
// the idempotency ledger led.
func Agent(st session.Store, led ledger.Doer, p loop.Provider) durable.Agent {
	return func(ctx context.Context, run durable.Run) (loop.Config, error) {
		d, err := Dispatcher(st, led, run.Session)
		if err != nil {
			return loop.Config{}, err
		}
		return loop.Config{Provider: p, Dispatcher: d, System: "You keep the accounts."}, nil
	}
}

// PGLedger returns the idempotency ledger on pool (the session store's: its records join the sessions'
// commits) with a one-second claim lease, so that a claim of a killed worker is taken over quickly.
func PGLedger(ctx context.Context, pool *pgxpool.Pool) (*pgledger.Ledger, error) {
	l, err := pgledger.New(ctx, pool)
	if err != nil {
		return nil, err
	}
	l.Lease = time.Second
	return l, nil
}

// Crash points, as the crash tests name them.
const (
	BeforeModel = "before-model" // a model call is about to be sent (turn 2)
	AfterModel  = "after-model"  // the first model response is checkpointed
	BeforeTool  = "before-tool"  // the second call of turn 1 is about to be dispatched
	InHandler   = "in-handler"   // inside deposit's handler, after its outside effect
	AfterCommit = "after-commit" // the first call committed its session changes, its checkpoint unwritten
	WhileHeld   = "while-held"   // the run was given back, held for approval
)

// CrashPoints lists every crash point.
var CrashPoints = []string{BeforeModel, AfterModel, BeforeTool, InHandler, AfterCommit, WhileHeld}

// CrashAt returns the Observe function and handler hook that call kill at point (once: claim returns
// false when another worker already crashed there).
func CrashAt(point string, claim func() bool, kill func()) (func(durable.Event), func(string)) {
	at := func() {
		if claim() {
			kill()
		}
	}
	observe := func(ev durable.Event) {
		switch {
		case point == BeforeModel && ev.Kind == durable.EventModelStart && ev.Turn == 2,
			point == AfterModel && ev.Kind == durable.EventModelDone && ev.Turn == 1,
			point == BeforeTool && ev.Kind == durable.EventToolStart && ev.Turn == 1 && ev.Index == 1,
			point == AfterCommit && ev.Kind == durable.EventToolDispatched && ev.Turn == 1 && ev.Index == 0,
			point == WhileHeld && ev.Kind == durable.EventReleased && ev.State == durable.Held:
			at()
		}
	}
	handler := func(tool string) {
		if point == InHandler && tool == "deposit" {
			at()
		}
	}
	return observe, handler
}

// ClaimFile returns a claim that succeeds once across processes: it creates path exclusively.
func ClaimFile(path string) func() bool {
	return func() bool {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return false
		}
		f.Close()
		return true
	}
}

// WorkerMain is a worker process of the embedded engine's crash tests:
//
//	worker -dsn DSN -model URL -effects FILE [-crash POINT -marker FILE] [-pause-before-model -marker FILE] [-lease D] [-name N]
//
// It works until killed or until its standard input closes.
func WorkerMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dsn := fs.String("dsn", "", "PostgreSQL DSN")
	model := fs.String("model", "", "fake model base URL")
	effects := fs.String("effects", "", "file of outside effects")
	crash := fs.String("crash", "", "crash point")
	marker := fs.String("marker", "", "file claimed by the worker that crashes")
	lease := fs.Duration("lease", time.Second, "lease")
	name := fs.String("name", "", "worker name")
	concurrency := fs.Int("concurrency", 0, "the engine's Concurrency (0: the default)")
	pause := fs.Bool("pause-before-model", false, "stop this process (SIGSTOP) right before turn 2's model call, once across workers (-marker)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	EffectsFile = *effects
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	go func() { // stop when the parent closes our stdin
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	pool, err := pgxpool.New(ctx, *dsn)
	if err != nil {
		fmt.Fprintln(stderr, "worker:", err)
		return 1
	}
	defer pool.Close()
	sst, err := pgstore.New(ctx, pool, Slices()...)
	if err != nil {
		fmt.Fprintln(stderr, "worker:", err)
		return 1
	}
	dst, err := pgdurable.New(ctx, pool)
	if err != nil {
		fmt.Fprintln(stderr, "worker:", err)
		return 1
	}
	led, err := PGLedger(ctx, pool)
	if err != nil {
		fmt.Fprintln(stderr, "worker:", err)
		return 1
	}
	p, err := Provider(*model)
	if err != nil {
		fmt.Fprintln(stderr, "worker:", err)
		return 1
	}
	eng := &durable.Engine{Store: dst, Agent: Agent(sst, led, p), Worker: *name, Lease: *lease, Poll: 50 * time.Millisecond,
		HeldPoll: 500 * time.Millisecond, RetryDelay: 100 * time.Millisecond, Concurrency: *concurrency}
	if *crash != "" {
		eng.Observe, CrashInHandler = CrashAt(*crash, ClaimFile(*marker), Kill)
	}
	if *pause {
		claim := ClaimFile(*marker)
		eng.Observe = func(ev durable.Event) {
			if ev.Kind == durable.EventModelStart && ev.Turn == 2 && claim() {
				fmt.Fprintln(stdout, "worker", eng.WorkerName(), "stops before turn 2's model call")
				// As a scheduler or a frozen VM stops it. The stop reaches the process's threads
				// asynchronously: this goroutine goes on only once the SIGCONT has come.
				stopUntilContinued()
				fmt.Fprintln(stdout, "worker", eng.WorkerName(), "continues")
			}
			switch ev.Kind {
			case durable.EventError:
				fmt.Fprintln(stdout, "worker", eng.WorkerName(), "error:", ev.Err)
			case durable.EventClaimed, durable.EventModelStart, durable.EventModelDone, durable.EventReleased:
				fmt.Fprintln(stdout, "worker", eng.WorkerName(), "event", ev.Kind, "turn", ev.Turn, "state", ev.State, time.Now().Format("15:04:05.000"))
			}
		}
	}
	fmt.Fprintln(stdout, "worker", eng.WorkerName(), "ready")
	if err := eng.Work(ctx); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "worker:", err)
		return 1
	}
	return 0
}
