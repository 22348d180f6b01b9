package wink_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

var benchArgs = []byte(`{"query":"filesystem snapshot rollback","limit":25}`)

func noopDone(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error) {
	return wink.Done[searchResult]("ok"), nil
}

func noopValue(_ *wink.ToolContext, p searchParams) (wink.ToolResult[searchResult], error) {
	return wink.OK(searchResult{Total: p.Limit}, "ok"), nil
}

func benchDispatcher(h handlerFunc, events bool) *wink.Dispatcher {
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{newSearchDef("search_docs", h, nil)})}
	if events {
		d.Events = func(*wink.ToolInvoked) {}
	}
	return d
}

// BenchmarkDispatchNoop measures the whole pipeline around a handler that does
// nothing: lookup, strict decode, ToolContext, handler, rendering.
func BenchmarkDispatchNoop(b *testing.B) {
	cases := []struct {
		name   string
		h      handlerFunc
		events bool
	}{
		{"no_value", noopDone, false},
		{"json_value", noopValue, false},
		{"json_value_events", noopValue, true},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			d := benchDispatcher(c.h, c.events)
			call := wink.Call{ID: "call_1", Name: "search_docs", Arguments: benchArgs}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				out, err := d.Dispatch(ctx, call)
				if err != nil || !out.Success {
					b.Fatal(out, err)
				}
			}
		})
	}
}

// TestDispatchAllocations pins what the success path allocates per call, in allocations and bytes: the
// ToolContext (176 bytes) and the decoded query string (one block); with events, the record that
// holds the event with the params, value and strings it carries (one allocation: the query is decoded
// into the record, so the block is not allocated). A short output the tool
// rendered before (the same message and value) is given again, not allocated.
func TestDispatchAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under -race")
	}
	tests := []struct {
		name     string
		h        handlerFunc
		events   bool
		max      float64
		maxBytes uint64
	}{
		{"no value", noopDone, false, 2, 232}, // 224 measured
		{"json value", noopValue, false, 2, 232},
		{"json value, events", noopValue, true, 2, 568}, // 560 measured
	}
	for _, tt := range tests {
		d := benchDispatcher(tt.h, tt.events)
		call := wink.Call{ID: "call_1", Name: "search_docs", Arguments: benchArgs}
		ctx := context.Background()
		got := testing.AllocsPerRun(200, func() {
			if out, err := d.Dispatch(ctx, call); err != nil || !out.Success {
				t.Fatal(out, err)
			}
		})
		if got > tt.max {
			t.Errorf("%s: %v allocs per dispatch, want <= %v", tt.name, got, tt.max)
		}
		const runs = 1000
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			if out, err := d.Dispatch(ctx, call); err != nil || !out.Success {
				t.Fatal(out, err)
			}
		}
		runtime.ReadMemStats(&after)
		if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > tt.maxBytes {
			t.Errorf("%s: %d bytes allocated per dispatch, want at most %d", tt.name, per, tt.maxBytes)
		} else {
			t.Logf("%s: %d bytes allocated per dispatch", tt.name, per)
		}
	}
}

// BenchmarkDecodeParams is the strict decode alone, the yardstick for
// BenchmarkDispatchNoop.
func BenchmarkDecodeParams(b *testing.B) {
	def := newSearchDef("search_docs", noopDone, nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := wink.DecodeParams[searchParams](def, benchArgs, strictjson.Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
