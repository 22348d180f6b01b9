package ratelimit

import (
	"strings"
	"unsafe"

	"github.com/winkgen/wink/runtime/wink"
)

// The in-memory path of a Limiter finds a call's tool rate and caller
// through two small direct-mapped caches keyed by pointer, so that a call
// neither hashes a name nor takes a shard's lock when the same tool
// descriptor and the same principal come again (a registry's tools always
// do; a session's principal usually does). A slot holds what the pointer
// led to last; whatever a slot holds is checked before it is used, so a
// stale or colliding slot costs a miss, never a wrong bucket:
//
//   - a rate slot holds the tool pointer it was worked out for, and a
//     *wink.Tool's name and Spec.Rate never change;
//   - a caller slot is used only when the caller has not been dropped (a
//     dropped caller found after the lookup is handled by Memory.admit,
//     which takes again from a fresh one) and the principal is either the
//     very pointer last resolved to that caller by its issuer and subject
//     (caller.last), or one whose issuer and subject are the caller's.
//
// The pointer compare is exact because a wink.Principal is not modified
// once it is in a context (its documented rule), and because caller.last
// holds a reference to the principal: its address cannot be reused for
// another principal while the caller remembers it. A caller keeps one
// principal alive until it is dropped or another principal with its key
// replaces it.
//
// Pointers are hashed by their address: Go's heap objects do not move, and
// an address reused by another object after the first was collected only
// makes the check above fail.

const (
	rateBits    = 6
	callerBits  = 8
	rateSlots   = 1 << rateBits
	callerSlots = 1 << callerBits
)

// toolRated is a rate slot: tool's per-caller rate.
type toolRated struct {
	tool *wink.Tool
	r    rated
}

// slot returns the index of p's slot among 1<<bits (Fibonacci hashing of
// its address).
func slot[T any](p *T, bits uint) uint64 {
	return (uint64(uintptr(unsafe.Pointer(p))) * 0x9e3779b97f4a7c15) >> (64 - bits)
}

// toolRated returns the rate l applies to tool (ToolRate, worked out). The
// first tool seen in a slot keeps it: two tools whose pointers share a slot
// never evict each other, so a call allocates nothing once its tool is
// cached, and the other tool's rate is worked out on each call.
func (l *Limiter) toolRated(tool *wink.Tool) rated {
	s := &l.rates[slot(tool, rateBits)]
	if e := s.Load(); e != nil && e.tool == tool {
		return e.r
	}
	r, ok := l.tools[tool.Name()]
	if !ok {
		if r = rate(tool.Spec().Rate); r.none() {
			r = l.defTool
		}
	}
	if s.Load() == nil {
		s.CompareAndSwap(nil, &toolRated{tool, r})
	}
	return r
}

// cachedCaller returns the caller holding p's buckets (nil p: the anonymous
// caller), creating it. A hit is the slot's caller when it is not dead and
// p is either the very principal last resolved to it by key (c.last: one
// pointer compare, p is not read) or a principal with its key (c.is). A
// miss resolves p by key and records p as the caller's last principal.
func (l *Limiter) cachedCaller(p *wink.Principal, now int64) *caller {
	if c := l.callers[slot(p, callerBits)].Load(); c != nil && p != nil && c.last.Load() == p && !c.dead.Load() {
		return c
	}
	return l.lookupCaller(p, now)
}

// lookupCaller is cachedCaller past the pointer hit (kept apart so that
// the hit inlines).
func (l *Limiter) lookupCaller(p *wink.Principal, now int64) *caller {
	s := &l.callers[slot(p, callerBits)]
	if c := s.Load(); c != nil && !c.dead.Load() && c.is(p) {
		return c
	}
	iss, sub := callerKey(p)
	c := l.mem.caller(iss, sub, now)
	if p != nil && c.last.Load() != p {
		c.last.Store(p)
	}
	s.Store(c)
	return c
}

// is reports whether c is the caller of p: callerKey(p) is c's key, worked
// out without building the key.
func (c *caller) is(p *wink.Principal) bool {
	if p == nil {
		return c.issuer == "" && c.subject == ""
	}
	if c.issuer != p.Issuer {
		return false
	}
	if p.Subject == "" && p.ClientID != "" {
		return len(c.subject) == len(clientPrefix)+len(p.ClientID) && strings.HasPrefix(c.subject, clientPrefix) &&
			c.subject[len(clientPrefix):] == p.ClientID
	}
	return c.subject == p.Subject
}
