package txn

import (
	"context"
	"sync"
	"testing"
	"time"
)

type lockablePart struct {
	l PartLock
}

func (p *lockablePart) TxnLock() *PartLock { return &p.l }

// A part carrying its own lock is locked without the process-wide table (no entry while held), and
// its lock excludes like a table entry does: exclusive against everything, shared with shared
// holders, in one lock order with table parts (run with -race).
func TestLockablePartsUseTheirOwnLock(t *testing.T) {
	ctx := context.Background()
	p, q := &lockablePart{}, new(int)
	l, err := Lock(ctx, false, p, q)
	if err != nil {
		t.Fatal(err)
	}
	parts.mu.Lock()
	_, inTable := parts.table[any(p)]
	_, qInTable := parts.table[any(q)]
	parts.mu.Unlock()
	if inTable || !qInTable {
		t.Fatalf("table entries: lockable part %v, other part %v; want false, true", inTable, qInTable)
	}
	tctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	if _, err := Lock(tctx, true, p); err == nil {
		t.Fatal("a shared lock was granted while the part was held exclusively")
	}
	cancel()
	l.Unlock()

	s1, err := Lock(ctx, true, p)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Lock(ctx, true, p)
	if err != nil {
		t.Fatal(err)
	}
	s1.Unlock()
	s2.Unlock()

	// Two orders of the same parts never deadlock, and the exclusive holders never overlap.
	var mu sync.Mutex
	inside := 0
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for range 300 {
				keys := []any{p, q}
				if g%2 == 1 {
					keys = []any{q, p}
				}
				l, err := Lock(ctx, false, keys...)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				inside++
				if inside != 1 {
					t.Errorf("%d holders at once", inside)
				}
				inside--
				mu.Unlock()
				l.Unlock()
			}
		})
	}
	wg.Wait()
}

// Locks.Lock fills a Locks in place (the dispatcher's call frame), refuses one that holds locks, and
// Unlock leaves it zero; a Lockable part whose type could not be a map key is locked all the same (it
// is told apart by its lock).
func TestLocksLockInPlace(t *testing.T) {
	ctx := context.Background()
	p := &lockablePart{}
	var l Locks
	if err := l.Lock(ctx, false, p, p, unkeyable{p: p}); err != nil {
		t.Fatal(err)
	}
	if l.n != 1 {
		t.Fatalf("%d locks held for one part given three times, want 1", l.n)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Lock on a Locks that holds locks did not panic")
			}
		}()
		_ = l.Lock(ctx, false, new(int))
	}()
	if p.l.get().lk.TryAcquire(false) {
		t.Fatal("the part is not held exclusively")
	}
	l.Unlock()
	if l != (Locks{}) {
		t.Fatalf("Unlock left %+v, want the zero Locks", l)
	}
	var u Locks
	if err := u.Lock(ctx, true, unkeyable{p: p}); err != nil || u.n != 1 {
		t.Fatalf("a Lockable part of a non-comparable type: err %v, %d held; want it locked", err, u.n)
	}
	u.Unlock()
	if !p.l.get().lk.TryAcquire(true) {
		t.Fatal("the part is still held after Unlock")
	}
	p.l.get().lk.Release(true)
}

// unkeyable is a Lockable whose dynamic type cannot be a map key (it holds a slice).
type unkeyable struct {
	p *lockablePart
	_ []int
}

func (u unkeyable) TxnLock() *PartLock { return u.p.TxnLock() }
