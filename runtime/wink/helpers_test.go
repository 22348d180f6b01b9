package wink_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// The code below is written by hand the way winkgen generates it.

const _ = wink.EnforceVersion(wink.MaxGenVersion - 4)
const _ = wink.EnforceVersion(4 - wink.MinGenVersion)

type searchParams struct {
	Query string
	Limit int
}

type searchResult struct {
	Matches []string
	Total   int
}

var searchParamsKeys = []string{"query", "limit"}

func decodeSearchParams(d *strictjson.Decoder, v *searchParams) {
	if !d.ObjectStart() {
		return
	}
	var seen uint64
	for d.NextKey() {
		switch string(d.Key()) {
		case "query":
			if seen&1 != 0 {
				d.Duplicate()
				d.Skip()
				continue
			}
			seen |= 1
			if s, ok := d.String(); ok {
				v.Query = s
				if n := strictjson.RuneCount(s); n < 1 {
					d.FailLen(strictjson.MsgMinLength(1), n)
				}
			}
		case "limit":
			if seen&2 != 0 {
				d.Duplicate()
				d.Skip()
				continue
			}
			seen |= 2
			if d.Null() {
				break
			}
			if n, ok := d.Int(math.MinInt64, math.MaxInt64); ok {
				if n > 100 {
					d.FailInt("must be <= 100", n)
				}
				v.Limit = int(n)
			}
		default:
			d.Unknown(searchParamsKeys)
		}
	}
	if seen&1 == 0 {
		d.Missing("query")
	}
	d.ObjectEnd()
}

func encodeSearchParams(dst []byte, v *searchParams) []byte {
	dst = append(dst, `{"query":`...)
	dst = strictjson.AppendString(dst, v.Query)
	dst = append(dst, `,"limit":`...)
	dst = strictjson.AppendInt(dst, int64(v.Limit))
	return append(dst, '}')
}

func encodeSearchResult(dst []byte, v *searchResult) []byte {
	dst = append(dst, `{"matches":`...)
	if v.Matches == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, m := range v.Matches {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strictjson.AppendString(dst, m)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"total_count":`...)
	dst = strictjson.AppendInt(dst, int64(v.Total))
	return append(dst, '}')
}

// handlerFunc is the handler type of the search tool.
type handlerFunc = func(*wink.ToolContext, searchParams) (wink.ToolResult[searchResult], error)

// newSearchDef builds a search_docs tool around h; edit adjusts the Funcs.
func newSearchDef(name string, h handlerFunc, edit func(*wink.Funcs[searchParams, searchResult])) *wink.Tool {
	f := wink.Funcs[searchParams, searchResult]{
		Decode:       decodeSearchParams,
		EncodeParams: encodeSearchParams,
		EncodeResult: encodeSearchResult,
		Handler:      h,
	}
	if edit != nil {
		edit(&f)
	}
	return wink.NewTool(wink.Spec{
		Name: name, Description: "Searches the docs.", Position: "search.go:12:1",
		ParamsSchema: []byte(`{"type":"object"}`),
	}, &f)
}

// Params and result types with Validate and Render methods (the pipeline finds them as winkgen does),
// each calling a hook the test sets with setHooks. Tests in this package run one at a time.
type (
	checkedParams  searchParams // *checkedParams has Validate, calling hooks.params
	checkedResult  searchResult // *checkedResult has Validate, calling hooks.result
	renderedResult searchResult // *renderedResult has Render, calling hooks.render
)

var hooks struct {
	params func(*searchParams) error
	result func(*searchResult) error
	render func(*searchResult) string
}

func (p *checkedParams) Validate() error {
	v := searchParams(*p)
	return hooks.params(&v)
}

func (r *checkedResult) Validate() error {
	v := searchResult(*r)
	return hooks.result(&v)
}

func (r *renderedResult) Render() string {
	v := searchResult(*r)
	return hooks.render(&v)
}

// setHooks sets the hooks for one test.
func setHooks(t *testing.T, params func(*searchParams) error, result func(*searchResult) error, render func(*searchResult) string) {
	t.Helper()
	hooks.params, hooks.result, hooks.render = params, result, render
	t.Cleanup(func() { hooks.params, hooks.result, hooks.render = nil, nil, nil })
}

// newHookedDef is newSearchDef with params type P and result type R: searchParams and searchResult or
// the hooked types above.
func newHookedDef[P ~struct {
	Query string
	Limit int
}, R ~struct {
	Matches []string
	Total   int
}](h handlerFunc) *wink.Tool {
	return wink.NewTool(wink.Spec{Name: "search_docs", Description: "Searches the docs.", Position: "search.go:12:1",
		ParamsSchema: []byte(`{"type":"object"}`)}, &wink.Funcs[P, R]{
		Decode: func(d *strictjson.Decoder, p *P) {
			var v searchParams
			decodeSearchParams(d, &v)
			*p = P(v)
		},
		EncodeParams: func(dst []byte, p *P) []byte {
			v := searchParams(*p)
			return encodeSearchParams(dst, &v)
		},
		EncodeResult: func(dst []byte, r *R) []byte {
			v := searchResult(*r)
			return encodeSearchResult(dst, &v)
		},
		Handler: func(tc *wink.ToolContext, p P) (wink.ToolResult[R], error) {
			res, err := h(tc, searchParams(p))
			return wink.ToolResult[R]{Message: res.Message, Value: R(res.Value), HasValue: res.HasValue, Success: res.Success,
				ExcludeValueFromContext: res.ExcludeValueFromContext}, err
		},
	})
}

// recorder records the order of pipeline steps and the events.
type recorder struct {
	mu     sync.Mutex
	steps  []string
	events []*wink.ToolInvoked
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.steps = append(r.steps, s)
	r.mu.Unlock()
}

func (r *recorder) trace() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.steps, ",")
}

func (r *recorder) count(s string) int {
	n := 0
	for _, x := range r.steps {
		if x == s {
			n++
		}
	}
	return n
}

// fakeClock advances by one second on every reading.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.t
	c.t = c.t.Add(time.Second)
	return t
}

var epoch = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

// newDispatcher returns a dispatcher over defs whose hooks and events are
// recorded in rec.
func newDispatcher(rec *recorder, tools ...*wink.Tool) *wink.Dispatcher {
	reg := wink.MustRegistry(tools)
	clock := &fakeClock{t: epoch}
	return &wink.Dispatcher{
		Registry: reg,
		Now:      clock.now,
		Events: func(ev *wink.ToolInvoked) {
			rec.add("event")
			rec.mu.Lock()
			rec.events = append(rec.events, ev)
			rec.mu.Unlock()
		},
		Hooks: wink.Hooks{
			Check: func(tc *wink.ToolContext, tool *wink.Tool, params any) *wink.Denial {
				rec.add("check")
				return nil
			},
			Begin: func(tc *wink.ToolContext, tool *wink.Tool) (func() error, error) {
				rec.add("begin")
				return func() error { rec.add("rollback"); return nil }, nil
			},
			OnResult: func(tc *wink.ToolContext, tool *wink.Tool, params any, out *wink.Outcome) {
				rec.add("onresult")
			},
		},
	}
}

// okHandler returns a fixed successful result and records its call.
func okHandler(rec *recorder) handlerFunc {
	return func(tc *wink.ToolContext, p searchParams) (wink.ToolResult[searchResult], error) {
		rec.add("handler")
		return wink.OK(searchResult{Matches: []string{"fs.md"}, Total: p.Limit}, "Found 1 match."), nil
	}
}

// fieldErrs is an error a Validate method may return to point at fields.
type fieldErrs []strictjson.FieldError

func (f fieldErrs) Error() string                        { return "field errors" }
func (f fieldErrs) FieldErrors() []strictjson.FieldError { return f }

var _ = errors.New
var _ = context.Background
