package session

import (
	"context"
	"errors"
	"strconv"
)

// Stage appends v to the LOG slice sl so that it is committed by the session's next transaction, and
// only if guard, run inside that transaction on the slice as the store then holds it, accepts it. The
// value is visible at once (queries see it, so a policy checking before the transaction does too),
// but it is kept exactly when the next transaction commits: a record that must be atomic with the work
// of the call that follows (a person's approval of a held call and the call's run, say).
//
// guard runs twice: now, on what this process holds, and again in the next transaction (Begin), on
// what the store holds then, under the store's lock. When it refuses then, Begin fails with its error
// (the call does not run), and the value is dropped. A value staged on a session without a store is
// appended at once (its next transaction has nothing newer to show). Stage takes the session's
// transaction lock, so it waits for a transaction in progress; it fails for a STATE slice.
func Stage[T any](ctx context.Context, s *Session, sl Slice[T], v T, guard func(View[T]) error) error {
	sl.check()
	if s.base != nil {
		return &ReadOnlyError{Session: s.id, Slice: sl.name}
	}
	if sl.retention != NoRollback {
		return errors.New("session: Stage needs a LOG slice; " + strconv.Quote(sl.name) + " is a STATE slice")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	lockAs := ReadWrite
	if err := s.lock().acquire(ctx, lockAs); err != nil {
		return err
	}
	defer s.lock().release(lockAs)
	if guard != nil {
		if err := guard(ViewOf(s, sl)); err != nil {
			return err
		}
	}
	if s.store == nil {
		Append(s, sl, v)
		return nil
	}
	s.mu.Lock()
	base := head(s, sl).publish() // never grown in place again: the undo puts it back as it is
	s.mu.Unlock()
	Append(s, sl, v)
	s.staged = append(s.staged, staged{
		undo: func(s *Session) { setHead(s, sl, base) },
		redo: func(s *Session) error {
			if guard != nil {
				if err := guard(ViewOf(s, sl)); err != nil {
					return err
				}
			}
			Append(s, sl, v)
			return nil
		},
	})
	return nil
}

// staged is a value Stage appended, waiting for the next transaction.
type staged struct {
	undo func(s *Session)       // takes the value out (under s.mu), before the store's state is loaded
	redo func(s *Session) error // puts it back after the load, if the guard accepts it
}

// unstage takes the staged values out of the session before a transaction loads the store's state, and
// returns them for restage. Called with the transaction lock held.
func (s *Session) unstage() []staged {
	st := s.staged
	if len(st) == 0 {
		return nil
	}
	s.staged = nil
	s.mu.Lock()
	for i := len(st) - 1; i >= 0; i-- {
		st[i].undo(s)
	}
	s.mu.Unlock()
	return st
}

// restage puts the staged values back, in order, once the store's state is loaded; the first guard
// that refuses stops it with its error.
func (s *Session) restage(st []staged) error {
	for _, x := range st {
		if err := x.redo(s); err != nil {
			return err
		}
	}
	return nil
}
