package wink

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
)

// FilesystemKey is the well-known resource key of the filesystem that
// ToolContext.Filesystem returns when Dispatcher.Filesystem is nil.
var FilesystemKey = resources.NewKey[vfs.Filesystem]("Filesystem")

// RunContext carries the correlation ids of the run a call belongs to; the
// dispatcher copies it into every ToolContext.
type RunContext struct {
	// RunID identifies the agent run.
	RunID string
	// RequestID identifies the provider request that produced the call.
	RequestID string
	// TraceID links the call to a distributed trace.
	TraceID string
	// Attempt counts retries of the run, from 1.
	Attempt int
}

// ToolContext is what a handler receives besides its params. It implements
// context.Context by delegating to the context of the call, so the handler
// passes it straight to any context-taking API and sees the call's deadline
// and cancellation.
//
// A ToolContext belongs to one call; the dispatcher never reuses it. A handler
// may keep it and use it from goroutines it starts, during the call and after
// it: its methods are safe for concurrent use, and what each returns once the
// call has ended is in its documentation and in the package documentation
// ("Keeping a ToolContext").
type ToolContext struct {
	// CallID is the provider's id of the tool call.
	CallID string
	// ToolName is the name of the tool being called.
	ToolName string
	// Run holds the correlation ids of the run.
	Run RunContext

	ctx    context.Context
	beat   func(*ToolContext)
	sess   atomic.Pointer[session.Session] // changed after the handler too (afterSuccess): see tcstate.go
	tx     *session.Tx                     // the call's session transaction (isolate)
	res    *resources.Context
	fs     vfs.Filesystem
	budget *Budget

	// The call's frame, for CanonicalArguments and AppendResultJSON, read only while the call has not
	// ended (tcstate.go), and for Tool (the frame's tool, which never changes: frames are per tool); what
	// few calls need is in rare (nil until then, endedRare once the call ended without one). Every call
	// allocates a ToolContext: it stays within 176 bytes, an allocation size class (208 with a session's
	// Tx, txToolContext).
	fr   *frame
	rare atomic.Pointer[tcRare]
}

// hold returns the call's hold id; "" for a call never held.
func (tc *ToolContext) hold() string {
	r := tc.peekRare()
	if r == nil {
		return ""
	}
	h := r.hold
	r.unlock()
	return h
}

// NewToolContext returns a ToolContext for calling a handler directly, as
// tests of handlers do. A nil ctx means context.Background().
func NewToolContext(ctx context.Context, name, callID string) *ToolContext {
	if ctx == nil {
		ctx = context.Background()
	}
	return &ToolContext{CallID: callID, ToolName: name, ctx: ctx}
}

// ToolContext returns a ToolContext wired like the ones d gives handlers
// (session, resources, filesystem, budget, heartbeat, run context), for
// calling a handler directly in tests. A nil ctx means context.Background().
func (d *Dispatcher) ToolContext(ctx context.Context, name, callID string) *ToolContext {
	if ctx == nil {
		ctx = context.Background()
	}
	return d.newToolContext(ctx, nil, name, callID)
}

// newToolContext builds the ToolContext of one call (step 3).
// Every call allocates one: the fields are stored one by one and only when set, since copying a whole
// ToolContext into the heap passes each of its pointer slots through the write barrier while the
// collector marks.
func (d *Dispatcher) newToolContext(ctx context.Context, fr *frame, name, callID string) *ToolContext {
	var tc *ToolContext
	if d.Session != nil {
		tc = newSessionToolContext() // with room for the call's transaction (txcontext.go)
	} else {
		tc = new(ToolContext)
	}
	tc.CallID, tc.ToolName, tc.ctx = callID, name, ctx
	if fr != nil {
		tc.fr = fr
	}
	if r := &d.RunContext; r.RunID != "" || r.RequestID != "" || r.TraceID != "" || r.Attempt != 0 { // not != RunContext{}: that calls its generated eq
		tc.Run = d.RunContext
	}
	if d.Heartbeat != nil {
		tc.beat = d.Heartbeat
	}
	if d.Session != nil {
		// A plain store (with its write barrier) into the atomic pointer: tc is not published yet.
		*(*unsafe.Pointer)(unsafe.Pointer(&tc.sess)) = unsafe.Pointer(d.Session)
	}
	if d.Resources != nil {
		tc.res = d.Resources
	}
	if d.Filesystem != nil {
		tc.fs = d.Filesystem
	}
	if d.Budget != nil {
		tc.budget = d.Budget
	}
	return tc
}

// Tx returns the call's session transaction, from the moment the dispatcher has taken it (step 6:
// Hooks.Begin, the handler, OnResult) until the call ends; nil without a Dispatcher.Session, before,
// and once the call has ended (the transaction is then committed or rolled back). Hooks use it to join
// work to the call's commit (session.Tx.Join) or to write in the store's own transaction
// (session.Tx.StoreTx) instead of taking a second connection while this one is held.
func (tc *ToolContext) Tx() *session.Tx {
	if tc.tx == nil || tc.tx.Session() == nil || tc.ended() { // not begun yet, or over
		return nil
	}
	return tc.tx
}

// Session returns the session of the call (Dispatcher.Session); nil when the
// dispatcher has none.
func (tc *ToolContext) Session() *session.Session { return tc.sess.Load() }

// Resources returns the resource context of the call: the call's own handle
// on Dispatcher.Resources (resources.Context.ForCall), through which a
// ToolCall resource resolves in the call's tool-call scope only (it opens just
// before the handler and closes when the handler returns); nil when the
// dispatcher has none, and once the call has ended. Get typed resources with
// resources.Get(tc.Resources(), key). A handle kept past the call resolves
// singletons as before and fails for ToolCall resources (resources.ErrScope):
// a goroutine that needs one after the call resolves it during the call.
func (tc *ToolContext) Resources() *resources.Context {
	if tc.res == nil || tc.ended() {
		return nil
	}
	return tc.res
}

// Filesystem returns the call's filesystem: Dispatcher.Filesystem, else the
// resource bound to FilesystemKey (resolved before the handler runs, so that
// the transaction covers it); nil when there is neither. A read-only tool's
// handler gets a read-only view of it. Before the handler runs (a policy, the
// Check hook, goroutines they started) it is the filesystem as the call has it
// then: FilesystemKey is resolved in the call's tool-call scope, which opens
// just before the handler, so a tool-call filesystem is not available yet.
// After the call has ended it returns the filesystem the call had, and nil
// when none was resolved during it: resolving the key then could give another
// call's tool-call resource.
func (tc *ToolContext) Filesystem() vfs.Filesystem {
	if r := tc.rare.Load(); r == nil || r == &endedRare {
		if tc.fs != nil || tc.res == nil { // nothing set in rare: tc.fs is all there is
			return tc.fs
		}
	}
	r := tc.lockRare()
	if r == nil { // ended without resolving one
		return nil
	}
	if r.fsSet { // the dispatcher's step 6 (setCallFS)
		fs := r.fs
		r.unlock()
		return fs
	}
	if tc.fs != nil || tc.res == nil {
		r.unlock()
		return tc.fs
	}
	fs, done := r.fs, r.fs != nil || r.fsErr != nil || r.ended()
	r.unlock()
	if done {
		return fs
	}
	fs, err := tc.resolve()
	r.lock()
	if !r.fsSet && r.fs == nil && r.fsErr == nil && !r.ended() { // the first resolution stands; none after the end
		r.fs, r.fsErr = fs, err
	}
	fs = r.fs
	r.unlock()
	return fs
}

// callFS returns the call's filesystem as the dispatcher has set it (its goroutine only).
func (tc *ToolContext) callFS() vfs.Filesystem {
	if tc.rare.Load() == nil {
		return tc.fs
	}
	return tc.rareFS()
}

// rareFS is callFS when tc has a rare.
func (tc *ToolContext) rareFS() vfs.Filesystem {
	r := tc.rare.Load()
	if r == &endedRare {
		return tc.fs
	}
	r.lock()
	fs, set := r.fs, r.fsSet
	r.unlock()
	if set {
		return fs
	}
	return tc.fs
}

// setCallFS sets the call's filesystem (step 6, on the dispatcher's goroutine). Once tc has reached
// code that may have started goroutines (exposed: policies, the Check hook), tc.fs is no longer
// written: the filesystem goes into rare, under its lock, where Filesystem finds it.
func (tc *ToolContext) setCallFS(fs vfs.Filesystem, exposed bool) {
	if !exposed {
		tc.fs = fs
		return
	}
	r := tc.lockRare() // not ended: the call runs
	r.fs, r.fsSet = fs, true
	r.unlock()
}

// resolve resolves FilesystemKey from the resources; an unbound key is not an
// error (there is no filesystem).
func (tc *ToolContext) resolve() (vfs.Filesystem, error) {
	fs, err := resources.Get(tc.res, FilesystemKey)
	if err != nil {
		if errors.Is(err, resources.ErrUnbound) {
			return nil, nil
		}
		return nil, err
	}
	return fs, nil
}

// resolveFilesystem resolves the call's filesystem before the handler runs
// (the dispatcher's step 6, on its goroutine, once the call's tool-call scope
// is open).
func (tc *ToolContext) resolveFilesystem(exposed bool) error {
	if r := tc.peekRare(); r != nil {
		fs := r.fs
		r.unlock()
		if fs != nil { // Filesystem resolved it earlier in the call (a policy): one instance per call
			tc.setCallFS(fs, exposed)
			return nil
		}
	}
	fs, err := tc.resolve()
	if err != nil {
		if r := tc.lockRare(); r != nil {
			r.fsErr = err
			r.unlock()
		}
		return err
	}
	tc.setCallFS(fs, exposed)
	return nil
}

// Budget returns the token budget tracker of the run (Dispatcher.Budget);
// nil when there is none. A nil *Budget is usable: it has no limits.
func (tc *ToolContext) Budget() *Budget { return tc.budget }

// parent returns the delegate, context.Background() for a zero ToolContext.
func (tc *ToolContext) parent() context.Context {
	if tc.ctx == nil {
		return context.Background()
	}
	return tc.ctx
}

// Deadline returns the call's deadline, if any.
func (tc *ToolContext) Deadline() (time.Time, bool) { return tc.parent().Deadline() }

// Done returns a channel closed when the call is cancelled or its deadline
// passes.
func (tc *ToolContext) Done() <-chan struct{} { return tc.parent().Done() }

// Err reports why Done was closed, or nil.
func (tc *ToolContext) Err() error { return tc.parent().Err() }

// Value returns the value the call's context associates with key.
func (tc *ToolContext) Value(key any) any { return tc.parent().Value(key) }

// Context returns the call's underlying context.
func (tc *ToolContext) Context() context.Context { return tc.parent() }

// Tool returns the descriptor of the tool being called; nil for a
// ToolContext made by NewToolContext.
func (tc *ToolContext) Tool() *Tool {
	if tc.fr == nil {
		return nil
	}
	return tc.fr.ops.tool // set at step 3 and never changed, like the frame's ops: safe after the call too
}

// Beat records a heartbeat for a long-running handler (lease extension). It
// calls the dispatcher's Heartbeat function and is a cheap no-op when there is
// none.
func (tc *ToolContext) Beat() {
	if tc.beat != nil {
		tc.beat(tc)
	}
}
