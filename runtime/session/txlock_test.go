package session

import (
	"context"
	"errors"
	"testing"
	"time"
)

// waitWaiters polls until n transactions wait for s's lock (no timing bound: the test's deadline is
// the limit).
func waitWaiters(t *testing.T, s *Session, n int) {
	t.Helper()
	for s.lock().l.Waiters() != n {
		time.Sleep(time.Millisecond)
	}
}

func beginAsync(ctx context.Context, s *Session, a Access) chan *Tx {
	c := make(chan *Tx, 1)
	go func() {
		tx, err := s.Begin(ctx, a)
		if err != nil {
			tx = nil
		}
		c <- tx
	}()
	return c
}

// Transactions wait for a session in arrival order: a read-only call that arrives after a waiting
// read-write call waits behind it even while only readers hold the session; a waiter whose context
// ends gives up holding nothing; and with nobody waiting, Begin and End take the uncontended path
// again.
func TestTransactionsWaitInArrivalOrder(t *testing.T) {
	ctx := context.Background()
	s := New()
	w0, err := s.Begin(ctx, ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	r1 := beginAsync(ctx, s, ReadOnly)
	waitWaiters(t, s, 1)
	w2 := beginAsync(ctx, s, ReadWrite)
	waitWaiters(t, s, 2)
	r3 := beginAsync(ctx, s, ReadOnly)
	waitWaiters(t, s, 3)

	_ = w0.End(ctx)
	tx1 := <-r1
	if tx1 == nil {
		t.Fatal("the first reader was refused")
	}
	waitWaiters(t, s, 2)
	select {
	case <-r3:
		t.Fatal("a reader began before the read-write transaction queued ahead of it")
	default:
	}
	_ = tx1.End(ctx)
	tx2 := <-w2
	if tx2 == nil {
		t.Fatal("the writer was refused")
	}
	// A waiter that gives up: queued behind the writer, cancelled, holds nothing.
	cctx, cancel := context.WithCancel(ctx)
	gone := beginAsync(cctx, s, ReadWrite)
	waitWaiters(t, s, 2)
	cancel()
	if tx := <-gone; tx != nil {
		t.Fatal("a cancelled Begin returned a transaction")
	}
	waitWaiters(t, s, 1)
	_ = tx2.End(ctx)
	tx3 := <-r3
	if tx3 == nil {
		t.Fatal("the last reader was refused")
	}
	_ = tx3.End(ctx)
	waitWaiters(t, s, 0)

	if tx, err := s.Begin(ctx, ReadWrite); err != nil {
		t.Fatal(err)
	} else {
		_ = tx.End(ctx)
	}
	dctx, dcancel := context.WithCancel(ctx)
	dcancel()
	if _, err := s.Begin(dctx, ReadWrite); !errors.Is(err, context.Canceled) {
		t.Fatalf("Begin with a done context: %v, want context.Canceled", err)
	}
}
