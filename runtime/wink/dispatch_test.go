package wink_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

func dispatch(t *testing.T, d *wink.Dispatcher, name, args string) wink.Outcome {
	t.Helper()
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "call_1", Name: name, Arguments: []byte(args)})
	if err != nil {
		t.Fatalf("Dispatch(%s, %s) error: %v", name, args, err)
	}
	return out
}

func TestDispatchUnknownToolListsAvailableToolsAndRecordsEvent(t *testing.T) {
	rec := &recorder{}
	a := newSearchDef("search_docs", okHandler(rec), nil)
	b := newSearchDef("read_file", okHandler(rec), nil)
	d := newDispatcher(rec, a, b)
	out := dispatch(t, d, "serch", `{}`)
	want := wink.Outcome{CallID: "call_1", Name: "serch",
		Message: `Unknown tool "serch". Available tools: search_docs, read_file.`,
		Output:  `Unknown tool "serch". Available tools: search_docs, read_file.`}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("outcome (-want +got):\n%s", diff)
	}
	if got := rec.trace(); got != "event" {
		t.Errorf("steps = %q, want only the event", got)
	}
	ev := rec.events[0]
	if ev.Name != "serch" || ev.CallID != "call_1" || ev.Tool != nil || ev.Success || !errors.Is(ev.Err, wink.ErrUnknownTool) ||
		ev.Output != want.Output || string(ev.Arguments) != `{}` {
		t.Errorf("event = %+v", ev)
	}
}

func TestDispatchUnknownToolMessages(t *testing.T) {
	long := strings.Repeat("x", 70)
	tests := []struct {
		name, call, want string
		empty            bool
	}{
		{"empty registry", "a", `Unknown tool "a". No tools are available.`, true},
		{"quotes escaped", `a"b`, `Unknown tool "a\"b". Available tools: search_docs.`, false},
		{"long name truncated", long, `Unknown tool "` + strings.Repeat("x", 64) + `…". Available tools: search_docs.`, false},
		{"case-sensitive", "Search_Docs", `Unknown tool "Search_Docs". Available tools: search_docs.`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &wink.Dispatcher{}
			if !tt.empty {
				d.Registry = wink.MustRegistry([]*wink.Tool{newSearchDef("search_docs", okHandler(&recorder{}), nil)})
			}
			out := dispatch(t, d, tt.call, `{}`)
			if out.Output != tt.want || out.Success {
				t.Errorf("got %q (success %v), want %q", out.Output, out.Success, tt.want)
			}
		})
	}
}

func TestDispatchBadArgumentsFailWithExactTextAndSkipHandler(t *testing.T) {
	tests := []struct {
		name, args string
		want       []string // lines between the header and the footer
	}{
		{"wrong type", `{"query":"x","limit":"10"}`, []string{`limit: expected integer, got string "10"`}},
		{"unknown field with suggestion", `{"querry":"x"}`, []string{
			`unknown field "querry"; did you mean "query"? (allowed: query, limit)`,
			`query: missing required field`}},
		{"several errors in input order", `{"limit":2.5,"query":""}`, []string{
			`limit: expected integer, got number 2.5`,
			`query: must be at least 1 character long; got 0`}},
		{"duplicate", `{"query":"a","query":"b"}`, []string{`query: duplicate field; each field may appear once`}},
		{"not an object", `[1]`, []string{`expected object, got array`}},
		{"empty arguments mean {}", ``, []string{`query: missing required field`}},
		{"trailing data", `{"query":"a"} x`, []string{`invalid JSON at byte 14: unexpected data after the arguments object`}},
		{"constraint", `{"query":"a","limit":101}`, []string{`limit: must be <= 100; got 101`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			d := newDispatcher(rec, newSearchDef("search_docs", okHandler(rec), nil))
			out := dispatch(t, d, "search_docs", tt.args)
			var b strings.Builder
			b.WriteString("Invalid arguments for tool \"search_docs\":\n")
			for _, l := range tt.want {
				b.WriteString("- " + l + "\n")
			}
			b.WriteString("Fix the arguments and call search_docs again.")
			if out.Success || out.Output != b.String() || out.Message != b.String() {
				t.Errorf("output:\n%s\nwant:\n%s", out.Output, b.String())
			}
			if got := rec.trace(); got != "event" {
				t.Errorf("steps = %q, want only the event (no check, handler or rollback)", got)
			}
			ev := rec.events[0]
			var ae *wink.ArgumentsError
			if !errors.As(ev.Err, &ae) || ae.Tool != "search_docs" || ev.Params != nil || ev.Tool == nil {
				t.Errorf("event Err = %v, Params = %v", ev.Err, ev.Params)
			}
		})
	}
}

func TestArgumentsErrorTextListsOmittedCount(t *testing.T) {
	errs := &strictjson.Errors{List: []strictjson.FieldError{{Path: "a", Message: "bad"}, {Message: "root problem"}}, Omitted: 3}
	e := &wink.ArgumentsError{Tool: "t", Errors: errs}
	want := "Invalid arguments for tool \"t\":\n- a: bad\n- root problem\n- and 3 more errors\nFix the arguments and call t again."
	if e.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", e.Error(), want)
	}
	if !errors.Is(e, errs) {
		t.Error("ArgumentsError does not unwrap to its Errors")
	}
}

func TestValidateErrorsJoinArgumentErrors(t *testing.T) {
	tests := []struct {
		name     string
		validate func(*searchParams) error
		args     string
		want     string
		called   bool
	}{
		{"plain error is a root line", func(*searchParams) error { return errors.New("query and limit conflict") },
			`{"query":"a"}`, "- query and limit conflict\n", true},
		{"field errors keep paths", func(*searchParams) error {
			return fmt.Errorf("wrapped: %w", fieldErrs{{Path: "query", Message: "must not be a stop word"}, {Path: "limit", Message: "too small"}})
		}, `{"query":"a"}`, "- query: must not be a stop word\n- limit: too small\n", true},
		{"strictjson errors keep paths", func(*searchParams) error {
			return &strictjson.Errors{List: []strictjson.FieldError{{Path: "limit", Message: "must be even"}}}
		}, `{"query":"a"}`, "- limit: must be even\n", true},
		{"not run after decode errors", func(*searchParams) error { return errors.New("never") },
			`{"query":1}`, "- query: expected string, got number 1\n", false},
		{"nil error passes", func(*searchParams) error { return nil }, `{"query":"a"}`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			called := false
			setHooks(t, func(p *searchParams) error { called = true; return tt.validate(p) }, nil, nil)
			def := newHookedDef[checkedParams, searchResult](okHandler(&recorder{}))
			_, err := def.Decode([]byte(tt.args), strictjson.Limits{})
			if called != tt.called {
				t.Errorf("Validate called = %v, want %v", called, tt.called)
			}
			if tt.want == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			want := "Invalid arguments for tool \"search_docs\":\n" + tt.want + "Fix the arguments and call search_docs again."
			var ae *wink.ArgumentsError
			if !errors.As(err, &ae) || err.Error() != want {
				t.Errorf("got\n%v\nwant\n%s", err, want)
			}
		})
	}
}

func TestDecodeParamsReturnsTypedParams(t *testing.T) {
	def := newSearchDef("search_docs", okHandler(&recorder{}), nil)
	p, err := wink.DecodeParams[searchParams](def, []byte(` {"limit": 25.0, "query":"fs"} `), strictjson.Limits{})
	if err != nil || p != (searchParams{Query: "fs", Limit: 25}) {
		t.Errorf("DecodeParams = %+v, %v", p, err)
	}
	if _, err := wink.DecodeParams[searchResult](def, []byte(`{"query":"fs"}`), strictjson.Limits{}); err == nil || !strings.Contains(err.Error(), "not the params type") {
		t.Errorf("DecodeParams with the wrong type = %v", err)
	}
	if f, ok := wink.FuncsOf[searchParams, searchResult](def); !ok || f.Decode == nil {
		t.Error("FuncsOf did not return the tool's functions")
	}
	if _, ok := wink.FuncsOf[searchParams, searchParams](def); ok {
		t.Error("FuncsOf accepted the wrong result type")
	}
	v, err := def.Decode([]byte(`{"query":"fs","limit":null}`), strictjson.Limits{})
	if err != nil || v != (searchParams{Query: "fs"}) {
		t.Errorf("Tool.Decode = %#v, %v", v, err)
	}
	if _, err := wink.DecodeParams[searchParams](def, []byte(`{"query":"fs"}`), strictjson.Limits{MaxBytes: 4}); err == nil {
		t.Error("DecodeParams ignored the size limit")
	}
}

func TestDispatchSuccessRunsHooksInOrderWithoutRollback(t *testing.T) {
	rec := &recorder{}
	setHooks(t, nil, func(*searchResult) error { rec.add("validateresult"); return nil }, nil)
	def := newHookedDef[searchParams, checkedResult](okHandler(rec))
	d := newDispatcher(rec, def)
	out := dispatch(t, d, "search_docs", `{"query":"fs","limit":3}`)
	want := wink.Outcome{CallID: "call_1", Name: "search_docs", Success: true, Message: "Found 1 match.",
		Output: "Found 1 match.\n\n{\"matches\":[\"fs.md\"],\"total_count\":3}"}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("outcome (-want +got):\n%s", diff)
	}
	if got, want := rec.trace(), "check,begin,handler,validateresult,onresult,event"; got != want {
		t.Errorf("steps = %s, want %s", got, want)
	}
	ev := rec.events[0]
	wantEv := &wink.ToolInvoked{Name: "search_docs", CallID: "call_1", Tool: def, Arguments: []byte(`{"query":"fs","limit":3}`),
		Params: searchParams{Query: "fs", Limit: 3}, Success: true, Message: "Found 1 match.",
		Value: checkedResult{Matches: []string{"fs.md"}, Total: 3}, HasValue: true, Output: want.Output,
		Duration: time.Second, Time: epoch}
	if diff := cmp.Diff(wantEv, ev, cmp.Comparer(func(a, b *wink.Tool) bool { return a == b })); diff != "" {
		t.Errorf("event (-want +got):\n%s", diff)
	}
}

func TestDispatchFailureKindsExactTextAndRollback(t *testing.T) {
	sentinel := errors.New("disk full")
	tests := []struct {
		name    string
		handler handlerFunc
		hooked  func(t *testing.T, h handlerFunc) *wink.Tool // nil: newSearchDef
		want    string
		panics  bool
		errIs   error
	}{
		{name: "failure result verbatim", handler: func(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error) {
			return wink.Failure[searchResult]("No index for that query."), nil
		}, want: "No index for that query."},
		{name: "failure result with a value renders it", handler: func(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error) {
			r := wink.OK(searchResult{Total: 1}, "Partial failure.")
			r.Success = false
			return r, nil
		}, want: "Partial failure.\n\n{\"matches\":null,\"total_count\":1}"},
		{name: "tool error verbatim through wrapping", handler: func(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error) {
			return wink.ToolResult[searchResult]{}, fmt.Errorf("context for logs: %w", wink.NewToolError("Query too broad; add a path prefix."))
		}, want: "Query too broad; add a path prefix."},
		{name: "errorf is a tool error", handler: func(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error) {
			return wink.ToolResult[searchResult]{}, wink.Errorf("Limit %d is too high: %w", 7, sentinel)
		}, want: "Limit 7 is too high: disk full", errIs: sentinel},
		{name: "other error gets prefix", handler: func(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error) {
			return wink.OK(searchResult{}, "ignored"), fmt.Errorf("open index: %w", sentinel)
		}, want: `Tool "search_docs" failed: open index: disk full`, errIs: sentinel},
		{name: "live-context deadline error is a failure", handler: func(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error) {
			return wink.ToolResult[searchResult]{}, fmt.Errorf("http: %w", context.DeadlineExceeded)
		}, want: `Tool "search_docs" failed: http: context deadline exceeded`, errIs: context.DeadlineExceeded},
		{name: "panic with string", handler: func(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error) {
			panic("index corrupted")
		}, want: `Tool "search_docs" failed: index corrupted`, panics: true},
		{name: "panic with runtime error", handler: func(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error) {
			var m map[string]int
			m["x"]++
			return wink.ToolResult[searchResult]{}, nil
		}, want: `Tool "search_docs" failed: assignment to entry in nil map`, panics: true},
		{name: "panic with other value", handler: func(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error) {
			panic(42)
		}, want: `Tool "search_docs" failed: 42`, panics: true},
		{name: "invalid result", handler: okHandler(&recorder{}), hooked: func(t *testing.T, h handlerFunc) *wink.Tool {
			setHooks(t, nil, func(r *searchResult) error { return errors.New("total_count must equal len(matches)") }, nil)
			return newHookedDef[searchParams, checkedResult](h)
		}, want: `Tool "search_docs" returned an invalid result: total_count must equal len(matches)`},
		{name: "panic in render", handler: okHandler(&recorder{}), hooked: func(t *testing.T, h handlerFunc) *wink.Tool {
			setHooks(t, nil, nil, func(*searchResult) string { panic("render broke") })
			return newHookedDef[searchParams, renderedResult](h)
		}, want: `Tool "search_docs" failed: render broke`, panics: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			def := newSearchDef("search_docs", tt.handler, nil)
			if tt.hooked != nil {
				def = tt.hooked(t, tt.handler)
			}
			d := newDispatcher(rec, def)
			out := dispatch(t, d, "search_docs", `{"query":"fs"}`)
			if out.Success || out.Output != tt.want || out.Message != strings.SplitN(tt.want, "\n\n", 2)[0] {
				t.Errorf("outcome = %+v\nwant output %q", out, tt.want)
			}
			if strings.Contains(out.Output, "goroutine") || strings.Contains(out.Output, ".go:") {
				t.Errorf("output leaks a stack: %q", out.Output)
			}
			if n := rec.count("rollback"); n != 1 {
				t.Errorf("rollback ran %d times, want 1 (steps %s)", n, rec.trace())
			}
			if n := rec.count("onresult"); n != 0 {
				t.Errorf("OnResult ran on a failure (steps %s)", rec.trace())
			}
			if !strings.HasSuffix(rec.trace(), "rollback,event") {
				t.Errorf("steps = %s, want rollback then event last", rec.trace())
			}
			ev := rec.events[0]
			if ev.Success || ev.Output != tt.want {
				t.Errorf("event success %v output %q", ev.Success, ev.Output)
			}
			if (ev.Panic != nil) != tt.panics || (len(ev.Stack) > 0) != tt.panics {
				t.Errorf("event Panic = %v, stack %d bytes; want panic %v", ev.Panic, len(ev.Stack), tt.panics)
			}
			if tt.panics && !strings.Contains(string(ev.Stack), "dispatch_test.go") {
				t.Errorf("stack does not show the panic site:\n%s", ev.Stack)
			}
			if !tt.panics && ev.Err == nil && !strings.HasPrefix(tt.name, "failure result") {
				t.Errorf("event Err is nil")
			}
			if tt.errIs != nil && !errors.Is(ev.Err, tt.errIs) {
				t.Errorf("event Err %v does not wrap %v", ev.Err, tt.errIs)
			}
		})
	}
}

func TestDispatchDenialIsFailureWithoutHandler(t *testing.T) {
	tests := []struct {
		denial *wink.Denial
		want   string
	}{
		{&wink.Denial{Reason: "Tool 'deploy' requires: build, test"}, "Tool 'deploy' requires: build, test"},
		{&wink.Denial{Reason: "File 'a.txt' must be read before overwriting.", Suggestions: []string{"Call read_file on a.txt first."}},
			"File 'a.txt' must be read before overwriting.\n- Call read_file on a.txt first."},
		{&wink.Denial{}, `Policy denied the call to tool "search_docs".`},
	}
	for _, tt := range tests {
		rec := &recorder{}
		d := newDispatcher(rec, newSearchDef("search_docs", okHandler(rec), nil))
		var gotParams any
		d.Hooks.Check = func(tc *wink.ToolContext, tool *wink.Tool, params any) *wink.Denial {
			rec.add("check")
			gotParams = params
			return tt.denial
		}
		out := dispatch(t, d, "search_docs", `{"query":"fs"}`)
		if out.Success || out.Output != tt.want {
			t.Errorf("output %q, want %q", out.Output, tt.want)
		}
		if got := rec.trace(); got != "check,event" {
			t.Errorf("steps = %s, want check,event", got)
		}
		if gotParams != (searchParams{Query: "fs"}) {
			t.Errorf("Check saw params %#v", gotParams)
		}
		if rec.events[0].Err != error(tt.denial) {
			t.Errorf("event Err = %v", rec.events[0].Err)
		}
	}
}

func TestDispatchDeadlineExpiredReturnsErrorNotResult(t *testing.T) {
	past, cancel := context.WithDeadline(context.Background(), epoch.Add(-time.Hour))
	defer cancel()
	future, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(time.Hour))
	defer cancel2()
	canceled, cancel3 := context.WithCancel(context.Background())
	cancel3()
	tests := []struct {
		name    string
		ctx     context.Context
		clock   time.Time
		wantErr string
		is      []error
	}{
		{"context already expired", past, epoch, `deadline expired before executing tool "search_docs"`,
			[]error{wink.ErrDeadlineExpired, context.DeadlineExceeded}},
		{"clock past the deadline", future, time.Now().Add(2 * time.Hour), `deadline expired before executing tool "search_docs"`,
			[]error{wink.ErrDeadlineExpired, context.DeadlineExceeded}},
		{"cancelled", canceled, epoch, `tool "search_docs" not executed: context canceled`, []error{context.Canceled}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			d := newDispatcher(rec, newSearchDef("search_docs", okHandler(rec), nil))
			clock := &fakeClock{t: tt.clock}
			d.Now = clock.now
			out, err := d.Dispatch(tt.ctx, wink.Call{ID: "c", Name: "search_docs", Arguments: []byte(`{"query":"fs"}`)})
			if err == nil || err.Error() != tt.wantErr {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			for _, target := range tt.is {
				if !errors.Is(err, target) {
					t.Errorf("error does not match %v", target)
				}
			}
			if errors.Is(err, wink.ErrDeadlineExpired) != (tt.is[0] == wink.ErrDeadlineExpired) {
				t.Errorf("ErrDeadlineExpired match wrong")
			}
			if out != (wink.Outcome{}) {
				t.Errorf("outcome = %+v, want zero", out)
			}
			if got := rec.trace(); got != "check,event" {
				t.Errorf("steps = %s, want check,event", got)
			}
			if ev := rec.events[0]; ev.Err != err || ev.Output != "" || ev.Success {
				t.Errorf("event = %+v", ev)
			}
		})
	}
}

func TestDispatchHandlerContextErrorPropagatesAndRollsBack(t *testing.T) {
	rec := &recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	def := newSearchDef("search_docs", func(tc *wink.ToolContext, p searchParams) (wink.ToolResult[searchResult], error) {
		cancel()
		<-tc.Done()
		return wink.ToolResult[searchResult]{}, fmt.Errorf("waiting: %w", tc.Err())
	}, nil)
	d := newDispatcher(rec, def)
	out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: "search_docs", Arguments: []byte(`{"query":"fs"}`)})
	if err == nil || !errors.Is(err, context.Canceled) || err.Error() != `tool "search_docs" interrupted: waiting: context canceled` {
		t.Fatalf("err = %v", err)
	}
	if out != (wink.Outcome{}) {
		t.Errorf("outcome = %+v", out)
	}
	if got := rec.trace(); got != "check,begin,rollback,event" {
		t.Errorf("steps = %s", got)
	}
}

func TestDispatchBeginErrorIsReturnedAndPartialRollbackRuns(t *testing.T) {
	rec := &recorder{}
	d := newDispatcher(rec, newSearchDef("search_docs", okHandler(rec), nil))
	d.Hooks.Begin = func(*wink.ToolContext, *wink.Tool) (func() error, error) {
		rec.add("begin")
		return func() error { rec.add("rollback"); return nil }, errors.New("snapshot failed")
	}
	_, err := d.Dispatch(context.Background(), wink.Call{Name: "search_docs", Arguments: []byte(`{"query":"fs"}`)})
	if err == nil || err.Error() != `wink: starting the transaction for tool "search_docs": snapshot failed` {
		t.Fatalf("err = %v", err)
	}
	if got := rec.trace(); got != "check,begin,rollback,event" {
		t.Errorf("steps = %s", got)
	}
}

func TestDispatchRollbackErrorIsReturned(t *testing.T) {
	rec := &recorder{}
	d := newDispatcher(rec, newSearchDef("search_docs", func(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error) {
		return wink.Failure[searchResult]("nope"), nil
	}, nil))
	restore := errors.New("restore failed")
	d.Hooks.Begin = func(*wink.ToolContext, *wink.Tool) (func() error, error) {
		return func() error { return restore }, nil
	}
	out, err := d.Dispatch(context.Background(), wink.Call{Name: "search_docs", Arguments: []byte(`{"query":"fs"}`)})
	if !errors.Is(err, restore) || err.Error() != `wink: rolling back tool "search_docs" failed: restore failed` || out != (wink.Outcome{}) {
		t.Errorf("out %+v, err %v", out, err)
	}
	if ev := rec.events[0]; !errors.Is(ev.Err, restore) {
		t.Errorf("event Err = %v", ev.Err)
	}
}

func TestDispatchOnResultCanFailTheCall(t *testing.T) {
	rec := &recorder{}
	d := newDispatcher(rec, newSearchDef("search_docs", okHandler(rec), nil))
	d.Hooks.OnResult = func(tc *wink.ToolContext, tool *wink.Tool, params any, out *wink.Outcome) {
		rec.add("onresult")
		if !strings.HasPrefix(out.Output, "Found 1 match.\n\n{") {
			t.Errorf("OnResult saw output %q", out.Output)
		}
		out.Success = false
		out.Message, out.Output = "Budget exhausted.", "Budget exhausted."
	}
	out := dispatch(t, d, "search_docs", `{"query":"fs"}`)
	if out.Success || out.Output != "Budget exhausted." {
		t.Errorf("outcome %+v", out)
	}
	if got := rec.trace(); got != "check,begin,handler,onresult,rollback,event" {
		t.Errorf("steps = %s", got)
	}
}

func TestDispatchPanicInHookIsRecovered(t *testing.T) {
	rec := &recorder{}
	d := newDispatcher(rec, newSearchDef("search_docs", okHandler(rec), nil))
	d.Hooks.OnResult = func(*wink.ToolContext, *wink.Tool, any, *wink.Outcome) { panic(errors.New("policy state broken")) }
	out := dispatch(t, d, "search_docs", `{"query":"fs"}`)
	if out.Success || out.Output != `Tool "search_docs" failed: policy state broken` {
		t.Errorf("outcome %+v", out)
	}
	if got := rec.trace(); got != "check,begin,handler,rollback,event" {
		t.Errorf("steps = %s", got)
	}
}

func TestDispatchOutputRendering(t *testing.T) {
	res := searchResult{Matches: []string{"a\"b.md"}, Total: 1}
	tests := []struct {
		name       string
		result     wink.ToolResult[searchResult]
		render     func(*searchResult) string
		want       string
		evValue    any
		hasV, excl bool
	}{
		{"json", wink.OK(res, "Found."), nil, "Found.\n\n{\"matches\":[\"a\\\"b.md\"],\"total_count\":1}", res, true, false},
		{"render", wink.OK(res, "Found."), func(r *searchResult) string { return "1. " + r.Matches[0] }, "Found.\n\n1. a\"b.md", res, true, false},
		{"excluded", wink.WithoutValueInContext(wink.OK(res, "Found.")), nil, "Found.", nil, true, true},
		{"excluded with render", wink.WithoutValueInContext(wink.OK(res, "Found.")), func(*searchResult) string { return "x" }, "Found.", nil, true, true},
		{"no value", wink.Done[searchResult]("Nothing to report."), nil, "Nothing to report.", nil, false, false},
		{"empty message json", wink.OK(res, ""), nil, "{\"matches\":[\"a\\\"b.md\"],\"total_count\":1}", res, true, false},
		{"empty render", wink.OK(res, "Found."), func(*searchResult) string { return "" }, "Found.", res, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			h := func(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error) { return tt.result, nil }
			def, evValue := newSearchDef("search_docs", h, nil), tt.evValue
			if tt.render != nil {
				setHooks(t, nil, nil, tt.render)
				def = newHookedDef[searchParams, renderedResult](h)
				if v, ok := evValue.(searchResult); ok {
					evValue = renderedResult(v)
				}
			}
			d := newDispatcher(rec, def)
			out := dispatch(t, d, "search_docs", `{"query":"fs"}`)
			if !out.Success || out.Output != tt.want {
				t.Errorf("output %q, want %q", out.Output, tt.want)
			}
			ev := rec.events[0]
			if !cmp.Equal(ev.Value, evValue) || ev.HasValue != tt.hasV || ev.Excluded != tt.excl || ev.Output != tt.want {
				t.Errorf("event value %#v has %v excluded %v output %q", ev.Value, ev.HasValue, ev.Excluded, ev.Output)
			}
		})
	}
}

func TestNoParamsAndNoValueTool(t *testing.T) {
	handler := func(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
		return wink.OK(wink.NoValue{}, "Pinged."), nil
	}
	def := wink.NewTool(wink.Spec{Name: "ping", Description: "Pings."}, &wink.Funcs[wink.NoParams, wink.NoValue]{
		Decode: wink.DecodeNoParams, EncodeParams: wink.EncodeNoParams, EncodeResult: wink.EncodeNoValue,
		Handler: func(tc *wink.ToolContext, _ wink.NoParams) (wink.ToolResult[wink.NoValue], error) { return handler(tc) },
	})
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{def})}
	for _, args := range []string{``, ` `, `{}`, ` { } `, `null`} {
		out := dispatch(t, d, "ping", args)
		if !out.Success || out.Output != "Pinged." {
			t.Errorf("args %q: outcome %+v", args, out)
		}
	}
	out := dispatch(t, d, "ping", `{"x":1}`)
	want := "Invalid arguments for tool \"ping\":\n- unknown field \"x\"; this tool takes no arguments\nFix the arguments and call ping again."
	if out.Success || out.Output != want {
		t.Errorf("output %q, want %q", out.Output, want)
	}
	if got := string(wink.EncodeNoParams(nil, &wink.NoParams{})); got != "{}" {
		t.Errorf("EncodeNoParams = %s", got)
	}
	if got := string(wink.EncodeNoValue([]byte("x"), &wink.NoValue{})); got != "xnull" {
		t.Errorf("EncodeNoValue = %s", got)
	}
}

func TestToolContextDelegatesAndCarriesCallData(t *testing.T) {
	type key struct{}
	rec := &recorder{}
	ctx, cancel := context.WithDeadline(context.WithValue(context.Background(), key{}, "v"), time.Now().Add(time.Hour))
	defer cancel()
	var beats int
	var seen *wink.ToolContext
	def := newSearchDef("search_docs", func(tc *wink.ToolContext, p searchParams) (wink.ToolResult[searchResult], error) {
		seen = tc
		tc.Beat()
		tc.Beat()
		var c context.Context = tc // implements context.Context
		if c.Value(key{}) != "v" || c.Err() != nil || c.Done() == nil {
			t.Error("ToolContext does not delegate to the call's context")
		}
		if dl, ok := tc.Deadline(); !ok || !dl.Equal(func() time.Time { d, _ := ctx.Deadline(); return d }()) {
			t.Error("deadline not delegated")
		}
		return wink.Done[searchResult]("ok"), nil
	}, nil)
	d := newDispatcher(rec, def)
	d.RunContext = wink.RunContext{RunID: "run", RequestID: "req", TraceID: "trace", Attempt: 2}
	d.Heartbeat = func(tc *wink.ToolContext) { beats++ }
	if _, err := d.Dispatch(ctx, wink.Call{ID: "call_9", Name: "search_docs", Arguments: []byte(`{"query":"a"}`)}); err != nil {
		t.Fatal(err)
	}
	if beats != 2 || seen.CallID != "call_9" || seen.ToolName != "search_docs" || seen.Run != d.RunContext || seen.Tool() != def {
		t.Errorf("beats %d, tc %+v", beats, seen)
	}
	tc := wink.NewToolContext(nil, "x", "c")
	tc.Beat() // no heartbeat: no-op
	if tc.Err() != nil || tc.Context() != context.Background() || tc.ToolName != "x" || tc.CallID != "c" {
		t.Errorf("NewToolContext = %+v", tc)
	}
	var zero wink.ToolContext
	if zero.Err() != nil || zero.Value("k") != nil {
		t.Error("zero ToolContext is not usable")
	}
}

// TestToolContextGetsEachRunContextField sets each field of Dispatcher.RunContext alone (through
// reflect, so that a field added later is covered too) and checks that the handler's ToolContext carries
// it: the dispatcher tests the fields one by one instead of comparing the struct with its zero value.
func TestToolContextGetsEachRunContextField(t *testing.T) {
	var seen wink.RunContext
	def := newSearchDef("search_docs", func(tc *wink.ToolContext, p searchParams) (wink.ToolResult[searchResult], error) {
		seen = tc.Run
		return wink.Done[searchResult]("ok"), nil
	}, nil)
	d := newDispatcher(&recorder{}, def)
	n := reflect.TypeFor[wink.RunContext]().NumField()
	for i := range n {
		var rc wink.RunContext
		f := reflect.ValueOf(&rc).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Int:
			f.SetInt(3)
		default:
			t.Fatalf("RunContext field %s: kind %s not covered by this test", reflect.TypeFor[wink.RunContext]().Field(i).Name, f.Kind())
		}
		d.RunContext = rc
		seen = wink.RunContext{}
		if _, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "search_docs", Arguments: []byte(`{"query":"a"}`)}); err != nil {
			t.Fatal(err)
		}
		if seen != rc {
			t.Errorf("RunContext with only %s set: the handler saw %+v, want %+v", reflect.TypeFor[wink.RunContext]().Field(i).Name, seen, rc)
		}
	}
}

func TestDispatchWithoutEventsOrHooks(t *testing.T) {
	def := newSearchDef("search_docs", okHandler(&recorder{}), nil)
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{def})}
	out := dispatch(t, d, "search_docs", `{"query":"fs","limit":2}`)
	if !out.Success || out.Output != "Found 1 match.\n\n{\"matches\":[\"fs.md\"],\"total_count\":2}" {
		t.Errorf("outcome %+v", out)
	}
	if out := dispatch(t, d, "nope", ``); out.Success {
		t.Error("unknown tool succeeded")
	}
}

func TestDispatchPooledStateDoesNotLeakBetweenCalls(t *testing.T) {
	rec := &recorder{}
	def := newSearchDef("search_docs", func(tc *wink.ToolContext, p searchParams) (wink.ToolResult[searchResult], error) {
		switch p.Query {
		case "panic":
			panic("boom")
		case "fail":
			return wink.Failure[searchResult]("failed"), nil
		case "excluded":
			return wink.WithoutValueInContext(wink.OK(searchResult{Total: 9}, "hidden")), nil
		}
		return wink.OK(searchResult{Matches: []string{p.Query}, Total: p.Limit}, "found"), nil
	}, nil)
	d := newDispatcher(rec, def)
	calls := []struct{ args, output string }{
		{`{"query":"a","limit":1}`, "found\n\n{\"matches\":[\"a\"],\"total_count\":1}"},
		{`{"query":"panic"}`, `Tool "search_docs" failed: boom`},
		{`{"query":"b"}`, "found\n\n{\"matches\":[\"b\"],\"total_count\":0}"},
		{`{"query":1}`, "Invalid arguments for tool \"search_docs\":\n- query: expected string, got number 1\nFix the arguments and call search_docs again."},
		{`{"query":"excluded"}`, "hidden"},
		{`{"query":"fail"}`, "failed"},
		{`{"query":"c","limit":3}`, "found\n\n{\"matches\":[\"c\"],\"total_count\":3}"},
	}
	for i, c := range calls {
		out := dispatch(t, d, "search_docs", c.args)
		if out.Output != c.output {
			t.Errorf("call %d: output %q, want %q", i, out.Output, c.output)
		}
		ev := rec.events[i]
		if c.args == `{"query":1}` && (ev.Params != nil || ev.Value != nil || ev.HasValue) {
			t.Errorf("call %d: event carries state of an earlier call: %+v", i, ev)
		}
		if (ev.Panic != nil) != (c.args == `{"query":"panic"}`) {
			t.Errorf("call %d: Panic = %v", i, ev.Panic)
		}
		if c.args == `{"query":"fail"}` && (ev.HasValue || ev.Value != nil || ev.Excluded) {
			t.Errorf("call %d: failure event has a value: %+v", i, ev)
		}
	}
}

func TestDispatchConcurrentCallsKeepTheirOwnParams(t *testing.T) {
	def := newSearchDef("search_docs", func(tc *wink.ToolContext, p searchParams) (wink.ToolResult[searchResult], error) {
		return wink.OK(searchResult{Matches: []string{p.Query}, Total: p.Limit}, tc.CallID), nil
	}, nil)
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{def})}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				id := fmt.Sprintf("g%d_%d", g, i)
				out, err := d.Dispatch(context.Background(), wink.Call{ID: id, Name: "search_docs",
					Arguments: []byte(fmt.Sprintf(`{"query":%q,"limit":%d}`, id, i))})
				want := fmt.Sprintf("%s\n\n{\"matches\":[%q],\"total_count\":%d}", id, id, i)
				if err != nil || out.Output != want || out.CallID != id {
					t.Errorf("got %+v, %v; want output %q", out, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestDispatchPanicInParamsValidateIsRecoveredBeforeHandler(t *testing.T) {
	rec := &recorder{}
	setHooks(t, func(*searchParams) error { panic("validate broke") }, nil, nil)
	def := newHookedDef[checkedParams, searchResult](okHandler(rec))
	d := newDispatcher(rec, def)
	out := dispatch(t, d, "search_docs", `{"query":"fs"}`)
	if out.Success || out.Output != `Tool "search_docs" failed: validate broke` {
		t.Errorf("outcome %+v", out)
	}
	if got := rec.trace(); got != "event" {
		t.Errorf("steps = %s, want only the event", got)
	}
	if ev := rec.events[0]; ev.Panic != "validate broke" || ev.Params != nil {
		t.Errorf("event %+v", ev)
	}
}

// A tool whose params have no required field takes "", blanks and null as {}
// (providers send those for calls without arguments); a tool with a required
// field still reports it missing, and anything else stays an error.
func TestNoRequiredFieldAcceptsEmptyAndNull(t *testing.T) {
	type opt struct{ Limit int }
	decodeOpt := func(d *strictjson.Decoder, v *opt) {
		if !d.ObjectStart() {
			return
		}
		for d.NextKey() {
			switch string(d.Key()) {
			case "limit":
				if n, ok := d.Int(0, 100); ok {
					v.Limit = int(n)
				}
			default:
				d.Unknown([]string{"limit"})
			}
		}
		d.ObjectEnd()
	}
	def := wink.NewTool(wink.Spec{Name: "list_all", Description: "Lists."}, &wink.Funcs[opt, wink.NoValue]{
		Decode: decodeOpt, EncodeResult: wink.EncodeNoValue,
		Handler: func(tc *wink.ToolContext, p opt) (wink.ToolResult[wink.NoValue], error) {
			return wink.Done[wink.NoValue]("limit " + strconv.Itoa(p.Limit)), nil
		},
	})
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{def, newSearchDef("search_docs", okHandler(&recorder{}), nil)})}
	for _, args := range []string{``, "  \n", `null`, ` null `, `{}`} {
		if out := dispatch(t, d, "list_all", args); !out.Success || out.Output != "limit 0" {
			t.Errorf("list_all %q: outcome %+v", args, out)
		}
	}
	if out := dispatch(t, d, "list_all", `{"limit":7}`); out.Output != "limit 7" {
		t.Errorf("limit 7: %+v", out)
	}
	for _, args := range []string{`nul`, `[]`, `""`, `0`, `null null`, `{"limit":-1}`} {
		if out := dispatch(t, d, "list_all", args); out.Success {
			t.Errorf("list_all %q accepted: %+v", args, out)
		}
	}
	for _, args := range []string{``, `null`} {
		out := dispatch(t, d, "search_docs", args)
		if out.Success || !strings.Contains(out.Output, "query: missing required field") {
			t.Errorf("search_docs %q: %q", args, out.Output)
		}
	}
}

// A result that fails its Validate method is a failure whose event carries an *InvalidResultError; a
// transaction that cannot start is a *TransactionError from Dispatch.
func TestTypedCausesOfInvalidResultsAndTransactions(t *testing.T) {
	rec := &recorder{}
	setHooks(t, nil, func(*searchResult) error { return errors.New("total mismatch") }, nil)
	d := newDispatcher(rec, newHookedDef[searchParams, checkedResult](okHandler(rec)))
	out := dispatch(t, d, "search_docs", `{"query":"fs"}`)
	var ir *wink.InvalidResultError
	if out.Success || !errors.As(rec.events[0].Err, &ir) || ir.Tool != "search_docs" || ir.Err.Error() != "total mismatch" {
		t.Fatalf("outcome %+v, event error %v", out, rec.events[0].Err)
	}

	d2 := newDispatcher(&recorder{}, newSearchDef("search_docs", okHandler(rec), nil))
	d2.Hooks.Begin = func(*wink.ToolContext, *wink.Tool) (func() error, error) { return nil, errors.New("disk full") }
	_, err := d2.Dispatch(context.Background(), wink.Call{ID: "c1", Name: "search_docs", Arguments: []byte(`{"query":"fs"}`)})
	var tx *wink.TransactionError
	if !errors.As(err, &tx) || tx.Op != "starting the transaction for" ||
		err.Error() != `wink: starting the transaction for tool "search_docs": disk full` {
		t.Fatalf("Dispatch error %v", err)
	}
}
