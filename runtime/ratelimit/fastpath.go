package ratelimit

import (
	"context"
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
func slot(p unsafe.Pointer, bits uint) uint64 {
	return (uint64(uintptr(p)) * 0x9e3779b97f4a7c15) >> (64 - bits)
}

// toolRated returns the rate l applies to tool (ToolRate, worked out). The
// first tool seen in a slot keeps it: two tools whose pointers share a slot
// never evict each other, so a call allocates nothing once its tool is
// cached, and the other tool's rate is worked out on each call.
func (l *Limiter) toolRated(tool *wink.Tool) rated {
	if e := l.rates[slot(unsafe.Pointer(tool), rateBits)].Load(); e != nil && e.tool == tool {
		return e.r
	}
	return l.workOutRate(tool)
}

// workOutRate is toolRated past the slot's hit (kept apart so that the hit
// inlines).
func (l *Limiter) workOutRate(tool *wink.Tool) rated {
	r, ok := l.tools[tool.Name()]
	if !ok {
		if r = rate(tool.Spec().Rate); r.none() {
			r = l.defTool
		}
	}
	if s := &l.rates[slot(unsafe.Pointer(tool), rateBits)]; s.Load() == nil {
		s.CompareAndSwap(nil, &toolRated{tool, r})
	}
	return r
}

// lookupCaller returns the caller holding p's buckets (nil p: the
// anonymous caller), creating it, past the pointer hit admitMemory makes
// (p's slot holds a live caller whose last principal is p). The slot's
// caller is still p's when it is live and its key is p's (c.is); otherwise
// p is resolved by key and recorded as its caller's last principal.
func (l *Limiter) lookupCaller(p *wink.Principal, now int64) *caller {
	s := &l.callers[slot(unsafe.Pointer(p), callerBits)]
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

// admitMemory is Admit on a Memory at now (Memory's clock), without
// building keys: the tool's rate, the caller and the caller's bucket for
// the tool come from caches keyed by pointer. It takes the server's
// bucket, then the caller's, then the caller's for the tool, each only
// when its rate is not zero, and gives back what it took when a later one
// refuses; a caller dropped while its tokens were taken (see Memory) is
// given its tokens back and the call takes again from a fresh one.
func (l *Limiter) admitMemory(ctx context.Context, tool *wink.Tool, now int64) error {
	// The slots' hits are written out here rather than called: each is a
	// few instructions, fewer than a call.
	var tr rated
	if e := l.rates[slot(unsafe.Pointer(tool), rateBits)].Load(); e != nil && e.tool == tool {
		tr = e.r
	} else {
		tr = l.workOutRate(tool)
	}
	if l.principal.none() && tr.none() {
		if !l.server.none() {
			if ok, w := l.mem.server.take(l.server, now); !ok {
				return l.refusal(tool, 0, w)
			}
		}
		return nil
	}
	p := wink.PrincipalFrom(ctx)
	c := l.callers[slot(unsafe.Pointer(p), callerBits)].Load()
	if c == nil || p == nil || c.last.Load() != p || c.dead.Load() {
		c = l.lookupCaller(p, now)
	}
	for {
		var tb *gcra
		if !tr.none() {
			for e := c.tools.Load(); e != nil; e = e.next {
				if e.tool == tool {
					tb = &e.b
					break
				}
			}
			if tb == nil {
				tb = c.tool(tool.Name(), tool)
			}
		}
		if bound, w := l.take(c, tb, tr, now); bound >= 0 {
			return l.refusal(tool, bound, w)
		}
		if !c.dead.Load() {
			return nil
		}
		// The caller was dropped while we took from it: give everything back, take again.
		l.give(c, tb, tr)
		iss, sub := callerKey(p)
		c = l.mem.caller(iss, sub, now)
	}
}

// take takes a token at now from the server's bucket, c's and tb (c's for
// the tool, nil when tr is zero), all or none. It returns -1, or the bound
// that refused (0 server, 1 principal, 2 tool) and how long until it has a
// token.
func (l *Limiter) take(c *caller, tb *gcra, tr rated, now int64) (bound int, wait int64) {
	if !l.server.none() {
		if ok, w := l.mem.server.take(l.server, now); !ok {
			return 0, w
		}
	}
	if !l.principal.none() {
		if ok, w := c.principal.take(l.principal, now); !ok {
			if !l.server.none() {
				l.mem.server.give(l.server)
			}
			return 1, w
		}
	}
	if tb != nil {
		if ok, w := tb.take(tr, now); !ok {
			l.give(c, nil, tr)
			return 2, w
		}
	}
	return -1, 0
}

// give gives back the tokens take took.
func (l *Limiter) give(c *caller, tb *gcra, tr rated) {
	if !l.server.none() {
		l.mem.server.give(l.server)
	}
	if !l.principal.none() {
		c.principal.give(l.principal)
	}
	if tb != nil {
		tb.give(tr)
	}
}
