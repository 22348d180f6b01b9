package wink_test

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// A handler may keep its ToolContext and use it from goroutines it starts, during the call and after it.
// What the ToolContext reads of the call (its arguments, its result) is the call's own or, once the call
// has ended, the documented after-call value: never another call's, whose frame may be the one this call
// used.

// echoTool returns a search tool whose handler gives the query and the limit back as its result, and
// calls keep with its ToolContext.
func echoTool(keep func(*wink.ToolContext, searchParams)) *wink.Tool {
	return newSearchDef("search_docs", func(tc *wink.ToolContext, p searchParams) (wink.ToolResult[searchResult], error) {
		keep(tc, p)
		return wink.OK(searchResult{Matches: []string{p.Query}, Total: p.Limit}, "Found."), nil
	}, nil)
}

func ownCanonical(p searchParams) []byte {
	c, err := strictjson.CanonicalExact(nil, encodeSearchParams(nil, &p))
	if err != nil {
		panic(err)
	}
	return c
}

func ownResult(p searchParams) []byte {
	return encodeSearchResult(nil, &searchResult{Matches: []string{p.Query}, Total: p.Limit})
}

// TestKeptToolContextAfterTheCall: once its call has returned, a kept ToolContext reads nothing of the
// call's frame, which later calls reuse: CanonicalArguments gives what it computed during the call (nil
// when it computed nothing), AppendResultJSON false, Tx nil, Elicit ErrNotAvailable.
func TestKeptToolContextAfterTheCall(t *testing.T) {
	var kept []*wink.ToolContext
	var during [][]byte
	tool := echoTool(func(tc *wink.ToolContext, p searchParams) {
		kept = append(kept, tc)
		if tc.Resources() == nil || tc.Tx() == nil {
			t.Error("during the call, Resources() or Tx() is nil")
		}
		if p.Limit == 2 {
			during = append(during, tc.CanonicalArguments())
		}
	})
	reg, err := resources.NewRegistry(resources.Bind(scratchKey, func(*resources.Resolver) (*[]byte, error) { return new([]byte), nil }).Scope(resources.ToolCall))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := reg.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{tool}), Session: session.New(), Resources: rc,
		Hooks: wink.Hooks{OnResult: func(tc *wink.ToolContext, _ *wink.Tool, _ any, _ *wink.Outcome) {}}}
	dispatch := func(q string, limit int) {
		t.Helper()
		args := `{"query":"` + q + `","limit":` + strconv.Itoa(limit) + `}`
		if out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "search_docs", Arguments: []byte(args)}); err != nil || !out.Success {
			t.Fatal(out, err)
		}
	}
	dispatch("a", 3)
	dispatch("b", 2) // computes its canonical arguments during the call
	for i := range 20 {
		dispatch("other"+strconv.Itoa(i), 50) // reuse the frames
	}
	if got := kept[0].CanonicalArguments(); got != nil {
		t.Errorf("after the call, CanonicalArguments() = %s, want nil (never computed during the call)", got)
	}
	if b := kept[0].Binding(); b.Digest != "" || b.Tool != "search_docs" {
		t.Errorf("after the call, Binding() = %+v, want no digest", b)
	}
	want := ownCanonical(searchParams{Query: "b", Limit: 2})
	if !bytes.Equal(during[0], want) {
		t.Fatalf("during the call, CanonicalArguments() = %s, want %s", during[0], want)
	}
	if got := kept[1].CanonicalArguments(); !bytes.Equal(got, want) {
		t.Errorf("after the call, CanonicalArguments() = %s, want %s (computed during the call)", got, want)
	}
	if b := kept[1].Binding(); b.Digest != wink.ArgumentsDigest(want) {
		t.Errorf("after the call, Binding().Digest = %q, want %q", b.Digest, wink.ArgumentsDigest(want))
	}
	for i, tc := range kept[:2] {
		if got, ok := tc.AppendResultJSON(nil); ok {
			t.Errorf("call %d: after the call, AppendResultJSON = %s, true; want false", i, got)
		}
		if res := tc.Resources(); res != nil {
			t.Errorf("call %d: after the call, Resources() = %p, want nil (its tool-call scope is another call's)", i, res)
		}
		if tx := tc.Tx(); tx != nil {
			t.Errorf("call %d: after the call, Tx() = %p, want nil", i, tx)
		}
		if _, _, err := wink.Elicit(tc, "Sure?", confirmForm); !errors.Is(err, wink.ErrNotAvailable) {
			t.Errorf("call %d: after the call, Elicit error = %v, want ErrNotAvailable", i, err)
		}
		if tc.Session() == nil || tc.Tool() != tool || tc.ToolName != "search_docs" || tc.Err() != nil {
			t.Errorf("call %d: after the call, Session, Tool, ToolName, Err = %p, %p, %q, %v", i, tc.Session(), tc.Tool(), tc.ToolName, tc.Err())
		}
	}
}

// scratchKey is a tool-call resource.
var scratchKey = resources.NewKey[*[]byte]("Scratch")

// confirmForm is a form with no fields.
var confirmForm = &wink.Form[struct{}]{Name: "Confirm", Schema: []byte(`{"type":"object","properties":{}}`),
	Decode: func(d *strictjson.Decoder, v *struct{}) { d.Skip() }}

// TestKeptToolContextsUnderConcurrentCalls: many concurrent calls with distinct arguments on one tool;
// every handler starts a goroutine that keeps calling every method of its ToolContext during the call and
// after it, while later calls reuse the frames. Each answer is the call's own or the after-call value
// (nil, false, ""), never another call's, and the race detector (go test -race) finds no race.
func TestKeptToolContextsUnderConcurrentCalls(t *testing.T) {
	for _, withSession := range []bool{false, true} {
		t.Run("session="+strconv.FormatBool(withSession), func(t *testing.T) {
			testKeptToolContexts(t, withSession)
		})
	}
}

func testKeptToolContexts(t *testing.T, withSession bool) {
	const workers, calls, after = 6, 60, 40
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	fail := func(s string) {
		mu.Lock()
		if len(failures) < 10 {
			failures = append(failures, s)
		}
		mu.Unlock()
	}
	// ended is closed by the worker once Dispatch has returned: the goroutine goes on for `after` rounds.
	type keptCall struct {
		ended chan struct{}
		done  chan struct{}
	}
	calls0 := sync.Map{} // query -> *keptCall
	check := func(tc *wink.ToolContext, p searchParams, round int) {
		canon, res := ownCanonical(p), ownResult(p)
		if got := tc.CanonicalArguments(); got != nil && !bytes.Equal(got, canon) {
			fail("CanonicalArguments() = " + string(got) + ", want " + string(canon) + " or nil")
		}
		if got, ok := tc.AppendResultJSON(nil); ok && !bytes.Equal(got, res) {
			fail("AppendResultJSON = " + string(got) + ", want " + string(res) + " or false")
		}
		if b := tc.Binding(); (b.Digest != "" && b.Digest != wink.ArgumentsDigest(canon)) || b.Tool != "search_docs" || b.Hold != "" {
			fail("Binding() = " + b.Digest + " " + b.Tool + " " + b.Hold)
		}
		if round%8 == 0 { // the cheap rest, and the ones that may allocate, now and then
			if tc.ToolName != "search_docs" || tc.Tool() == nil || tc.Tool().Spec().Name != "search_docs" {
				fail("Tool() or ToolName not the call's")
			}
			_ = tc.Session()
			if tx := tc.Tx(); tx != nil && !withSession {
				fail("Tx() without a session")
			}
			_, _ = tc.Deadline()
			_ = tc.Done()
			_ = tc.Err()
			_ = tc.Value("k")
			_ = tc.Context()
			_ = tc.Filesystem()
			_ = tc.Resources()
			_ = tc.Budget()
			_ = tc.Principal()
			_ = tc.Dispatcher()
			tc.Beat()
			tc.Log(wink.LogInfo, "hello")
			tc.Progress(1, 2, "half")
			_ = tc.RequireClient()
			if _, err := tc.SampleText("hi", 1); !errors.Is(err, wink.ErrNotAvailable) {
				fail("SampleText without a client: " + errString(err))
			}
		}
	}
	tool := echoTool(func(tc *wink.ToolContext, p searchParams) {
		kc, _ := calls0.Load(p.Query)
		k := kc.(*keptCall)
		go func() {
			defer close(k.done)
			for i := 0; ; i++ {
				check(tc, p, i)
				select {
				case <-k.ended:
					for j := range after {
						check(tc, p, j)
						runtime.Gosched()
					}
					return
				default:
				}
				runtime.Gosched()
			}
		}()
		for range 3 {
			runtime.Gosched() // let it read during the call
		}
	})
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{tool}),
		Events: func(*wink.ToolInvoked) {},
		Hooks: wink.Hooks{OnResult: func(tc *wink.ToolContext, _ *wink.Tool, params any, _ *wink.Outcome) {
			p := params.(searchParams)
			if got, ok := tc.AppendResultJSON(nil); !ok || !bytes.Equal(got, ownResult(p)) {
				fail("in OnResult, AppendResultJSON = " + string(got) + ", want " + string(ownResult(p)))
			}
		}}}
	if withSession {
		d.Session = session.New()
	}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range calls {
				p := searchParams{Query: "q" + strconv.Itoa(w) + "-" + strconv.Itoa(i), Limit: (w*calls + i) % 101}
				k := &keptCall{ended: make(chan struct{}), done: make(chan struct{})}
				calls0.Store(p.Query, k)
				args := `{"query":"` + p.Query + `","limit":` + strconv.Itoa(p.Limit) + `}`
				out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "search_docs", Arguments: []byte(args)})
				if err != nil || !out.Success {
					fail("Dispatch: " + out.Output + " " + errString(err))
				}
				close(k.ended)
				if i%4 == 3 {
					<-k.done // others keep reading while later calls run
				}
			}
		}()
	}
	wg.Wait()
	calls0.Range(func(_, v any) bool { <-v.(*keptCall).done; return true })
	for _, f := range failures {
		t.Error(f)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
