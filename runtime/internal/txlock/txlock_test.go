package txlock

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitQueued polls until n Acquire calls wait (no timing bound: the test's own deadline is the limit).
func waitQueued(t *testing.T, l *Lock, n int) {
	t.Helper()
	for l.Waiters() != n {
		time.Sleep(time.Millisecond)
	}
}

// acquireAsync starts Acquire in a goroutine; its result arrives on the channel.
func acquireAsync(ctx context.Context, l *Lock, exclusive bool) chan error {
	c := make(chan error, 1)
	go func() { c <- l.Acquire(ctx, exclusive) }()
	return c
}

// granted reports whether the Acquire behind c has returned (without waiting).
func granted(c chan error) (error, bool) {
	select {
	case err := <-c:
		return err, true
	default:
		return nil, false
	}
}

// An uncontended Acquire and Release take no mutex: they complete while the lock's mutex is held
// elsewhere (with x/sync's semaphore, or any mutex-guarded bookkeeping, they would block).
func TestUncontendedAcquireTakesNoMutex(t *testing.T) {
	var l Lock
	l.mu.Lock()
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for _, ex := range []bool{true, false, false} {
			if err := l.Acquire(context.Background(), ex); err != nil {
				t.Error(err)
				return
			}
			if ex {
				l.Release(true)
			}
		}
		l.Release(false)
		l.Release(false)
	}()
	<-finished
	l.mu.Unlock()
	if s := l.state.Load(); s != 0 {
		t.Fatalf("state = %#x after every release, want 0", s)
	}
}

// Waiters are served in arrival order: a reader that arrives after a waiting writer waits behind it
// even while only readers hold the lock.
func TestWaitersAreServedInOrder(t *testing.T) {
	ctx := context.Background()
	var l Lock
	if err := l.Acquire(ctx, true); err != nil {
		t.Fatal(err)
	}
	r1 := acquireAsync(ctx, &l, false)
	waitQueued(t, &l, 1)
	w2 := acquireAsync(ctx, &l, true)
	waitQueued(t, &l, 2)
	r3 := acquireAsync(ctx, &l, false)
	waitQueued(t, &l, 3)
	if l.TryAcquire(false) {
		t.Fatal("TryAcquire succeeded while others wait")
	}

	l.Release(true)
	if err := <-r1; err != nil {
		t.Fatal(err)
	}
	waitQueued(t, &l, 2) // w2 and r3 still wait: r3 must not pass the writer before it
	if _, ok := granted(r3); ok {
		t.Fatal("a reader went before the writer queued ahead of it")
	}
	l.Release(false)
	if err := <-w2; err != nil {
		t.Fatal(err)
	}
	waitQueued(t, &l, 1)
	l.Release(true)
	if err := <-r3; err != nil {
		t.Fatal(err)
	}
	waitQueued(t, &l, 0)
	l.Release(false)
	if s := l.state.Load(); s != 0 {
		t.Fatalf("state = %#x after every release, want 0", s)
	}
	// Uncontended again: the fast path works after the queue emptied.
	if !l.TryAcquire(true) {
		t.Fatal("TryAcquire failed on a free lock")
	}
	l.Release(true)
}

// A waiter whose context ends gives up with the context's error and holds nothing; when it was at
// the front, the waiters behind it that now fit are served.
func TestCancelledWaiterLeavesTheQueue(t *testing.T) {
	ctx := context.Background()
	var l Lock
	if err := l.Acquire(ctx, false); err != nil { // a reader holds
		t.Fatal(err)
	}
	wctx, cancel := context.WithCancel(ctx)
	w := acquireAsync(wctx, &l, true) // a writer waits at the front
	waitQueued(t, &l, 1)
	r := acquireAsync(ctx, &l, false) // a reader waits behind it
	waitQueued(t, &l, 2)
	cancel()
	if err := <-w; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v, want context.Canceled", err)
	}
	if err := <-r; err != nil { // the reader behind the cancelled writer now fits beside the holder
		t.Fatal(err)
	}
	waitQueued(t, &l, 0)
	l.Release(false)
	l.Release(false)
	if s := l.state.Load(); s != 0 {
		t.Fatalf("state = %#x, want 0: the cancelled writer must hold nothing", s)
	}

	// A context done before Acquire fails even on a free lock.
	dctx, dcancel := context.WithCancel(ctx)
	dcancel()
	if err := l.Acquire(dctx, true); !errors.Is(err, context.Canceled) {
		t.Fatalf("Acquire with a done context: %v, want context.Canceled", err)
	}
	if s := l.state.Load(); s != 0 {
		t.Fatalf("state = %#x, want 0", s)
	}
}

func TestReleaseOfALockNotHeldPanics(t *testing.T) {
	mustPanic := func(what string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s did not panic", what)
			}
		}()
		f()
	}
	var l Lock
	mustPanic("Release of a free lock", func() { l.Release(false) })

	// With a waiter queued (the slow path): a reader holds, a writer waits, and a writer's Release
	// panics without leaving the mutex held or the holder's weight changed.
	ctx, cancel := context.WithCancel(context.Background())
	if err := l.Acquire(ctx, false); err != nil {
		t.Fatal(err)
	}
	c := acquireAsync(ctx, &l, true)
	waitQueued(t, &l, 1)
	mustPanic("Release(exclusive) while a reader holds", func() { l.Release(true) })
	l.Release(false) // serves the waiting writer
	if err := <-c; err != nil {
		t.Fatal(err)
	}
	cancel()
	l.Release(true)
	if s := l.state.Load(); s != 0 {
		t.Fatalf("state = %#x, want 0", s)
	}
}

// Many goroutines, readers and writers, some giving up while they wait: a writer is always alone,
// readers share, every Acquire that succeeds is released, and the lock ends free with nobody queued
// (run with -race: the holders' plain writes are ordered by the lock alone).
func TestExclusionUnderContentionAndCancellation(t *testing.T) {
	var l Lock
	var readers, writers atomic.Int32
	shared := 0 // written by writers only, under the lock
	var wg sync.WaitGroup
	var ok, gaveUp atomic.Int64
	for g := range 16 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			for range 2000 {
				ex := rng.IntN(3) == 0
				ctx := context.Background()
				var cancel context.CancelFunc = func() {}
				if rng.IntN(4) == 0 { // gives up soon, often while queued
					ctx, cancel = context.WithTimeout(ctx, time.Duration(rng.IntN(50))*time.Microsecond)
				}
				if err := l.Acquire(ctx, ex); err != nil {
					cancel()
					if !errors.Is(err, context.DeadlineExceeded) {
						t.Error(err)
						return
					}
					gaveUp.Add(1)
					continue
				}
				cancel()
				if ex {
					if writers.Add(1) != 1 || readers.Load() != 0 {
						t.Error("a writer is not alone")
					}
					shared++
					writers.Add(-1)
				} else {
					readers.Add(1)
					if writers.Load() != 0 {
						t.Error("a reader holds beside a writer")
					}
					_ = shared
					readers.Add(-1)
				}
				ok.Add(1)
				l.Release(ex)
			}
		})
	}
	wg.Wait()
	if s := l.state.Load(); s != 0 || l.Waiters() != 0 {
		t.Fatalf("state = %#x, %d queued after every holder left; want 0, 0", s, l.Waiters())
	}
	t.Logf("%d acquired, %d gave up", ok.Load(), gaveUp.Load())
}
