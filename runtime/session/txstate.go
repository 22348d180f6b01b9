package session

import (
	"errors"
	"runtime"
)

// A Tx is shared between the goroutine that ends it (the tool dispatcher's, at the end of the call) and
// goroutines the call started, which may keep it and call its methods at any time. Its state word, st,
// orders them:
//
//   - BeginIn writes the Tx's fields, then stores txBegun: a goroutine that loads txBegun sees them
//     (Session, Access, and ToolContext.Tx's "not begun yet", on goroutines a policy started before the
//     dispatcher began the transaction).
//   - Join and StoreTx hold txLocked while they write or read x, and refuse once txEnding is set.
//   - End sets txEnding with a compare-and-swap that waits for a holder of txLocked: every Join that
//     returned nil happened before it, and none changes x after it. End then reads x alone; nothing
//     joined during the commit is half in it. A second End, concurrent or later, finds txEnding and
//     returns.
//
// The lock is held only for an append or a load, so a waiter yields instead of sleeping. The
// uncontended cost is one atomic store in BeginIn and one compare-and-swap in End; the word fits in
// the padding of the Tx's three words.
const (
	txBegun = 1 << iota
	txEnding
	txLocked
)

// ErrTxEnded is matched (errors.Is) by the error Tx.Join returns once the transaction's End has begun:
// the work was not joined, and nothing of it runs.
var ErrTxEnded = errors.New("session: the transaction has ended (join work while the call runs, before the dispatcher commits)")

// ErrTxNotBegun is matched by the error Tx.Join returns on a Tx that Begin or BeginIn never began.
var ErrTxNotBegun = errors.New("session: the transaction was never begun (use the Tx Begin returned)")

// lock takes tx's lock, unless tx is not begun or is ending.
func (tx *Tx) lock() error {
	for {
		s := tx.st.Load()
		switch {
		case s&txBegun == 0:
			return ErrTxNotBegun
		case s&txEnding != 0:
			return ErrTxEnded
		case s&txLocked == 0 && tx.st.CompareAndSwap(s, s|txLocked):
			return nil
		}
		runtime.Gosched()
	}
}

func (tx *Tx) unlock() { tx.st.Store(tx.st.Load() &^ txLocked) }

// markEnding marks tx ending and reports whether this call did (false: never begun, or already ending).
func (tx *Tx) markEnding() bool {
	for {
		s := tx.st.Load()
		if s&txBegun == 0 || s&txEnding != 0 {
			return false
		}
		if s&txLocked == 0 && tx.st.CompareAndSwap(s, s|txEnding) {
			return true
		}
		runtime.Gosched()
	}
}
