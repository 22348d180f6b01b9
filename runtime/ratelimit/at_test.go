package ratelimit_test

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/ratelimit"
	"github.com/winkgen/wink/runtime/ratelimit/internal/ratetest"
	"github.com/winkgen/wink/runtime/wink"
)

// TestAdmitAtJudgesTheCallAtTheDispatchersReading: the in-memory limiter judges a call at the time the
// dispatcher read for it, not at a clock reading of its own: with rate 1/h, a second call at the same
// reading waits an hour, and a call at the reading an hour later is admitted.
func TestAdmitAtJudgesTheCallAtTheDispatchersReading(t *testing.T) {
	l, err := ratelimit.New(ratelimit.Limits{DefaultTool: wink.Rate{Count: 1, Per: time.Hour}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := as("alice")
	t0 := time.Now()
	if err := l.AdmitAt(ctx, ratetest.WinkLookup, t0); err != nil {
		t.Fatalf("first call: %v", err)
	}
	var rl *wink.RateLimitError
	if err := l.AdmitAt(ctx, ratetest.WinkLookup, t0); !errors.As(err, &rl) || rl.RetryAfter != time.Hour {
		t.Fatalf("second call at the same reading: %v, want a refusal to retry in exactly 1h", err)
	}
	if err := l.AdmitAt(ctx, ratetest.WinkLookup, t0.Add(time.Hour-time.Nanosecond)); !errors.As(err, &rl) || rl.RetryAfter != time.Millisecond {
		t.Fatalf("a nanosecond early: %v, want a refusal (saying 1ms, the least it says)", err)
	}
	if err := l.AdmitAt(ctx, ratetest.WinkLookup, t0.Add(time.Hour)); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
}

// spyLimiter records which of Admit and AdmitAt the dispatcher called, and the reading it passed.
type spyLimiter struct {
	*ratelimit.Limiter
	admits, admitAts atomic.Int32
	at               atomic.Pointer[time.Time]
}

func (s *spyLimiter) Admit(ctx context.Context, tool *wink.Tool) error {
	s.admits.Add(1)
	return s.Limiter.Admit(ctx, tool)
}

func (s *spyLimiter) AdmitAt(ctx context.Context, tool *wink.Tool, now time.Time) error {
	s.admitAts.Add(1)
	s.at.Store(&now)
	return s.Limiter.AdmitAt(ctx, tool, now)
}

// TestDispatcherSharesItsClockReadingWithTheLimiter: a dispatcher that reads the clock for a call's event
// passes that very reading (the event's Time) to a wink.RateLimiterAt, so the call costs one clock read,
// not two; one that reads none (no events, no Start hook) or has its own clock (Dispatcher.Now) calls
// Admit, and the limiter reads its clock.
func TestDispatcherSharesItsClockReadingWithTheLimiter(t *testing.T) {
	l, err := ratelimit.New(ratelimit.Limits{PerPrincipal: wink.Rate{Count: 1000, Per: time.Second}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := wink.NewRegistry(ratetest.WinkTools())
	if err != nil {
		t.Fatal(err)
	}
	spy := &spyLimiter{Limiter: l}
	var ev atomic.Pointer[wink.ToolInvoked]
	d := &wink.Dispatcher{Registry: reg, RateLimit: spy, Events: func(e *wink.ToolInvoked) { ev.Store(e) }}
	if out := call(t, d, as("alice"), "lookup", `{"id":1}`); !out.Success {
		t.Fatal(out.Output)
	}
	if spy.admitAts.Load() != 1 || spy.admits.Load() != 0 {
		t.Fatalf("with events: AdmitAt called %d times, Admit %d; want 1 and 0", spy.admitAts.Load(), spy.admits.Load())
	}
	if at, e := *spy.at.Load(), ev.Load(); e == nil || at != e.Time {
		t.Fatalf("AdmitAt got %v, the event's time is %v: want the same reading", at, e)
	}

	for _, d := range []*wink.Dispatcher{
		{Registry: reg, RateLimit: spy},
		{Registry: reg, RateLimit: spy, Events: func(*wink.ToolInvoked) {}, Now: func() time.Time { return time.Unix(0, 0) }},
	} {
		spy.admits.Store(0)
		spy.admitAts.Store(0)
		if out := call(t, d, as("alice"), "lookup", `{"id":1}`); !out.Success {
			t.Fatal(out.Output)
		}
		if spy.admitAts.Load() != 0 || spy.admits.Load() != 1 {
			t.Fatalf("events %v, Now %v: AdmitAt called %d times, Admit %d; want 0 and 1",
				d.Events != nil, d.Now != nil, spy.admitAts.Load(), spy.admits.Load())
		}
	}
}

// TestCallersAreKeptApartWhateverTheirPointers: the limiter finds a caller's buckets by the principal's
// pointer first; thousands of principals (far more than its cache holds, so slots are shared and
// addresses reused after collection), each made anew for every call, still each get exactly their own
// bucket, keyed by issuer and subject (or client id), and the anonymous caller its own.
func TestCallersAreKeptApartWhateverTheirPointers(t *testing.T) {
	l, err := ratelimit.New(ratelimit.Limits{PerPrincipal: wink.Rate{Count: 1, Per: time.Hour}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 3000
	principal := func(i int) *wink.Principal {
		switch i % 3 {
		case 0:
			return &wink.Principal{Issuer: "https://as.example", Subject: "user" + strconv.Itoa(i)}
		case 1:
			return &wink.Principal{Issuer: "https://other.example", Subject: "user" + strconv.Itoa(i-1)} // another issuer, same subject
		}
		return &wink.Principal{Issuer: "https://as.example", ClientID: "user" + strconv.Itoa(i-2)} // a client id that is a subject's text
	}
	at := time.Now()
	for round := range 3 {
		for i := range n {
			p := principal(i)
			err := l.AdmitAt(wink.WithPrincipal(context.Background(), p), ratetest.WinkLookup, at)
			if round == 0 && err != nil {
				t.Fatalf("first call of %+v refused: %v", p, err)
			}
			if round > 0 && !errors.Is(err, wink.ErrRateLimited) {
				t.Fatalf("round %d: call of %+v admitted, want its own bucket empty: %v", round, p, err)
			}
			// The same pointer again, right away: still its own bucket.
			if err := l.AdmitAt(wink.WithPrincipal(context.Background(), p), ratetest.WinkLookup, at); !errors.Is(err, wink.ErrRateLimited) {
				t.Fatalf("round %d: second call of %+v admitted: %v", round, p, err)
			}
		}
		runtime.GC() // let addresses be reused
	}
	if err := l.AdmitAt(context.Background(), ratetest.WinkLookup, at); err != nil {
		t.Fatalf("the anonymous caller shares a bucket with a principal: %v", err)
	}
	if err := l.AdmitAt(wink.WithPrincipal(context.Background(), &wink.Principal{}), ratetest.WinkLookup, at); !errors.Is(err, wink.ErrRateLimited) {
		t.Fatalf("a principal with no issuer, subject or client is the anonymous caller; got a bucket of its own: %v", err)
	}
}

// TestCallersKeptApartWhenPointersComeAgain: principals that are kept and come again (as a session's
// principal does) are recognised by their pointer; thousands of them, with keys that differ only in the
// issuer or in subject versus client id, interleaved so that they share the cache's slots, each keep
// exactly their own bucket, and so does a new principal with an old one's key (it shares that one's).
func TestCallersKeptApartWhenPointersComeAgain(t *testing.T) {
	l, err := ratelimit.New(ratelimit.Limits{PerPrincipal: wink.Rate{Count: 2, Per: time.Hour, Burst: 2}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 3000
	ps := make([]*wink.Principal, n)
	for i := range ps {
		switch i % 3 {
		case 0:
			ps[i] = &wink.Principal{Issuer: "https://as.example", Subject: "user" + strconv.Itoa(i)}
		case 1:
			ps[i] = &wink.Principal{Issuer: "https://other.example", Subject: "user" + strconv.Itoa(i-1)}
		default:
			ps[i] = &wink.Principal{Issuer: "https://as.example", ClientID: "user" + strconv.Itoa(i-2)}
		}
	}
	at := time.Now()
	admit := func(p *wink.Principal) error {
		return l.AdmitAt(wink.WithPrincipal(context.Background(), p), ratetest.WinkLookup, at)
	}
	// Two tokens each: every principal is admitted twice, interleaved with all the others.
	for round := range 2 {
		for _, p := range ps {
			if err := admit(p); err != nil {
				t.Fatalf("round %d: call of %+v refused, want its own bucket to have a token: %v", round, p, err)
			}
		}
	}
	for _, p := range ps {
		if err := admit(p); !errors.Is(err, wink.ErrRateLimited) {
			t.Fatalf("third call of %+v admitted, want its own bucket empty: %v", p, err)
		}
		// A new principal with the same key is the same caller: its bucket is empty too.
		q := *p
		if err := admit(&q); !errors.Is(err, wink.ErrRateLimited) {
			t.Fatalf("a copy of %+v admitted, want the same caller's empty bucket: %v", p, err)
		}
	}
	if err := l.AdmitAt(context.Background(), ratetest.WinkLookup, at); err != nil {
		t.Fatalf("the anonymous caller shares a bucket with a principal: %v", err)
	}
}

// TestToolBucketsFollowTheNameWhateverTheDescriptor: a caller's bucket for a tool is found by the
// descriptor's pointer when that very descriptor comes again, but belongs to the tool's name: three tools
// of one caller keep three buckets, another descriptor with the same name (from another registry, or
// WithDescription) shares its name's bucket, and a bucket Memory.Take made by key is the one the
// Limiter takes from.
func TestToolBucketsFollowTheNameWhateverTheDescriptor(t *testing.T) {
	hour := wink.Rate{Count: 1, Per: time.Hour}
	m := ratelimit.NewMemory()
	l, err := ratelimit.New(ratelimit.Limits{Tools: map[string]wink.Rate{"lookup": hour, "search": hour, "send_email": hour}}, m)
	if err != nil {
		t.Fatal(err)
	}
	tools := []*wink.Tool{ratetest.WinkLookup, ratetest.WinkSearch, ratetest.WinkSendEmail}
	for round := range 2 {
		for _, who := range []string{"alice", "bob"} {
			ctx := as(who)
			for _, tool := range tools {
				err := l.Admit(ctx, tool)
				if round == 0 && err != nil {
					t.Fatalf("%s's first call of %s: %v, want it admitted (each tool its own bucket)", who, tool.Name(), err)
				}
				if round == 1 && !errors.Is(err, wink.ErrRateLimited) {
					t.Fatalf("%s's second call of %s: %v, want a refusal", who, tool.Name(), err)
				}
			}
		}
	}
	for _, tool := range tools {
		other := tool.WithDescription("another descriptor of " + tool.Name())
		if err := l.Admit(as("alice"), other); !errors.Is(err, wink.ErrRateLimited) {
			t.Fatalf("another descriptor named %s: %v, want a refusal from the name's used-up bucket", tool.Name(), err)
		}
		if err := l.Admit(as("carol"), other); err != nil {
			t.Fatalf("carol's first call of %s through another descriptor: %v", tool.Name(), err)
		}
		if err := l.Admit(as("carol"), tool); !errors.Is(err, wink.ErrRateLimited) {
			t.Fatalf("carol's call of %s after one through another descriptor: %v, want a refusal", tool.Name(), err)
		}
	}
	iss, sub := ratelimit.Caller(as("dave"))
	refused, _, err := m.Take(context.Background(), []ratelimit.Bucket{{Key: ratelimit.Key{Bound: wink.BoundTool, Tool: "search", Issuer: iss, Subject: sub}, Rate: hour}})
	if err != nil || refused != -1 {
		t.Fatalf("Take: refused %d, %v", refused, err)
	}
	if err := l.Admit(as("dave"), ratetest.WinkSearch); !errors.Is(err, wink.ErrRateLimited) {
		t.Fatalf("dave's call of search after Take took its token: %v, want a refusal", err)
	}
	if err := l.Admit(as("dave"), ratetest.WinkLookup); err != nil {
		t.Fatalf("dave's call of lookup: %v", err)
	}
}
