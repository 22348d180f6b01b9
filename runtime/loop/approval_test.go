package loop_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// turns is a provider answering with its responses in order.
type turns struct {
	resps []loop.Response
	seen  []loop.Request
}

func (p *turns) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	p.seen = append(p.seen, req)
	if len(p.seen) > len(p.resps) {
		return loop.Response{}, errors.New("no more turns")
	}
	return p.resps[len(p.seen)-1], nil
}

// noteTool builds a tool without params whose handler counts its runs.
func noteTool(name string, runs *atomic.Int32) *wink.Tool {
	spec := wink.Spec{Name: name, Description: name + ".", ParamsSchema: []byte(`{"type":"object"}`)}
	return wink.NewTool(spec, &wink.Funcs[wink.NoParams, wink.NoValue]{
		Decode:       wink.DecodeNoParams,
		EncodeResult: wink.EncodeNoValue,
		Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
			runs.Add(1)
			return wink.Done[wink.NoValue](name + " done"), nil
		},
	})
}

// worker is one process of a fleet: its own dispatcher over the shared store's session "conv".
func worker(t *testing.T, store session.Store, reg *wink.Registry) *wink.Dispatcher {
	t.Helper()
	return &wink.Dispatcher{Registry: reg, Session: session.New(session.WithID("conv"), session.WithStore(store)),
		Policies: []wink.Policy{policy.NewRequireApproval("pay")}}
}

// TestApprovalInterruptsAndResumesOnAnotherWorker: the model calls pay (held) and lookup (runs) in one
// turn; the run stops with StopHeld listing pay; the decision is recorded through a second worker's
// session; a third worker resumes the run from the kept messages, pay runs once, and the model answers.
func TestApprovalInterruptsAndResumesOnAnotherWorker(t *testing.T) {
	for _, c := range []struct {
		name    string
		approve bool
	}{{"approve", true}, {"deny", false}} {
		t.Run(c.name, func(t *testing.T) {
			store, err := session.NewMemoryStore(policy.ApprovalSlice)
			if err != nil {
				t.Fatal(err)
			}
			var payRuns, lookupRuns atomic.Int32
			reg := wink.MustRegistry([]*wink.Tool{noteTool("pay", &payRuns), noteTool("lookup", &lookupRuns)})
			p := &turns{resps: []loop.Response{
				{ToolCalls: []wink.Call{{ID: "c1", Name: "pay", Arguments: []byte(`{}`)}, {ID: "c2", Name: "lookup", Arguments: []byte(`{}`)}}},
				{Text: "All done."},
			}}
			res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: worker(t, store, reg)},
				[]loop.Message{loop.UserMessage("Pay the invoice.")})
			if !errors.Is(err, loop.ErrHeld) || res.Stop != loop.StopHeld || len(res.Held) != 1 || res.Held[0].Call.ID != "c1" {
				t.Fatalf("run: %v, stop %v, held %+v", err, res.Stop, res.Held)
			}
			if payRuns.Load() != 0 || lookupRuns.Load() != 1 {
				t.Fatalf("pay ran %d times and lookup %d before the decision", payRuns.Load(), lookupRuns.Load())
			}
			// Resuming before any decision holds the call again.
			again, err := loop.Resume(context.Background(), loop.Config{Provider: p, Dispatcher: worker(t, store, reg)}, res.Messages)
			if !errors.Is(err, loop.ErrHeld) || payRuns.Load() != 0 || len(p.seen) != 1 {
				t.Fatalf("resume without a decision: %v, pay ran %d times, %d requests", err, payRuns.Load(), len(p.seen))
			}
			approver := worker(t, store, reg).Session
			if c.approve {
				err = policy.Approve(context.Background(), approver, res.Held[0]) // the first listing: the call kept its hold id
			} else {
				err = policy.Deny(context.Background(), approver, res.Held[0], "the invoice is a duplicate")
			}
			if err != nil {
				t.Fatal(err)
			}
			final, err := loop.Resume(context.Background(), loop.Config{Provider: p, Dispatcher: worker(t, store, reg)}, again.Messages)
			if err != nil || final.Stop != loop.StopDone || final.Text != "All done." {
				t.Fatalf("resume: %v, stop %v, text %q", err, final.Stop, final.Text)
			}
			if want := map[bool]int32{true: 1, false: 0}[c.approve]; payRuns.Load() != want || lookupRuns.Load() != 1 {
				t.Fatalf("pay ran %d times (want %d), lookup %d", payRuns.Load(), want, lookupRuns.Load())
			}
			// The model's second request has both results, in the calls' order.
			req := p.seen[len(p.seen)-1]
			var tools []wink.Outcome
			for _, m := range req.Messages {
				if m.Role == loop.RoleTool {
					tools = append(tools, m.Result)
				}
			}
			if len(tools) != 2 || tools[0].CallID != "c1" || tools[1].CallID != "c2" {
				t.Fatalf("tool messages %+v", tools)
			}
			if c.approve != tools[0].Success || !c.approve && !strings.Contains(tools[0].Output, "the invoice is a duplicate") {
				t.Errorf("pay's result: %+v", tools[0])
			}
		})
	}
}

func TestHeldCallsNeedASession(t *testing.T) {
	var runs atomic.Int32
	d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{noteTool("pay", &runs)}),
		Policies: []wink.Policy{policy.NewRequireApproval("pay")}}
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "c1", Name: "pay", Arguments: []byte(`{}`)})
	if err != nil || out.Success || !strings.Contains(out.Output, "approval") || runs.Load() != 0 {
		t.Fatalf("%+v, %v, %d runs", out, err, runs.Load())
	}
}
