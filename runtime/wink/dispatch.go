package wink

import (
	"context"
	"time"

	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/vfs"
)

// Call is one tool call requested by the model.
type Call struct {
	// ID is the provider's call id, echoed in the Outcome.
	ID string
	// Name is the requested tool name.
	Name string
	// Arguments is the raw JSON arguments text.
	Arguments []byte
	// Hold is the id the dispatcher gave the call when it held it
	// (HeldError.Binding.Hold): set it, and only it, to dispatch a held call
	// again (loop.Resume, the MCP server and the durable engines do). A
	// provider or a client never sets it: a call without it is a new call,
	// to which no recorded decision applies.
	Hold string
	// PairMaps says the call came from a provider that was sent the tool's
	// params in a dialect form stating maps as arrays of {"key","value"}
	// pairs and free-form JSON as a string of JSON text (OpenAI strict mode
	// and Gemini; their adapters and providers set it): such values are
	// decoded in that form.
	PairMaps bool
	// Caller is the provider's caller object of a call made by a program
	// the provider ran (Anthropic's {"type":"code_execution_20250825",
	// "tool_id":...}, OpenAI's {"type":"program","caller_id":...}), as the
	// provider sent it; nil for a call the model made directly. Providers
	// echo it where their API wants it (on the call and on its answer).
	Caller []byte
}

// Outcome is the result of one dispatched call as the model sees it.
type Outcome struct {
	// CallID is Call.ID.
	CallID string
	// Name is Call.Name.
	Name string
	// Success reports whether the call succeeded.
	Success bool
	// Message is the result's message (or the failure text).
	Message string
	// Output is the text sent back to the model: Message, a blank line and
	// the rendered value; Message alone when the value is absent or excluded.
	Output string
	// Replayed reports that the outcome was replayed from the idempotency
	// ledger instead of running the handler.
	Replayed bool
	// RetryAfter is set when a rate limit refused the call
	// (Dispatcher.RateLimit): how long until it would be admitted.
	RetryAfter time.Duration
	// Content holds the result's blocks after Output (ToolResult.Content,
	// WithContent): set on success only, never on a replay.
	Content Blocks
	// Held and NotRun are never set by Dispatch: they mark the outcomes
	// the agent loop reports (loop.Turn.Outcomes) for calls that have no
	// result, so that every call of a turn has its outcome at its index.
	// Neither is sent to the model, and Output is empty.
	//
	// Held: a policy (or Elicit) held the call for a person's decision;
	// nothing ran and Message is the reason. Its result comes once the
	// decision is recorded (loop.Resume reports it).
	Held bool
	// NotRun: the run stopped during the turn before this call completed
	// (its Dispatch returned an error, an earlier call's did, or the budget
	// was exceeded); Message says why.
	NotRun bool
}

// ToolInvoked is the telemetry event recorded for every call, whatever its
// outcome (step 11 of the pipeline).
type ToolInvoked struct {
	// Name is the requested tool name.
	Name string
	// CallID is the provider's call id.
	CallID string
	// Tool is the called tool; nil when the name is unknown.
	Tool *Tool
	// Arguments is the raw arguments text (shared with the Call; do not
	// modify).
	Arguments []byte
	// Params is the decoded params value (the tool's P); nil when decoding
	// failed or the tool is unknown.
	Params any
	// Message is the outcome's message.
	Message string
	// Value is the result value (the tool's R); nil when the result has no
	// value or its value is excluded from the context.
	Value any
	// Success reports whether the call succeeded.
	Success bool
	// HasValue reports whether the result carried a value.
	HasValue bool
	// Excluded reports that the result's value was excluded from the context.
	Excluded bool
	// Replayed reports that the outcome was replayed from the ledger.
	Replayed bool
	// Output is the text sent to the model (empty when Dispatch returned an
	// error).
	Output string
	// Duration is the time from the start of Dispatch to the event.
	Duration time.Duration
	// Err is the error behind a failure or a returned error: the
	// *ArgumentsError, the *Denial, the handler's error, the result's
	// validation error, ErrUnknownTool, or the error Dispatch returned,
	// joined with errors that do not change the outcome (closing the
	// tool-call scope, recording in the ledger). It is nil on a clean
	// success and for panics (see Panic).
	Err error
	// Panic is the value a panic was called with; nil if none.
	Panic any
	// Stack is the stack of the goroutine at the panic; never shown to the
	// model.
	Stack []byte
	// IdempotencyKey is the ledger key of an idempotent call; empty
	// otherwise.
	IdempotencyKey string
	// Program is the id of the program that made the call (an inner call,
	// InnerCall.Program: a program winkgen runs, or a provider's program,
	// Call.Caller); empty for a call the model made directly.
	Program string
	// Time is when Dispatch started.
	Time time.Time
}

// Hooks are low-level extension points around the built-in policies and
// transaction. Each is optional. A panic in a hook is recovered like a handler
// panic.
type Hooks struct {
	// Check runs after the dispatcher's policies (step 4); a non-nil *Denial
	// becomes a failure result with its text and the handler does not run.
	Check func(tc *ToolContext, tool *Tool, params any) *Denial
	// Begin runs after the built-in snapshot (step 6) and returns the
	// rollback to run if the call fails (step 10), before the built-in
	// restore. If Begin returns an error, the call is not executed, Dispatch
	// returns the error wrapped, and a rollback returned alongside the error
	// is still run.
	Begin func(tc *ToolContext, tool *Tool) (rollback func() error, err error)
	// OnResult runs after the policies' OnResult on success (step 9). It may
	// edit the outcome; if it sets Success to false, the call is rolled
	// back. out is valid only until OnResult returns.
	OnResult func(tc *ToolContext, tool *Tool, params any, out *Outcome)
	// Start runs first when a call to a registered tool begins (before its
	// arguments are decoded). The context it returns becomes the call's:
	// the ToolContext's and so the handler's. end, when not nil, is called
	// with the call's event once the call is complete (after the rollback
	// of a failure), the same *ToolInvoked the Events sink receives (its
	// Params and Value are nil unless Events or Session is set; without
	// them the event is valid only until end returns and must not be kept).
	// A panic in Start or end is recovered and ignored (the call runs
	// without them). Tracing plugs in here (package otelwink); with Start nil a
	// call pays one nil check.
	Start func(ctx context.Context, tool *Tool, call Call) (context.Context, func(*ToolInvoked))
}

// Dispatcher runs tool calls through the pipeline of docs/tools.md's "Dispatch".
// Its zero value is usable (every call names an unknown tool). A Dispatcher
// must not be modified while it dispatches; it is a small value, so the usual
// pattern is one Dispatcher per session, copied from a template.
//
// Dispatch is safe for concurrent use when the hooks, policies and event sink
// are, and it isolates the calls itself: a call that takes a transaction
// holds its Session exclusively (Session.Begin, which for a stored session
// also takes the store's lock and commits at the end) from snapshot to
// commit or restore, then the resource context and a snapshotable filesystem
// (locked by identity, so two sessions' dispatchers sharing a filesystem
// serialise on it). A rollback can therefore only undo its own call's
// changes. Tools declared read-only (Spec.ReadOnly, //wink:tool readonly)
// take no snapshot, share the locks with each other and see read-only views
// of the session and the filesystem. Calls on different sessions and parts
// run in parallel.
type Dispatcher struct {
	// Registry holds the callable tools.
	Registry *Registry
	// HideUnpermitted answers a call to a tool whose scopes the caller's
	// principal (WithPrincipal) lacks exactly as a call to an unknown tool
	// (ErrUnknownTool, the same text), instead of the scope refusal that
	// names the missing scopes: for servers whose tool names are themselves
	// sensitive. Either way, the unknown-tool text lists only the tools the
	// principal may call. Without a principal it changes nothing.
	HideUnpermitted bool
	// Limits bounds strict decoding; zero fields take strictjson's defaults.
	Limits strictjson.Limits
	// Events receives a ToolInvoked for every call (step 11); nil drops
	// them. The event is freshly allocated and may be retained.
	Events func(*ToolInvoked)
	// Hooks are low-level policy and transaction hooks (steps 4, 6, 9, 10).
	Hooks Hooks
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// RunContext holds the correlation ids copied into every ToolContext.
	RunContext RunContext
	// Heartbeat, when set, is called by ToolContext.Beat.
	Heartbeat func(*ToolContext)

	// Session is the session handlers see (ToolContext.Session). Its STATE
	// slices are snapshotted before every handler and restored when the
	// call fails; ToolInvoked and PolicyChecked events are appended to its
	// LOG slices ToolLog and PolicyLog, within LogLimits. Nil: no session.
	Session *session.Session
	// LogLimits bounds ToolLog and PolicyLog in Session, each on its own: by
	// default DefaultLogEntries entries and DefaultLogBytes bytes (estimated)
	// per log; the oldest entries are dropped first. KeepAllLogs keeps
	// everything; Events sees every event whatever the limits.
	LogLimits LogLimits
	// Resources is the resource context handlers see. A tool-call scope is
	// opened before every handler and closed after it; its snapshotable
	// instances are part of the call's transaction.
	Resources *resources.Context
	// Filesystem is the filesystem handlers see; when nil, the resource
	// bound to FilesystemKey is used, if any. A snapshotable filesystem
	// (vfs.Memory, vfs.Host) is part of the call's transaction.
	Filesystem vfs.Filesystem
	// Policies are the prompt-level policies, checked after the section
	// policies, in order.
	Policies []Policy
	// SectionPolicies returns the policies of the section that declares
	// tool, checked first; nil means none. Sections plug in here.
	SectionPolicies func(tool *Tool) []Policy
	// Ledger records and replays the results of idempotent tools
	// (Spec.Idempotency); nil disables idempotency. ledger.NewMemory() is
	// the in-memory default.
	Ledger ledger.Doer
	// Budget is the run's token budget tracker (ToolContext.Budget).
	Budget *Budget
	// RateLimit admits or refuses each call to a registered tool before its
	// arguments are decoded, right after the scope check (package
	// runtime/ratelimit); nil: no limit.
	RateLimit RateLimiter
}

// now reads the dispatcher's clock. A clock that panics is contained: the
// system clock is read instead.
func (d *Dispatcher) now() time.Time {
	if d.Now != nil {
		return d.userNow()
	}
	return time.Now()
}

// start reads the dispatcher's clock at the start of fr's call (ToolInvoked.Time). The default clock
// reads only the monotonic clock: the start is kept as the time elapsed since fr's last reading of the
// system clock (fr.clock; the monotonic reading is exact, the wall clock's is at most clockRefresh
// old), one clock read where time.Now makes two, and no time.Time is built or stored in the frame (a
// pointer word) until one is needed (startTime).
func (d *Dispatcher) start(fr *frame) {
	cs := &fr.cs
	cs.timed = true
	if d.Now != nil {
		cs.start = d.userNow()
		return
	}
	if b := fr.clock; !b.IsZero() {
		if e := time.Since(b); e >= 0 && e < clockRefresh {
			cs.at = e
			return
		}
	}
	fr.clock, cs.at = time.Now(), 0
}

// startTime is when fr's call started (start); zero when the clock was not read.
func (d *Dispatcher) startTime(fr *frame) time.Time {
	if d.Now != nil || !fr.cs.timed {
		return fr.cs.start
	}
	return fr.clock.Add(fr.cs.at)
}

// elapsed is the time since fr's call started (start), read from the dispatcher's clock. The default
// clock reads only the monotonic clock, half the cost of time.Now.
func (d *Dispatcher) elapsed(fr *frame) time.Duration {
	if d.Now != nil {
		return d.userNow().Sub(fr.cs.start)
	}
	return time.Since(fr.clock) - fr.cs.at
}

// clockRefresh is how long a frame's reading of the system clock serves (Dispatcher.start): within
// it, the wall clock's rate adjustments (at most 500 ppm) move it by 5 µs at most.
const clockRefresh = 10 * time.Millisecond

// userNow calls d.Now, falling back to time.Now if it panics.
func (d *Dispatcher) userNow() (t time.Time) {
	defer func() {
		if recover() != nil {
			t = time.Now()
		}
	}()
	return d.Now()
}

// Dispatch runs one tool call and returns what the model sees. Failures of
// the call (unknown tool, bad arguments, denial, handler failure, error or
// panic, invalid result) are outcomes with Success false, not errors. The
// error is non-nil, and the Outcome zero, only when the call must not be
// answered as a tool result: the deadline expired or ctx was cancelled before
// the handler ran (or while waiting for an identical idempotent call), the
// handler returned a context error while ctx was done, the transaction could
// not be started, or a rollback failed. A nil ctx means
// context.Background().
func (d *Dispatcher) Dispatch(ctx context.Context, call Call) (Outcome, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if call.Caller != nil {
		ctx = providerCall(ctx, call) // a provider's program made it: an inner call (program.go)
	}
	t, ok := d.Registry.Lookup(call.Name)
	if !ok || (d.HideUnpermitted && checkScopes(ctx, &t.spec) != nil) {
		return d.unknownTool(ctx, call), nil
	}
	return t.impl.tool.invoke(ctx, d, call)
}

// records reports whether ToolInvoked events are recorded.
func (d *Dispatcher) records() bool { return d.Events != nil || d.Session != nil }

// record delivers a ToolInvoked event to the session log and the sink. A
// sink that panics is contained: the event is dropped for it, and the call's
// outcome stands.
func (d *Dispatcher) record(ev *ToolInvoked) {
	if d.Session != nil {
		d.appendToolLog(d.Session, ev)
	}
	if d.Events != nil {
		d.deliver(ev)
	}
}

// deliver calls the Events sink, containing a panic.
func (d *Dispatcher) deliver(ev *ToolInvoked) {
	defer func() { _ = recover() }()
	d.Events(ev)
}

// unknownTool answers a call naming no registered tool (step 1), or a tool
// hidden from ctx's principal (HideUnpermitted).
func (d *Dispatcher) unknownTool(ctx context.Context, call Call) Outcome {
	msg := d.Registry.unknownToolMessage(call.Name, PrincipalFrom(ctx))
	out := Outcome{CallID: call.ID, Name: call.Name, Message: msg, Output: msg}
	if d.records() {
		now := d.now()
		d.record(&ToolInvoked{
			Name: call.Name, CallID: call.ID, Arguments: call.Arguments,
			Message: msg, Output: msg, Err: ErrUnknownTool, Time: now,
		})
	}
	return out
}
