package session

import (
	"runtime/debug"
	"strconv"
)

// Reducer computes the change an event makes to one slice. It receives an
// immutable view of the slice as left by the reducers that ran before it in
// the same Apply, and the event payload. It should be pure: no side effects,
// no calls into the session. Returning an error (or panicking) aborts the
// whole Apply and leaves every slice unchanged.
type Reducer[E, T any] func(items View[T], e E) (Op[T], error)

// reducerFunc is how a registered reducer is stored: typed by the event only.
type reducerFunc[E any] func(s *Session, e E) error

// On registers reduce to run on sl for every Apply of ev on s. Reducers
// registered for one event run in registration order. It panics on a zero
// Slice or Event or a nil reducer.
func On[E, T any](s *Session, ev Event[E], sl Slice[T], reduce Reducer[E, T]) {
	ev.check()
	sl.check()
	if reduce == nil {
		panic("session: On " + strconv.Quote(ev.name) + ": nil reducer")
	}
	s = s.target()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reducers == nil {
		s.reducers = make(map[uint64][]any)
	}
	if sl.retention == Rollback {
		if s.stateEvents == nil {
			s.stateEvents = make(map[uint64]bool)
		}
		s.stateEvents[ev.id] = true
	}
	index := len(s.reducers[ev.id])
	f := reducerFunc[E](func(s *Session, e E) (err error) {
		defer func() {
			if r := recover(); r != nil {
				de := &ApplyError{Event: ev.name, Slice: sl.name, Reducer: index, Panicked: true, Value: r, Stack: debug.Stack()}
				if e, ok := r.(error); ok {
					de.Err = e
				}
				err = de
			}
		}()
		op, rerr := reduce(View[T]{head(s, sl).publish()}, e)
		if rerr != nil {
			return &ApplyError{Event: ev.name, Slice: sl.name, Reducer: index, Err: rerr}
		}
		applyOp(s, sl, op)
		return nil
	})
	s.reducers[ev.id] = append(s.reducers[ev.id], f)
}

// OnAppend registers a reducer that appends item(e) to sl for every Apply
// of ev: the common "the event records one item" case.
func OnAppend[E, T any](s *Session, ev Event[E], sl Slice[T], item func(e E) T) {
	if item == nil {
		panic("session: OnAppend " + strconv.Quote(ev.name) + ": nil item function")
	}
	On(s, ev, sl, func(_ View[T], e E) (Op[T], error) { return Appended(item(e)), nil })
}

func applyOp[T any](s *Session, sl Slice[T], op Op[T]) {
	switch op.kind {
	case opAppend:
		if len(op.items) == 0 {
			return
		}
		v := head(s, sl)
		for _, x := range op.items {
			v = v.pushPacked(x, sl.packing)
		}
		appendHead(s, sl, v)
	case opReplace:
		setHead(s, sl, build(op.items))
	case opClear:
		setHead[T](s, sl, nil)
	}
}

// Apply runs every reducer registered for ev on s, in registration order,
// as one atomic step: other goroutines see either none or all of the changes,
// and if any reducer returns an error or panics, no slice changes (LOG slices
// included) and the error is returned as an *ApplyError. Applying an
// event with no reducers does nothing and returns nil.
//
// On a read-only view (Session.ReadOnly), an event with a reducer on a STATE slice is refused with a
// *ReadOnlyError and nothing changes; an event whose reducers all write LOG slices is applied.
func Apply[E any](s *Session, ev Event[E], e E) error {
	ev.check()
	if s.base != nil {
		s.base.mu.Lock()
		touchesState := s.base.stateEvents[ev.id]
		s.base.mu.Unlock()
		if touchesState {
			return &ReadOnlyError{Session: s.id, Event: ev.name}
		}
		s = s.base
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.reducers[ev.id]
	if len(rs) == 0 {
		return nil
	}
	saved, savedShared := s.entries, s.shared
	s.shared = true // the first change copies the table, so saved stays intact
	for _, r := range rs {
		if err := r.(reducerFunc[E])(s, e); err != nil {
			s.entries, s.shared = saved, savedShared
			return err
		}
	}
	if s.shared { // nothing changed: the table is still saved
		s.shared = savedShared
	}
	return nil
}

// ApplyError reports a reducer that failed during Apply. The call
// changed nothing.
type ApplyError struct {
	Event    string // the event's name
	Slice    string // the reducer's slice's name
	Reducer  int    // the reducer's position among the event's reducers (0-based)
	Err      error  // the reducer's error, or the panic value when it is an error
	Panicked bool   // the reducer panicked
	Value    any    // the panic value
	Stack    []byte // the stack of the panic, for telemetry (never for the model)
}

// Error returns `session: reducer N for event "E" on slice "S" failed: ...`,
// or `... panicked: ...` for a panic.
func (e *ApplyError) Error() string {
	head := "session: reducer " + strconv.Itoa(e.Reducer) + " for event " + strconv.Quote(e.Event) +
		" on slice " + strconv.Quote(e.Slice)
	if e.Panicked {
		return head + " panicked: " + panicText(e.Value)
	}
	return head + " failed: " + e.Err.Error()
}

// Unwrap returns Err.
func (e *ApplyError) Unwrap() error { return e.Err }

func panicText(v any) string {
	switch x := v.(type) {
	case error:
		return x.Error()
	case string:
		return x
	case interface{ String() string }:
		return x.String()
	}
	return fmtAny(v)
}
