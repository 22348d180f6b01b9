package durable

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// Defaults of the Engine's settings.
const (
	DefaultLease       = 15 * time.Second
	DefaultPoll        = 250 * time.Millisecond
	DefaultHeldPoll    = 5 * time.Second
	DefaultRetryDelay  = time.Second
	DefaultConcurrency = 8
)

// Run is what an Agent is told about the run it wires.
type Run struct {
	// ID is the run's id.
	ID string
	// Session is the text given at Start (StartOptions.Session): typically the id of the session the
	// run's dispatcher works on.
	Session string
	// Attempt counts the claims of the run, from 1 (a run taken over after a crash has Attempt 2 or more).
	Attempt int
	// Principal is who the run acts for (see StartOptions.Principal), nil for a run started without
	// one. The Agent's context carries it too (wink.PrincipalFrom).
	Principal *wink.Principal
}

// Agent wires a run on the worker that executes it: the provider, the dispatcher (its session bound to
// a store every worker shares, its ledger) and the prompt, as for loop.Run. It is called every time a
// worker takes the run, so it must build the same agent on every worker. Config.Parallel and
// Config.OnTurn are ignored: a durable run dispatches its calls in order, each outcome a checkpoint
// (Engine.Observe reports the steps).
type Agent func(ctx context.Context, run Run) (loop.Config, error)

// StartOptions are a run's settings besides its id and input.
type StartOptions struct {
	// Session is passed to the Agent as Run.Session.
	Session string
	// MaxTurns bounds the model calls (0: loop.DefaultMaxTurns).
	MaxTurns int
	// Principal is who the run acts for; nil: the principal of Start's context (wink.PrincipalFrom), if
	// any. It is stored with the run (never the raw token, see EncodePrincipal) and every step of the
	// run, on any worker, is dispatched for it: a call its scopes do not permit is refused, and the model
	// is offered only the tools it may call.
	Principal *wink.Principal
}

// EventKind names what an Event reports.
type EventKind uint8

// The events an Engine reports to Observe.
const (
	// EventClaimed: the worker took the run.
	EventClaimed EventKind = iota + 1
	// EventModelStart: a model call is about to be sent (the turn has no checkpoint).
	EventModelStart
	// EventModelDone: the model's response is checkpointed.
	EventModelDone
	// EventToolStart: a call is about to be dispatched (it has no checkpoint).
	EventToolStart
	// EventToolDispatched: the call returned (its session changes are committed), its checkpoint not
	// yet written.
	EventToolDispatched
	// EventToolDone: the call's outcome is checkpointed.
	EventToolDone
	// EventReleased: the worker gave the run back (Event.State says as what).
	EventReleased
	// EventError: something failed that the engine retries (Event.Err).
	EventError
)

// Event is one thing an Engine did, reported to Engine.Observe on the goroutine running the run.
type Event struct {
	Kind   EventKind
	Run    string
	Worker string
	Turn   int
	Index  int
	State  State
	Err    error
}

// Engine runs durable agent runs: Start records a run, Work (on any number of workers sharing the Store)
// takes runs and drives them, checkpointing every step, and takes over the runs of workers that died.
// Set Store and Agent; the other fields have defaults. An Engine must not be modified once it works.
type Engine struct {
	// Store keeps the runs and their checkpoints (required).
	Store Store
	// Agent wires a run on the worker executing it (required by Work).
	Agent Agent
	// Worker names this worker in the store (default: host, pid and a random suffix).
	Worker string
	// Lease is how long a claim lasts without renewal (renewed every Lease/3 while the run works): a
	// worker that dies is replaced this long after its last renewal. Default DefaultLease.
	Lease time.Duration
	// Poll is how often Work looks for runs when none needs a worker. Default DefaultPoll.
	Poll time.Duration
	// HeldPoll is how often a held run is looked at again (its calls dispatched anew, which runs them if
	// a decision was recorded). Wake resumes a run at once. Default DefaultHeldPoll.
	HeldPoll time.Duration
	// RetryDelay is how long a run waits after an error that a retry may cure (the agent could not be
	// wired, a call's transaction could not start, a checkpoint could not be written). Default
	// DefaultRetryDelay.
	RetryDelay time.Duration
	// Concurrency bounds the runs one Work drives at once. Default DefaultConcurrency.
	Concurrency int
	// Observe, when set, is told each Event.
	Observe func(Event)
	// Reauthorize renews the principal of a run whose token has expired (see Reauthorize); nil: such a
	// run ends Failed with ErrPrincipalExpired at its next step.
	Reauthorize Reauthorize

	once   sync.Once
	worker string
}

func (e *Engine) init() {
	e.once.Do(func() {
		e.worker = e.Worker
		if e.worker == "" {
			host, _ := os.Hostname()
			var b [3]byte
			_, _ = rand.Read(b[:])
			e.worker = host + "-" + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:])
		}
	})
}

// WorkerName returns the name this worker claims runs under.
func (e *Engine) WorkerName() string { e.init(); return e.worker }

func orDefault(v, d time.Duration) time.Duration {
	if v <= 0 {
		return d
	}
	return v
}

func (e *Engine) observe(ev Event) {
	if e.Observe != nil {
		ev.Worker = e.worker
		e.Observe(ev)
	}
}

// Start records the run id with its first messages; a worker's Work picks it up. created is false, and
// nothing changes, when a run with that id exists (Start is idempotent: a caller retrying it after an
// error starts the run once).
func (e *Engine) Start(ctx context.Context, id string, input []loop.Message, opts StartOptions) (created bool, err error) {
	if id == "" {
		return false, errors.New("durable: a run needs an id")
	}
	if opts.MaxTurns < 0 {
		return false, errors.New("durable: StartOptions.MaxTurns is negative")
	}
	if e.Store == nil {
		return false, errors.New("durable: Engine.Store is required")
	}
	p := opts.Principal
	if p == nil {
		p = wink.PrincipalFrom(ctx)
	}
	return e.Store.Create(ctx, Record{ID: id, Session: opts.Session, Input: EncodeMessages(input), MaxTurns: opts.MaxTurns,
		Principal: EncodePrincipal(p)})
}

// Wake makes a held run claimable now: call it after recording a decision (policy.Approve, policy.Deny)
// to resume the run without waiting for HeldPoll.
func (e *Engine) Wake(ctx context.Context, id string) error { return e.Store.Wake(ctx, id) }

// Work takes runs that need a worker and drives them, Concurrency at a time, until ctx is done; then it
// gives back the runs it holds (another worker takes them at once) and returns ctx's error.
func (e *Engine) Work(ctx context.Context) error {
	if e.Store == nil || e.Agent == nil {
		return errors.New("durable: Engine.Store and Engine.Agent are required")
	}
	e.init()
	n := e.Concurrency
	if n <= 0 {
		n = DefaultConcurrency
	}
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	defer wg.Wait()
	poll := orDefault(e.Poll, DefaultPoll)
	for {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		start := time.Now()
		rec, ok, err := e.claim(ctx)
		if err != nil || !ok {
			<-sem
			if err != nil && ctx.Err() == nil {
				e.observe(Event{Kind: EventError, Err: err})
			}
			t := time.NewTimer(poll)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			}
			continue
		}
		wg.Go(func() {
			defer func() { <-sem }()
			e.execute(ctx, rec, start)
		})
	}
}

// RunOne takes one run that needs a worker, if any, and drives it until it gives it back (done, failed,
// held, or waiting to retry). ran is false when no run needed a worker.
func (e *Engine) RunOne(ctx context.Context) (ran bool, err error) {
	if e.Store == nil || e.Agent == nil {
		return false, errors.New("durable: Engine.Store and Engine.Agent are required")
	}
	e.init()
	start := time.Now()
	rec, ok, err := e.claim(ctx)
	if err != nil || !ok {
		return false, err
	}
	e.execute(ctx, rec, start)
	return true, nil
}

// claim takes a run, waiting at most a lease for the store.
func (e *Engine) claim(ctx context.Context) (Record, bool, error) {
	lease := orDefault(e.Lease, DefaultLease)
	cctx, cancel := context.WithTimeout(ctx, lease)
	defer cancel()
	return e.Store.Claim(cctx, e.worker, lease)
}

// bounded returns ctx bounded by the lease: no store operation of a run waits longer (a pool with no
// connection to give, a database that does not answer), and the run is given back instead.
func (e *Engine) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, orDefault(e.Lease, DefaultLease))
}

// execution is one claim of a run on this worker.
type execution struct {
	e     *Engine
	rec   Record
	cfg   loop.Config
	tools []*wink.Tool
	lease time.Duration
	run   Run // Principal: the principal the run acts for now (renewed by Reauthorize)

	mu    sync.Mutex
	until time.Time // the claim is known valid until then, on the monotonic clock
	// locked is set while a call's transaction holds the run's row (its fence renewed the claim in
	// that transaction): the background renewal would only wait for it, holding a connection.
	locked atomic.Bool
}

// outcome of driving a run: give it back as rel, or abandon it (the lease is lost, or the worker stops).
type driven struct {
	rel     Release
	abandon bool
	lost    error // abandoned because the claim is lost (why): nothing to give back
}

// execute drives the claim rec, taken by a Claim that started at claimed (on the monotonic clock).
func (e *Engine) execute(ctx context.Context, rec Record, claimed time.Time) {
	e.observe(Event{Kind: EventClaimed, Run: rec.ID})
	lease := orDefault(e.Lease, DefaultLease)
	x := &execution{e: e, rec: rec, lease: lease, until: claimed.Add(lease)}
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := make(chan struct{})
	var renewals sync.WaitGroup
	renewals.Go(func() {
		t := time.NewTicker(lease / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if x.locked.Load() {
					continue // the call in flight renewed the claim in its transaction, and renews it at its commit
				}
				if err := x.renew(runCtx); errors.Is(err, ErrLeaseLost) || errors.Is(err, ErrNotFound) {
					cancel(err)
					return
				}
			}
		}
	})
	d := e.drive(runCtx, x)
	close(stop)
	renewals.Wait()
	if d.abandon {
		if cause := context.Cause(runCtx); d.lost == nil && (errors.Is(cause, ErrLeaseLost) || errors.Is(cause, ErrNotFound)) {
			d.lost = cause
		}
		if d.lost != nil {
			// Another worker holds the run now (or it is gone): nothing of ours to give back. Say so,
			// and give it back anyway in case the claim is still ours after all: the release is
			// refused when it is not, and otherwise the run is due again at once with the reason.
			e.observe(Event{Kind: EventError, Run: rec.ID, Err: d.lost})
			d.rel = Release{State: Running, Err: "worker " + e.worker + " gave the run up: " + d.lost.Error()}
		} else {
			// The worker stops: give the run back at once.
			d.rel = Release{State: Running, Err: "worker " + e.worker + " stopped"}
		}
	}
	rctx, rcancel := e.bounded(context.WithoutCancel(ctx))
	defer rcancel()
	if err := e.Store.Release(rctx, rec.ID, rec.Token, d.rel); err != nil {
		if d.lost == nil || !(errors.Is(err, ErrLeaseLost) || errors.Is(err, ErrNotFound)) {
			e.observe(Event{Kind: EventError, Run: rec.ID, Err: err})
		}
		return
	}
	e.observe(Event{Kind: EventReleased, Run: rec.ID, State: d.rel.State})
}

func (e *Engine) retry(err error) driven {
	return driven{rel: Release{State: Running, Delay: orDefault(e.RetryDelay, DefaultRetryDelay), Err: err.Error()}}
}

func finished(stop loop.StopReason, err error) driven {
	r := result{stop: stop}
	state := Done
	if err != nil {
		r.err = err.Error()
		if stop == loop.StopError {
			state = Failed
		}
	}
	return driven{rel: Release{State: state, Result: encodeResult(r)}}
}

// drive replays the run's checkpoints and goes on from the first step without one.
func (e *Engine) drive(ctx context.Context, x *execution) driven {
	rec := x.rec
	input, err := DecodeMessages(rec.Input)
	if err != nil {
		return finished(loop.StopError, err)
	}
	lctx, lcancel := e.bounded(ctx)
	_, steps, err := e.Store.Load(lctx, rec.ID)
	lcancel()
	if err != nil {
		if ctx.Err() != nil {
			return driven{abandon: true}
		}
		return e.retry(err)
	}
	principal, err := DecodePrincipal(rec.Principal)
	if err != nil {
		return finished(loop.StopError, err)
	}
	x.run = Run{ID: rec.ID, Session: rec.Session, Attempt: rec.Attempts, Principal: principal}
	actx, d, ok := x.authorize(ctx)
	if !ok {
		return d
	}
	cfg, err := e.Agent(actx, x.run)
	if err != nil {
		if ctx.Err() != nil {
			return driven{abandon: true}
		}
		e.observe(Event{Kind: EventError, Run: rec.ID, Err: err})
		return e.retry(errors.New("durable: wiring the agent: " + err.Error()))
	}
	if cfg.Provider == nil || cfg.Dispatcher == nil {
		return finished(loop.StopError, errors.New("durable: the Agent's Config needs a Provider and a Dispatcher"))
	}
	if s := cfg.Dispatcher.Session; s != nil {
		// Load what other workers committed (decisions on held calls, the policies' state) before the
		// policies read the session: they run before the call's own transaction loads it.
		bctx, bcancel := e.bounded(ctx)
		tx, err := s.Begin(bctx, session.ReadOnly)
		if err == nil {
			err = tx.End(bctx)
		}
		bcancel()
		if err != nil {
			if ctx.Err() != nil {
				return driven{abandon: true}
			}
			e.observe(Event{Kind: EventError, Run: rec.ID, Err: err})
			return e.retry(errors.New("durable: loading the session: " + err.Error()))
		}
	}
	x.cfg, x.tools = cfg, cfg.Tools
	if x.tools == nil && cfg.Dispatcher.Registry != nil {
		x.tools = cfg.Dispatcher.Registry.Tools()
	}
	var p progress
	return x.settle(ctx, replay(ctx, x, &p, input, steps, rec.MaxTurns))
}

// settle forgets the run's commits in its session (Forget) when d ends the run, before the end is
// recorded: no attempt of an ended run may run, and a session must not keep a commit per run it has
// served. When that write fails, the run is given back to be driven to its end again (which forgets
// again) rather than recorded as ended with its commits left behind.
func (x *execution) settle(ctx context.Context, d driven) driven {
	s := x.cfg.Dispatcher.Session
	if d.abandon || !d.rel.State.Terminal() || s == nil {
		return d
	}
	fctx, cancel := x.e.bounded(ctx) // a session store that cannot give a connection gives the run back
	err := Forget(fctx, s, x.rec.ID)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return driven{abandon: true}
		}
		x.e.observe(Event{Kind: EventError, Run: x.rec.ID, Err: err})
		return x.e.retry(errors.New("durable: forgetting the ended run's commits: " + err.Error()))
	}
	return d
}

// progress is what replaying a run's checkpoints produced.
type progress struct {
	msgs  []loop.Message
	turns int
	text  string
	usage wink.TokenUsage
}

// replay rebuilds the run from its checkpoints and, when x is not nil, executes the steps that have
// none. With x nil it only rebuilds the transcript and returns at the first step without a checkpoint.
func replay(ctx context.Context, x *execution, p *progress, input []loop.Message, steps []Step, maxTurns int) driven {
	models := map[int][]byte{}
	tools := map[[2]int][]byte{}
	for _, s := range steps {
		switch s.Kind {
		case StepModel:
			models[s.Turn] = s.Data
		case StepTool:
			tools[[2]int{s.Turn, s.Index}] = s.Data
		}
	}
	if maxTurns <= 0 {
		maxTurns = loop.DefaultMaxTurns
	}
	p.msgs = append(p.msgs[:0], input...)
	var budget *wink.Budget
	if x != nil {
		budget = x.cfg.Dispatcher.Budget
		if err := budget.Err(); err != nil {
			return finished(loop.StopBudget, err)
		}
	}
	for turn := 1; ; turn++ {
		var resp loop.Response
		if data, ok := models[turn]; ok {
			r, err := DecodeResponse(data)
			if err != nil {
				return finished(loop.StopError, err)
			}
			resp = r
		} else if x == nil {
			return driven{}
		} else {
			if ctx.Err() != nil {
				return driven{abandon: true}
			}
			x.e.observe(Event{Kind: EventModelStart, Run: x.rec.ID, Turn: turn})
			// Nothing fences a model call at the provider: the claim is made sure of right before it
			// is sent, so that a worker paused past its lease does not send a call another worker may
			// have completed and checkpointed meanwhile.
			if d, ok := x.ensure(ctx); !ok {
				return d
			}
			sctx, d, ok := x.authorize(ctx)
			if !ok {
				return d
			}
			offer, err := loop.NewOffer(wink.Permitted(sctx, x.tools), x.cfg.Search, p.msgs)
			if err != nil {
				return finished(loop.StopError, err)
			}
			r, err := x.cfg.Provider.Complete(ctx, offer.Request(x.cfg.System, p.msgs))
			if err != nil {
				if ctx.Err() != nil {
					return driven{abandon: true}
				}
				return finished(loop.StopError, &loop.TurnError{Turn: turn, Op: "provider", Err: err})
			}
			resp = r
			if d, ok := x.checkpoint(ctx, Step{Kind: StepModel, Turn: turn, Data: EncodeResponse(resp)}); !ok {
				return d
			}
			x.e.observe(Event{Kind: EventModelDone, Run: x.rec.ID, Turn: turn})
		}
		p.turns, p.text = turn, resp.Text
		in, out := int64(max(resp.Usage.Input, 0)), int64(max(resp.Usage.Output, 0))
		p.usage.Input += in
		p.usage.Output += out
		p.usage.Total += in + out
		p.msgs = append(p.msgs, loop.Message{Role: loop.RoleAssistant, Text: resp.Text, ToolCalls: resp.ToolCalls,
			Container: resp.Container, Native: resp.Native})
		if err := budget.Consume(in, out); err != nil {
			return finished(loop.StopBudget, err)
		}
		if len(resp.ToolCalls) == 0 {
			return finished(loop.StopDone, nil)
		}
		outs := make([]wink.Outcome, len(resp.ToolCalls))
		found := make([][]string, len(resp.ToolCalls))
		have := make([]bool, len(resp.ToolCalls))
		var held []*wink.HeldError
		var offer *loop.Offer // the turn's, for the client search's calls (made on the first)
		for i, c := range resp.ToolCalls {
			if data, ok := tools[[2]int{turn, i}]; ok {
				o, f, err := DecodeToolStep(data)
				if err != nil {
					return finished(loop.StopError, err)
				}
				outs[i], found[i], have[i] = o, f, true
				continue
			}
			if x == nil {
				continue
			}
			if ctx.Err() != nil {
				return driven{abandon: true}
			}
			sctx, d, ok := x.authorize(ctx)
			if !ok {
				return d
			}
			if x.cfg.Search != nil && c.Name == toolsearch.Name {
				// The client search: answered here, as loop.Run answers it, and checkpointed with what
				// it found, so that every later request (on any worker) loads the same tools.
				if offer == nil {
					var err error
					if offer, err = loop.NewOffer(wink.Permitted(sctx, x.tools), x.cfg.Search, p.msgs); err != nil {
						return finished(loop.StopError, err)
					}
				}
				x.e.observe(Event{Kind: EventToolStart, Run: x.rec.ID, Turn: turn, Index: i})
				o, f := offer.Search(c)
				if d, ok := x.checkpoint(ctx, Step{Kind: StepTool, Turn: turn, Index: i, Data: EncodeToolStep(o, f)}); !ok {
					return d
				}
				x.e.observe(Event{Kind: EventToolDone, Run: x.rec.ID, Turn: turn, Index: i})
				outs[i], found[i], have[i] = o, f, true
				continue
			}
			x.e.observe(Event{Kind: EventToolStart, Run: x.rec.ID, Turn: turn, Index: i})
			o, err := DispatchStep(sctx, x.cfg.Dispatcher, ToolStep{Run: x.rec.ID, Turn: turn, Index: i, Attempt: x.rec.Attempts, Fence: x.fence}, c)
			x.locked.Store(false)
			if he, ok := errors.AsType[*wink.HeldError](err); ok {
				held = append(held, he)
				continue
			}
			if errors.Is(err, ErrLeaseLost) || errors.Is(err, ErrNotFound) {
				return driven{abandon: true, lost: err}
			}
			if errors.Is(err, ErrStaleStep) {
				return x.stale(ctx, turn, err)
			}
			if err != nil {
				if ctx.Err() != nil {
					return driven{abandon: true}
				}
				x.e.observe(Event{Kind: EventError, Run: x.rec.ID, Turn: turn, Index: i, Err: err})
				return x.e.retry(&loop.TurnError{Turn: turn, Op: "dispatch", Err: err})
			}
			x.e.observe(Event{Kind: EventToolDispatched, Run: x.rec.ID, Turn: turn, Index: i})
			if d, ok := x.checkpoint(ctx, Step{Kind: StepTool, Turn: turn, Index: i, Data: EncodeOutcome(o)}); !ok {
				return d
			}
			x.e.observe(Event{Kind: EventToolDone, Run: x.rec.ID, Turn: turn, Index: i})
			outs[i], have[i] = o, true
		}
		complete := true
		for i := range outs {
			if have[i] {
				p.msgs = append(p.msgs, loop.Message{Role: loop.RoleTool, Result: outs[i], Found: found[i]})
			} else {
				complete = false
			}
		}
		if len(held) > 0 {
			wait := orDefault(x.e.HeldPoll, DefaultHeldPoll)
			return driven{rel: Release{State: Held, Held: EncodeHeld(held), Delay: wait}}
		}
		if !complete { // replaying only: the turn's calls are still running or held
			return driven{}
		}
		if turn >= maxTurns {
			return finished(loop.StopMaxTurns, loop.ErrMaxTurns)
		}
	}
}

// authorize returns ctx carrying the principal the run acts for, for a step taken now (Authorize,
// with the Engine's Reauthorize; a renewed principal is kept for the claim's later steps). ok is false
// when the run must stop (d says how).
func (x *execution) authorize(ctx context.Context) (sctx context.Context, d driven, ok bool) {
	sctx, p, err := Authorize(ctx, x.run, time.Now(), x.e.Reauthorize)
	switch {
	case err == nil:
		x.run.Principal = p
		return sctx, driven{}, true
	case errors.Is(err, ErrPrincipalExpired):
		return ctx, finished(loop.StopError, err), false
	case ctx.Err() != nil:
		return ctx, driven{abandon: true}, false
	default:
		x.e.observe(Event{Kind: EventError, Run: x.rec.ID, Err: err})
		return ctx, x.e.retry(err), false
	}
}

// valid notes that the claim was renewed by a renewal sent at start: it holds until start + lease.
func (x *execution) valid(start time.Time) {
	x.mu.Lock()
	if u := start.Add(x.lease); u.After(x.until) {
		x.until = u
	}
	x.mu.Unlock()
}

// remaining is how long the claim is known to hold, on the monotonic clock (a worker stopped by a
// signal or a frozen VM sees it run out: the monotonic clock goes on while the process does not).
func (x *execution) remaining() time.Duration {
	x.mu.Lock()
	defer x.mu.Unlock()
	return time.Until(x.until)
}

// renew renews the claim on a connection of its own, waiting at most a third of the lease.
func (x *execution) renew(ctx context.Context) error {
	start := time.Now()
	rctx, cancel := context.WithTimeout(ctx, x.lease/3)
	defer cancel()
	err := x.e.Store.Renew(rctx, x.rec.ID, x.rec.Token, x.lease)
	if err == nil {
		x.valid(start)
	}
	return err
}

// ensure makes sure of the claim before a step nothing fences (a model call): when its last renewal
// is more than a third of the lease old on the monotonic clock, it is renewed now. ok is false when the
// run must stop (d says how).
func (x *execution) ensure(ctx context.Context) (d driven, ok bool) {
	if x.remaining() > x.lease-x.lease/3 {
		return driven{}, true
	}
	err := x.renew(ctx)
	switch {
	case err == nil:
		return driven{}, true
	case errors.Is(err, ErrLeaseLost), errors.Is(err, ErrNotFound):
		return driven{abandon: true, lost: err}, false
	case ctx.Err() != nil:
		return driven{abandon: true}, false
	default:
		x.e.observe(Event{Kind: EventError, Run: x.rec.ID, Err: err})
		return x.e.retry(errors.New("durable: renewing the claim: " + err.Error())), false
	}
}

// fence renews the claim inside a call's transaction, before its handler runs and before it commits:
// a worker whose claim was taken over (paused past its lease) runs no call and commits nothing. On a
// TxRenewer store sharing the session store's database the renewal is made in the call's own
// transaction (no second connection is taken while the call holds one); otherwise on the store.
func (x *execution) fence(ctx context.Context, storeTx any) error {
	if r, ok := x.e.Store.(TxRenewer); ok && storeTx != nil {
		start := time.Now()
		handled, err := r.RenewTx(ctx, storeTx, x.rec.ID, x.rec.Token, x.lease)
		if handled {
			if err == nil {
				x.valid(start)
				x.locked.Store(true)
			}
			return err
		}
	}
	return x.renew(ctx)
}

// stale handles a call refused as stale (ErrStaleStep: the session holds a commit of a later turn of
// the run). A worker whose claim is lost gives the run up (its new worker goes on); one that holds it
// cannot advance the run (its checkpoints are behind its session's commits: the session was restored
// from a backup, or shared with another run of the same id), and ends it Failed with the reason rather
// than let every worker after it meet the same refusal.
func (x *execution) stale(ctx context.Context, turn int, err error) driven {
	rerr := x.renew(ctx)
	switch {
	case errors.Is(rerr, ErrLeaseLost), errors.Is(rerr, ErrNotFound):
		return driven{abandon: true, lost: rerr}
	case rerr != nil:
		if ctx.Err() != nil {
			return driven{abandon: true}
		}
		return x.e.retry(errors.New("durable: renewing the claim: " + rerr.Error()))
	}
	return finished(loop.StopError, &loop.TurnError{Turn: turn, Op: "dispatch", Err: err})
}

// checkpoint writes s; ok is false when the run must stop (d says how).
func (x *execution) checkpoint(ctx context.Context, s Step) (d driven, ok bool) {
	s.Worker = x.e.worker
	actx, cancel := x.e.bounded(ctx)
	err := x.e.Store.Append(actx, x.rec.ID, x.rec.Token, s)
	cancel()
	switch {
	case err == nil:
		return driven{}, true
	case errors.Is(err, ErrLeaseLost), errors.Is(err, ErrNotFound):
		return driven{abandon: true, lost: err}, false
	case ctx.Err() != nil:
		return driven{abandon: true}, false
	default:
		x.e.observe(Event{Kind: EventError, Run: x.rec.ID, Turn: s.Turn, Index: s.Index, Err: err})
		return x.e.retry(errors.New("durable: writing a checkpoint: " + err.Error())), false
	}
}

// Status is a run as it stands: its state and the transcript rebuilt from its checkpoints.
type Status struct {
	ID      string
	Session string
	State   State
	// Worker is the worker holding the run (or that held it last); Attempts counts the claims.
	Worker   string
	Attempts int
	// Messages is the conversation so far (the input, then every checkpointed response and outcome).
	Messages []loop.Message
	// Text is the last response's text (the final answer once Done with StopDone).
	Text  string
	Turns int
	Usage wink.TokenUsage
	// Steps counts the checkpoints.
	Steps int
	// Held lists the calls waiting for a decision (State Held): show each one's Question and record the
	// decision with policy.Approve or policy.Deny (wink.AnswerElicitation) given the *wink.HeldError.
	Held []*wink.HeldError
	// Stop says how a terminal run ended; Err is its error, or the last error a worker retried after.
	Stop    loop.StopReason
	Err     string
	Updated time.Time
	// Principal is who the run acts for (as stored: no claims), nil for none.
	Principal *wink.Principal
}

// Status returns the run's state and transcript; it may be read at any time, from any process sharing
// the store, while the run works.
func (e *Engine) Status(ctx context.Context, id string) (Status, error) {
	rec, steps, err := e.Store.Load(ctx, id)
	if err != nil {
		return Status{}, err
	}
	return Rebuild(rec, steps)
}

// Rebuild returns the status of the run rec with its checkpoints steps (as Store.Load returns them):
// the transcript replayed from the checkpoints, up to the first step without one.
func Rebuild(rec Record, steps []Step) (Status, error) {
	st := Status{ID: rec.ID, Session: rec.Session, State: rec.State, Worker: rec.Owner, Attempts: rec.Attempts,
		Steps: len(steps), Err: rec.LastErr, Updated: rec.Updated}
	input, err := DecodeMessages(rec.Input)
	if err != nil {
		return st, err
	}
	if st.Principal, err = DecodePrincipal(rec.Principal); err != nil {
		return st, err
	}
	var p progress
	replay(context.Background(), nil, &p, input, steps, rec.MaxTurns)
	st.Messages, st.Text, st.Turns, st.Usage = p.msgs, p.text, p.turns, p.usage
	if st.Held, err = DecodeHeld(rec.Held); err != nil {
		return st, err
	}
	if rec.State != Held {
		st.Held = nil
	}
	if rec.State.Terminal() {
		r, err := decodeResult(rec.Result)
		if err != nil {
			return st, err
		}
		st.Stop, st.Err = r.stop, r.err
	}
	return st, nil
}

// Wait polls the run's status until it is Done or Failed, or ctx is done.
func (e *Engine) Wait(ctx context.Context, id string) (Status, error) {
	return e.WaitFor(ctx, id, func(s Status) bool { return s.State.Terminal() })
}

// WaitFor polls the run's status every 20ms until until reports true, or ctx is done. A status that
// cannot be read is read again (the run may not be recorded yet, the store may be restarting: a wait of
// days outlives a database restart); a corrupt checkpoint (ErrCorrupt) ends the wait at once. When ctx
// ends, the error is ctx's, joined with the last read's when that failed.
func (e *Engine) WaitFor(ctx context.Context, id string, until func(Status) bool) (Status, error) {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		st, err := e.Status(ctx, id)
		if err == nil && until(st) {
			return st, nil
		}
		if errors.Is(err, ErrCorrupt) {
			return st, err
		}
		select {
		case <-ctx.Done():
			if err != nil && ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
				return st, errors.Join(ctx.Err(), err)
			}
			return st, ctx.Err()
		case <-t.C:
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
