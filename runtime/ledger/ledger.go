package ledger

import (
	"context"
	"strconv"
	"time"
)

// DefaultTTL is how long a result is kept when a tool declares idempotency
// without a ttl (WINK's default). Do itself applies no default: it uses the
// ttl it is given.
const DefaultTTL = 24 * time.Hour

// Entry is one recorded effect: what a replay of the call returns.
//
// Value is shared by every replay of the entry and must be treated as
// immutable by whoever reads it.
type Entry struct {
	// Key is the idempotency key the entry is stored under.
	Key string
	// Tool is the name of the tool whose call produced the entry.
	Tool string
	// Message is the result's message.
	Message string
	// Value is the result's typed value (nil when the result has none).
	Value any
	// Rendered is the result as rendered for the model.
	Rendered string
	// Recorded is when the result was recorded.
	Recorded time.Time
	// Expires is when the entry stops being returned; the zero time means never.
	Expires time.Time
}

// Expired reports whether the entry has expired at now: it has an expiry time
// and now is at or after it.
func (e *Entry) Expired(now time.Time) bool {
	return !e.Expires.IsZero() && !now.Before(e.Expires)
}

// Ledger stores the results of successful idempotent tool calls by key.
//
// Implementations must be safe for concurrent use. Failures are never
// recorded; that is the caller's duty (Do does it).
type Ledger interface {
	// Lookup returns the entry stored under key, unless there is none or it has
	// expired at now. An expired entry may be removed as a side effect.
	Lookup(key string, now time.Time) (Entry, bool)
	// Record stores e under e.Key, replacing any entry stored there.
	Record(e Entry) error
	// Invalidate removes the entry stored under key, if any.
	Invalidate(key string)
	// InvalidateTool removes every entry whose Tool is tool.
	InvalidateTool(tool string)
	// PruneExpired removes every entry expired at now and returns how many it removed.
	PruneExpired(now time.Time) int
	// Clear removes every entry.
	Clear()
}

// Doer is a Ledger that also runs idempotent calls: Do looks the key up,
// runs fn on a miss, and records fn's result if it succeeded. Dispatch uses a
// Doer; Memory is one, and NewFlights makes one of any other Ledger (a
// database, say).
type Doer interface {
	Ledger
	// Do returns the entry stored under key if there is one (replayed), and
	// otherwise runs fn. Concurrent calls with the same key run fn once: the
	// first caller runs it, and the others wait and receive the same entry,
	// marked replayed. If fn reports ok, its entry is completed (Key, Tool,
	// Recorded = now(), Expires = Recorded + ttl, or zero when ttl is 0) and
	// recorded; a negative ttl records nothing but still shares the result
	// with the callers waiting on it. If fn fails, nothing is recorded, the
	// caller that ran fn receives fn's entry with replayed false, and the
	// waiting callers try again, one running fn at a time. An empty key means
	// "no idempotency": fn runs, nothing is shared or recorded.
	//
	// err is non-nil only when ctx ends while the caller waits for another
	// caller's run (ctx.Err()), or when recording a successful result fails;
	// in the latter case e is still the valid result of fn, whose effects
	// have happened. fn itself never sees ctx: it is the caller's to pass.
	Do(ctx context.Context, key, tool string, ttl time.Duration, now func() time.Time,
		fn func() (e Entry, ok bool)) (e Entry, replayed bool, err error)
}

// Txn is the transaction that keeps an idempotent call's other writes: the commit of the session the
// call ran in. A TxDoer joins its record of the call's success to it, so that the record is kept
// exactly when the writes are. *session.Tx is one, through the dispatcher.
type Txn interface {
	// Join makes p part of the transaction (see Participant).
	Join(p Participant)
}

// Participant is a ledger's part in a Txn. Its method set is session.Participant's.
type Participant interface {
	// Prepare runs inside the transaction, just before it commits; storeTx is the session store's
	// transaction (nil without a store). A ledger sharing the store's database records in it; an
	// error aborts the commit.
	Prepare(ctx context.Context, storeTx any) error
	// Done runs once the transaction has ended, committed or not.
	Done(ctx context.Context, committed bool)
}

// TxDoer is a Doer whose record of a success joins the transaction of the call's other writes.
type TxDoer interface {
	Doer
	// DoTx is Do, with fn also returning the transaction its writes commit in (nil: none, and DoTx
	// is Do). When fn succeeds with a transaction, DoTx returns fn's entry without recording it: the
	// record joins txn, made in the same database transaction when the ledger shares the store's
	// database, otherwise right after txn commits; it is dropped, and the key freed for a retry,
	// when txn does not commit. Callers waiting on the key are answered once txn has ended. A record
	// the ledger refuses (a *LostClaimError) aborts txn's commit.
	DoTx(ctx context.Context, key, tool string, ttl time.Duration, now func() time.Time,
		fn func() (e Entry, ok bool, txn Txn)) (e Entry, replayed bool, err error)
}

// LostClaimError reports that the caller running an idempotent call lost its claim on the key before
// recording the result: it outlived its lease (paused, say) and another caller took the call over. The
// result is not recorded, and a transaction it joined does not commit.
type LostClaimError struct {
	Key string
}

// Error returns the message.
func (e *LostClaimError) Error() string {
	return "ledger: the claim on key " + strconv.Quote(e.Key) + " was lost before the result was recorded " +
		"(its lease ran out and another caller took the call over): the result is not recorded and the call's session changes are not kept"
}
