package session

import (
	"context"
	"sync/atomic"

	"github.com/winkgen/wink/runtime/internal/txlock"
)

// Access says what a call may do to a session: ReadWrite calls hold the
// session's lock exclusively; ReadOnly calls share it with each other and see
// a read-only view of the session (ReadOnly).
type Access uint8

const (
	// ReadWrite takes the session's lock exclusively.
	ReadWrite Access = iota
	// ReadOnly shares the session's lock with other ReadOnly calls.
	ReadOnly
)

// txLock is a session's transaction lock: a FIFO, context-aware readers/writer lock (ReadWrite takes
// it exclusively) whose uncontended acquire and release are one compare-and-swap each. The zero value
// is ready to use.
type txLock struct{ l txlock.Lock }

func (l *txLock) acquire(ctx context.Context, a Access) error { return l.l.Acquire(ctx, a != ReadOnly) }

func (l *txLock) release(a Access) { l.l.Release(a != ReadOnly) }

// Tx is one call's transaction on a session, from Begin to End.
//
// Its methods are safe for concurrent use: a goroutine the call started may keep the Tx and call Join or
// StoreTx while another ends it. End first marks the transaction ending; from then on Join changes nothing
// and returns an error matching ErrTxEnded, and StoreTx returns nil. A participant that Join accepted
// before the mark is part of the commit (its Prepare and Done run); one refused is not, so a
// transaction never commits half of what was joined to it. Session and Access keep answering after End:
// the session is then outside any transaction.
//
// A Tx is small (three words) and its bookkeeping for a store or participants is allocated only
// when there is some, so that a caller may keep it in memory of its own (BeginIn).
type Tx struct {
	s      *Session
	st     atomic.Uint32 // txBegun | txEnding | txLocked: see the design note in txstate.go
	access Access
	lockAs Access   // how the lock is held: access, or ReadWrite for a stored session
	x      *txExtra // nil until a store's transaction or a participant needs it; written under txLocked
}

// txExtra is what only some transactions need: a stored session's, or one with participants.
type txExtra struct {
	stx    StoreTx // the store's transaction of a stored session
	heads  []any   // the stored slices' heads at Begin (STATE change detection)
	lens   []int
	joined []Participant
}

// extra returns tx's txExtra, making it on first use; tx is locked, or not yet published (BeginIn).
func (tx *Tx) extra() *txExtra {
	if tx.x == nil {
		tx.x = new(txExtra)
	}
	return tx.x
}

// joined returns the participants (nil when none joined); tx is ending (no Join changes them).
func (tx *Tx) joined() []Participant {
	if tx.x == nil {
		return nil
	}
	return tx.x.joined
}

// Participant is work that must be kept exactly when a transaction's writes are: an idempotency
// ledger's record of the call that made them, say (see Tx.Join).
type Participant interface {
	// Prepare runs inside the store's transaction, just before it commits; storeTx is the store's
	// transaction (the StoreTx Begin returned; nil for a session without a store), which a participant
	// sharing the store's database writes in. An error aborts the commit: End returns it, nothing
	// is written, and the STATE slices go back to their content at Begin.
	Prepare(ctx context.Context, storeTx any) error
	// Done runs once the transaction has ended; committed reports whether its writes, and what
	// Prepare wrote in it, are kept.
	Done(ctx context.Context, committed bool)
}

// Join makes p part of the transaction: End calls p.Prepare before the commit and p.Done after it,
// in the order of the Join calls. A transaction with participants commits (a stored session writes
// a new version) even when it changed nothing.
//
// Once End has begun (from any goroutine), Join changes nothing and returns an error matching
// ErrTxEnded: p is then no part of the transaction, and neither its Prepare nor its Done is called.
// On a Tx that was never begun it returns an error matching ErrTxNotBegun.
func (tx *Tx) Join(p Participant) error {
	if err := tx.lock(); err != nil {
		return err
	}
	x := tx.extra()
	x.joined = append(x.joined, p)
	tx.unlock()
	return nil
}

// Begin starts a call's transaction on s: it waits for s's lock (exclusive
// for ReadWrite, shared for ReadOnly) until ctx is done, behind the calls that
// were waiting before it (first come, first served). End must be called
// exactly once on the returned Tx.
func (s *Session) Begin(ctx context.Context, access Access) (*Tx, error) {
	tx := new(Tx)
	if err := s.BeginIn(ctx, access, tx); err != nil {
		return nil, err
	}
	return tx, nil
}

// BeginIn is Begin starting the transaction in *tx, memory the caller provides, instead of a new
// Tx: the tool dispatcher keeps it in the allocation of the call's ToolContext, which lives as long
// as any reference to the call's Tx. tx must be a zero Tx (a Tx is begun once; it must not be copied
// once begun). On error *tx stays zero.
func (s *Session) BeginIn(ctx context.Context, access Access, tx *Tx) error {
	if tx.st.Load() != 0 || tx.s != nil {
		panic("session: BeginIn with a Tx that was already begun; give it a zero Tx")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	s = s.target()
	// A stored session serialises every transaction, read-only ones
	// included: each may commit (the log entries of the call, a policy's
	// bookkeeping), and across processes the store's lock is exclusive.
	lockAs := access
	if s.store != nil {
		lockAs = ReadWrite
	}
	if err := s.lock().acquire(ctx, lockAs); err != nil {
		return err
	}
	tx.s, tx.access, tx.lockAs = s, access, lockAs
	if s.store != nil {
		if err := s.storeBegin(ctx, tx); err != nil {
			s.lock().release(lockAs)
			tx.s, tx.access, tx.lockAs, tx.x = nil, 0, 0, nil
			return err
		}
	}
	tx.st.Store(txBegun) // publishes the fields above to the goroutines that see it begun
	return nil
}

// Session returns the session the call's handler sees: the session itself
// for ReadWrite, its read-only view for ReadOnly; nil until the Tx is begun.
// After End it still returns the session, whose writes then belong to no
// transaction.
func (tx *Tx) Session() *Session {
	if tx.st.Load() != 0 && tx.access == ReadWrite { // every other state bit is set after txBegun
		return tx.s
	}
	return tx.otherSession()
}

// otherSession is Session for a Tx not begun or ReadOnly.
func (tx *Tx) otherSession() *Session {
	if tx.st.Load()&txBegun == 0 {
		return nil
	}
	if tx.access == ReadOnly {
		return tx.s.ReadOnly()
	}
	return tx.s
}

// Access returns the transaction's access mode.
func (tx *Tx) Access() Access { return tx.access }

// StoreTx returns the store's transaction of a stored session (the StoreTx the store's Begin
// returned, which a Participant's Prepare also receives), or nil for a session without a store. Work
// that must be atomic with the session's commit, or that must not take a second connection from the
// store's pool while this transaction holds one, runs in it (pgstore's Tx gives its PostgreSQL
// transaction). It returns nil once End has begun: the store's transaction is then being committed or
// rolled back. The store's transaction is the call's: use it on one goroutine at a time, and not past
// the call (pgstore's fails with pgx.ErrTxClosed once committed).
func (tx *Tx) StoreTx() any {
	if tx.lock() != nil {
		return nil
	}
	var stx StoreTx
	if tx.x != nil {
		stx = tx.x.stx
	}
	tx.unlock()
	if stx == nil {
		return nil
	}
	return stx
}

// End ends the transaction: for a stored session it commits what the
// transaction changed (see Store), then it releases the session's lock. If
// the commit fails, the error is returned and the session is reloaded from
// the store at its next Begin. Calling End again, from any goroutine, does
// nothing; so does End on a Tx that was never begun.
func (tx *Tx) End(ctx context.Context) error {
	if !tx.markEnding() {
		return nil
	}
	if tx.x == nil { // nothing to commit: no deferred release, which runs no code of the caller's
		tx.s.lock().release(tx.lockAs)
		return nil
	}
	defer tx.s.lock().release(tx.lockAs)
	if tx.x.stx != nil {
		return tx.s.storeEnd(ctx, tx)
	}
	if len(tx.x.joined) == 0 {
		return nil
	}
	err := tx.prepare(ctx, nil)
	tx.finish(ctx, err == nil)
	return err
}

// prepare runs the participants' Prepare, stopping at the first error.
func (tx *Tx) prepare(ctx context.Context, stx any) error {
	for _, p := range tx.joined() {
		if err := p.Prepare(ctx, stx); err != nil {
			return err
		}
	}
	return nil
}

// finish runs the participants' Done.
func (tx *Tx) finish(ctx context.Context, committed bool) {
	for _, p := range tx.joined() {
		p.Done(ctx, committed)
	}
}

// lock returns s's transaction lock.
func (s *Session) lock() *txLock { return &s.tx }
