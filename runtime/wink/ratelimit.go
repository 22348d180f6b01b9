package wink

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Rate is a token bucket: it holds up to Burst tokens (Count when Burst is
// 0) and gains Count tokens every Per, one at a time, evenly (one every
// Per/Count). Each call takes one token; a call finding no token is refused
// until the next one arrives. So a caller may make Burst calls at once, then
// Count per Per for as long as it goes on. The zero Rate is no limit.
//
// A tool declares its rate with //wink:tool rate=<count>/<period>
// burst=<n> (the period s, m, h or a duration such as 10s: rate=10/s,
// rate=100/m burst=20, rate=5/10s); winkgen checks it at generation time
// and writes it into Spec.Rate.
type Rate struct {
	// Count is how many tokens arrive every Per (at least 1).
	Count int
	// Per is the period Count tokens take to arrive.
	Per time.Duration
	// Burst is the bucket's size: how many calls may be made at once after
	// a pause; 0 means Count.
	Burst int
}

// IsZero reports whether r is the zero Rate, which limits nothing.
func (r Rate) IsZero() bool { return r == Rate{} }

// Size returns the bucket's size: Burst, or Count when Burst is 0.
func (r Rate) Size() int {
	if r.Burst > 0 {
		return r.Burst
	}
	return r.Count
}

// Interval returns the time between two tokens, Per/Count.
func (r Rate) Interval() time.Duration {
	if r.Count <= 0 {
		return 0
	}
	return r.Per / time.Duration(r.Count)
}

// Validate returns why r cannot be a token bucket, or nil for a valid or
// the zero Rate: Count at least 1, Per at least a millisecond, Burst not
// negative, and at most a million tokens a second.
func (r Rate) Validate() error {
	switch {
	case r.IsZero():
		return nil
	case r.Count < 1:
		return errors.New("rate count " + strconv.Itoa(r.Count) + " must be at least 1")
	case r.Per < time.Millisecond:
		return errors.New("rate period " + r.Per.String() + " must be at least 1ms")
	case r.Burst < 0:
		return errors.New("burst " + strconv.Itoa(r.Burst) + " must not be negative")
	case r.Interval() < time.Microsecond:
		return errors.New("rate " + r.String() + " is more than a million calls a second")
	}
	return nil
}

// String returns r as a directive writes it: "10/s", "100/m burst=20",
// "5/10s".
func (r Rate) String() string {
	var per string
	switch r.Per {
	case time.Second:
		per = "s"
	case time.Minute:
		per = "m"
	case time.Hour:
		per = "h"
	default:
		per = r.Per.String()
	}
	s := strconv.Itoa(r.Count) + "/" + per
	if r.Burst > 0 && r.Burst != r.Count {
		s += " burst=" + strconv.Itoa(r.Burst)
	}
	return s
}

// RateLimiter admits or refuses calls before their arguments are read
// (Dispatcher.RateLimit). Package runtime/ratelimit implements it with
// token buckets per caller, per tool and server-wide, in memory or shared by
// a fleet through PostgreSQL.
type RateLimiter interface {
	// Admit takes what a call of tool made for ctx's principal
	// (PrincipalFrom; nil for an anonymous caller) consumes, and returns
	// nil to let it run. It returns a *RateLimitError to refuse it, which
	// the dispatcher answers as a failed call saying when to retry; any
	// other error means the limiter could not decide (its store is down),
	// and the call fails closed: Dispatch returns the error and nothing
	// runs. It must be safe for concurrent use.
	Admit(ctx context.Context, tool *Tool) error
}

// RateLimiterAt is a RateLimiter that can take the dispatcher's own reading
// of the clock instead of reading it again: a clock read is a large part of
// what an in-memory limit costs. The dispatcher calls AdmitAt in place of
// Admit when it has read the clock for the call anyway (it does when the
// call records an event, as an MCP server's calls do, or has a Start hook)
// and its clock is the default one (Now is nil); otherwise it calls Admit.
type RateLimiterAt interface {
	RateLimiter
	// AdmitAt is Admit for a call whose dispatch started at now, a reading
	// of time.Now (with its monotonic reading) taken for this call: the
	// time on its ToolInvoked event.
	AdmitAt(ctx context.Context, tool *Tool, now time.Time) error
}

// ErrRateLimited is the cause (ToolInvoked.Err, through errors.Is) of a call
// refused by the dispatcher's rate limiter.
var ErrRateLimited = errors.New("rate limited")

// The bounds a RateLimitError names.
const (
	BoundServer    = "server"    // every call the server answers, together
	BoundPrincipal = "principal" // every call of one caller
	BoundTool      = "tool"      // the calls of one caller to one tool
)

// RateLimitError is the cause of a call refused by a rate limit. Its Error
// text is what the model sees.
type RateLimitError struct {
	// Tool is the tool called.
	Tool string
	// Bound is the bucket that was empty: BoundServer, BoundPrincipal or
	// BoundTool.
	Bound string
	// Rate is that bucket's rate.
	Rate Rate
	// RetryAfter is how long from the refusal until the call would be
	// admitted, if no other call takes the token first (at least 1ms).
	RetryAfter time.Duration
}

// Error says which limit refused the call and when to call again.
func (e *RateLimitError) Error() string {
	var b strings.Builder
	b.WriteString("tool ")
	b.WriteString(strconv.Quote(e.Tool))
	b.WriteString(" was not called: ")
	switch e.Bound {
	case BoundServer:
		b.WriteString("the server's rate limit")
	case BoundPrincipal:
		b.WriteString("the caller's rate limit")
	default:
		b.WriteString("this tool's rate limit for the caller")
	}
	if !e.Rate.IsZero() {
		b.WriteString(" (")
		b.WriteString(e.Rate.String())
		b.WriteString(")")
	}
	b.WriteString(" is used up; call it again in ")
	b.WriteString(RetryText(e.RetryAfter))
	b.WriteString(" or later, with the same arguments")
	return b.String()
}

// Is reports that e is ErrRateLimited.
func (e *RateLimitError) Is(target error) bool { return target == ErrRateLimited }

// RetryText returns d rounded up for a reader: whole milliseconds under a
// second ("250ms"), tenths of a second under a minute ("1.5s"), whole
// seconds beyond, in hours, minutes and seconds ("20m", "1h2m5s").
func RetryText(d time.Duration) string {
	switch {
	case d <= time.Millisecond:
		return "1ms"
	case d < time.Second:
		return strconv.FormatInt(int64((d+time.Millisecond-1)/time.Millisecond), 10) + "ms"
	case d < time.Minute:
		t := int64((d + 100*time.Millisecond - 1) / (100 * time.Millisecond))
		s := strconv.FormatInt(t/10, 10)
		if t%10 != 0 {
			s += "." + strconv.FormatInt(t%10, 10)
		}
		return s + "s"
	}
	secs := int64((d + time.Second - 1) / time.Second)
	var b strings.Builder
	for _, u := range []struct {
		n    int64
		unit string
	}{{secs / 3600, "h"}, {secs / 60 % 60, "m"}, {secs % 60, "s"}} {
		if u.n > 0 {
			b.WriteString(strconv.FormatInt(u.n, 10))
			b.WriteString(u.unit)
		}
	}
	return b.String()
}

// admit asks the dispatcher's rate limiter about a call of t (step 1c).
func (d *Dispatcher) admit(ctx context.Context, t *Tool, fr *frame) bool {
	cs := &fr.cs
	var err error
	if d.Now != nil || !cs.timed {
		err = d.RateLimit.Admit(ctx, t) // no reading of the default clock to share
	} else if at, ok := d.RateLimit.(RateLimiterAt); ok {
		err = at.AdmitAt(ctx, t, d.startTime(fr))
	} else {
		err = d.RateLimit.Admit(ctx, t)
	}
	if err == nil {
		return true
	}
	var rl *RateLimitError
	if errors.As(err, &rl) {
		cs.fail(rl.Error())
		cs.out.RetryAfter = rl.RetryAfter
		cs.cause = err
		return false
	}
	cs.err = &limiterError{msg: "tool " + strconv.Quote(t.spec.Name) +
		" not executed: the rate limiter could not decide, so the call was refused (rate limits fail closed): " + err.Error(), cause: err}
	cs.cause = cs.err
	return false
}

// limiterError is Dispatch's error when the rate limiter fails.
type limiterError struct {
	msg   string
	cause error
}

func (e *limiterError) Error() string { return e.msg }
func (e *limiterError) Unwrap() error { return e.cause }
