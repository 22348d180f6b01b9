// Package wink is the runtime that user code and winkgen-generated code
// import: tool descriptors (Spec, Tool, NewTool), the handler's ToolContext and
// ToolResult, model-facing errors, registries and the dispatcher. Sections
// and prompts, which assemble tools into what the model reads, are package
// prompt.
//
// # Generated code
//
// For each //wink:tool handler winkgen emits a package-level
//
//	var WinkSearchDocs = wink.NewTool(wink.Spec{...}, &wink.Funcs[SearchParams, SearchResult]{...})
//
// (a *Tool; DecodeParams[SearchParams](WinkSearchDocs, args, lim) decodes
// arguments into the typed params) plus a WinkTools() []*wink.Tool listing the package's tools in source
// order, and compile-time guards built on EnforceVersion, GenVersion,
// MinGenVersion and MaxGenVersion. Parameterless handlers are wrapped to take
// NoParams (decoded by DecodeNoParams); tools without a value return NoValue.
//
// # Dispatch
//
// Dispatcher.Dispatch runs the pipeline of the README's "Dispatch":
//
//  1. lookup: an unknown name is a failure result
//     `Unknown tool "x". Available tools: a, b, c.` (registry order;
//     `Unknown tool "x". No tools are available.` for an empty registry;
//     names longer than 64 runes are truncated with "…" when echoed);
//  2. strict decoding with the generated decoder, then the params' Validate
//     (only when decoding found no error: a half-decoded value is
//     meaningless); all problems become one ArgumentsError text;
//  3. the ToolContext (built before the policies, which see it);
//  4. the policies, then Hooks.Check; a *Denial is a failure result;
//  5. deadline: a cancelled ctx, or a deadline at or before Dispatcher.Now,
//     makes Dispatch return an error (matching ErrDeadlineExpired and
//     context.DeadlineExceeded, or wrapping context.Canceled), not a result;
//  6. isolation (the session's lock, the resource context's, the
//     filesystem's), the tool-call resource scope, the snapshot, then
//     Hooks.Begin, which returns the rollback;
//  7. the handler, with panics recovered; then the result type's Validate
//     method on a successful result with a value;
//  8. Output = Message + "\n\n" + rendered value (Render, else the
//     generated JSON encoding); Message alone when the result has no value,
//     its value is excluded, or R is NoValue; the rendered value alone when
//     Message is empty;
//  9. the policies' OnResult, then Hooks.OnResult, on success (they see and
//     may edit the Outcome);
//  10. the rollback on every failure: failure result, returned error, panic,
//     invalid result, a propagated context error, an OnResult that set
//     Success to false;
//  11. a ToolInvoked event for every call, including unknown tools, bad
//     arguments and calls that return an error.
//
// Failure texts the model sees (product text, tested verbatim):
//
//   - a panic: `Tool "x" failed: <panic value>` (the stack only in
//     ToolInvoked.Stack);
//   - a returned error: `Tool "x" failed: <error text>`, except a
//     *ToolError anywhere in its chain, whose Message is used verbatim;
//   - an invalid result: `Tool "x" returned an invalid result: <error text>`
//     (ToolInvoked.Err is an *InvalidResultError);
//   - a Failure result: its message verbatim (with its value rendered if it
//     has one);
//   - a denial: its Reason, then "\n- suggestion" per suggestion; an empty
//     Reason reads `Policy denied the call to tool "x".`.
//
// A handler error that wraps context.Canceled or context.DeadlineExceeded
// propagates to the caller only while the call's context is done; the same
// error with a live context (say, an HTTP client's own timeout) is an
// ordinary tool failure. When a handler returns both a result and an error,
// the error wins. A panic anywhere in steps 2-9, hooks included, is recovered
// the same way as a handler panic. A failing snapshot, Hooks.Begin or
// rollback makes Dispatch return a *TransactionError: without a transaction,
// or after a failed restore, the state cannot be trusted.
//
// # Allocation
//
// The pipeline is non-generic code run for every tool; only decoding into
// the params, calling the handler and encoding the result are typed (one
// generic function per tool, bound by NewTool), so a package of many tools
// compiles to little machine code. On the success path a call allocates the ToolContext (the
// handler may keep it), the output string when a value is rendered, plus
// whatever decoding and the handler allocate. The rest of the call's state
// (params, result, outcome) lives in a frame pooled per tool, which keeps its
// strictjson.Decoder across calls (one pool operation per call): the
// pointers the pipeline passes to Funcs, to the Validate and Render methods
// and to Hooks.OnResult are valid only during the call and
// must not be kept. DecodeParams decodes into a pooled frame too (a local P
// whose address goes to the Decode function value would escape). Params and
// values are boxed into interfaces only when policies, Hooks.Check,
// Hooks.OnResult or the event need them. Performance decisions:
//
//   - The rendered output is built in a buffer sized by the longest encoding
//     seen so far and turned into the string with unsafe.String (one
//     allocation, no pooled scratch buffer, no copy).
//   - The clock's wall time is read once per call (ToolInvoked.Time);
//     Duration and PolicyChecked.Time are derived from it with the monotonic
//     clock (time.Since), half the cost of time.Now. With Dispatcher.Now set,
//     that clock is read each time instead.
//
// # Session, resources, filesystem, policies, transactions, idempotency
//
// Dispatcher.Session, Resources, Filesystem, Policies, SectionPolicies,
// Ledger and Budget reach the handler through ToolContext (Session,
// Resources, Filesystem, Budget, Beat, Deadline, Run). Decisions:
//
//   - Filesystem: Dispatcher.Filesystem, else the resource bound to
//     FilesystemKey, resolved before the snapshot so the transaction covers it.
//   - Policies: section policies (SectionPolicies(tool)), then prompt
//     policies; first denial wins; a panicking policy denies
//     (`Policy "p" failed while checking the call to tool "x": ...`); a
//     PolicyChecked goes to the session's PolicyLog for every decision;
//     ToolInvoked events go to ToolLog (and Events). Hooks run after them.
//     Both logs keep the newest entries within Dispatcher.LogLimits
//     (DefaultLogEntries, DefaultLogBytes per log; KeepAllLogs keeps all).
//   - Transaction (runtime/txn): the tool-call resource scope is opened, then
//     the session, the resources' Snapshotables and a snapshotable filesystem
//     are captured; any failure (failure result, error, panic, invalid
//     result, validation error raised in the handler, OnResult failing the
//     call) restores them; LOG slices are kept; the snapshot is released on
//     commit. A validation error raised in the handler (an *ArgumentsError,
//     e.g. from InvalidArguments, a FieldErrorer or *strictjson.Errors) is
//     rendered like a decoding error: `Invalid arguments for tool "x": ...`.
//   - Idempotency: only with a Ledger (nil disables it). Keys: auto =
//     ledger.AutoKey over Funcs.EncodeParams; params = ledger.ParamsKey over
//     the named top-level fields of that encoding (strictjson.Member, no reflection);
//     custom = Funcs.IdempotencyKey ("" means not idempotent for that call).
//     Scope "session" becomes "session.<session id>" (just "session" without
//     a session); other scopes are used verbatim. Checked after the deadline;
//     the ledger's Do runs steps 6-9 once for concurrent identical calls;
//     only successes are recorded; a replay returns the recorded message and
//     output with Replayed set, runs the policies' OnResult (in a session
//     transaction), and opens no tool-call scope.
//   - Errors that do not change the outcome (closing the tool-call scope,
//     recording in the ledger) are joined into ToolInvoked.Err.
//   - Isolation is the dispatcher's: a call holds its session exclusively
//     from snapshot to commit or restore (the resource context and a
//     snapshotable filesystem too, locked in that order), so concurrent calls
//     (loop.Config.Parallel, an MCP server) never undo each other's writes.
//     Read-only tools (//wink:tool readonly) share the locks, take no
//     snapshot and get read-only views: a change is a failure that changes
//     nothing. Their policies' bookkeeping (ReadBeforeWrite's reads) is still
//     recorded in the session.
package wink
