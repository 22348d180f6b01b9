package session

import (
	"crypto/rand"
	"encoding/hex"
	"iter"
	"strconv"
	"sync"

	"github.com/winkgen/wink/runtime/resources"
)

// entry is one slice's head in a session's table, indexed by slice id.
type entry struct {
	vec       any // nil or *vector[T] for the slice's T
	retention Retention
	// bytes is what AppendBounded counts the slice's items as: uncounted (-1) after any change but
	// an append (Seed, Replace, a reducer's replacement), so that the next AppendBounded recounts.
	bytes int64
}

// uncounted marks an entry's bytes as unknown.
const uncounted = -1

// Session holds typed slices of state and the reducers that update them from
// events. It is safe for concurrent use: queries take the lock only long
// enough to grab an immutable head and do their copying outside it; mutations,
// Apply, Snapshot and Restore are serialised.
//
// User callbacks (reducers, the function given to Replace, predicates of
// Where) must not call back into the same Session: reducers and Replace
// functions run under the session's lock.
type Session struct {
	id string

	mu       sync.Mutex // queries hold it only to grab a head: cheaper than an RWMutex's four atomics
	entries  []entry    // heads by slice id; copy-on-write when shared
	shared   bool       // entries is referenced by a Snapshot (or an open Apply)
	reducers map[uint64][]any

	tx txLock // the transaction lock (Begin)

	base   *Session // non-nil in a read-only view: the session it shows
	roOnce sync.Once
	ro     *Session // the read-only view of this session (ReadOnly), made on first use

	stateEvents map[uint64]bool // events with a reducer on a STATE slice (guarded by mu)

	store     Store       // WithStore; nil: memory only
	storeOnce sync.Once   //
	stored    *storeState // the store's bookkeeping, guarded by the transaction lock
	staged    []staged    // values Stage appended for the next transaction (guarded by the transaction lock)
}

// Option configures a Session built by New.
type Option func(*Session)

// WithID sets the session's ID instead of a random one.
func WithID(id string) Option { return func(s *Session) { s.id = id } }

// New returns an empty session. Without WithID its ID is a random RFC 4122
// version 4 UUID.
func New(opts ...Option) *Session {
	s := &Session{}
	for _, o := range opts {
		o(s)
	}
	if s.id == "" {
		s.id = newUUID()
	}
	return s
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand documents it)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}

// ID returns the session's identifier.
func (s *Session) ID() string { return s.target().id }

// target is the session s shows: s itself, or for a read-only view the viewed session.
func (s *Session) target() *Session {
	if s.base != nil {
		return s.base
	}
	return s
}

// ReadOnly returns a read-only view of s: queries (ViewOf, All, Latest, ...) see s's live state, LOG
// slices may be appended to, and every change to a STATE slice fails without changing anything:
// Apply of an event that has a reducer on a STATE slice returns a *ReadOnlyError, and Seed, Clear,
// Replace, Append to a STATE slice and Restore panic with one (the tool dispatcher turns the panic into
// the call's failure). The dispatcher hands this view to tools declared //wink:tool readonly. The view
// of a view is itself.
func (s *Session) ReadOnly() *Session {
	if s.base != nil {
		return s
	}
	s.roOnce.Do(func() { s.ro = &Session{id: s.id, base: s} })
	return s.ro
}

// IsReadOnly reports whether s is a read-only view (ReadOnly).
func (s *Session) IsReadOnly() bool { return s.base != nil }

// ReadOnlyError reports a change attempted through a read-only view of a session (ReadOnly).
type ReadOnlyError struct {
	Session string // the session's ID
	Slice   string // the STATE slice that would have changed; empty for an event
	Event   string // the event dispatched; empty for a direct change
}

// Error returns the message, written for the model: what was refused and why.
func (e *ReadOnlyError) Error() string {
	what := "change STATE slice " + strconv.Quote(e.Slice)
	switch {
	case e.Event != "":
		what = "dispatch event " + strconv.Quote(e.Event) + ", which changes session state"
	case e.Slice == "":
		what = "restore a snapshot"
	}
	return "the session is read-only in this call: cannot " + what + " (the tool is declared read-only)"
}

// writable returns the session to change for a mutation of sl, panicking with a *ReadOnlyError when
// s is a read-only view and sl is a STATE slice.
func writable(s *Session, name string, retention Retention) *Session {
	if s.base == nil {
		return s
	}
	if retention == Rollback {
		panic(&ReadOnlyError{Session: s.id, Slice: name})
	}
	return s.base
}

// head returns the slice's current vector. Callers hold s.mu (read or write).
func head[T any](s *Session, sl Slice[T]) *vector[T] {
	if int(sl.id) >= len(s.entries) {
		return nil
	}
	v, _ := s.entries[sl.id].vec.(*vector[T])
	return v
}

// setHead stores v as the slice's head, its byte count unknown (see entry.bytes). Callers hold s.mu
// for writing.
func setHead[T any](s *Session, sl Slice[T], v *vector[T]) {
	setHeadBytes(s, sl, v, uncounted)
}

// appendHead stores v, the slice's head with items appended, as the slice's head, keeping its byte
// count (the appended items are not counted, as Append's never are).
func appendHead[T any](s *Session, sl Slice[T], v *vector[T]) {
	var b int64
	if id := int(sl.id); id < len(s.entries) {
		b = s.entries[id].bytes
	}
	setHeadBytes(s, sl, v, b)
}

// setHeadBytes stores v as the slice's head counted as bytes.
func setHeadBytes[T any](s *Session, sl Slice[T], v *vector[T], bytes int64) {
	id := int(sl.id)
	if s.shared || id >= len(s.entries) {
		n := max(len(s.entries), id+1)
		if !s.shared && n <= cap(s.entries) {
			s.entries = s.entries[:n]
		} else {
			e := make([]entry, n, max(n, 8))
			copy(e, s.entries)
			s.entries = e
			s.shared = false
		}
	}
	if v == nil {
		s.entries[id] = entry{retention: sl.retention}
		return
	}
	s.entries[id] = entry{vec: v, retention: sl.retention, bytes: bytes}
}

// ViewOf returns an immutable point-in-time View of the slice in O(1).
func ViewOf[T any](s *Session, sl Slice[T]) View[T] {
	sl.check()
	s = s.target()
	s.mu.Lock()
	v := head(s, sl).publish()
	s.mu.Unlock()
	return View[T]{v}
}

// All returns the slice's items in insertion order, in a new slice the caller
// owns: changing it never changes the session (nil when empty).
func All[T any](s *Session, sl Slice[T]) []T { return ViewOf(s, sl).All() }

// Latest returns the slice's most recently added item, and false when the
// slice is empty.
func Latest[T any](s *Session, sl Slice[T]) (T, bool) { return ViewOf(s, sl).Latest() }

// Where returns, in insertion order and in a new slice, the slice's items for
// which pred returns true (nil when none do). pred runs without the session's
// lock, over a point-in-time view.
func Where[T any](s *Session, sl Slice[T], pred func(T) bool) []T {
	return ViewOf(s, sl).Where(pred)
}

// Len returns the number of items in the slice.
func Len[T any](s *Session, sl Slice[T]) int { return ViewOf(s, sl).Len() }

// Values iterates over the slice's items, in insertion order, as they were
// when Values was called.
func Values[T any](s *Session, sl Slice[T]) iter.Seq[T] { return ViewOf(s, sl).Values() }

// Append adds v to the end of the slice. O(1) amortised (O(log32 n) worst).
// Appending to a LOG slice allocates nothing but the storage of the items
// (one chunk per 32) while no View of the slice is taken in between: LOG
// slices are never rolled back, so their head is grown in place even when a
// Snapshot shares the session's table.
func Append[T any](s *Session, sl Slice[T], v T) {
	sl.check()
	s = writable(s, sl.name, sl.retention)
	s.mu.Lock()
	defer s.mu.Unlock()
	h := head(s, sl)
	if sl.retention == NoRollback && h != nil && h.count > 0 && !h.published.Load() {
		h.pushInPlacePacked(v, sl.packing)
		return
	}
	appendHead(s, sl, h.pushPacked(v, sl.packing))
}

// Seed replaces the slice's contents with a copy of vs.
func Seed[T any](s *Session, sl Slice[T], vs ...T) {
	sl.check()
	s = writable(s, sl.name, sl.retention)
	nv := build(vs)
	s.mu.Lock()
	defer s.mu.Unlock()
	setHead(s, sl, nv)
}

// Clear empties the slice.
func Clear[T any](s *Session, sl Slice[T]) {
	sl.check()
	s = writable(s, sl.name, sl.retention)
	s.mu.Lock()
	defer s.mu.Unlock()
	setHead[T](s, sl, nil)
}

// Replace replaces the slice's contents with f(items), atomically with
// respect to other mutations. items is a fresh copy that f may modify or
// return; the result is copied. If f panics the slice is unchanged (and the
// panic continues).
func Replace[T any](s *Session, sl Slice[T], f func(items []T) []T) {
	sl.check()
	s = writable(s, sl.name, sl.retention)
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := head(s, sl)
	var items []T
	if cur.len() > 0 {
		items = cur.appendTo(make([]T, 0, cur.len()))
	}
	setHead(s, sl, build(f(items)))
}

// Snapshot is a point-in-time capture of a session's slices, taken with
// Session.Snapshot and given back to Session.Restore. It is an immutable
// value, safe to keep, copy and restore any number of times, in any order.
// The zero Snapshot is invalid.
type Snapshot struct {
	owner   *Session
	entries []entry
}

// Session returns the session the snapshot was taken from (nil for the zero
// Snapshot).
func (sn Snapshot) Session() *Session { return sn.owner }

// Snapshot captures the current contents of every slice in O(1): it shares
// the session's immutable heads; the next mutation copies the table of heads
// (O(number of slices declared), independent of the number of items).
func (s *Session) Snapshot() Snapshot {
	s = s.target()
	s.mu.Lock()
	s.shared = true
	sn := Snapshot{owner: s, entries: s.entries}
	s.mu.Unlock()
	return sn
}

// Restore puts every STATE slice back to its content at sn and keeps every
// LOG slice as it is now (LOG slices are never rolled back). It costs
// O(number of slices declared). Restoring the same snapshot again, or an
// older or newer one, is allowed. It panics if sn was not taken from s
// (see Transactional for an error-returning form).
func (s *Session) Restore(sn Snapshot) {
	if s.base != nil {
		panic(&ReadOnlyError{Session: s.id})
	}
	if err := s.checkSnapshot(sn); err != nil {
		panic(err.Error())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := max(len(s.entries), len(sn.entries))
	out := make([]entry, n)
	for i := range out {
		var cur, old entry
		if i < len(s.entries) {
			cur = s.entries[i]
		}
		if i < len(sn.entries) {
			old = sn.entries[i]
		}
		if cur.retention == NoRollback {
			out[i] = cur
		} else {
			out[i] = entry{vec: old.vec, retention: cur.retention}
		}
	}
	s.entries = out
	s.shared = false
}

func (s *Session) checkSnapshot(sn Snapshot) error {
	if sn.owner == nil {
		return &SnapshotError{msg: "session: restore of a zero Snapshot"}
	}
	if sn.owner != s {
		return &SnapshotError{msg: "session: snapshot of session " + strconv.Quote(sn.owner.id) +
			" cannot be restored into session " + strconv.Quote(s.id)}
	}
	return nil
}

// SnapshotError reports a snapshot that cannot be restored into a session.
type SnapshotError struct{ msg string }

// Error returns the message.
func (e *SnapshotError) Error() string { return e.msg }

// Transactional adapts s to resources.Snapshotable, the interface of
// everything a tool call's transaction rolls back: Snapshot returns a
// session.Snapshot (never an error) and Restore accepts only a Snapshot taken
// from s, returning a *SnapshotError otherwise instead of panicking.
func Transactional(s *Session) resources.Snapshotable { return transactional{s} }

type transactional struct{ s *Session }

func (t transactional) Snapshot() (any, error) { return t.s.Snapshot(), nil }

func (t transactional) Restore(snap any) error {
	sn, ok := snap.(Snapshot)
	if !ok {
		if p, isPtr := snap.(*Snapshot); isPtr && p != nil {
			sn, ok = *p, true
		}
	}
	if !ok {
		return &SnapshotError{msg: "session: cannot restore a value that is not a session.Snapshot"}
	}
	if err := t.s.checkSnapshot(sn); err != nil {
		return err
	}
	t.s.Restore(sn)
	return nil
}
