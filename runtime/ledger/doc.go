// Package ledger implements WINK's idempotency keys and effect ledger: the
// results of successful idempotent tool calls, recorded by key, so that a
// repeated call replays the recorded result instead of repeating its effect.
//
// # Keys
//
// A key is "scope:tool:suffix". AutoKey hashes the canonical JSON encoding of
// all decoded parameters, ParamsKey the JSON object of the selected fields,
// and CustomKey takes the tool's own string. The hash suffix is the first 16
// hex characters of SHA-256, as in WINK.
//
// Decisions where WINK or the design is silent or wrong:
//
//   - WINK hashes json.dumps(params, sort_keys=True). The runtime receives the
//     generated encoder's canonical bytes instead, whose fields come in
//     declaration order. Keys are therefore stable for a given Go type, and
//     reordering a params struct's fields changes its Auto keys (with the
//     in-memory ledger this only matters within one process).
//   - ParamsKey hashes {"name":value,...} in the selected order with no spaces,
//     so selecting every field in declaration order gives the AutoKey. An absent
//     field (nil JSON) hashes as null, because the design makes null and absent
//     the same thing for optional fields.
//   - CustomKey keeps the tool name ("scope:tool:custom"); WINK writes
//     "scope:custom", which lets two tools replay each other's results.
//   - CheckScope refuses ':' in a scope, so the three parts of a key never
//     run into one another (tool names cannot contain ':' either).
//   - The zero Strategy is None, so an unset configuration never replays.
//
// # Ledger and Do
//
// Ledger is WINK's EffectLedger (lookup, record, invalidate,
// invalidate_by_tool, prune_expired, clear). Doer adds Do, the operation
// dispatch uses: look up, run the handler on a miss, record only a success.
// Memory is the default Doer; NewFlights turns any other Ledger (a database)
// into a Doer. Decisions:
//
//   - Unlike WINK's ledger, Memory is safe for concurrent use, and concurrent
//     calls with the same key run the handler once (single flight): the others
//     wait and receive the same entry, marked replayed. Coordination is
//     in-process; a store shared by several processes must implement Doer
//     itself (pgledger does).
//   - Keys are unambiguous by construction: a session's scope is its id
//     escaped (SessionScope), a declared scope can never equal one (Scope),
//     tool names are escaped, and the custom part comes last.
//   - Only successes are recorded. When the running call fails, the callers
//     that waited on it do not inherit the failure (a failure is not an
//     effect to replay): they try again, one running the handler at a time.
//     A panic in the handler counts as a failure and is re-raised in the
//     caller that ran it.
//   - An entry expires when now reaches Expires (now >= Expires). Expired
//     entries are never returned; Lookup removes the one it meets, and
//     PruneExpired removes them all. A zero TTL means no expiry (WINK's
//     ttl=None); a negative TTL means the result is shared with the callers
//     waiting on it but not recorded. Do applies no default TTL; DefaultTTL
//     (WINK's 24 hours) and DefaultScope are for the layer that reads the
//     tool's declaration.
//   - A replay from Memory allocates nothing: Do looks the key up before it
//     creates a flight, and the leader looks again once it holds the flight.
//   - Time is always injected (now, or a now func) so tests and replays are
//     deterministic; a nil now func means time.Now.
//   - Invalidate, InvalidateTool and Clear also stop calls in flight from
//     recording: a result computed while its key was being invalidated is
//     returned to its callers but not kept.
//   - A waiting caller whose context ends gets ctx.Err(); the running call is
//     not affected. The handler's own cancellation is the handler's business.
//   - Replayed entries share Value: readers must not mutate it.
//   - The package uses no reflection, no encoding/json and no fmt.
//
// # Guarantees
//
// A TxDoer (Memory, Flights, pgledger.Ledger) records a success together
// with the commit of the session the call ran in (the dispatcher hands it the
// session's transaction): a replay never stands for a change no session
// kept, and no caller is ever answered "success" for a change that is then
// lost. What holds, by kind of effect:
//
//   - Session state (the slices of a session kept in a store), with a ledger
//     sharing the store's database (pgledger on the pool of pgstore):
//     exactly once. The record and the session's changes are written in one
//     PostgreSQL transaction, so both are kept or neither is. A call
//     answered with success has both: later calls replay it. A call whose
//     worker dies, whose commit fails (a cut connection, a restarted
//     database) or that is answered with an error has neither: the key is
//     freed (or its claim's lease runs out) and a retry runs the call
//     against the state without it.
//   - Session state, with a ledger that cannot share the store's transaction
//     (Memory or Flights beside a database store, pgledger on another pool):
//     at least once. The record is made right after the commit; a worker
//     dying between the two, or a record that fails, leaves the change kept
//     and the key unrecorded, so a retry runs the call again.
//   - External effects (what a handler does outside the session: a payment,
//     a message, a row in another system): at least once. The handler runs
//     again when the worker that ran it dies before its commit, when the
//     commit fails, or when it outlives its lease. For exactly once, the
//     other system must deduplicate on a key the handler derives from its
//     params (its custom idempotency key, say).
//   - A claimant alive but slower than its lease (paused past it) loses the
//     claim to the caller that takes the call over. Every claim carries a
//     fresh owner token (the fencing token): a record is made only under the
//     current claim's, so the late claimant's is refused with a
//     *LostClaimError, its session commit is aborted and it is answered with
//     that error. The taker's result is the one recorded and replayed; the
//     external effect has run on both (at least once, as above).
//
// Replays within one process (waiters on a flight of Memory or Flights) are
// answered once the leader's transaction has ended: with its entry if it
// committed, otherwise they try again.
package ledger
