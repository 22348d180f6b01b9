package ratelimit

import (
	"context"
	"hash/maphash"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// shards is how many parts Memory's callers are split into, each with its
// own lock, so that lookups of different callers rarely meet.
const shards = 64

// Memory is a Store in the process's memory: cheap (no lock held while a
// token is taken, no allocation once a caller's buckets exist), exact
// under any number of goroutines, and lost when the process ends. Its clock
// is the process's monotonic clock.
//
// Each bucket is one atomic integer, its theoretical arrival time (the
// generic cell rate algorithm, which is a token bucket: the bucket is full
// when the time is at or before now, and each call moves it Per/Count
// later; a call is refused when that would put it more than Burst-1
// intervals ahead of now). A call's buckets are taken one after another and
// given back when a later one refuses, so a concurrent call may be refused
// for a token that is given back a moment later, but no bucket ever
// admits more than its rate. A caller whose buckets have all refilled is
// the same as a caller never seen, so Memory drops such callers from time
// to time: its size follows the callers of the last refill period.
type Memory struct {
	seed   maphash.Seed
	base   time.Time
	now    func() time.Time // nil: the monotonic clock
	server gcra
	shards [shards]shard
}

// gcra is one bucket: its theoretical arrival time, in nanoseconds since
// Memory.base. The zero value is a full bucket.
type gcra struct{ tat atomic.Int64 }

// shard holds callers by the hash of their key (so a lookup hashes the key
// once), each hash's callers chained (two keys with one 64-bit hash are
// possible, if unlikely).
type shard struct {
	mu    sync.RWMutex
	m     map[uint64]*caller
	n     int // callers in m
	sweep int // n at which the next sweep runs
	_     [16]byte
}

// caller holds one principal's buckets. What a call reads on a cache hit
// (fastpath.go) comes first, so that it shares the object's first cache
// line: the principal bucket, last, dead and the tool buckets.
type caller struct {
	principal gcra
	// last is a principal whose key is this caller's, the last one a
	// Limiter resolved to it by key (fastpath.go): a call carrying that
	// same pointer is this caller's without reading the principal.
	last            atomic.Pointer[wink.Principal]
	dead            atomic.Bool                // dropped from its shard: take again from a fresh caller
	tools           atomic.Pointer[toolBucket] // the newest first; added under mu
	issuer, subject string
	next            *caller // the next caller of the same hash
	mu              sync.Mutex
}

// toolBucket is a caller's bucket for the tool name, one of a list that
// only grows at its head (under the caller's mu), so that it is read
// without a lock. tool is the descriptor the bucket was made for by a
// Limiter (nil when Take made it): a descriptor's name never changes, so a
// call carrying that very pointer finds the bucket without comparing names
// (fastpath.go), and the reference keeps the address from being reused by
// another tool. The bucket lives in the entry: finding it reads one object.
type toolBucket struct {
	b    gcra
	tool *wink.Tool
	name string
	next *toolBucket
}

// minSweep is the smallest shard size that is ever swept.
const minSweep = 1024

var _ Store = (*Memory)(nil)

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory { return &Memory{seed: maphash.MakeSeed(), base: time.Now()} }

// NewMemoryClock returns an in-memory store whose clock is now (tests, and
// simulations that run faster than time); now must never go back.
func NewMemoryClock(now func() time.Time) *Memory {
	m := NewMemory()
	m.now, m.base = now, now()
	return m
}

func (m *Memory) clock() int64 {
	if m.now != nil {
		return int64(m.now().Sub(m.base))
	}
	return int64(time.Since(m.base))
}

// rated is a rate with its interval worked out: t, the time between tokens
// in nanoseconds, rounded up (so that the bucket never admits more than the
// rate), and tau, how far ahead of now a bucket's arrival time may be for a
// call to be admitted. The zero rated is no limit.
type rated struct {
	t, tau int64
}

func rate(r wink.Rate) rated {
	if r.IsZero() {
		return rated{}
	}
	t := int64((r.Per + time.Duration(r.Count) - 1) / time.Duration(r.Count))
	n := int64(r.Size() - 1)
	if n > 0 && t > math.MaxInt64/4/n {
		return rated{t, math.MaxInt64 / 4}
	}
	return rated{t, t * n}
}

func (r rated) none() bool { return r.t == 0 }

// take takes a token from b at now under rate r, or returns how long until
// it has one.
func (b *gcra) take(r rated, now int64) (ok bool, wait int64) {
	t, tau := r.t, r.tau
	for {
		old := b.tat.Load()
		at := max(old, now)
		if at-now > tau {
			return false, at - now - tau
		}
		if b.tat.CompareAndSwap(old, at+t) {
			return true, 0
		}
	}
}

// give gives back a token take took under r.
func (b *gcra) give(r rated) { b.tat.Add(-r.t) }

// waitFor returns how long until b has a token under r, taking nothing.
func (b *gcra) waitFor(r rated, now int64) int64 {
	return max(b.tat.Load()-now-r.tau, 0)
}

// hash returns the hash of a caller's key.
func (m *Memory) hash(issuer, subject string) uint64 {
	return maphash.String(m.seed, subject) ^ (maphash.String(m.seed, issuer) * 0x9e3779b97f4a7c15)
}

// find returns the caller of key (issuer, subject) in the chain c.
func find(c *caller, issuer, subject string) *caller {
	for ; c != nil; c = c.next {
		if c.subject == subject && c.issuer == issuer {
			return c
		}
	}
	return nil
}

// caller returns the buckets of (issuer, subject), creating them.
func (m *Memory) caller(issuer, subject string, now int64) *caller {
	h := m.hash(issuer, subject)
	s := &m.shards[h%shards]
	s.mu.RLock()
	c := find(s.m[h], issuer, subject)
	s.mu.RUnlock()
	if c != nil {
		return c
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c = find(s.m[h], issuer, subject); c != nil {
		return c
	}
	if s.m == nil {
		s.m, s.sweep = map[uint64]*caller{}, minSweep
	}
	if s.n >= s.sweep {
		s.dropFull(now)
	}
	c = &caller{issuer: issuer, subject: subject, next: s.m[h]}
	s.m[h] = c
	s.n++
	return c
}

// dropFull deletes the callers of s (write-locked) whose buckets are all
// full, and sets the next sweep at twice what remains. A call that took a
// token from a dropped caller sees it dead and takes again from a fresh one.
func (s *shard) dropFull(now int64) {
	for h, head := range s.m {
		var keep *caller
		for c := head; c != nil; {
			next := c.next
			c.dead.Store(true)
			if c.full(now) {
				s.n--
			} else {
				c.dead.Store(false)
				c.next, keep = keep, c // the lock is held exclusively: no one walks the chain meanwhile
			}
			c = next
		}
		if keep == nil {
			delete(s.m, h)
		} else {
			s.m[h] = keep
		}
	}
	s.sweep = max(minSweep, 2*s.n)
}

func (c *caller) full(now int64) bool {
	if c.principal.tat.Load() > now {
		return false
	}
	for tb := c.tools.Load(); tb != nil; tb = tb.next {
		if tb.b.tat.Load() > now {
			return false
		}
	}
	return true
}

// tool returns c's bucket for the tool name, creating it for the
// descriptor t when there is none (t may be nil).
func (c *caller) tool(name string, t *wink.Tool) *gcra {
	for tb := c.tools.Load(); tb != nil; tb = tb.next {
		if tb.name == name {
			return &tb.b
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	head := c.tools.Load()
	for tb := head; tb != nil; tb = tb.next {
		if tb.name == name {
			return &tb.b
		}
	}
	tb := &toolBucket{tool: t, name: name, next: head}
	c.tools.Store(tb)
	return &tb.b
}

// bucket returns the bucket k names, and its caller (nil for the server's).
func (m *Memory) bucket(k Key, now int64) (*gcra, *caller) {
	if k.Bound == wink.BoundServer {
		return &m.server, nil
	}
	c := m.caller(k.Issuer, k.Subject, now)
	if k.Bound == wink.BoundPrincipal {
		return &c.principal, c
	}
	return c.tool(k.Tool, nil), c
}

// Take implements Store. Buckets are named by Key as the Limiter names
// them; Take and the Limiter's own path share them.
func (m *Memory) Take(_ context.Context, bs []Bucket) (int, time.Duration, error) {
	now := m.clock()
	taken := make([]*gcra, 0, len(bs))
	giveBack := func() {
		for j, b := range taken {
			b.give(rate(bs[j].Rate))
		}
	}
	for {
		dead := false
		for i := range bs {
			b, c := m.bucket(bs[i].Key, now)
			ok, w := b.take(rate(bs[i].Rate), now)
			if !ok {
				giveBack()
				return i, time.Duration(w), nil
			}
			taken = append(taken, b)
			dead = dead || (c != nil && c.dead.Load())
		}
		if !dead {
			return -1, 0, nil
		}
		giveBack() // a caller was dropped while we took from it: take again
		taken = taken[:0]
	}
}

// Peek implements Store.
func (m *Memory) Peek(_ context.Context, b Bucket) (time.Duration, error) {
	now := m.clock()
	bk, _ := m.bucket(b.Key, now)
	return time.Duration(bk.waitFor(rate(b.Rate), now)), nil
}

// Len returns how many callers m holds buckets for (callers whose buckets
// have all refilled are dropped from time to time, see Memory).
func (m *Memory) Len() int {
	n := 0
	for i := range m.shards {
		s := &m.shards[i]
		s.mu.RLock()
		n += s.n
		s.mu.RUnlock()
	}
	return n
}
