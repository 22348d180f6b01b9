package txn

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/winkgen/wink/runtime/internal/txlock"
)

// Isolation. A tool call that takes a transaction must hold its parts exclusively from snapshot to
// commit or restore, so that its rollback can only undo its own changes; read-only calls share them.
// A session has its own lock (session.Session.Begin, which also takes a session store's lock); every
// other part (a filesystem, a resource context) is locked here, in a table keyed by the part's
// identity. Lock order, so that no two calls can wait for each other: the session first, then the
// parts in the order they were first locked in the process (each table entry gets a sequence number
// when it is created, and a call acquires its parts sorted by it). Entries are reference-counted and
// dropped when no call holds or waits for them, so the table holds only parts in use; a dropped entry
// (its lock idle: nobody holds or waits for it) is kept in a short free list and given to the next
// part locked, so that locking a part the table no longer holds, as every call of a single session does,
// allocates nothing.

//
// A part that carries its own lock (Lockable: vfs.Memory and vfs.Host do) needs no table entry: its
// PartLock is made on first use with the next sequence number and kept for the part's life, so locking
// it takes no process-wide lock and changes no map (the table's insert and delete were most of what
// locking a filesystem cost each call).

// Lockable is a part that carries its own transaction lock. Lock uses it instead of an entry in its
// process-wide table. TxnLock must return the same PartLock for the part's whole life.
type Lockable interface {
	TxnLock() *PartLock
}

// PartLock is the transaction lock a Lockable part carries. Its zero value is ready to use; it must
// not be copied after first use.
type PartLock struct {
	p atomic.Pointer[partLock]
}

// get returns the lock, making it on first use.
func (l *PartLock) get() *partLock {
	if p := l.p.Load(); p != nil {
		return p
	}
	n := &partLock{seq: seqs.Add(1)}
	if l.p.CompareAndSwap(nil, n) {
		return n
	}
	return l.p.Load()
}

// seqs numbers part locks in the order they are made (the lock order).
var seqs atomic.Uint64

// MaxLockParts is how many parts one Lock call takes.
const MaxLockParts = 4

type partLock struct {
	lk   txlock.Lock // FIFO, context-aware; uncontended: one compare-and-swap to take, one to give back
	seq  uint64
	refs int
}

var parts struct {
	mu    sync.Mutex
	table map[any]*partLock
	free  []*partLock // dropped entries, at most maxFreeParts
}

// maxFreeParts bounds the free list of dropped table entries.
const maxFreeParts = 64

// Locks is a set of part locks held by one call; Unlock releases them. The zero Locks holds nothing.
// It is a value with no allocation of its own, kept in the caller's frame.
type Locks struct {
	held   [MaxLockParts]*partLock
	keys   [MaxLockParts]any
	own    [MaxLockParts]bool // the part is Lockable: no table entry
	n      int
	shared bool
	table  bool // some part has a table entry
}

// Lock acquires the locks of the given parts (comparable values, typically pointers: a filesystem, a
// *resources.Context), exclusively or shared, waiting until ctx is done. Nil parts, parts that cannot
// be map keys (unless Lockable), duplicates and parts beyond MaxLockParts are ignored. On error nothing
// is held. Waiters are served in arrival order.
func Lock(ctx context.Context, shared bool, keys ...any) (Locks, error) {
	var l Locks
	if err := l.Lock(ctx, shared, keys...); err != nil {
		return Locks{}, err
	}
	return l, nil
}

// Lock is the function Lock acquiring into l, which must hold nothing (the zero Locks, or one
// unlocked): a Locks kept in memory that outlives the call (the dispatcher's call frame) is filled
// in place rather than copied into. On error l holds nothing.
func (l *Locks) Lock(ctx context.Context, shared bool, keys ...any) error {
	if l.n != 0 {
		panic("txn: Locks.Lock on a Locks that holds locks; Unlock it first")
	}
	l.shared = shared
	for _, k := range keys {
		if l.n == MaxLockParts || k == nil {
			continue
		}
		var pl *partLock
		own := false
		if lk, ok := k.(Lockable); ok {
			if p := lk.TxnLock(); p != nil {
				pl, own = p.get(), true
			}
		}
		// A Lockable part is told apart by its lock, so it need not be a valid map key; another part
		// must be one.
		if own && l.holds(pl) || !own && (!comparable(k) || l.has(k)) {
			continue
		}
		if !own {
			if !l.table {
				parts.mu.Lock()
				l.table = true
				if parts.table == nil {
					parts.table = make(map[any]*partLock)
				}
			}
			pl = parts.table[k]
			if pl == nil {
				seq := seqs.Add(1)
				if n := len(parts.free); n > 0 {
					pl = parts.free[n-1]
					parts.free[n-1] = nil
					parts.free = parts.free[:n-1]
					pl.seq = seq
				} else {
					pl = &partLock{seq: seq}
				}
				parts.table[k] = pl
			}
			pl.refs++
		}
		// Insert in sequence order.
		i := l.n
		for i > 0 && l.held[i-1].seq > pl.seq {
			l.held[i], l.keys[i], l.own[i] = l.held[i-1], l.keys[i-1], l.own[i-1]
			i--
		}
		l.held[i], l.keys[i], l.own[i] = pl, k, own
		l.n++
	}
	if l.table {
		parts.mu.Unlock()
	}
	for i := 0; i < l.n; i++ {
		if err := l.held[i].lk.Acquire(ctx, !l.shared); err != nil {
			for _, p := range l.held[:i] {
				p.lk.Release(!l.shared)
			}
			l.unref()
			return err
		}
	}
	return nil
}

// Held reports whether l holds any lock.
func (l *Locks) Held() bool { return l.n > 0 }

// Unlock releases the locks. Calling it again does nothing.
func (l *Locks) Unlock() {
	if l.n == 0 {
		return
	}
	for i := l.n - 1; i >= 0; i-- {
		l.held[i].lk.Release(!l.shared)
	}
	l.unref()
}

// holds reports whether pl is among l's locks.
func (l *Locks) holds(pl *partLock) bool {
	for _, h := range l.held[:l.n] {
		if h == pl {
			return true
		}
	}
	return false
}

func (l *Locks) has(k any) bool {
	for _, h := range l.keys[:l.n] {
		if h == k {
			return true
		}
	}
	return false
}

// unref drops the table references of l and empties it.
func (l *Locks) unref() {
	if !l.table {
		l.empty()
		return
	}
	parts.mu.Lock()
	for i, k := range l.keys[:l.n] {
		if l.own[i] {
			continue
		}
		pl := l.held[i]
		pl.refs--
		if pl.refs == 0 && parts.table[k] == pl {
			delete(parts.table, k)
			if len(parts.free) < maxFreeParts {
				parts.free = append(parts.free, pl)
			}
		}
	}
	parts.mu.Unlock()
	l.empty()
}

// empty makes l zero, clearing only the slots it used: a call's Locks lives in the dispatcher's call
// frame, where each pointer slot cleared passes through the write barrier while the collector marks.
func (l *Locks) empty() {
	for i := range l.n { // one store per slot: clear() of a slice goes through the runtime's bulk barrier
		l.held[i], l.keys[i], l.own[i] = nil, nil, false
	}
	l.n, l.shared, l.table = 0, false, false
}

// comparable reports whether k can be a map key (a part whose dynamic type is, say, a map cannot, and
// is left unlocked rather than panicking).
func comparable(k any) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return k == k
}
