package wink_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// TestShortOutputsAreEachCallsOwn dispatches, from several goroutines at once, calls whose outputs
// repeat (a few values) and calls whose outputs are all different, short and long, and checks that
// every outcome and every event carries its own call's output: a tool gives a short output it rendered
// before again instead of allocating it, and must never give one that differs.
func TestShortOutputsAreEachCallsOwn(t *testing.T) {
	var mu sync.Mutex
	events := map[string]string{}
	long := make([]string, 40)
	for i := range long {
		long[i] = "match-" + strconv.Itoa(i)
	}
	d := &wink.Dispatcher{
		Registry: wink.MustRegistry([]*wink.Tool{newSearchDef("search_docs", func(_ *wink.ToolContext, p searchParams) (wink.ToolResult[searchResult], error) {
			return wink.OK(resultOf(p.Query, p.Limit, long), "ok"), nil
		}, nil)}),
		Events: func(ev *wink.ToolInvoked) {
			mu.Lock()
			events[ev.CallID] = ev.Output
			mu.Unlock()
		},
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 400 {
				limit := i % 3 // repeats
				query := "short"
				switch {
				case i%5 == 0:
					query = "u" + strconv.Itoa(g*1000+i) // never repeats
				case i%7 == 0:
					query, limit = "long", i%100 // outgrows the frame's buffer
				}
				id := strconv.Itoa(g) + "/" + strconv.Itoa(i)
				args := `{"query":"` + query + `","limit":` + strconv.Itoa(limit) + `}`
				out, err := d.Dispatch(context.Background(), wink.Call{ID: id, Name: "search_docs", Arguments: []byte(args)})
				if err != nil || !out.Success {
					t.Errorf("call %s: %+v, %v", id, out, err)
					return
				}
				r := resultOf(query, limit, long)
				if want := "ok\n\n" + string(encodeSearchResult(nil, &r)); out.Output != want {
					t.Errorf("call %s: output %q, want %q", id, out.Output, want)
					return
				}
			}
		})
	}
	wg.Wait()
	if len(events) != 4*400 {
		t.Fatalf("%d events, want %d", len(events), 4*400)
	}
}

// resultOf is the result of TestShortOutputsAreEachCallsOwn's tool: its own query as the match of a
// unique one, many matches for a long one.
func resultOf(query string, limit int, long []string) searchResult {
	r := searchResult{Total: limit}
	switch {
	case query == "long":
		r.Matches = long[:limit%len(long)]
	case query[0] == 'u':
		r.Matches = []string{query}
	}
	return r
}

// TestEventTimesAreTheCallsStart checks the event's Time and Duration with the default clock, across
// calls made more than a frame's clock refresh apart: Time falls between readings of the system clock
// taken around Dispatch, by the monotonic clock and by the wall clock, and Duration is within the call.
func TestEventTimesAreTheCallsStart(t *testing.T) {
	var ev *wink.ToolInvoked
	d := &wink.Dispatcher{
		Registry: wink.MustRegistry([]*wink.Tool{newSearchDef("search_docs", noopValue, nil)}),
		Events:   func(e *wink.ToolInvoked) { ev = e },
	}
	for i := range 6 {
		if i == 3 {
			time.Sleep(30 * time.Millisecond) // the frames' readings of the system clock are stale now
		}
		before := time.Now()
		if _, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "search_docs", Arguments: benchArgs}); err != nil {
			t.Fatal(err)
		}
		after := time.Now()
		if ev.Time.Before(before) || ev.Time.After(after) {
			t.Errorf("call %d: Time %v not within %v and %v", i, ev.Time, before, after)
		}
		// The wall clock (Round(0) drops the monotonic reading), allowing for its rate adjustments.
		const slack = 50 * time.Microsecond
		if w := ev.Time.Round(0); w.Before(before.Round(0).Add(-slack)) || w.After(after.Round(0).Add(slack)) {
			t.Errorf("call %d: wall clock Time %v not within %v and %v", i, w, before.Round(0), after.Round(0))
		}
		if ev.Duration < 0 || ev.Duration > after.Sub(before) {
			t.Errorf("call %d: Duration %v, the call took %v", i, ev.Duration, after.Sub(before))
		}
	}
}

// TestCanonicalArgumentsWithoutParamsEncoder checks what a handler of a tool built without a params
// encoder sees as its canonical arguments: the arguments as sent, in canonical form (the ToolContext
// keeps them aside for such tools only).
func TestCanonicalArgumentsWithoutParamsEncoder(t *testing.T) {
	var got []string
	h := func(tc *wink.ToolContext, _ searchParams) (wink.ToolResult[searchResult], error) {
		got = append(got, string(tc.CanonicalArguments()))
		return wink.Done[searchResult]("ok"), nil
	}
	for _, encoder := range []bool{false, true} {
		got = nil
		tool := newSearchDef("search_docs", h, func(f *wink.Funcs[searchParams, searchResult]) {
			if !encoder {
				f.EncodeParams = nil
			}
		})
		d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{tool})}
		for _, args := range []string{`{ "query" : "x", "limit":2 }`, `{"limit":3,"query":"y"}`} {
			if out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "search_docs", Arguments: []byte(args)}); err != nil || !out.Success {
				t.Fatal(out, err)
			}
		}
		want := []string{`{"limit":2,"query":"x"}`, `{"limit":3,"query":"y"}`}
		if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("encoder %v: canonical arguments %q, want %q", encoder, got, want)
		}
	}
}
