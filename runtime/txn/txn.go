package txn

import (
	"errors"
	"strconv"

	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/session"
)

// Releaser is implemented by the parts (resources.Snapshotable) whose snapshots hold storage that
// should be freed as soon as the snapshot is no longer needed (vfs.Host).
// A Snap calls Release on commit and after a restore.
type Releaser interface {
	// Release frees the storage held by snap.
	Release(snap any)
}

// Parts names what a transaction covers. Every field is optional.
type Parts struct {
	// Session's STATE slices are captured (its LOG slices are never rolled
	// back).
	Session *session.Session
	// Resources contributes Snapshotables(): its constructed singletons and
	// the current tool-call scope's instances that are Snapshotable.
	Resources *resources.Context
	// Others are further parts, filesystems typically. A part that is also
	// one of Resources' Snapshotables is captured once. Nil entries are
	// skipped.
	Others []resources.Snapshotable
}

// item is one captured part.
type item struct {
	part resources.Snapshotable
	snap any
}

// inlineItems is how many parts a Snap holds without allocating.
const inlineItems = 4

// Snap is a captured state of a set of Parts: the session's snapshot plus one
// snapshot per Snapshotable part. Take returns one; Capture fills one in
// place (the dispatcher keeps a Snap in its pooled call frame, so a
// transaction with up to four parts allocates nothing of its own).
//
// A Snap may be restored any number of times until it is released. It is not
// safe for concurrent use.
type Snap struct {
	sess    session.Snapshot
	hasSess bool
	sessP   *session.Session
	n       int
	inline  [inlineItems]item
	more    []item
	taken   bool
}

// Take captures p. On error nothing is kept: the snapshots taken before the
// failing part are released and the error names the part by position.
func Take(p Parts) (*Snap, error) {
	s := new(Snap)
	if err := s.Capture(p); err != nil {
		return nil, err
	}
	return s, nil
}

// Capture captures p into s, replacing what s held (without releasing it:
// call Release first if s held a snapshot). The cost is the parts' own
// snapshot costs: O(1) for a session and a vfs.Memory, an lstat walk for a
// vfs.Host.
func (s *Snap) Capture(p Parts) error {
	s.empty()
	if p.Session != nil {
		s.sess, s.hasSess, s.sessP = p.Session.Snapshot(), true, p.Session
	}
	if p.Resources != nil {
		for _, r := range p.Resources.Snapshotables() {
			if err := s.add(r); err != nil {
				return err
			}
		}
	}
	for _, o := range p.Others {
		if o == nil || s.has(o) {
			continue
		}
		if err := s.add(o); err != nil {
			return err
		}
	}
	s.taken = true
	return nil
}

// add snapshots part and appends it; on error it releases what s holds.
func (s *Snap) add(part resources.Snapshotable) error {
	sn, err := part.Snapshot()
	if err != nil {
		idx := s.n
		s.Release()
		return &Error{Op: "snapshot", Part: idx, Err: err}
	}
	it := item{part: part, snap: sn}
	if s.n < inlineItems {
		s.inline[s.n] = it
	} else {
		s.more = append(s.more, it)
	}
	s.n++
	return nil
}

// at returns the i-th captured item.
func (s *Snap) at(i int) *item {
	if i < inlineItems {
		return &s.inline[i]
	}
	return &s.more[i-inlineItems]
}

// has reports whether part is already captured (identity comparison; parts of
// non-comparable dynamic types are never considered equal).
func (s *Snap) has(part resources.Snapshotable) bool {
	for i := 0; i < s.n; i++ {
		if same(s.at(i).part, part) {
			return true
		}
	}
	return false
}

// same compares two interface values without panicking on non-comparable
// dynamic types.
func same(a, b resources.Snapshotable) (eq bool) {
	defer func() {
		if recover() != nil {
			eq = false
		}
	}()
	return a == b
}

// Len returns the number of Snapshotable parts captured (the session not
// counted).
func (s *Snap) Len() int { return s.n }

// Taken reports whether s holds a captured state.
func (s *Snap) Taken() bool { return s.taken }

// Restore puts every captured part back to its captured state, in reverse
// order of capture, and then the session's STATE slices. Every part is
// restored even when one fails; the failures are joined, each an *Error.
func (s *Snap) Restore() error {
	if !s.taken {
		return nil
	}
	var errs []error
	for i := s.n - 1; i >= 0; i-- {
		it := s.at(i)
		if err := restorePart(it); err != nil {
			errs = append(errs, &Error{Op: "restore", Part: i, Err: err})
		}
	}
	if s.hasSess {
		s.sessP.Restore(s.sess)
	}
	return errors.Join(errs...)
}

// restorePart restores one part, containing a panic (so that the other
// parts and the session are restored all the same).
func restorePart(it *item) (err error) {
	defer func() {
		if pv := recover(); pv != nil {
			err = &panicError{pv}
		}
	}()
	return it.part.Restore(it.snap)
}

// panicError is a part's Restore that panicked.
type panicError struct{ v any }

func (e *panicError) Error() string {
	switch v := e.v.(type) {
	case error:
		return "panicked: " + v.Error()
	case string:
		return "panicked: " + v
	}
	return "panicked"
}

// Release frees the storage of the captured snapshots (Releaser parts) and
// empties s. Restoring s afterwards does nothing. A part's Release that
// panics does not stop the others: every part is released and s emptied, then
// the first panic continues (so a Snap is never released twice).
func (s *Snap) Release() {
	i := 0
	defer func() {
		if i < s.n { // part i's Release panicked: release the others, without stopping at a panic
			for i++; i < s.n; i++ {
				releasePart(s.at(i))
			}
		}
		s.empty()
	}()
	for ; i < s.n; i++ {
		it := s.at(i)
		if r, ok := it.part.(Releaser); ok {
			r.Release(it.snap)
		}
	}
}

// releasePart releases it when its part is a Releaser, ignoring a panic.
func releasePart(it *item) {
	defer func() { _ = recover() }()
	if r, ok := it.part.(Releaser); ok {
		r.Release(it.snap)
	}
}

// empty makes s zero, writing only what a capture set: the dispatcher keeps a Snap in every call's
// frame, and zeroing the whole value (four inline parts) on every capture and release cost a third of
// a capture when the collector was running (each pointer cleared goes through a write barrier).
func (s *Snap) empty() {
	if s.hasSess {
		s.sess, s.hasSess, s.sessP = session.Snapshot{}, false, nil
	}
	for i := range min(s.n, inlineItems) { // one store per slot: clear() goes through the runtime's bulk barrier
		s.inline[i] = item{}
	}
	s.more, s.n, s.taken = nil, 0, false
}

// Error reports a part that failed to snapshot or restore.
type Error struct {
	// Op is "snapshot" or "restore".
	Op string
	// Part is the part's position among the captured parts (Resources'
	// Snapshotables first, then Others).
	Part int
	// Err is the part's error.
	Err error
}

// Error returns "txn: snapshot of part N failed: <err>" (or restore).
func (e *Error) Error() string {
	return "txn: " + e.Op + " of part " + strconv.Itoa(e.Part) + " failed: " + e.Err.Error()
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// Run runs fn in a transaction over p: it captures p, runs fn and, when fn
// returns an error or panics, restores the captured state (then returns the
// error joined with any restore error, or continues the panic). On success
// the snapshot is released. A failure to capture returns that error and fn
// does not run.
func Run(p Parts, fn func() error) (err error) {
	var s Snap
	if err := s.Capture(p); err != nil {
		return err
	}
	ok := false
	defer func() {
		if ok {
			s.Release()
			return
		}
		rerr := s.Restore()
		s.Release()
		if pv := recover(); pv != nil {
			panic(pv)
		}
		err = errors.Join(err, rerr)
	}()
	err = fn()
	ok = err == nil
	return err
}
