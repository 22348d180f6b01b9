// Package wink is the runtime that user code and winkgen-generated code
// import: tool descriptors ([Spec], [Tool], [NewTool]), the handler's
// [ToolContext] and [ToolResult], model-facing errors, registries ([Registry])
// and the dispatcher ([Dispatcher]). Sections
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
// [Dispatcher.Dispatch] runs the pipeline of docs/tools.md's "Dispatch":
//
//  1. lookup: an unknown name is a failure result
//     `Unknown tool "x". Available tools: a, b, c.` (registry order;
//     `Unknown tool "x". No tools are available.` for an empty registry;
//     names longer than 64 runes are truncated with "…" when echoed); for
//     a caller with a Principal the list names only the tools it may call,
//     and with Dispatcher.HideUnpermitted a tool it may not call is
//     answered exactly as an unknown one;
//     1b. the caller's scopes: when ctx carries a Principal (WithPrincipal;
//     mcpserver.WithAuth puts the verified token's there), a tool declaring
//     scopes (//wink:tool scopes=a,b; Spec.Scopes) is refused unless the
//     principal holds all of them, before its arguments are read, with
//     `tool "x" was not called: the caller's token lacks the scope "b";
//     obtain a token granting "a b" from the authorization server and call
//     again` (ToolInvoked.Err is a *ScopeError, ErrInsufficientScope). This
//     holds for every entry point (MCP, the loop, a durable run executing
//     in the context it was started with, a direct Dispatch). Without a
//     principal nothing is checked, as before; a tool declaring no scopes
//     is callable by any authenticated caller (readonly is not a
//     permission);
//     1c. rate limits: Dispatcher.RateLimit (package runtime/ratelimit:
//     token buckets server-wide, per principal, and per principal and tool
//     from Spec.Rate, //wink:tool rate=10/s burst=20) admits the call or
//     refuses it, still before its arguments are read, with `tool "x" was
//     not called: this tool's rate limit for the caller (10/s) is used up;
//     call it again in 1.5s or later, with the same arguments`
//     (Outcome.RetryAfter is set; ToolInvoked.Err is a *RateLimitError,
//     ErrRateLimited). A limiter that cannot decide (its database is down)
//     fails closed: Dispatch returns its error and nothing runs;
//     1d. the caller: a tool's Spec.Callers (//wink:tool callers=...;
//     Spec.Callable's default) says whether the model may call it
//     directly and whether a program may (an inner call, its context
//     marked by WithInnerCall); a call it does not allow is a failure
//     result saying how to call the tool instead (ToolInvoked.Err is
//     ErrCaller). Program tools (AsProgram) run without a transaction of
//     their own, each inner call in its own (program.go);
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
// # Keeping a ToolContext
//
// Every call gets a ToolContext of its own, which the dispatcher never reuses:
// a handler may keep it and use it, as its context or otherwise, from
// goroutines it starts, during the call and after it; every method is safe
// for concurrent use, and none ever gives another call's data. What belongs to
// the call itself (its decoded arguments, its result, its transaction) is
// gone once Dispatch returns, and the methods then say so:
//   - CanonicalArguments returns what it computed during the call, nil when it
//     was never called then; Binding's Digest is "" in that case;
//   - AppendResultJSON returns false (it gives the result only during OnResult);
//   - Tx returns nil (the transaction is committed or rolled back); a *session.Tx
//     a goroutine got during the call refuses Join from the moment the
//     dispatcher starts the commit (an error matching session.ErrTxEnded; what
//     was joined before is committed with the call, nothing is half in it),
//     and its StoreTx is nil then;
//   - Elicit and Sample return an error matching ErrNotAvailable, and so does
//     a Round's Wait made with it (the questions would belong to a request
//     already answered); Progress does nothing (a progress token names a
//     request in progress);
//   - Resources returns nil; a *resources.Context it returned during the call
//     is the call's own handle (resources.Context.ForCall): a tool-call
//     resource resolves through it in the call's scope only, and after the
//     call fails with an error matching resources.ErrScope, never giving
//     another call's instance;
//   - Filesystem returns the filesystem the call had (nil when none was
//     resolved during it);
//   - the context methods (Done, Err, Deadline, Value), Session, Budget, Tool,
//     Principal, Dispatcher, Beat, Log and RequireClient
//     work as during the call, on the dispatcher's and the call's context's
//     values. A write through the session or the filesystem after the call
//     takes no lock: it lands in whichever call holds them then, and is kept
//     or undone with that call. A goroutine that writes after its call
//     begins a transaction of its own (session.Session.Begin, then End),
//     which waits for the calls that hold the session.
//
// Policies and hooks receive the same ToolContext, and goroutines they start
// may use it at once, while the dispatcher still sets the call up: Tx is nil
// until the call's transaction is begun, then the call's; Filesystem is the
// filesystem as the call has it then (a tool-call filesystem resolves only once
// the call's scope opens, just before the handler; a read-only call's view is
// read-only from then); Resources resolves tool-call resources only once that
// scope is open. None of them is ever another call's.
//
// # Session, resources, filesystem, policies, transactions, idempotency
//
// Dispatcher.Session, Resources, Filesystem, Policies, SectionPolicies,
// Ledger and Budget reach the handler through ToolContext (Session,
// Resources, Filesystem, Budget, Beat, Deadline, Run). The filesystem is
// [Dispatcher].Filesystem, else the resource bound to [FilesystemKey]. Policies
// run in order (section policies first) and the first denial wins; every
// decision is logged in the session ([PolicyChecked]) and every call too
// ([ToolInvoked]), within [Dispatcher].LogLimits. Every failure rolls back the
// session's STATE slices, the resources and the filesystem (runtime/txn).
// With a [Dispatcher].Ledger, idempotent tools run once per key and a replay
// returns the recorded result with Outcome.Replayed set. A call holds its
// session, resources and filesystem exclusively, so concurrent calls never undo
// each other's writes; read-only tools (//wink:tool readonly) share them, take
// no snapshot and get read-only views.
//
// # Asking the client several things at once
//
// [NewRound] gathers a handler's questions for its client, each under a key
// the handler chooses: forms ([AskForm], decoded by the form's generated
// decoder), questions for the client's model ([Round.Sample]) and the
// client's roots ([Round.Roots]); [Round.Wait] asks them together and
// returns when all are answered, or returns an error the handler returns as
// it is (on MCP 2026-07-28 the answers come with the request sent again, and
// the handler runs again from the start). A key names one question for the
// whole request. [Declared] says which capabilities the client declared.
// The same code serves a tool, an MCP prompt's Get and a resource's Read
// (they get a context.Context), at every MCP revision and in a task; package
// mcpserver documents what each revision sends.
//
// # Held calls: what a decision is bound to
//
// A call a policy holds (or that waits for the user's answer to [Elicit])
// returns a [*HeldError]. The dispatcher gives the call an id of its own,
// Binding.Hold (128 random bits, never the provider's call id: providers and
// clients reuse ids, Gemini opens every turn with "gemini-0"), and binds it
// ([Binding]) to the tool, "sha256:" of the canonical arguments
// ([ToolContext.CanonicalArguments]: the decoded params re-encoded in RFC 8785
// form, so every spelling of the same arguments is one value and no other
// value is), the session and the run. A decision (policy.Approve,
// policy.Deny, [AnswerElicitation]) is recorded with that binding and applied
// only to a call whose binding is equal in every part: the held call
// dispatched again with [Call].Hold set (loop.Resume, the MCP server and the
// durable engines do it). A decision for anything else is never applied; the
// call is held again. What the person is shown ([HeldError].Question,
// Arguments) is the canonical arguments within [MaxShownArguments] bytes:
// every member of the arguments object is shown, each value within a fair
// share of the bound (a short value whole), strings cut after
// [MaxShownString] bytes and long arrays or objects after the items that fit,
// with what was cut said ("…[N more bytes]", "…[N more items]") and invisible
// or reordering characters escaped: the same for every spelling, and no
// padding (whitespace, long values, many items) can push a member out of
// sight.
// Idempotency keys hash the same canonical form (runtime/ledger).
//
// How the pipeline allocates, and the decisions behind each rule above, are in
// DESIGN.md beside this file.
package wink
