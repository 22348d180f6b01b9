// Package ledger implements WINK's idempotency keys and effect ledger: the
// results of successful idempotent tool calls, recorded by key, so that a
// repeated call replays the recorded result instead of repeating its effect.
//
// # Keys
//
// A key is "scope:tool:suffix". [AutoKey] hashes the canonical form of the JSON
// encoding of all decoded parameters, [ParamsKey] that of the JSON object of
// the selected fields (in any order), and [CustomKey] takes the tool's own
// string. The canonical form is RFC 8785's (strictjson.CanonicalExact, which
// keeps numbers a double cannot hold exact instead of rounding them), so a
// free-form value (wink.RawJSON) spelled otherwise (members reordered,
// whitespace, escapes, 1e2 for 100) keeps its key and replays, and two
// different values never share one; a free-form value naming a member twice is
// refused by the decoder and never reaches a key. Keys recorded before this
// rule (earlier winkgen versions hashed the encoding as written) differ: a call
// retried across the upgrade runs once more; so do keys recorded before the
// encoders left out a zero omitempty or omitzero field (it was written as
// null). The hash suffix is the first 16
// hex characters of SHA-256, as in WINK.
//
// Which strategy a tool uses, and its scope and TTL, come from its
// //wink:tool declaration ([Strategy], [Scope], [SessionScope], [DefaultTTL]).
//
// # Ledger and Do
//
// [Ledger] is WINK's EffectLedger (lookup, record, invalidate,
// invalidate_by_tool, prune_expired, clear). [Doer] adds Do, the operation
// dispatch uses: look up, run the handler on a miss, record only a success.
// [Memory] is the default Doer; [NewFlights] turns any other Ledger (a database)
// into a Doer. Concurrent calls with the same key run the handler once (the
// others wait and replay its entry); only successes are recorded; an entry
// expires when now reaches its Expires (a zero TTL never expires). The
// decisions behind the keys and Do are in NOTES.md beside this file.
//
// # Guarantees
//
// A [TxDoer] (Memory, Flights, pgledger.Ledger) records a success together
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
