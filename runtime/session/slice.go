package session

import (
	"iter"
	"strconv"
	"sync/atomic"
)

// Retention says what a slice keeps when a snapshot is restored (a tool
// call's transaction rolling back): WINK's STATE and LOG slices.
type Retention uint8

const (
	// Rollback slices (STATE) hold working state (plans, visibility, policy
	// state). Restore puts them back to their content at the snapshot.
	Rollback Retention = iota
	// NoRollback slices (LOG) are historical records (for example the
	// ToolInvoked telemetry log). Restore never rolls them back: everything
	// appended after the snapshot is kept.
	NoRollback
)

// String returns "STATE" or "LOG" (WINK's names for the two retentions).
func (r Retention) String() string {
	switch r {
	case Rollback:
		return "STATE"
	case NoRollback:
		return "LOG"
	}
	return "Retention(" + strconv.Itoa(int(r)) + ")"
}

// ids are process-wide; slice ids index a session's table of slice heads.
var (
	sliceIDs atomic.Uint32
	eventIDs atomic.Uint64
)

// Slice is a typed handle to one slice of session state: an ordered list of
// T values with a Retention. Declare each slice once, as a package variable, with
// NewSlice; the handle is a small value that is cheap to copy. The zero Slice
// is invalid and every function panics when given one.
type Slice[T any] struct {
	id        uint32
	retention Retention
	name      string
	codec     *Codec[T]  // WithCodec; nil: the slice is not stored
	packing   Packing[T] // WithPacking; nil: items are kept as values
	// upgrade (WithUpgrade) loads a stored item the codec no longer decodes.
	upgrade func(stored []byte, err error) (T, error)
}

// NewSlice declares a slice of T values named name with the given retention.
// Every call declares a distinct slice, even with an equal name; the name is
// used in error messages and telemetry only. It panics on an unknown retention.
//
// WithCodec makes the slice storable (see Store).
func NewSlice[T any](name string, retention Retention, opts ...SliceOption[T]) Slice[T] {
	if retention > NoRollback {
		panic("session: NewSlice " + strconv.Quote(name) + ": unknown retention " + retention.String())
	}
	sl := Slice[T]{id: sliceIDs.Add(1), retention: retention, name: name}
	for _, o := range opts {
		o(&sl)
	}
	return sl
}

// Name returns the name given to NewSlice.
func (sl Slice[T]) Name() string { return sl.name }

// Retention returns the slice's retention.
func (sl Slice[T]) Retention() Retention { return sl.retention }

func (sl Slice[T]) check() {
	if sl.id == 0 {
		panic("session: use of a zero Slice; declare slices with NewSlice")
	}
}

// Event is a typed handle to an event kind whose payload is an E. Declare
// each event once, as a package variable, with NewEvent; reducers are
// registered on it with On and run by Apply. The zero Event is invalid.
type Event[E any] struct {
	id   uint64
	name string
}

// NewEvent declares an event kind named name carrying E payloads. Every call
// declares a distinct event; the name is used in error messages only.
func NewEvent[E any](name string) Event[E] {
	return Event[E]{id: eventIDs.Add(1), name: name}
}

// Name returns the name given to NewEvent.
func (ev Event[E]) Name() string { return ev.name }

func (ev Event[E]) check() {
	if ev.id == 0 {
		panic("session: use of a zero Event; declare events with NewEvent")
	}
}

// View is an immutable, point-in-time view of one slice's items. It never
// changes after it is obtained, whatever happens to the session later, and is
// safe to use from any goroutine. Obtaining one is O(1); it shares storage
// with the session. The zero View is empty.
type View[T any] struct {
	v *vector[T]
}

// Len returns the number of items.
func (w View[T]) Len() int { return w.v.len() }

// At returns the item at index i (0 is the oldest). It panics if i is out of
// range.
func (w View[T]) At(i int) T {
	if i < 0 || i >= w.v.len() {
		panic("session: View.At index " + strconv.Itoa(i) + " out of range [0:" + strconv.Itoa(w.v.len()) + "]")
	}
	return w.v.at(i)
}

// Latest returns the most recently added item, and false when the view is
// empty.
func (w View[T]) Latest() (T, bool) {
	if w.v.len() == 0 {
		var zero T
		return zero, false
	}
	return w.v.tail.items[w.v.tailLen()-1], true
}

// All returns the items in insertion order in a new slice the caller owns
// (nil when empty).
func (w View[T]) All() []T {
	if w.v.len() == 0 {
		return nil
	}
	return w.v.appendTo(make([]T, 0, w.v.len()))
}

// Where returns, in insertion order and in a new slice, the items for which
// pred returns true (nil when none do).
func (w View[T]) Where(pred func(T) bool) []T {
	var out []T
	w.v.each(func(_ int, x T) bool {
		if pred(x) {
			out = append(out, x)
		}
		return true
	})
	return out
}

// Values iterates over the items in insertion order without copying them.
func (w View[T]) Values() iter.Seq[T] {
	return func(yield func(T) bool) {
		w.v.each(func(_ int, x T) bool { return yield(x) })
	}
}

type opKind uint8

const (
	opNone opKind = iota
	opAppend
	opReplace
	opClear
)

// Op is what a reducer returns: the change to make to its slice. Build one
// with Appended, Replaced, Cleared or Unchanged; the zero Op is Unchanged.
type Op[T any] struct {
	kind  opKind
	items []T
}

// Appended returns an Op that appends vs, in order, to the slice.
func Appended[T any](vs ...T) Op[T] { return Op[T]{kind: opAppend, items: vs} }

// Replaced returns an Op that replaces the slice's contents with a copy of vs.
func Replaced[T any](vs ...T) Op[T] { return Op[T]{kind: opReplace, items: vs} }

// Cleared returns an Op that empties the slice.
func Cleared[T any]() Op[T] { return Op[T]{kind: opClear} }

// Unchanged returns an Op that leaves the slice as it is (the zero Op).
func Unchanged[T any]() Op[T] { return Op[T]{} }
