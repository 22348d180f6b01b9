package loop_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// readTool builds a read-only tool without params (Parallel runs it concurrently with the others).
func readTool(name string, runs *atomic.Int32) *wink.Tool {
	spec := wink.Spec{Name: name, Description: name + ".", ParamsSchema: []byte(`{"type":"object"}`), ReadOnly: true}
	return wink.NewTool(spec, &wink.Funcs[wink.NoParams, wink.NoValue]{
		Decode:       wink.DecodeNoParams,
		EncodeResult: wink.EncodeNoValue,
		Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
			runs.Add(1)
			return wink.Done[wink.NoValue](name + " done"), nil
		},
	})
}

// pairs is an OnTurn that pairs ToolCalls[i] with Outcomes[i] as a user's would, for every call:
// "id=outcome's id:status". It panics as such an OnTurn would if Outcomes were shorter.
type pairs struct {
	mu    sync.Mutex
	turns []string
}

func (p *pairs) onTurn(t loop.Turn) {
	var b strings.Builder
	if t.Resumed {
		b.WriteString("resumed:")
	}
	for i, c := range t.Response.ToolCalls {
		o := t.Outcomes[i]
		status := "ok"
		switch {
		case o.Held:
			status = "held"
		case o.NotRun:
			status = "notrun"
		case !o.Success:
			status = "failed"
		}
		b.WriteString(" " + c.ID + "=" + o.CallID + ":" + status)
	}
	if len(t.Outcomes) != len(t.Response.ToolCalls) {
		b.WriteString(" LENGTH MISMATCH")
	}
	p.mu.Lock()
	p.turns = append(p.turns, b.String())
	p.mu.Unlock()
}

// TestTurnOutcomesStayAlignedWithTheCalls: in a turn whose calls run, are held, fail to dispatch and are
// not run after that failure, sequentially and with Parallel, OnTurn gets one outcome per call at the
// call's index (a held call's says it is held, a call without a result says it did not run); after the
// decision, Resume reports the resumed turn to OnTurn with the held call's result at its index.
func TestTurnOutcomesStayAlignedWithTheCalls(t *testing.T) {
	for _, parallel := range []bool{false, true} {
		name := "sequential"
		if parallel {
			name = "parallel"
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			store, err := session.NewMemoryStore(policy.ApprovalSlice)
			if err != nil {
				t.Fatal(err)
			}
			var n atomic.Int32
			reg := wink.MustRegistry([]*wink.Tool{noteTool("pay", &n), noteTool("note", &n), noteTool("save", &n), readTool("look", &n)})
			call := func(id, name string) wink.Call { return wink.Call{ID: id, Name: name, Arguments: []byte(`{}`)} }
			p := &turns{resps: []loop.Response{
				{ToolCalls: []wink.Call{call("a", "look"), call("b", "pay"), call("c", "note"), call("d", "look")}},
				{ToolCalls: []wink.Call{call("e", "look"), call("f", "pay"), call("g", "save"), call("h", "look"), call("i", "note")}},
				{Text: "done"},
			}}
			var got pairs
			cfg := func() loop.Config {
				d := worker(t, store, reg)
				d.Hooks.Begin = func(_ *wink.ToolContext, tool *wink.Tool) (func() error, error) {
					if tool.Spec().Name == "save" {
						return nil, errors.New("the session's database is down")
					}
					return nil, nil
				}
				return loop.Config{Provider: p, Dispatcher: d, Parallel: parallel, OnTurn: got.onTurn}
			}
			res, err := loop.Run(ctx, cfg(), []loop.Message{loop.UserMessage("go")})
			if !errors.Is(err, loop.ErrHeld) || len(res.Held) != 1 || res.Held[0].Call.ID != "b" {
				t.Fatalf("run: %v %+v", err, res.Held)
			}
			approver := worker(t, store, reg).Session
			if err := policy.Approve(ctx, approver, res.Held[0]); err != nil {
				t.Fatal(err)
			}
			res, err = loop.Resume(ctx, cfg(), res.Messages)
			if err == nil || !strings.Contains(err.Error(), "database is down") {
				t.Fatalf("resume: %v", err)
			}
			want := []string{
				" a=a:ok b=b:held c=c:ok d=d:ok",
				"resumed: a=a:ok b=b:ok c=c:ok d=d:ok",
				// f is held again (its own call, never approved); g's dispatch fails; i is not run after it;
				// h is read-only: with Parallel it ran concurrently, sequentially it comes after g.
				map[bool]string{false: " e=e:ok f=f:held g=g:notrun h=h:notrun i=i:notrun", true: " e=e:ok f=f:held g=g:notrun h=h:ok i=i:notrun"}[parallel],
			}
			if strings.Join(got.turns, "\n") != strings.Join(want, "\n") {
				t.Fatalf("OnTurn pairs:\n%s\nwant\n%s", strings.Join(got.turns, "\n"), strings.Join(want, "\n"))
			}
			// The model reads only results: no held or not-run mark becomes a tool message.
			for _, m := range res.Messages {
				if m.Role == loop.RoleTool && (m.Result.Held || m.Result.NotRun) {
					t.Errorf("a mark reached the conversation: %+v", m.Result)
				}
			}
			if g := p.seen[1].Messages; len(g) != 6 || g[2].Result.CallID != "a" || g[3].Result.CallID != "b" || !g[3].Result.Success {
				t.Errorf("the second request: %+v", g)
			}
		})
	}
}
