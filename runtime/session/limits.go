package session

import (
	"errors"
	"strconv"
)

// The limits of one stored item: the bounds the decoders winkgen emits for //wink:state types (and
// the stores' readers) apply, and the bounds a commit checks every item it writes against, by reading
// it back with the slice's own decoder. They are the single source of truth: a value a store could not
// load is refused at its commit (an *UnstorableError), never written.
const (
	// MaxItemBytes bounds the encoding of one stored item (16 MiB).
	MaxItemBytes = 16 << 20
	// MaxItemDepth bounds the nesting of one stored item's JSON encoding (objects and arrays).
	MaxItemDepth = 64
)

// UnstorableError reports a value a commit refused because the store could not read it back: its
// encoding is larger than MaxItemBytes, nests deeper than MaxItemDepth, or does not decode with the
// slice's codec (a value its own type's constraints reject, say). The transaction was rolled back: the
// store holds what it held before, and the session is reloaded from it at its next transaction.
type UnstorableError struct {
	Session string // the session's ID
	Slice   string // the slice's name
	Item    int    // the item's index in the slice
	Err     error  // why it would not read back
}

// Error returns `session "id": slice "plan" item 3 cannot be stored (it would not read back): ...`.
func (e *UnstorableError) Error() string {
	return "session " + strconv.Quote(e.Session) + ": slice " + strconv.Quote(e.Slice) + " item " + strconv.Itoa(e.Item) +
		" cannot be stored (it would not read back): " + e.Err.Error()
}

// Unwrap returns the reason.
func (e *UnstorableError) Unwrap() error { return e.Err }

// ErrDropItem, returned by a WithUpgrade function for an item of a STATE slice, drops the item: the
// slice loads without it (and the store keeps it until the slice is next written).
var ErrDropItem = errors.New("session: drop the stored item")

// WithUpgrade recovers a slice whose stored items no longer decode (a type changed in a redeploy):
// when the codec's Decode fails on a stored item, upgrade gets the stored encoding and the decoding
// error and returns the value to load instead (migrating the old form), or ErrDropItem to leave a
// STATE slice's item out, or an error, which is reported as the *CorruptError it would have been. The
// rest of the session is unaffected either way. An upgraded STATE slice is written in the new form at
// its next change; LOG items are upgraded at every load (their stored form is never rewritten), and
// cannot be dropped (a LOG slice's length is what the store appends after). Declare the slice with the
// same option on every process that shares the session:
//
//	var Plans = session.NewSlice[Plan]("plan", session.Rollback, session.WithCodec(WinkPlanCodec),
//		session.WithUpgrade(func(stored []byte, err error) (Plan, error) {
//			// OldPlan and its codec WinkOldPlanCodec are kept from the previous release.
//			if old, derr := WinkOldPlanCodec.Decode(stored); derr == nil {
//				return Plan{Objective: old.Goal}, nil
//			}
//			return Plan{}, session.ErrDropItem
//		}))
func WithUpgrade[T any](upgrade func(stored []byte, err error) (T, error)) SliceOption[T] {
	return func(sl *Slice[T]) {
		if upgrade == nil {
			panic("session: WithUpgrade for slice " + strconv.Quote(sl.name) + ": nil function")
		}
		sl.upgrade = upgrade
	}
}
