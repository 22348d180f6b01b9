package session_test

import (
	"context"
	"errors"
	"testing"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/session/internal/storetest"
)

var errTaken = errors.New("already recorded")

// notYet refuses a value already in the slice.
func notYet(v string) func(session.View[string]) error {
	return func(w session.View[string]) error {
		for x := range w.Values() {
			if x == v {
				return errTaken
			}
		}
		return nil
	}
}

// A staged value is visible at once, committed by the next transaction only if its guard accepts it
// on the store's state then, and dropped when that transaction does not commit: of two workers
// staging the same value on a stale view, the first to run its transaction keeps it and the second's
// Begin fails with the guard's error.
func TestStagedValueIsCommittedByTheNextTransactionIfItsGuardStillAccepts(t *testing.T) {
	ctx := context.Background()
	st, err := session.NewMemoryStore(storetest.Slices()...)
	if err != nil {
		t.Fatal(err)
	}
	a := session.New(session.WithID("s"), session.WithStore(st))
	b := session.New(session.WithID("s"), session.WithStore(st))
	for _, w := range []*session.Session{a, b} {
		if err := session.Stage(ctx, w, storetest.Events, "decided", notYet("decided")); err != nil {
			t.Fatal(err)
		}
		if got := session.All(w, storetest.Events); len(got) != 1 || got[0] != "decided" {
			t.Fatalf("staged value not visible: %v", got)
		}
	}
	if err := session.Stage(ctx, a, storetest.Events, "decided", notYet("decided")); !errors.Is(err, errTaken) {
		t.Fatalf("staging twice in one process: %v", err)
	}
	storetest.InTx(t, a, func() { session.Append(a, storetest.Events, "ran") })
	if _, err := b.Begin(ctx, session.ReadWrite); !errors.Is(err, errTaken) {
		t.Fatalf("second worker's Begin = %v, want the guard's error", err)
	}
	fresh := session.New(session.WithID("s"), session.WithStore(st))
	storetest.InTx(t, fresh, func() {
		if got := session.All(fresh, storetest.Events); len(got) != 2 || got[0] != "decided" || got[1] != "ran" {
			t.Fatalf("stored %v, want [decided ran]", got)
		}
	})
	// B goes on, reloaded, without its staged value.
	storetest.InTx(t, b, func() {
		if got := session.All(b, storetest.Events); len(got) != 2 {
			t.Fatalf("B holds %v", got)
		}
	})

	// A staged value whose transaction does not commit is not kept.
	c := session.New(session.WithID("s2"), session.WithStore(st))
	if err := session.Stage(ctx, c, storetest.Events, "x", nil); err != nil {
		t.Fatal(err)
	}
	tx, err := c.Begin(ctx, session.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	session.Seed(c, storetest.Docs, storetest.Nested(session.MaxItemDepth+1)) // the commit is refused
	if err := tx.End(ctx); err == nil {
		t.Fatal("commit of an unreadable value succeeded")
	}
	fresh = session.New(session.WithID("s2"), session.WithStore(st))
	storetest.InTx(t, fresh, func() {
		if n := session.Len(fresh, storetest.Events); n != 0 {
			t.Fatalf("%d events kept from a transaction that did not commit", n)
		}
	})
	// STATE slices cannot be staged.
	if err := session.Stage(ctx, c, storetest.Plan, "p", nil); err == nil {
		t.Fatal("staged on a STATE slice")
	}
}
