package ledger

import (
	"context"
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
