package ratelimit_test

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/ratelimit"
	"github.com/winkgen/wink/runtime/ratelimit/internal/ratetest"
	"github.com/winkgen/wink/runtime/wink"
)

// BenchmarkDispatch dispatches one call of a read-only tool for a principal (lookup: one integer
// argument, the cheapest dispatch there is; search: four arguments, a string, a number, a list and a
// time, as a model writes them): without a rate limiter (none), and with the in-memory limiter taking a
// token from three buckets (server, principal, principal and tool) that never run dry (all), or from the
// tool's bucket alone (tool). Each is run by a dispatcher that records no events (events=off: the limiter
// reads the clock itself) and by one that does (events=on, as an MCP server's always does, and any with a Session:
// the dispatcher reads the clock for the event, and the limiter judges the call at that reading).
// Compare them side by side:
//
//	go test ./runtime/ratelimit -run XXX -bench BenchmarkDispatch -benchmem -benchtime 100000x -count 8 | benchstat -col /limits -
//
// cpu-ns/op is the process's CPU time per call (getrusage): on a machine whose cores other work shares,
// it measures what a call costs where sec/op also counts the time spent waiting for a core.
func BenchmarkDispatch(b *testing.B) {
	reg, err := wink.NewRegistry(ratetest.WinkTools())
	if err != nil {
		b.Fatal(err)
	}
	big := wink.Rate{Count: 1_000_000, Per: time.Second, Burst: 1_000_000_000}
	l, err := ratelimit.New(ratelimit.Limits{Server: big, PerPrincipal: big, DefaultTool: big}, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := wink.WithPrincipal(context.Background(), &wink.Principal{Subject: "alice", Issuer: "https://as.example"})
	for _, tc := range []struct {
		name string
		call wink.Call
	}{
		{"tool=lookup", wink.Call{ID: "c", Name: "lookup", Arguments: []byte(`{"id":1}`)}},
		{"tool=search", wink.Call{ID: "c", Name: "search", Arguments: []byte(`{"query":"rate limits","limit":5,"kinds":["guide","api"],"since":"2026-01-02T15:04:05Z"}`)}},
	} {
		lt, err := ratelimit.New(ratelimit.Limits{Tools: map[string]wink.Rate{tc.call.Name: big}}, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, ev := range []struct {
			name string
			sink func(*wink.ToolInvoked)
		}{{"events=off", nil}, {"events=on", func(*wink.ToolInvoked) {}}} {
			for _, bc := range []struct {
				name string
				lim  wink.RateLimiter
			}{{"limits=none", nil}, {"limits=tool", lt}, {"limits=all", l}} {
				d := &wink.Dispatcher{Registry: reg, RateLimit: bc.lim, Events: ev.sink}
				b.Run(tc.name+"/"+ev.name+"/"+bc.name, func(b *testing.B) {
					b.ReportAllocs()
					cpu0, ok := cpuTime()
					for b.Loop() {
						if out, err := d.Dispatch(ctx, tc.call); err != nil || !out.Success {
							b.Fatal(err, out.Output)
						}
					}
					if cpu1, _ := cpuTime(); ok {
						b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
					}
				})
			}
		}
	}
}

// BenchmarkAdmitParallel is the limiter alone under every core, each goroutine its own principal.
func BenchmarkAdmitParallel(b *testing.B) {
	big := wink.Rate{Count: 1_000_000, Per: time.Second, Burst: 1_000_000_000}
	l, err := ratelimit.New(ratelimit.Limits{PerPrincipal: big, DefaultTool: big}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		ctx := wink.WithPrincipal(context.Background(), &wink.Principal{Subject: time.Now().String()})
		for pb.Next() {
			if err := l.Admit(ctx, ratetest.WinkLookup); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkAdmit is the limiter alone on one goroutine, taking from three buckets (server, principal,
// principal and tool): judged at the dispatcher's reading of the clock (at), and reading the clock itself
// (clock).
func BenchmarkAdmit(b *testing.B) {
	big := wink.Rate{Count: 1_000_000, Per: time.Second, Burst: 1_000_000_000}
	l, err := ratelimit.New(ratelimit.Limits{Server: big, PerPrincipal: big, DefaultTool: big}, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := wink.WithPrincipal(context.Background(), &wink.Principal{Subject: "alice", Issuer: "https://as.example"})
	b.Run("at", func(b *testing.B) {
		b.ReportAllocs()
		now := time.Now()
		cpu0, ok := cpuTime()
		for b.Loop() {
			if err := l.AdmitAt(ctx, ratetest.WinkLookup, now); err != nil {
				b.Fatal(err)
			}
		}
		if cpu1, _ := cpuTime(); ok {
			b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
		}
	})
	b.Run("clock", func(b *testing.B) {
		b.ReportAllocs()
		cpu0, ok := cpuTime()
		for b.Loop() {
			if err := l.Admit(ctx, ratetest.WinkLookup); err != nil {
				b.Fatal(err)
			}
		}
		if cpu1, _ := cpuTime(); ok {
			b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
		}
	})
}

// clockRead is the floor of any exact limiter without a reading to share: it reads the monotonic clock,
// as Memory does for a call the dispatcher read no clock for, and admits every call.
type clockRead struct{}

var clockBase = time.Now()

func (clockRead) Admit(context.Context, *wink.Tool) error {
	if time.Since(clockBase) < 0 {
		return errors.New("the monotonic clock went back")
	}
	return nil
}

func (clockRead) AdmitAt(context.Context, *wink.Tool, time.Time) error { return nil }

// BenchmarkDispatchOverhead measures the limiter's share of a dispatch on a machine whose cores other work
// shares, where runs of BenchmarkDispatch seconds apart see different loads: the same dispatch without a
// limiter (A) and with the in-memory limiter (B: the tool's bucket alone, or all three buckets) run in
// alternating blocks of 256 calls, A B B A, each block timed by the CPU time of the benchmark's own thread
// where the system can tell it (threadCPU), and overhead-% is the median over the rounds of B's time over
// A's, less 100%. Two reference rows: control (B without a limiter; reads about 0%, showing the method
// is unbiased) and clockread (a limiter that only reads the clock when the dispatcher shares no reading,
// and otherwise does nothing: the floor of an exact limiter there).
//
//	go test ./runtime/ratelimit -run XXX -bench BenchmarkDispatchOverhead -count 8 | benchstat -
func BenchmarkDispatchOverhead(b *testing.B) {
	reg, err := wink.NewRegistry(ratetest.WinkTools())
	if err != nil {
		b.Fatal(err)
	}
	big := wink.Rate{Count: 1_000_000, Per: time.Second, Burst: 1_000_000_000}
	all, err := ratelimit.New(ratelimit.Limits{Server: big, PerPrincipal: big, DefaultTool: big}, nil)
	if err != nil {
		b.Fatal(err)
	}
	tool, err := ratelimit.New(ratelimit.Limits{DefaultTool: big}, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := wink.WithPrincipal(context.Background(), &wink.Principal{Subject: "alice", Issuer: "https://as.example"})
	for _, tc := range []struct {
		name string
		call wink.Call
	}{
		{"tool=lookup", wink.Call{ID: "c", Name: "lookup", Arguments: []byte(`{"id":1}`)}},
		{"tool=search", wink.Call{ID: "c", Name: "search", Arguments: []byte(`{"query":"rate limits","limit":5,"kinds":["guide","api"],"since":"2026-01-02T15:04:05Z"}`)}},
	} {
		for _, ev := range []struct {
			name string
			sink func(*wink.ToolInvoked)
		}{{"events=off", nil}, {"events=on", func(*wink.ToolInvoked) {}}} {
			for _, lc := range []struct {
				name string
				l    wink.RateLimiter
			}{{"limits=control", nil}, {"limits=clockread", clockRead{}}, {"limits=tool", tool}, {"limits=all", all}} {
				a := &wink.Dispatcher{Registry: reg, Events: ev.sink}
				bl := &wink.Dispatcher{Registry: reg, Events: ev.sink}
				if lc.l != nil {
					bl.RateLimit = lc.l
				}
				block := func(d *wink.Dispatcher) time.Duration {
					t0 := threadCPU()
					for range 256 {
						if out, err := d.Dispatch(ctx, tc.call); err != nil || !out.Success {
							b.Fatal(err, out.Output)
						}
					}
					return threadCPU() - t0
				}
				b.Run(tc.name+"/"+ev.name+"/"+lc.name, func(b *testing.B) {
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					var ratios []float64
					var ta time.Duration
					for b.Loop() {
						a1 := block(a)
						tb := block(bl) + block(bl)
						a2 := block(a)
						ta += a1 + a2
						ratios = append(ratios, float64(tb)/float64(a1+a2))
					}
					slices.Sort(ratios)
					b.ReportMetric(100*(ratios[len(ratios)/2]-1), "overhead-%")
					b.ReportMetric(float64(ta)/float64(b.N*512), "base-ns/call")
					b.ReportMetric(0, "ns/op")
				})
			}
		}
	}
}
