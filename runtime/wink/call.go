package wink

// One call's run through the dispatcher (the steps of the package doc's Dispatch, for a tool that exists): the
// call's state, the tool's invoke, run and execute, the idempotent path, what follows success, and the
// outcome and event built at the end. dispatch.go holds the public types and the entry point; render.go
// the rendering of a result for the model.

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/txn"
	"github.com/winkgen/wink/runtime/vfs"
)

// callState is the non-generic state of one call, kept in the call's frame.
type callState struct {
	out      Outcome
	err      error // returned by Dispatch instead of out
	cause    error // ToolInvoked.Err
	rollback func() error
	snap     txn.Snap
	// The start of the call (Dispatcher.start): with the default clock, at is the time elapsed since
	// frame.clock, the last reading of the system clock; with Dispatcher.Now, start.
	start    time.Time
	at       time.Duration
	timed    bool         // the start was read
	ev       *ToolInvoked // the event in the call's record (frame.record), when the call records one and decoded its params
	params   any          // boxed P, set only when a policy, hook or the event needs it
	value    any          // boxed R for the event
	hasValue bool
	excluded bool
	replayed bool // a ledger's replay (runIdempotent): the value is in value, not in the frame
	named    bool // out's CallID and Name are set (for OnResult: afterSuccess)
	panicV   any
	stack    []byte
	idemKey  string
	program  string                    // the id of the program making the call (ToolInvoked.Program)
	extraErr error                     // scope close or ledger recording errors (telemetry only)
	tx       *session.Tx               // the session's transaction (isolate), ended by finish
	resLock  txn.Locks                 // the resource context's lock (isolate), released by finish
	fsLock   txn.Locks                 // the filesystem's lock (lockFilesystem), released by finish
	end      func(*ToolInvoked)        // Hooks.Start's end
	others   [1]resources.Snapshotable // the snapshot's other parts (the filesystem)
}

// reset makes cs zero again after finish (which leaves snap zero: released
// or never taken) and releases what finish did not. A plain call (no
// transaction, hook, failure or panic) set only the outcome and the event's
// fields: they alone are cleared, one store each. Zeroing the whole state, as
// the other calls do, passes every pointer slot of the snapshot and the locks
// through the write barrier while the collector marks.
func (cs *callState) reset() {
	if cs.snap.Taken() {
		cs.snap.Release()
	}
	if cs.fsLock.Held() { // Held is inlined; Unlock is a call, and a plain call holds no lock
		cs.fsLock.Unlock()
	}
	if cs.resLock.Held() {
		cs.resLock.Unlock()
	}
	if cs.err != nil || cs.cause != nil || cs.rollback != nil || cs.panicV != nil || cs.stack != nil ||
		cs.idemKey != "" || cs.extraErr != nil || cs.tx != nil || cs.end != nil {
		*cs = callState{}
		return
	}
	if cs.others[0] != nil { // a transaction's filesystem; its snapshot and locks are zero again
		cs.others[0] = nil
	}
	cs.out = Outcome{}
	if cs.ev != nil {
		cs.ev = nil
	}
	if cs.params != nil {
		cs.params = nil
	}
	if cs.value != nil {
		cs.value = nil
	}
	cs.hasValue, cs.excluded, cs.replayed, cs.named = false, false, false, false
	if cs.program != "" {
		cs.program = ""
	}
	cs.timed, cs.at = false, 0
	if !cs.start.IsZero() { // Dispatcher.Now's reading; the default clock's is at, without a pointer
		cs.start = time.Time{}
	}
}

// fail makes the outcome a failure with text msg.
// interrupted records herr as the call's error when the call's context ended and the handler returned
// because of it (the call was interrupted, not failed: no result for the model), and reports whether it did.
func (cs *callState) interrupted(ctx context.Context, name string, herr error) bool {
	if ctx.Err() == nil || !(errors.Is(herr, context.Canceled) || errors.Is(herr, context.DeadlineExceeded)) {
		return false
	}
	cs.err = fmt.Errorf("tool %q interrupted: %w", name, herr)
	cs.cause = cs.err
	return true
}

// handlerFailed records the error a handler returned: the call was interrupted when its context ended and
// the error says so (interrupted), else it is a failure result with the handler's text for the model.
func (cs *callState) handlerFailed(ctx context.Context, name string, herr error) {
	if cs.interrupted(ctx, name, herr) {
		return
	}
	cs.fail(handlerErrorText(name, herr))
	cs.cause = herr
}

func (cs *callState) fail(msg string) {
	cs.out.Success = false
	cs.out.Message = msg
	cs.out.Output = msg
	cs.out.Replayed = false
	cs.out.Content = Blocks{}
	cs.value, cs.hasValue, cs.excluded = nil, false, false
}

// invoke runs steps 2-11 for a call to t, the canonical descriptor.
func (t *Tool) invoke(ctx context.Context, disp *Dispatcher, call Call) (Outcome, error) {
	var end func(*ToolInvoked)
	if start := disp.Hooks.Start; start != nil {
		ctx, end = startHook(ctx, start, t, call)
	}
	fr := t.impl.getFrame()
	cs := &fr.cs
	if end != nil {
		cs.end = end
	}
	// The outcome's CallID and Name are set at the end (finish), or before OnResult sees it (named):
	// a frame's pointer slots written and cleared again on every call cost a write barrier each while the
	// collector marks.
	if disp.records() || end != nil {
		disp.start(fr)
	}
	t.run(ctx, disp, call, fr)
	if he, ok := cs.err.(*HeldError); ok && he.Elicitation != nil {
		hold := he.Call.Hold
		he.Call = call // Elicit knew only the id, the name and the hold
		he.Call.Hold = hold
	}
	out, err := cs.finish(ctx, disp, t, call, fr)
	cs.reset()
	fr.release()
	return out, err
}

// startHook calls Hooks.Start, keeping ctx when it panics or returns nil.
func startHook(ctx context.Context, start func(context.Context, *Tool, Call) (context.Context, func(*ToolInvoked)), t *Tool, call Call) (c context.Context, end func(*ToolInvoked)) {
	defer func() {
		if recover() != nil {
			c, end = ctx, nil
		}
	}()
	c, end = start(ctx, t, call)
	if c == nil {
		c = ctx
	}
	return c, end
}

// run executes steps 2-9, recovering any panic into a failure.
func (t *Tool) run(ctx context.Context, disp *Dispatcher, call Call, fr *frame) {
	cs := &fr.cs
	name := t.spec.Name
	var tc *ToolContext
	defer func() {
		if pv := recover(); pv != nil {
			cs.fail(FailureText(name, PanicText(pv)))
			cs.err, cs.cause = nil, nil
			cs.panicV, cs.stack = pv, debug.Stack()
		}
		if tc != nil {
			tc.end(fr) // before the frame goes back to the pool (invoke)
		}
	}()

	// 1b: the caller's scopes (principal.go), before the arguments are even read.
	if serr := checkScopes(ctx, &t.spec); serr != nil {
		cs.fail(serr.Error())
		cs.cause = serr
		return
	}
	// 1c: rate limits (ratelimit.go), before the arguments are read.
	if disp.RateLimit != nil && !disp.admit(ctx, t, fr) {
		return
	}

	// 1d: who may call the tool: the model directly, a program, or both (program.go).
	msg, prog := t.checkCaller(ctx)
	if prog != "" {
		cs.program = prog
	}
	if msg != "" {
		cs.fail(msg)
		cs.cause = ErrCaller
		return
	}

	// 2: strict decoding, then the params' Validate.
	// The event, the params and the value the event carries share one allocation, made first so that
	// the params are decoded straight into it. A call whose arguments fail gets a plain event instead
	// (finish): its record, with whatever was decoded, is dropped.
	if disp.records() {
		cs.ev = fr.record()
	}
	lim := disp.Limits
	lim.PairMaps = call.PairMaps
	if aerr := t.decode(fr, call.Arguments, lim); aerr != nil {
		cs.ev = nil
		cs.fail(aerr.Error())
		cs.cause = aerr
		return
	}
	hooks := &disp.Hooks
	policies := disp.hasPolicies()
	if disp.records() || policies || hooks.Check != nil || hooks.OnResult != nil {
		fr.boxParams() // cs.params
	}

	// 3: the ToolContext (before the policies, which see it); its call ends when run returns (the
	// deferred end above: tcstate.go).
	tc = disp.newToolContext(ctx, fr, name, call.ID)
	if disp.Resources != nil {
		tc.res = disp.Resources.ForCall() // the call's own handle: its scope opens at step 6 (callscope.go in resources)
	}
	if t.program {
		tc.ctx = context.WithValue(tc.ctx, programDispatcherKey{}, disp) // ToolContext.Dispatcher
	}
	if args := fr.ops.has&hasEncodeParams == 0 && call.Arguments != nil; args || call.Hold != "" {
		r := new(tcRare)
		if args {
			r.args = call.Arguments // no params encoder: CanonicalArguments uses the arguments as sent
		}
		r.hold = call.Hold
		tc.setRare(r)
	}

	// 4: policies, section first, then prompt; then the Check hook.
	if policies {
		if den := disp.policies(tc, t, cs.params, disp.startTime(fr)); den != nil {
			if den.held {
				cs.err = tc.heldError(call, den.Policy, den.Reason)
				cs.cause = cs.err
				return
			}
			cs.fail(den.message(name))
			cs.cause = den
			return
		}
	}
	if hooks.Check != nil {
		if den := hooks.Check(tc, t, cs.params); den != nil {
			cs.fail(den.message(name))
			cs.cause = den
			return
		}
	}

	// 5: deadline and cancellation.
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			cs.err = &deadlineError{tool: name, cause: err}
		} else {
			cs.err = fmt.Errorf("tool %q not executed: %w", name, err)
		}
		cs.cause = cs.err
		return
	}
	if dl, ok := ctx.Deadline(); ok && !disp.now().Before(dl) {
		cs.err = &deadlineError{tool: name, cause: context.DeadlineExceeded}
		cs.cause = cs.err
		return
	}

	// A program tool has no transaction of its own: each inner call has its own (program.go).
	if t.program {
		t.executeProgram(ctx, disp, tc, fr, call)
		return
	}

	// Idempotency: look the key up, run steps 6-9 on a miss, record a
	// success; identical concurrent calls run the handler once.
	if disp.Ledger != nil && t.spec.Idempotency.Strategy != IdemNone {
		if key := t.idemKey(disp, fr); key != "" {
			cs.idemKey = key
			t.runIdempotent(ctx, disp, tc, fr, key)
			return
		}
	}
	t.execute(ctx, disp, tc, fr)
}

// runIdempotent runs the call through the ledger under key.
func (t *Tool) runIdempotent(ctx context.Context, disp *Dispatcher, tc *ToolContext, fr *frame, key string) {
	cs := &fr.cs
	name := t.spec.Name
	ran := false
	var clock func() time.Time
	if disp.Now != nil {
		clock = disp.userNow
	}
	e, replayed, err := disp.ledgerDo(ctx, cs, key, name, t.spec.Idempotency.TTL, clock,
		func() (ledger.Entry, bool) {
			ran = true
			t.execute(ctx, disp, tc, fr)
			if cs.err != nil || !cs.out.Success {
				return ledger.Entry{}, false
			}
			e := ledger.Entry{Message: cs.out.Message, Rendered: cs.out.Output}
			if cs.hasValue && !cs.excluded {
				e.Value = fr.value()
			}
			return e, true
		})
	if err != nil {
		if ran {
			// Recording failed: the result stands, its effects happened.
			cs.extraErr = joinErr(cs.extraErr, fmt.Errorf("wink: recording the result of tool %q: %w", name, err))
			return
		}
		cs.err = fmt.Errorf("tool %q not executed: %w", name, err)
		cs.cause = cs.err
		return
	}
	if !replayed {
		return
	}
	// A replay: the recorded outcome, then the policies' OnResult inside a
	// transaction over the session (policies keep their state there).
	cs.out.Success = true
	cs.out.Message = e.Message
	cs.out.Output = e.Rendered
	cs.out.Replayed, cs.replayed = true, true
	cs.value, cs.hasValue = e.Value, e.Value != nil
	if disp.hasPolicies() || disp.Hooks.OnResult != nil {
		if disp.Session != nil {
			if err := disp.isolate(ctx, tc, cs, false, false); err != nil {
				cs.err = fmt.Errorf("tool %q not executed: %w", name, err)
				cs.cause = cs.err
				return
			}
			if err := cs.snap.Capture(txn.Parts{Session: disp.Session}); err != nil {
				cs.err = &TransactionError{Tool: name, Op: "starting the transaction for", Err: err}
				cs.cause = cs.err
				return
			}
		}
		t.afterSuccess(disp, tc, cs)
	}
}

// execute runs steps 6-9: isolation, tool-call scope, snapshot, handler, result
// validation, rendering and OnResult.
func (t *Tool) execute(ctx context.Context, disp *Dispatcher, tc *ToolContext, fr *frame) {
	cs := &fr.cs
	name := t.spec.Name
	hooks := &disp.Hooks

	// 6: isolation. The session's lock and the resource
	// context's (whose tool-call scopes form one stack, so it is always held
	// exclusively) before the scope opens; the filesystem's after it is
	// resolved. Shared for a read-only tool, which also gets read-only views.
	ro := t.spec.ReadOnly
	if err := disp.isolate(ctx, tc, cs, ro, true); err != nil {
		cs.err = fmt.Errorf("tool %q not executed: %w", name, err)
		cs.cause = cs.err
		return
	}

	// 6, continued: the call's tool-call resource scope (on its own handle, which a kept
	// ToolContext.Resources resolves in), closed however the call ends.
	if res := tc.res; res != nil {
		res.BeginToolCall()
		defer func() {
			if err := res.EndToolCall(); err != nil {
				cs.extraErr = joinErr(cs.extraErr, err)
			}
		}()
		if tc.callFS() == nil {
			if err := tc.resolveFilesystem(disp.exposes()); err != nil {
				cs.err = fmt.Errorf("wink: resolving the filesystem for tool %q: %w", name, err)
				cs.cause = cs.err
				return
			}
		}
	}

	// 6, continued: the filesystem's lock, then the transaction.
	if err := disp.lockFilesystem(ctx, tc, cs, ro); err != nil {
		cs.err = fmt.Errorf("tool %q not executed: %w", name, err)
		cs.cause = cs.err
		return
	}
	if !ro && (disp.Session != nil || tc.res != nil || tc.callFS() != nil) {
		parts := txn.Parts{Session: disp.Session, Resources: tc.res}
		if sn, ok := tc.callFS().(resources.Snapshotable); ok {
			cs.others[0] = sn // in the frame: a local array would escape to the heap
			parts.Others = cs.others[:]
		}
		if err := cs.snap.Capture(parts); err != nil {
			cs.err = &TransactionError{Tool: name, Op: "starting the transaction for", Err: err}
			cs.cause = cs.err
			return
		}
	}
	if hooks.Begin != nil {
		rb, err := hooks.Begin(tc, t)
		cs.rollback = rb
		if err != nil {
			cs.err = &TransactionError{Tool: name, Op: "starting the transaction for", Err: err}
			cs.cause = cs.err
			return
		}
	}

	// 7: the handler.
	res, herr := fr.handle(tc)
	if herr != nil {
		if he, ok := errors.AsType[*HeldError](herr); ok && he.Elicitation != nil {
			// Elicit outside MCP: the call is held until the user answers (client.go).
			cs.err, cs.cause = he, he
			return
		}
		cs.handlerFailed(ctx, name, herr)
		return
	}
	// 8: rendering (before OnResult, which sees the output).
	if !t.takeResult(disp, fr, res) {
		return
	}

	// 9: policies' OnResult, then the hook.
	if res.success {
		t.afterSuccess(disp, tc, cs)
	}
}

// afterSuccess runs step 9 on a successful outcome.
func (t *Tool) afterSuccess(disp *Dispatcher, tc *ToolContext, cs *callState) {
	if t.spec.ReadOnly && disp.Session != nil {
		// Policies keep their own state in the session after a read-only
		// call too (ReadBeforeWrite records the read): that bookkeeping is
		// the runtime's, not a change the tool made. If the outcome turns
		// into a failure, finish restores this snapshot (which, under the
		// shared lock, may also drop another read-only call's bookkeeping:
		// the safe direction, a policy then asks again).
		if tc.sess.Load() != disp.Session {
			tc.sess.Store(disp.Session)
		}
		if !cs.snap.Taken() && (disp.hasPolicies() || disp.Hooks.OnResult != nil) {
			if err := cs.snap.Capture(txn.Parts{Session: disp.Session}); err != nil {
				cs.fail(FailureText(t.spec.Name, err.Error()))
				return
			}
		}
	}
	if disp.hasPolicies() || disp.Hooks.OnResult != nil {
		tc.fr.result.Store(true)                                            // AppendResultJSON: the result is written (tcstate.go)
		cs.out.CallID, cs.out.Name, cs.named = tc.CallID, t.spec.Name, true // OnResult sees them, and may edit them
	}
	if disp.hasPolicies() {
		disp.onResult(tc, t, cs.params, &cs.out)
	}
	if disp.Hooks.OnResult != nil && cs.out.Success {
		disp.Hooks.OnResult(tc, t, cs.params, &cs.out)
	}
	if !cs.out.Success {
		cs.out.Replayed = false
		cs.out.Content = Blocks{}
	}
}

// takeResult puts a handler's result into the call's state: a result whose value does not pass its
// checks is the call's failure (it reports false; the caller returns), else the outcome is filled and the
// value rendered for the model (step 8), and boxed for the event when the dispatcher records one.
func (t *Tool) takeResult(disp *Dispatcher, fr *frame, res resultHead) bool {
	cs := &fr.cs
	hasValue := res.hasValue && !t.noValue
	if res.success && hasValue {
		if verr := fr.validateResult(); verr != nil {
			name := t.spec.Name
			cs.fail("Tool " + strconv.Quote(name) + " returned an invalid result: " + verr.Error())
			cs.cause = &InvalidResultError{Tool: name, Err: verr}
			return false
		}
	}
	cs.out.Success = res.success
	cs.out.Message = res.message
	if res.success {
		cs.out.Content = res.content
	}
	cs.hasValue = hasValue
	cs.excluded = hasValue && res.excluded
	if hasValue && !res.excluded {
		cs.out.Output = t.render(res.message, fr)
		if disp.records() {
			fr.boxValue() // cs.value
		}
	} else {
		cs.out.Output = res.message
	}
	return true
}

// handlerErrorText is the failure text of an error returned by a handler: a
// *ToolError's message verbatim; a validation error raised inside the
// handler (an *ArgumentsError such as InvalidArguments returns, a
// FieldErrorer, a *strictjson.Errors) rendered like a decoding error; any other error
// `Tool "x" failed: <text>`.
func handlerErrorText(name string, err error) string {
	if te, ok := errors.AsType[*ToolError](err); ok {
		return te.Message
	}
	if ae, ok := errors.AsType[*ArgumentsError](err); ok {
		if ae.Tool == "" {
			c := *ae
			c.Tool = name
			return c.Error()
		}
		return ae.Error()
	}
	if _, ok := errors.AsType[fieldErrorsError](err); ok {
		return (&ArgumentsError{Tool: name, Errors: validationErrors(err)}).Error()
	}
	if _, ok := errors.AsType[*strictjson.Errors](err); ok {
		return (&ArgumentsError{Tool: name, Errors: validationErrors(err)}).Error()
	}
	return FailureText(name, err.Error())
}

// finish runs step 10 (rollback on failure), step 11 (the event) and the
// end of the call's isolation (the session's commit, then the locks), and
// returns Dispatch's results. Every callback it runs is contained: a panic in
// the Begin hook's rollback, a part's Restore, the event sink or the session's
// commit becomes an error (or, for the sink, is dropped), and the built-in
// restore always runs.
func (cs *callState) finish(ctx context.Context, disp *Dispatcher, t *Tool, call Call, fr *frame) (Outcome, error) {
	evErr := cs.cause
	if cs.err != nil || !cs.out.Success {
		if cs.rollback != nil {
			if rerr := contained("the Begin hook's rollback", cs.rollback); rerr != nil {
				rerr = &TransactionError{Tool: t.spec.Name, Op: "rolling back", Err: rerr}
				cs.err = joinErr(cs.err, rerr)
				evErr = joinErr(evErr, rerr)
			}
		}
		if rerr := contained("restoring the snapshot", cs.snap.Restore); rerr != nil {
			rerr = &TransactionError{Tool: t.spec.Name, Op: "rolling back", Err: rerr}
			cs.err = joinErr(cs.err, rerr)
			evErr = joinErr(evErr, rerr)
		}
	}
	if cs.snap.Taken() {
		releaseSnap(&cs.snap)
	}
	evErr = joinErr(evErr, cs.extraErr)
	out := cs.out
	if cs.err != nil {
		out = Outcome{}
	} else if !cs.named {
		out.CallID, out.Name = call.ID, t.spec.Name
	}
	if records := disp.records(); records || cs.end != nil {
		// Params and Value are boxed only when the event is recorded (records):
		// Hooks.Start's end alone gets them nil, and an event from a pool,
		// valid only during end (the Hooks.Start contract).
		var ev *ToolInvoked
		switch {
		case cs.ev != nil:
			ev = cs.ev
		case records:
			ev = new(ToolInvoked)
		default:
			ev = eventPool.Get().(*ToolInvoked)
		}
		cs.fill(ev, disp, t, call, &out, evErr, fr)
		if records {
			disp.record(ev)
		}
		if cs.end != nil {
			callEnd(cs.end, ev)
		}
		if !records {
			*ev = ToolInvoked{}
			eventPool.Put(ev)
		}
	}
	if cs.tx != nil {
		tx := cs.tx
		cs.tx = nil
		commitCtx := ctx
		if ctx.Done() != nil {
			commitCtx = context.WithoutCancel(ctx) // the commit completes even when the call was cancelled
		}
		if cerr := endTx(commitCtx, tx); cerr != nil {
			cs.err = joinErr(cs.err, fmt.Errorf("wink: committing the session of tool %q failed: %w", t.spec.Name, cerr))
		}
	}
	if cs.fsLock.Held() {
		cs.fsLock.Unlock()
	}
	if cs.resLock.Held() {
		cs.resLock.Unlock()
	}
	if cs.err != nil {
		return Outcome{}, cs.err
	}
	return out, nil
}

// fill sets the fields of ev, a zero event (fresh, or cleared before it went back to eventPool), for the
// call: one store per field that is set, so that a call writes no zero pointer into the heap (a copy of
// a whole ToolInvoked would pass each of its pointer slots through the write barrier while the
// collector marks).
func (cs *callState) fill(ev *ToolInvoked, disp *Dispatcher, t *Tool, call Call, out *Outcome, evErr error, fr *frame) {
	ev.Name, ev.CallID, ev.Tool = call.Name, call.ID, t
	if call.Arguments != nil {
		ev.Arguments = call.Arguments
	}
	if cs.params != nil {
		ev.Params = cs.params
	}
	ev.Message, ev.Output = out.Message, out.Output
	if cs.value != nil {
		ev.Value = cs.value
	}
	ev.Success, ev.HasValue, ev.Excluded, ev.Replayed = out.Success, cs.hasValue, cs.excluded, out.Replayed
	ev.Duration, ev.Time = disp.elapsed(fr), disp.startTime(fr)
	if evErr != nil {
		ev.Err = evErr
	}
	if cs.panicV != nil {
		ev.Panic, ev.Stack = cs.panicV, cs.stack
	}
	if cs.idemKey != "" {
		ev.IdempotencyKey = cs.idemKey
	}
	if cs.program != "" {
		ev.Program = cs.program
	}
}

// eventPool holds the events of calls that only Hooks.Start's end sees.
var eventPool = sync.Pool{New: func() any { return new(ToolInvoked) }}

// callEnd calls Hooks.Start's end, ignoring a panic (the Hooks.Start
// contract).
func callEnd(end func(*ToolInvoked), ev *ToolInvoked) {
	defer func() { _ = recover() }()
	end(ev)
}

// contained runs f, turning a panic into an error that names what was
// running.
func contained(what string, f func() error) (err error) {
	defer func() {
		if pv := recover(); pv != nil {
			err = errors.New(what + " panicked: " + PanicText(pv))
		}
	}()
	return f()
}

// releaseSnap releases sn, ignoring a panic of a part's Release (contained without the closure: it
// runs on every call with a transaction).
func releaseSnap(sn *txn.Snap) {
	defer func() { _ = recover() }()
	sn.Release()
}

// endTx ends the call's session transaction (its commit), turning a panic into an error as contained
// does, without contained's closure: it runs on every call with a session.
func endTx(ctx context.Context, tx *session.Tx) (err error) {
	defer func() {
		if pv := recover(); pv != nil {
			err = errors.New("committing the session panicked: " + PanicText(pv))
		}
	}()
	return tx.End(ctx)
}

// isolate starts the call's isolation: the session's transaction (its lock,
// and its store's lock and refresh when it is stored; shared for a read-only
// call, which then sees a read-only view), then, with resources set, the
// resource context's lock (always exclusive: its tool-call scopes form one
// stack). Locks are taken in that order, then the filesystem's
// (lockFilesystem), so two calls never wait for each other.
func (d *Dispatcher) isolate(ctx context.Context, tc *ToolContext, cs *callState, ro, resources bool) error {
	if d.Session != nil && cs.tx == nil {
		access := session.ReadWrite
		if ro {
			access = session.ReadOnly
		}
		if err := beginTx(ctx, tc, d.Session, cs, access); err != nil {
			return err
		}
	}
	if resources && d.Resources != nil {
		if err := cs.resLock.Lock(ctx, false, d.Resources); err != nil {
			return err
		}
	}
	return nil
}

// lockFilesystem takes the lock of the call's filesystem when it is
// snapshotable (shared for a read-only call, which also gets a read-only
// view of it).
func (d *Dispatcher) lockFilesystem(ctx context.Context, tc *ToolContext, cs *callState, ro bool) error {
	fs := tc.callFS()
	if _, ok := fs.(resources.Snapshotable); ok {
		if err := cs.fsLock.Lock(ctx, ro, fs); err != nil { // in place: a Locks copied into the frame passes the write barrier
			return err
		}
	}
	if ro && fs != nil {
		tc.setCallFS(vfs.ReadOnly(fs), d.exposes())
	}
	return nil
}

// exposes reports whether a call's ToolContext reaches code before the dispatcher sets the call up (step
// 6): policies and the Check hook, which may start goroutines that use it at once (tcstate.go).
func (d *Dispatcher) exposes() bool { return d.hasPolicies() || d.Hooks.Check != nil }

// joinErr joins two errors, either of which may be nil.
func joinErr(a, b error) error {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return errors.Join(a, b)
}
