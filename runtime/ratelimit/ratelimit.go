package ratelimit

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// Limits are the rates a Limiter applies. Each non-zero rate is a token
// bucket (wink.Rate); a call takes one token from every bucket it falls
// under, all of them or none.
type Limits struct {
	// Server bounds every call the limiter admits, together: one bucket.
	Server wink.Rate
	// PerPrincipal bounds all the calls of one caller, whatever the tool:
	// one bucket per principal.
	PerPrincipal wink.Rate
	// Tools sets the rate of the tools it names, per caller, in place of
	// their declared Spec.Rate (the zero Rate lifts a declared one): one
	// bucket per principal and tool.
	Tools map[string]wink.Rate
	// DefaultTool is the per-caller rate of a tool that declares none and
	// is not in Tools; zero: such tools have no per-tool bound.
	DefaultTool wink.Rate
}

// Key names one bucket. Bound is wink.BoundServer (no other field set),
// wink.BoundPrincipal (Issuer and Subject), or wink.BoundTool (Tool,
// Issuer and Subject). Calls made without a principal share the anonymous
// caller, whose Issuer and Subject are both "".
type Key struct {
	Bound           string
	Tool            string
	Issuer, Subject string
}

// String returns the key as one text, its bound first; the parts are
// separated by a NUL byte, which no tool name and no JWT issuer or subject
// holds.
func (k Key) String() string {
	return k.Bound + "\x00" + k.Tool + "\x00" + k.Issuer + "\x00" + k.Subject
}

// Bucket is one bucket a call takes a token from, with the bucket's rate.
type Bucket struct {
	Key  Key
	Rate wink.Rate
}

// Store keeps the state of the buckets. Memory keeps it in the process;
// package pgratelimit in PostgreSQL, shared by a fleet.
type Store interface {
	// Take takes one token from each of bs, all or none, atomically with
	// respect to every other Take on the same buckets. It returns
	// refused = -1 when it took them; otherwise the index in bs of an empty
	// bucket and how long until it has a token. A bucket not seen before
	// starts full. err means it could not decide; nothing was taken then.
	Take(ctx context.Context, bs []Bucket) (refused int, retryAfter time.Duration, err error)
	// Peek returns how long until b has a token (0: it has one now),
	// taking nothing.
	Peek(ctx context.Context, b Bucket) (time.Duration, error)
}

// Limiter is a wink.RateLimiter: set it as Dispatcher.RateLimit, or pass it
// to mcpserver.WithRateLimit. It is safe for concurrent use.
type Limiter struct {
	// What a call reads first.
	mono *Memory // mem, when its clock is the monotonic clock (NewMemory)
	mem  *Memory // store, when it is a *Memory: called directly, without an allocation
	// The rates of limits worked out once, for mem.
	server, principal, defTool rated
	tools                      map[string]rated
	limits                     Limits
	store                      Store
	rates                      [rateSlots]atomic.Pointer[toolRated] // tool → its rate, by pointer (fastpath.go)
	callers                    [callerSlots]atomic.Pointer[caller]  // principal → its caller, by pointer (fastpath.go)
}

var _ wink.RateLimiter = (*Limiter)(nil)

// New returns a Limiter applying limits with store's buckets; a nil store
// means a new Memory. It fails when a rate of limits is invalid
// (wink.Rate.Validate).
func New(limits Limits, store Store) (*Limiter, error) {
	var errs []error
	check := func(what string, r wink.Rate) {
		if err := r.Validate(); err != nil {
			errs = append(errs, errors.New("ratelimit: "+what+": "+err.Error()))
		}
	}
	check("Server", limits.Server)
	check("PerPrincipal", limits.PerPrincipal)
	check("DefaultTool", limits.DefaultTool)
	for name, r := range limits.Tools {
		check("Tools["+strconv.Quote(name)+"]", r)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if store == nil {
		store = NewMemory()
	}
	l := &Limiter{limits: limits, store: store, server: rate(limits.Server), principal: rate(limits.PerPrincipal),
		defTool: rate(limits.DefaultTool), tools: map[string]rated{}}
	for name, r := range limits.Tools {
		l.tools[name] = rate(r)
	}
	l.mem, _ = store.(*Memory)
	if l.mem != nil && l.mem.now == nil {
		l.mono = l.mem
	}
	return l, nil
}

// Limits returns the limits l applies.
func (l *Limiter) Limits() Limits { return l.limits }

// ToolRate returns the per-caller rate l applies to tool: Limits.Tools'
// entry, else the tool's Spec.Rate, else Limits.DefaultTool.
func (l *Limiter) ToolRate(tool *wink.Tool) wink.Rate {
	name := tool.Name()
	if r, ok := l.limits.Tools[name]; ok {
		return r
	}
	if r := tool.Spec().Rate; !r.IsZero() {
		return r
	}
	return l.limits.DefaultTool
}

// Caller returns the issuer and subject that key ctx's principal's
// buckets: the principal's Issuer and Subject ("client:" and its ClientID
// when it has no subject), or "" and "" for a call without a principal
// (the anonymous caller, whose buckets every such call shares).
func Caller(ctx context.Context) (issuer, subject string) {
	return callerKey(wink.PrincipalFrom(ctx))
}

// callerKey is Caller for the principal p (nil: anonymous).
func callerKey(p *wink.Principal) (issuer, subject string) {
	if p == nil {
		return "", ""
	}
	if p.Subject == "" && p.ClientID != "" {
		return p.Issuer, clientPrefix + p.ClientID
	}
	return p.Issuer, p.Subject
}

// clientPrefix starts the subject of a principal that has only a client id.
const clientPrefix = "client:"

// Admit takes a token from each bucket a call of tool made for ctx's
// principal falls under (server, principal, principal and tool). It
// returns a *wink.RateLimitError naming the bucket that refused it, or the
// store's error (the dispatcher then fails closed).
func (l *Limiter) Admit(ctx context.Context, tool *wink.Tool) error {
	if m := l.mono; m != nil {
		return l.admitMemory(ctx, tool, int64(time.Since(m.base)))
	}
	if l.mem != nil {
		return l.admitMemory(ctx, tool, l.mem.clock())
	}
	sr, pr, tr := l.limits.Server, l.limits.PerPrincipal, l.ToolRate(tool)
	bs := make([]Bucket, 0, 3)
	if !sr.IsZero() {
		bs = append(bs, Bucket{Key{Bound: wink.BoundServer}, sr})
	}
	if !pr.IsZero() || !tr.IsZero() {
		iss, sub := Caller(ctx)
		if !pr.IsZero() {
			bs = append(bs, Bucket{Key{Bound: wink.BoundPrincipal, Issuer: iss, Subject: sub}, pr})
		}
		if !tr.IsZero() {
			bs = append(bs, Bucket{Key{Bound: wink.BoundTool, Tool: tool.Name(), Issuer: iss, Subject: sub}, tr})
		}
	}
	if len(bs) == 0 {
		return nil
	}
	refused, wait, err := l.store.Take(ctx, bs)
	if err != nil {
		return err
	}
	if refused < 0 {
		return nil
	}
	return &wink.RateLimitError{Tool: tool.Name(), Bound: bs[refused].Key.Bound, Rate: bs[refused].Rate, RetryAfter: max(wait, time.Millisecond)}
}

// AdmitAt implements wink.RateLimiterAt: it is Admit for a call whose
// dispatch started at now, a reading of time.Now. The in-memory store
// judges the call at now instead of reading its clock again (a Memory made
// with NewMemoryClock reads its own clock); other stores keep their own
// clock (pgratelimit: the database's).
func (l *Limiter) AdmitAt(ctx context.Context, tool *wink.Tool, now time.Time) error {
	if m := l.mono; m != nil {
		return l.admitMemory(ctx, tool, int64(now.Sub(m.base)))
	}
	if l.mem != nil {
		return l.admitMemory(ctx, tool, l.mem.clock())
	}
	return l.Admit(ctx, tool)
}

// refusal is the error of a call of tool refused by the bucket bound
// names (0 server, 1 principal, 2 principal and tool), which has a token
// in wait nanoseconds.
func (l *Limiter) refusal(tool *wink.Tool, bound int, wait int64) error {
	r := [3]wink.Rate{l.limits.Server, l.limits.PerPrincipal, l.ToolRate(tool)}[bound]
	return &wink.RateLimitError{Tool: tool.Name(), Bound: bounds[bound], Rate: r, RetryAfter: max(time.Duration(wait), time.Millisecond)}
}

var bounds = [3]string{wink.BoundServer, wink.BoundPrincipal, wink.BoundTool}

// ServerWait returns how long until the server-wide bucket has a token, 0
// when it has one now or there is no server-wide limit. It takes nothing:
// an HTTP server asks it before reading a tool call, to answer 429 with
// Retry-After without running anything (mcpserver.WithRateLimit); the call
// it lets through still takes its tokens in Admit.
func (l *Limiter) ServerWait(ctx context.Context) (time.Duration, error) {
	r := l.limits.Server
	if r.IsZero() {
		return 0, nil
	}
	return l.store.Peek(ctx, Bucket{Key{Bound: wink.BoundServer}, r})
}
