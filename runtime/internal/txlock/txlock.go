// Package txlock is the transaction lock of a session and of a transaction's parts: a readers/writer
// lock whose waiters are served first come, first served, and whose Acquire gives up when its context
// is done. It is what golang.org/x/sync/semaphore.Weighted gives with a writer taking the whole weight,
// with an uncontended acquire and release costing one compare-and-swap instead of a mutex held around
// the bookkeeping.
//
// # Design
//
// One atomic word holds the weight held (readers count 1 each, a writer holds all of size) and a
// queued bit, set exactly while some Acquire waits (the queue is not empty). Without the bit,
// Acquire takes its weight with a compare-and-swap when it fits, and Release gives it back the same
// way: no mutex. An Acquire that does not fit takes the mutex, sets the bit in the same
// compare-and-swap that sees it does not fit, and queues. From then on every Acquire and Release
// takes the mutex (their compare-and-swap fails on the bit, or they see it), so while the bit is set
// the word changes only under the mutex, and a Release serves the queue in order: the waiter at the
// front gets its weight when it fits, and no later waiter goes before it (a reader behind a waiting
// writer waits, as with the semaphore). The last waiter served or cancelled clears the bit.
//
// No wakeup is lost: a waiter sets the bit in the compare-and-swap that found the weight taken, so a
// holder that releases afterwards sees the bit and serves the queue under the mutex, which the waiter
// holds until it is queued.
package txlock

import (
	"context"
	"sync"
	"sync/atomic"
)

// size is the whole weight: what a writer holds. Readers hold 1 each.
const size = 1 << 30

// queued is set in Lock.state while the queue is not empty.
const queued = 1 << 62

// Lock is a FIFO, context-aware readers/writer lock. The zero Lock is unlocked and ready to use; it
// must not be copied after first use.
type Lock struct {
	state atomic.Uint64 // weight held | queued
	mu    sync.Mutex    // guards the queue, and state while queued is set
	head  *waiter
	tail  *waiter
}

// waiter is a queued Acquire.
type waiter struct {
	n          uint64
	ready      chan struct{} // closed when the weight is granted
	prev, next *waiter
}

func weight(exclusive bool) uint64 {
	if exclusive {
		return size
	}
	return 1
}

// Acquire takes the lock, exclusively or shared, waiting in arrival order until ctx is done. It
// fails with ctx.Err() when ctx is done before the lock is taken, even if the lock is free; on error
// nothing is held.
func (l *Lock) Acquire(ctx context.Context, exclusive bool) error {
	done := ctx.Done()
	if done != nil {
		select {
		case <-done:
			return ctx.Err()
		default:
		}
	}
	n := weight(exclusive)
	if s := l.state.Load(); s&queued == 0 && size-s >= n && l.state.CompareAndSwap(s, s+n) {
		return nil
	}
	return l.acquireSlow(ctx, done, n)
}

// TryAcquire takes the lock without waiting, and reports whether it did (never while others wait).
func (l *Lock) TryAcquire(exclusive bool) bool {
	n := weight(exclusive)
	for {
		s := l.state.Load()
		if s&queued != 0 || size-s < n {
			return false
		}
		if l.state.CompareAndSwap(s, s+n) {
			return true
		}
	}
}

func (l *Lock) acquireSlow(ctx context.Context, done <-chan struct{}, n uint64) error {
	l.mu.Lock()
	for {
		s := l.state.Load()
		if s&queued != 0 {
			break // others wait: queue behind them
		}
		if size-s >= n {
			if l.state.CompareAndSwap(s, s+n) {
				l.mu.Unlock()
				return nil
			}
			continue
		}
		if l.state.CompareAndSwap(s, s|queued) {
			break
		}
	}
	w := &waiter{n: n, ready: make(chan struct{})}
	if l.tail == nil {
		l.head = w
	} else {
		l.tail.next, w.prev = w, l.tail
	}
	l.tail = w
	l.mu.Unlock()

	select {
	case <-done:
		l.mu.Lock()
		select {
		case <-w.ready: // granted meanwhile: give it back
			l.releaseLocked(n)
		default:
			l.unqueue(w)
			l.serveLocked() // the front may fit now; clears queued when nobody is left
		}
		l.mu.Unlock()
		return ctx.Err()
	case <-w.ready:
		select {
		case <-done:
			l.Release(n == size)
			return ctx.Err()
		default:
		}
		return nil
	}
}

// Release gives back what Acquire took (exclusive as it was taken). Releasing what is not held
// panics.
func (l *Lock) Release(exclusive bool) {
	n := weight(exclusive)
	for {
		s := l.state.Load()
		if s&queued != 0 {
			l.mu.Lock()
			l.releaseLocked(n)
			l.mu.Unlock()
			return
		}
		if s < n {
			panic("txlock: release of a lock not held")
		}
		if l.state.CompareAndSwap(s, s-n) {
			return
		}
	}
}

// releaseLocked gives back n and serves the queue; l.mu is held.
func (l *Lock) releaseLocked(n uint64) {
	for {
		s := l.state.Load() // queued may have been cleared since the caller saw it: fast paths may run
		if s&^queued < n {
			l.mu.Unlock()
			panic("txlock: release of a lock not held")
		}
		if l.state.CompareAndSwap(s, s-n) {
			break
		}
	}
	l.serveLocked()
}

// serveLocked grants the waiters at the front of the queue while they fit, in order, and clears
// queued once the queue is empty; l.mu is held.
func (l *Lock) serveLocked() {
	for w := l.head; w != nil; w = l.head {
		s := l.state.Load() // queued is set: only holders of l.mu change state
		if size-(s&^queued) < w.n {
			return
		}
		l.state.Add(w.n)
		l.unqueue(w)
		close(w.ready)
	}
	l.state.And(^uint64(queued))
}

// Waiters returns how many Acquire calls wait (for tests that must know a waiter is queued).
func (l *Lock) Waiters() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for w := l.head; w != nil; w = w.next {
		n++
	}
	return n
}

// unqueue removes w from the queue; l.mu is held.
func (l *Lock) unqueue(w *waiter) {
	if w.prev == nil {
		l.head = w.next
	} else {
		w.prev.next = w.next
	}
	if w.next == nil {
		l.tail = w.prev
	} else {
		w.next.prev = w.prev
	}
	w.prev, w.next = nil, nil
}
