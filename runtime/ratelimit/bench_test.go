package ratelimit_test

import (
	"context"
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
// tool's bucket alone (tool). Compare them side by side:
//
//	go test ./runtime/ratelimit -run XXX -bench BenchmarkDispatch -benchmem -count 10 | benchstat -col /limits -
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
		for _, bc := range []struct {
			name string
			lim  wink.RateLimiter
		}{{"limits=none", nil}, {"limits=tool", lt}, {"limits=all", l}} {
			d := &wink.Dispatcher{Registry: reg, RateLimit: bc.lim}
			b.Run(tc.name+"/"+bc.name, func(b *testing.B) {
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
