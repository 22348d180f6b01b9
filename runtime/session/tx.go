package session

import (
	"context"

	"golang.org/x/sync/semaphore"
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

// writerWeight is the weight a ReadWrite transaction takes of the session's
// semaphore: all of it, so it excludes every other transaction.
const writerWeight = 1 << 30

// txLock is a session's transaction lock: a FIFO, context-aware
// readers/writer lock (a weighted semaphore where a writer takes everything).
type txLock struct{ sem *semaphore.Weighted }

func (l *txLock) acquire(ctx context.Context, a Access) error {
	if a == ReadOnly {
		return l.sem.Acquire(ctx, 1)
	}
	return l.sem.Acquire(ctx, writerWeight)
}

func (l *txLock) release(a Access) {
	if a == ReadOnly {
		l.sem.Release(1)
		return
	}
	l.sem.Release(writerWeight)
}

// Tx is one call's transaction on a session, from Begin to End. It is not
// safe for concurrent use.
type Tx struct {
	s      *Session
	access Access
	done   bool
}

// Begin starts a call's transaction on s: it waits for s's lock (exclusive
// for ReadWrite, shared for ReadOnly) until ctx is done. End must be called
// exactly once on the returned Tx.
func (s *Session) Begin(ctx context.Context, access Access) (*Tx, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	s = s.target()
	if err := s.lock().acquire(ctx, access); err != nil {
		return nil, err
	}
	return &Tx{s: s, access: access}, nil
}

// Session returns the session the call's handler sees: the session itself
// for ReadWrite, its read-only view for ReadOnly.
func (tx *Tx) Session() *Session {
	if tx.access == ReadOnly {
		return tx.s.ReadOnly()
	}
	return tx.s
}

// Access returns the transaction's access mode.
func (tx *Tx) Access() Access { return tx.access }

// End ends the transaction and releases the session's lock. Calling it
// again does nothing.
func (tx *Tx) End(ctx context.Context) error {
	if tx.done {
		return nil
	}
	tx.done = true
	tx.s.lock().release(tx.access)
	return nil
}

// lock returns s's transaction lock, creating it on first use.
func (s *Session) lock() *txLock {
	s.txOnce.Do(func() { s.tx = &txLock{sem: semaphore.NewWeighted(writerWeight)} })
	return s.tx
}
