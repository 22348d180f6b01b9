// Package durable makes agent runs survive their worker: a run started with an id is driven by any
// worker of a fleet, every step is checkpointed, and a run whose worker dies (kill -9, a lost machine)
// is taken over by another worker from its last checkpoint.
//
//	st, _ := pgdurable.New(ctx, pool)                     // or durable.NewMemoryStore() in one process
//	eng := &durable.Engine{Store: st, Agent: func(ctx context.Context, r durable.Run) (loop.Config, error) {
//		sess := session.New(session.WithID(r.Session), session.WithStore(sessions)) // pgstore, with durable.CommitSlice
//		return loop.Config{Provider: model, Dispatcher: &wink.Dispatcher{Registry: reg, Session: sess, Policies: pols}}, nil
//	}}
//	go eng.Work(ctx)                                       // on every worker
//	eng.Start(ctx, "order-42", []loop.Message{loop.UserMessage(task)}, durable.StartOptions{Session: "conv-7"})
//	st, _ := eng.Wait(ctx, "order-42")                     // or Status at any time, from any process
//
// This is the embedded engine: no server besides the store (PostgreSQL for a fleet). For users who
// outgrow it, runtime/durable/temporal runs the same runs as Temporal workflows (a module of its own).
//
// # What is checkpointed, and what a takeover repeats
//
// A run is the agent loop (runtime/loop) replayed from its checkpoints: a model response per turn and an
// outcome per tool call, keyed by (turn, call index). A worker that takes a run over rebuilds the
// conversation from them and goes on from the first step without one.
//
//   - A checkpoint keeps everything the model's next request is built from: the response's text and
//     calls, each outcome's text and its content blocks of every kind (wink.Outcome.Content: images,
//     audio, embedded resources and blobs, resource links, text), and so does the session's commit. A
//     run taken over, or resumed after a held call was decided, sends the model the request an
//     uninterrupted run sends, byte for byte.
//   - A model call whose response is checkpointed is never sent again by a worker that holds its claim:
//     its response is replayed. A model call interrupted before its checkpoint was written is sent again
//     (it was not completed). Nothing fences a request at the provider, so the worker makes sure of its
//     claim right before sending one: unless the claim was renewed within the last third of the lease
//     (measured on the monotonic clock, which runs on while a process is stopped or its VM frozen), it
//     is renewed first, and a claim found lost sends nothing. What remains is the few instructions
//     between that check and the request leaving: a worker stopped exactly there for longer than the
//     lease sends its request after another worker may have completed the turn (the transcript stays
//     right, the duplicate response is refused by the store's fencing token; the call is paid twice).
//   - A tool call whose outcome is checkpointed never runs again.
//   - A tool call interrupted in flight: its state effects (the session's STATE slices, the policies'
//     state) happen exactly once. The call's session transaction carries its checkpoint: on success the
//     dispatcher's OnResult hook records the outcome in the session's CommitSlice, so the commit of the
//     call's changes and of its checkpoint is one write (one PostgreSQL transaction with pgstore). Dying
//     before that commit rolls everything back (the database drops the open transaction); dying after
//     it, the next worker's dispatch finds the commit in the call's own transaction (the Begin hook,
//     under the session's row lock) and answers from it without running the handler. For an idempotent
//     tool, pgledger on the session store's pool joins its record to the same transaction, so the ledger
//     claim, the session commit and the checkpoint are one PostgreSQL transaction. Give CommitSlice to
//     the session store; without it this holds only for idempotent tools (their ledger replays the
//     result).
//   - A worker that lost its lease but still runs (paused by the scheduler, cut off from the database)
//     runs no call and commits none: inside each call's transaction, under the session's lock, before
//     the handler and again just before the commit, the engine renews its claim (DispatchStep's Fence)
//     and a lost claim refuses the call or its commit; a call of a turn the run has left (the session
//     holds a commit of a later turn) is refused too (ErrStaleStep). Its checkpoints are refused by the
//     store's fencing token.
//   - Effects outside the session (a payment API, an e-mail) are at-least-once: a handler interrupted
//     after its effect runs again on the next worker. IdempotencyKey(tc) gives it a key that is the same
//     on every attempt of the call and different for every other call: pass it to the outside service
//     (an Idempotency-Key header, a unique column) to make the effect once.
//   - A call that failed (bad arguments, a denial, a handler error) changed nothing (it was rolled back);
//     if its worker dies before its checkpoint it is dispatched again.
//   - A dispatcher without a Session has no transaction to carry the commit: an interrupted call runs
//     again (once per key for idempotent tools with a shared ledger).
//
// # What a session keeps
//
// A session keeps the commits (CommitSlice) of the runs still going on it, no more: when a run ends (Done
// or Failed) its engine removes its commits (Forget) before it records the end, so the write of every
// tool call's transaction, which rewrites the CommitSlice, is bounded by the runs in flight on the
// session and does not grow with the number of runs it has served (measured in
// TestSessionWriteDoesNotGrowWithRunsServed: 685 bytes per call after 1, 10 or 100 runs; 63 KiB after 100
// before). A run that cannot remove them (the session's store is down) is given back and driven to its
// end again.
//
// # Held calls
//
// A call a policy holds (policy.RequireApproval) stops the run as Held: the worker gives it back and no
// worker holds it while it waits, for days if need be. Record the decision with policy.Approve or
// policy.Deny (given the *wink.HeldError of Status.Held) on the run's session, from any process sharing
// the session store, and call Engine.Wake
// (or wait for HeldPoll): the next worker dispatches the held calls again, which now run or answer the
// model with the denial. A held call's hold id is its step's (HoldID: derived from the run, the turn and
// the call's index), so every worker, takeover and replay dispatches it under the id its decision is
// bound to, on both engines; the decision (bound also to the tool, the canonical arguments, the session
// and the run) applies to that call only, never to another turn's call that reuses the provider's id.
//
// The other calls of the held call's turn are dispatched meanwhile, in order: they fail or commit and
// are checkpointed, and the held call, once approved, runs after them. The session keeps the commits
// of every call of a run's latest turn (CommitSlice), not only the last one, so a held call committing
// after its later siblings is not taken for a stale attempt, and a worker dying after any call's commit
// leaves the next one its outcome. This holds for every order of held, failing and committing calls in
// a turn, on both engines (the tests run all 27 orders of three, with and without a crash after a
// commit).
//
// # Liveness
//
// A run that a worker cannot advance ends Failed with the reason (Status.Err), or waits visibly: its
// Status says why (Held with the calls waiting for a decision; Running with Status.Err the last error
// a worker gave it back after, due again after RetryDelay). It never spins silently:
//
//   - a call refused as stale (the session holds a commit of a later turn than the run's checkpoints:
//     the session was restored from a newer backup, or shared with another run of the same id) on a
//     claim the worker still holds ends the run Failed: every later attempt would be refused too;
//   - a worker that finds its claim lost reports it (EventError with ErrLeaseLost) and tries to give
//     the run back with the reason: the store refuses when the claim is indeed another worker's (who
//     drives the run now), and otherwise the run is due again at once;
//   - every wait is bounded. A store operation (claim, load, checkpoint, release) waits at most Lease,
//     a renewal a third of it; a call that cannot get its transaction (pgstore waits at most its
//     AcquireTimeout for a connection and its LockTimeout for the session's row lock, which a worker
//     stopped inside a call keeps) fails its dispatch, and the run is given back with the error
//     and retried after RetryDelay by any worker.
//
// # Connections
//
// No step of a run holds one connection while it waits for another. A tool call holds its session
// transaction's connection from Begin to commit; its fence renews the claim in that same transaction
// when the run store shares the session store's database and pool (pgdurable and pgstore on one
// pgxpool.Pool, as the package example wires them: durable.TxRenewer), and pgledger records its key in
// it too. A model call holds none. So a pool of any size (pgxpool's default is the larger of 4 and the
// number of CPUs) serves any Concurrency: runs beyond the pool's size wait for a connection, in turn,
// and never for each other. With the run store on another pool than the sessions, the fence takes one
// of the run store's connections while the call holds a session connection: give that pool its own
// connections (calls never hold one of its connections while waiting for the other pool).
//
// # Clocks
//
// Every time the store compares is the store's: leases, and the due times of held runs and of runs
// given back after an error, are computed by the store (the database's clock, now() in SQL) from the
// delay the worker asks for (Release.Delay), never from a worker's clock. A worker's own clock decides
// only when it renews, measured on its monotonic clock.
//
// # Leases
//
// A claim is a lease (Engine.Lease, renewed every Lease/3) with a fencing token: the store refuses the
// checkpoints of a worker whose run was claimed again, and that worker stops driving it. A worker that
// dies is replaced once its lease expires.
//
// # Who a run acts for
//
// A run started for a caller (Start's context carries its principal, as an MCP request's does once
// the resource server verified its token, or StartOptions.Principal) acts for that caller on every
// worker: the principal (subject, issuer, client id, scopes, expiry; never the raw token, never its
// claims) is stored with the run, and every step a worker executes, after a takeover too, is
// dispatched with it in its context. A call whose tool declares a scope the principal lacks is refused
// before its arguments are decoded (the model reads which scope is missing), and the model is offered
// only the tools the principal may call (wink.Permitted). Once the token's expiry has passed, a step is
// taken only if Engine.Reauthorize renews the principal; otherwise the run ends Failed with
// ErrPrincipalExpired (principal.go says why). Status.Principal shows who a run acts for.
//
// # Tools offered, tool search and programs
//
// Each model request offers the tools as loop.Run does (loop.Offer): deferred tools (//wink:tool defer)
// go out as deferred until a search finds them, tools only programs may call go to the provider's
// programs only (loop.Request.Programs), and with loop.Config.Search the client tool search is offered
// and its calls are answered by the engine, not dispatched. A search call's checkpoint keeps the names
// it found (EncodeToolStep), so every later request of the run, on any worker and after any takeover or
// replay, loads the same tools. A call a provider's program made (wink.Call.Caller) is a program's call
// to the dispatcher (its tool's callers apply) but a step of its own, committed and replayed as any.
//
// # Choices made here
//
//   - A durable run dispatches its calls in order (loop.Config.Parallel is ignored): each outcome is a
//     checkpoint and a crash point, and order keeps replays identical.
//   - Errors: a provider error ends the run as Failed (the providers already retry transient HTTP
//     failures); a Dispatch error (a transaction that cannot start, a database that is down, a pool
//     with no connection within its bound), a checkpoint that cannot be written or an Agent that fails
//     gives the run back to be retried after RetryDelay by any worker; a budget or the turn limit ends
//     it as Done with Status.Stop saying so.
//   - Payloads are a small binary format (codec.go), not JSON: no reflection on the step path. Status
//     decodes them into the transcript.
//   - Run ids are the caller's: Start is idempotent, a second Start of an id changes nothing.
//   - The Budget of the dispatcher is charged with the replayed responses' usage too, so a run's budget
//     holds across takeovers.
package durable
