package ledger

import (
	"context"
	"sync"
	"time"
)

// Flights adds Do to any Ledger: in-process single flight per key,
// successes-only recording, TTL, and cancellation while waiting. Other
// processes sharing the same store are not coordinated; a store that needs
// that must implement Doer itself (a row lock or a unique insert of a
// "pending" marker). A miss costs two Lookups (one before the flight is
// created, one after), a replay one.
//
// Invalidate, InvalidateTool and Clear also apply to calls in flight: a run
// that was in flight when its key was invalidated still returns its result to
// the callers that joined it, but does not record it.
type Flights struct {
	l  Ledger
	fs flightSet
}

// NewFlights returns a Doer that stores entries in l.
func NewFlights(l Ledger) *Flights { return &Flights{l: l} }

// Lookup returns l's entry for key unless it is missing or expired at now.
func (f *Flights) Lookup(key string, now time.Time) (Entry, bool) { return f.l.Lookup(key, now) }

// Record stores e in l.
func (f *Flights) Record(e Entry) error { return f.l.Record(e) }

// Invalidate removes key from l and keeps a run in flight for key from recording.
func (f *Flights) Invalidate(key string) { f.fs.invalidate(f.l, key) }

// InvalidateTool removes tool's entries from l and keeps tool's runs in flight from recording.
func (f *Flights) InvalidateTool(tool string) { f.fs.invalidateTool(f.l, tool) }

// PruneExpired removes l's entries expired at now and returns how many it removed.
func (f *Flights) PruneExpired(now time.Time) int { return f.l.PruneExpired(now) }

// Clear removes every entry from l and keeps every run in flight from recording.
func (f *Flights) Clear() { f.fs.clear(f.l) }

// Do implements Doer over l; see Doer.Do.
func (f *Flights) Do(ctx context.Context, key, tool string, ttl time.Duration, now func() time.Time,
	fn func() (Entry, bool)) (Entry, bool, error) {
	return f.fs.do(ctx, f.l, key, tool, ttl, now, noTxn(fn))
}

// DoTx implements TxDoer over l: a success's record is made once the transaction fn returns has
// committed (l cannot share it), and not at all when it does not commit. A record l fails to make is
// lost (the call then runs again on a retry).
func (f *Flights) DoTx(ctx context.Context, key, tool string, ttl time.Duration, now func() time.Time,
	fn func() (Entry, bool, Txn)) (Entry, bool, error) {
	return f.fs.do(ctx, f.l, key, tool, ttl, now, fn)
}

// noTxn adapts Do's fn to DoTx's.
func noTxn(fn func() (Entry, bool)) func() (Entry, bool, Txn) {
	return func() (Entry, bool, Txn) {
		e, ok := fn()
		return e, ok, nil
	}
}

// flight is one run of fn for one key.
type flight struct {
	tool string
	done chan struct{} // closed when the run is over; e and ok are then final

	mu    sync.Mutex // orders "stale" against the leader's Record
	stale bool       // invalidated while in flight: do not record

	waiters int // callers that joined the run (guarded by flightSet.mu)

	e  Entry
	ok bool
}

// flightSet is the single-flight table shared by Flights and Memory. Its zero
// value is ready to use.
type flightSet struct {
	mu sync.Mutex
	m  map[string]*flight
}

func (s *flightSet) do(ctx context.Context, l Ledger, key, tool string, ttl time.Duration, now func() time.Time,
	fn func() (Entry, bool, Txn)) (Entry, bool, error) {
	if now == nil {
		now = time.Now
	}
	if key == "" {
		e, _, _ := fn()
		return e, false, nil
	}
	// Fast path: a replay needs no flight. On a miss the leader looks again
	// once it holds the flight, since a run may have recorded meanwhile.
	if hit, ok := l.Lookup(key, now()); ok {
		return hit, true, nil
	}
	for {
		s.mu.Lock()
		fl := s.m[key]
		if fl == nil {
			fl = &flight{tool: tool, done: make(chan struct{})}
			if s.m == nil {
				s.m = make(map[string]*flight)
			}
			s.m[key] = fl
			s.mu.Unlock()
			return s.lead(l, fl, key, tool, ttl, now, fn)
		}
		fl.waiters++
		s.mu.Unlock()
		select {
		case <-fl.done:
			if fl.ok {
				return fl.e, true, nil
			}
			// The run failed: try again, unless we were cancelled meanwhile.
			if err := ctx.Err(); err != nil {
				return Entry{}, false, err
			}
		case <-ctx.Done():
			return Entry{}, false, ctx.Err()
		}
	}
}

// lead runs the flight fl: a lookup, then fn on a miss, then the record.
// Whatever happens, including a panic in fn or in the ledger, the flight is
// finished so that no waiter is left hanging; a panic counts as a failure
// and is propagated.
//
// When fn returns a transaction, the flight is handed to it (flightRecord) and finished when it ends:
// the record is made, and the waiters answered with the entry, only if it committed.
func (s *flightSet) lead(l Ledger, fl *flight, key, tool string, ttl time.Duration, now func() time.Time,
	fn func() (Entry, bool, Txn)) (e Entry, replayed bool, err error) {
	handed := false
	defer func() {
		if !handed {
			s.finish(key, fl)
		}
	}()
	if hit, ok := l.Lookup(key, now()); ok {
		fl.e, fl.ok = hit, true
		return hit, true, nil
	}
	e, ok, txn := fn()
	if !ok {
		return e, false, nil
	}
	e.Key, e.Tool = key, tool
	e.Recorded = now()
	e.Expires = time.Time{}
	if ttl != 0 {
		e.Expires = e.Recorded.Add(ttl)
	}
	if txn != nil {
		txn.Join(&flightRecord{s: s, l: l, fl: fl, key: key, e: e, record: ttl >= 0})
		handed = true
		return e, false, nil
	}
	if ttl >= 0 {
		err = fl.record(l, e)
	}
	fl.e, fl.ok = e, true
	return e, false, err
}

// flightRecord is a flight's success waiting for the transaction of the call's writes.
type flightRecord struct {
	s      *flightSet
	l      Ledger
	fl     *flight
	key    string
	e      Entry
	record bool
}

// Prepare does nothing: the record is made after the commit.
func (r *flightRecord) Prepare(context.Context, any) error { return nil }

// Done records a committed success and finishes the flight; after a failed commit the waiters try
// again.
func (r *flightRecord) Done(_ context.Context, committed bool) {
	if committed {
		if r.record {
			_ = r.fl.record(r.l, r.e)
		}
		r.fl.e, r.fl.ok = r.e, true
	}
	r.s.finish(r.key, r.fl)
}

// record stores e unless the flight was invalidated while it ran.
func (fl *flight) record(l Ledger, e Entry) error {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	if fl.stale {
		return nil
	}
	return l.Record(e)
}

func (s *flightSet) finish(key string, fl *flight) {
	s.mu.Lock()
	if s.m[key] == fl {
		delete(s.m, key)
	}
	s.mu.Unlock()
	close(fl.done)
}

// markStale keeps the flights chosen by pick from recording. It returns once
// no chosen flight is between its stale check and its Record, so a removal
// from the store made afterwards cannot be overtaken by that Record.
func (s *flightSet) markStale(pick func(key string, fl *flight) bool) {
	s.mu.Lock()
	var picked []*flight
	for k, fl := range s.m {
		if pick(k, fl) {
			picked = append(picked, fl)
		}
	}
	s.mu.Unlock()
	for _, fl := range picked {
		fl.mu.Lock()
		fl.stale = true
		fl.mu.Unlock()
	}
}

func (s *flightSet) invalidate(l Ledger, key string) {
	s.mu.Lock()
	fl := s.m[key]
	s.mu.Unlock()
	if fl != nil {
		fl.mu.Lock()
		fl.stale = true
		fl.mu.Unlock()
	}
	l.Invalidate(key)
}

func (s *flightSet) invalidateTool(l Ledger, tool string) {
	s.markStale(func(_ string, fl *flight) bool { return fl.tool == tool })
	l.InvalidateTool(tool)
}

func (s *flightSet) clear(l Ledger) {
	s.markStale(func(string, *flight) bool { return true })
	l.Clear()
}
