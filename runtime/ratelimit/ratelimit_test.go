package ratelimit_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/ratelimit"
	"github.com/winkgen/wink/runtime/ratelimit/internal/ratetest"
	"github.com/winkgen/wink/runtime/wink"
)

// clock is a manual clock for Memory.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

// dispatcher returns a dispatcher of ratetest's tools limited by limits on store, and a pointer to the
// last ToolInvoked event.
func dispatcher(t *testing.T, limits ratelimit.Limits, store ratelimit.Store) (*wink.Dispatcher, *atomic.Pointer[wink.ToolInvoked]) {
	t.Helper()
	l, err := ratelimit.New(limits, store)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := wink.NewRegistry(ratetest.WinkTools())
	if err != nil {
		t.Fatal(err)
	}
	var last atomic.Pointer[wink.ToolInvoked]
	return &wink.Dispatcher{Registry: reg, RateLimit: l, Events: func(ev *wink.ToolInvoked) { last.Store(ev) }}, &last
}

func as(sub string) context.Context {
	return wink.WithPrincipal(context.Background(), &wink.Principal{Subject: sub, Issuer: "https://as.example"})
}

func call(t *testing.T, d *wink.Dispatcher, ctx context.Context, name, args string) wink.Outcome {
	t.Helper()
	out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: name, Arguments: []byte(args)})
	if err != nil {
		t.Fatalf("Dispatch(%s %s): %v", name, args, err)
	}
	return out
}

// TestToolRateRefusesPastTheBurstAndSaysWhenToRetry: send_email declares rate=3/h burst=2. Each caller
// gets two calls at once, then one every 20 minutes; the refusal says so, in the text and in
// Outcome.RetryAfter and the event's *wink.RateLimitError, and the handler does not run.
func TestToolRateRefusesPastTheBurstAndSaysWhenToRetry(t *testing.T) {
	c := newClock()
	d, last := dispatcher(t, ratelimit.Limits{}, ratelimit.NewMemoryClock(c.now))
	before := ratetest.Sends.Load()
	alice := as("alice")
	for i := range 2 {
		if out := call(t, d, alice, "send_email", `{"to":"bob"}`); !out.Success {
			t.Fatalf("call %d within the burst: %s", i, out.Output)
		}
	}
	c.add(5 * time.Minute)
	out := call(t, d, alice, "send_email", `{"to":"bob"}`)
	want := `tool "send_email" was not called: this tool's rate limit for the caller (3/h burst=2) is used up; call it again in 15m or later, with the same arguments`
	if out.Success || out.Output != want {
		t.Fatalf("third call:\n got %q\nwant %q", out.Output, want)
	}
	if out.RetryAfter != 15*time.Minute+time.Nanosecond && out.RetryAfter.Round(time.Millisecond) != 15*time.Minute {
		t.Errorf("RetryAfter = %v, want 15m", out.RetryAfter)
	}
	var rl *wink.RateLimitError
	if ev := last.Load(); !errors.As(ev.Err, &rl) || !errors.Is(ev.Err, wink.ErrRateLimited) || rl.Bound != wink.BoundTool || rl.Tool != "send_email" {
		t.Errorf("event Err = %v, want a *wink.RateLimitError of bound tool", ev.Err)
	}
	if got := ratetest.Sends.Load() - before; got != 2 {
		t.Errorf("handler ran %d times, want 2", got)
	}
	// Another caller has its own bucket.
	if out := call(t, d, as("carol"), "send_email", `{"to":"bob"}`); !out.Success {
		t.Errorf("another caller refused: %s", out.Output)
	}
	// The token arrives when the refusal said.
	c.add(15*time.Minute - time.Second)
	if out := call(t, d, alice, "send_email", `{"to":"bob"}`); out.Success {
		t.Errorf("admitted a second before the token arrives")
	}
	c.add(time.Second)
	if out := call(t, d, alice, "send_email", `{"to":"bob"}`); !out.Success {
		t.Errorf("refused when the token arrived: %s", out.Output)
	}
}

// TestRateIsCheckedBeforeTheArgumentsAreRead: a refused call with bad arguments is answered with the
// rate limit, not the arguments' errors (the check comes before decoding), and a call with bad arguments
// takes a token like any other.
func TestRateIsCheckedBeforeTheArgumentsAreRead(t *testing.T) {
	d, _ := dispatcher(t, ratelimit.Limits{}, ratelimit.NewMemoryClock(newClock().now))
	alice := as("alice")
	if out := call(t, d, alice, "send_email", `{"too":"x"}`); out.Success || !strings.Contains(out.Output, "Invalid arguments") {
		t.Fatalf("bad arguments: %s", out.Output)
	}
	call(t, d, alice, "send_email", `{"to":"x"}`)
	out := call(t, d, alice, "send_email", `{"too":"x"}`)
	if !strings.Contains(out.Output, "rate limit") || strings.Contains(out.Output, "Invalid arguments") {
		t.Fatalf("refused call with bad arguments answered %q, want the rate limit only", out.Output)
	}
}

// TestPerPrincipalAndServerBounds: the per-principal bucket spans the caller's tools, the server bucket
// every caller; each refusal names its bound.
func TestPerPrincipalAndServerBounds(t *testing.T) {
	c := newClock()
	d, last := dispatcher(t, ratelimit.Limits{
		PerPrincipal: wink.Rate{Count: 2, Per: time.Minute},
		Server:       wink.Rate{Count: 3, Per: time.Minute},
	}, ratelimit.NewMemoryClock(c.now))
	alice, bob := as("alice"), as("bob")
	call(t, d, alice, "lookup", `{"id":1}`)
	call(t, d, alice, "send_email", `{"to":"x"}`)
	out := call(t, d, alice, "lookup", `{"id":1}`)
	want := `tool "lookup" was not called: the caller's rate limit (2/m) is used up; call it again in 30s or later, with the same arguments`
	if out.Output != want {
		t.Fatalf("alice's third call:\n got %q\nwant %q", out.Output, want)
	}
	if out := call(t, d, bob, "lookup", `{"id":1}`); !out.Success {
		t.Fatalf("bob's first call: %s", out.Output)
	}
	out = call(t, d, bob, "lookup", `{"id":1}`)
	want = `tool "lookup" was not called: the server's rate limit (3/m) is used up; call it again in 20s or later, with the same arguments`
	if out.Output != want {
		t.Fatalf("bob's second call:\n got %q\nwant %q", out.Output, want)
	}
	var rl *wink.RateLimitError
	if !errors.As(last.Load().Err, &rl) || rl.Bound != wink.BoundServer {
		t.Errorf("event Err = %v, want bound server", last.Load().Err)
	}
	// All or none: the server's refusal took nothing from bob's own bucket, so once the server has a
	// token again bob gets it, and then his bucket (2/m) still holds one more.
	c.add(20 * time.Second)
	if out := call(t, d, bob, "lookup", `{"id":1}`); !out.Success {
		t.Fatalf("bob after 20s: %s", out.Output)
	}
	c.add(20 * time.Second)
	if out := call(t, d, bob, "lookup", `{"id":1}`); !out.Success {
		t.Fatalf("bob's second token was taken by a refused call: %s", out.Output)
	}
}

// TestAnonymousCallersShareOneBucket: calls without a principal are one caller.
func TestAnonymousCallersShareOneBucket(t *testing.T) {
	d, _ := dispatcher(t, ratelimit.Limits{}, ratelimit.NewMemoryClock(newClock().now))
	ctx := context.Background()
	call(t, d, ctx, "send_email", `{"to":"x"}`)
	call(t, d, ctx, "send_email", `{"to":"x"}`)
	if out := call(t, d, context.WithValue(ctx, struct{}{}, 1), "send_email", `{"to":"x"}`); out.Success {
		t.Fatal("a third anonymous call was admitted; anonymous callers share one bucket")
	}
	if out := call(t, d, as("alice"), "send_email", `{"to":"x"}`); !out.Success {
		t.Fatalf("an authenticated caller shares the anonymous bucket: %s", out.Output)
	}
}

// TestToolsOverrideAndDefault: Limits.Tools replaces a declared rate (the zero Rate lifts it), and
// DefaultTool bounds tools that declare none.
func TestToolsOverrideAndDefault(t *testing.T) {
	d, _ := dispatcher(t, ratelimit.Limits{
		Tools:       map[string]wink.Rate{"send_email": {}},
		DefaultTool: wink.Rate{Count: 1, Per: time.Hour},
	}, ratelimit.NewMemoryClock(newClock().now))
	alice := as("alice")
	for range 5 {
		if out := call(t, d, alice, "send_email", `{"to":"x"}`); !out.Success {
			t.Fatalf("send_email's rate was lifted: %s", out.Output)
		}
	}
	call(t, d, alice, "lookup", `{"id":1}`)
	if out := call(t, d, alice, "lookup", `{"id":1}`); out.Success || !strings.Contains(out.Output, "(1/h)") {
		t.Fatalf("lookup past DefaultTool: %s", out.Output)
	}
}

// TestNewRefusesInvalidRates: a rate no bucket can have is an error of New, naming the field.
func TestNewRefusesInvalidRates(t *testing.T) {
	_, err := ratelimit.New(ratelimit.Limits{Server: wink.Rate{Count: 0, Per: time.Second},
		Tools: map[string]wink.Rate{"x": {Count: 1, Per: time.Microsecond}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "Server: rate count 0 must be at least 1") ||
		!strings.Contains(err.Error(), `Tools["x"]: rate period 1µs must be at least 1ms`) {
		t.Fatalf("New = %v", err)
	}
}

// failing is a Store whose database is down.
type failing struct{}

func (failing) Take(context.Context, []ratelimit.Bucket) (int, time.Duration, error) {
	return 0, 0, errors.New("connection refused")
}
func (failing) Peek(context.Context, ratelimit.Bucket) (time.Duration, error) {
	return 0, errors.New("connection refused")
}

// TestStoreErrorFailsClosed: when the store cannot decide, Dispatch returns its error and nothing runs.
func TestStoreErrorFailsClosed(t *testing.T) {
	d, _ := dispatcher(t, ratelimit.Limits{}, failing{})
	before := ratetest.Sends.Load()
	_, err := d.Dispatch(as("alice"), wink.Call{ID: "c", Name: "send_email", Arguments: []byte(`{"to":"x"}`)})
	if err == nil || !strings.Contains(err.Error(), "connection refused") || !strings.Contains(err.Error(), "fail closed") {
		t.Fatalf("Dispatch error = %v, want the store's error, failing closed", err)
	}
	if ratetest.Sends.Load() != before {
		t.Fatal("the handler ran although the limiter could not decide")
	}
	// A tool the limiter has no bucket for is not asked about.
	if out := call(t, d, as("alice"), "lookup", `{"id":1}`); !out.Success {
		t.Fatalf("lookup: %s", out.Output)
	}
}

// TestManyGoroutinesNeverExceedTheBucket: 64 goroutines calling for one principal, and for 16
// principals, are admitted exactly as many times as the buckets hold (no refill within the test).
func TestManyGoroutinesNeverExceedTheBucket(t *testing.T) {
	d, _ := dispatcher(t, ratelimit.Limits{
		PerPrincipal: wink.Rate{Count: 1, Per: time.Hour, Burst: 25},
		Server:       wink.Rate{Count: 1, Per: time.Hour, Burst: 300},
	}, nil)
	run := func(subjects []string, callsEach int) map[string]int {
		var mu sync.Mutex
		got := map[string]int{}
		var wg sync.WaitGroup
		for g := range 64 {
			wg.Go(func() {
				for i := range callsEach {
					sub := subjects[(g+i)%len(subjects)]
					out := call(t, d, as(sub), "lookup", `{"id":1}`)
					if out.Success {
						mu.Lock()
						got[sub]++
						mu.Unlock()
					}
				}
			})
		}
		wg.Wait()
		return got
	}
	if got := run([]string{"one"}, 10); got["one"] != 25 {
		t.Fatalf("one principal, 640 calls: admitted %d, want 25", got["one"])
	}
	var subs []string
	for i := range 16 {
		subs = append(subs, "p"+strconv.Itoa(i))
	}
	got := run(subs, 20) // 80 calls per principal
	total := 0
	for _, s := range subs {
		if got[s] > 25 {
			t.Errorf("%s admitted %d times, more than its 25", s, got[s])
		}
		total += got[s]
	}
	if total != 300-25 {
		t.Errorf("16 principals admitted %d in all, want the server's remaining 275", total)
	}
}

// TestMemoryDropsRefilledBuckets: buckets of callers gone quiet do not pile up.
func TestMemoryDropsRefilledBuckets(t *testing.T) {
	c := newClock()
	m := ratelimit.NewMemoryClock(c.now)
	l, err := ratelimit.New(ratelimit.Limits{PerPrincipal: wink.Rate{Count: 10, Per: time.Second}}, m)
	if err != nil {
		t.Fatal(err)
	}
	tool := ratetest.WinkLookup
	for i := range 200_000 {
		if err := l.Admit(as("p"+strconv.Itoa(i)), tool); err != nil {
			t.Fatal(err)
		}
		if i%1000 == 999 {
			c.add(time.Second) // every earlier caller's bucket is full again
		}
	}
	if n := m.Len(); n > 64*2048 || n >= 200_000 {
		t.Fatalf("Memory holds %d buckets for 200000 callers of whom at most 1000 are not refilled", n)
	}
}
