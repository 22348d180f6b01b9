package loop_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/loop/internal/looptest"
	"github.com/winkgen/wink/runtime/wink"
)

// fake is a Provider that answers with the responses of next, recording every request.
type fake struct {
	mu   sync.Mutex
	reqs []loop.Request
	next func(turn int, ctx context.Context, req loop.Request) (loop.Response, error)
}

func (f *fake) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, loop.Request{System: req.System, Messages: slices.Clone(req.Messages), Tools: req.Tools})
	n := len(f.reqs)
	f.mu.Unlock()
	return f.next(n, ctx, req)
}

// script answers turn i with rs[i-1] and fails past the end.
func script(rs ...loop.Response) *fake {
	return &fake{next: func(turn int, _ context.Context, _ loop.Request) (loop.Response, error) {
		if turn > len(rs) {
			return loop.Response{}, errors.New("script exhausted")
		}
		return rs[turn-1], nil
	}}
}

// forever calls the given tool calls on every turn, using 100 input and 20 output tokens.
func forever(calls ...wink.Call) *fake {
	return &fake{next: func(int, context.Context, loop.Request) (loop.Response, error) {
		return loop.Response{ToolCalls: calls, Usage: loop.Usage{Input: 100, Output: 20}, Stop: "tool_calls"}, nil
	}}
}

func call(id, name, args string) wink.Call {
	return wink.Call{ID: id, Name: name, Arguments: []byte(args)}
}

func step(id string) wink.Call { return call("call_"+id, "step", `{"id":"`+id+`"}`) }

// peek is step's read-only twin.
func peek(id string) wink.Call { return call("call_"+id, "peek", `{"id":"`+id+`"}`) }

func dispatcher(t *testing.T) *wink.Dispatcher {
	t.Helper()
	reg, err := wink.NewRegistry(looptest.WinkTools())
	if err != nil {
		t.Fatal(err)
	}
	return &wink.Dispatcher{Registry: reg}
}

// hook installs a looptest.Hook for the test.
func hook(t *testing.T, h func(tc *wink.ToolContext, id string)) {
	t.Helper()
	looptest.Hook = h
	t.Cleanup(func() { looptest.Hook = nil })
}

// recorder records the step ids in the order their handlers ran.
type recorder struct {
	mu  sync.Mutex
	ids []string
}

func (r *recorder) hook(_ *wink.ToolContext, id string) {
	r.mu.Lock()
	r.ids = append(r.ids, id)
	r.mu.Unlock()
}

func toolNames(ts []*wink.Tool) []string {
	var names []string
	for _, t := range ts {
		names = append(names, t.Name())
	}
	return names
}

func TestRunStopsWhenTheModelStopsCallingTools(t *testing.T) {
	p := script(
		loop.Response{Text: "Echoing.", ToolCalls: []wink.Call{call("c1", "echo", `{"text":"hi"}`)}, Usage: loop.Usage{Input: 10, Output: 5}, Stop: "tool_calls"},
		loop.Response{Text: "It said hi.", Usage: loop.Usage{Input: 30, Output: 4}, Stop: "stop"},
	)
	var turns []loop.Turn
	res, err := loop.Run(context.Background(), loop.Config{
		Provider: p, Dispatcher: dispatcher(t), System: "Be brief.",
		OnTurn: func(tn loop.Turn) { turns = append(turns, tn) },
	}, []loop.Message{loop.UserMessage("Say hi.")})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	echoOut := wink.Outcome{CallID: "c1", Name: "echo", Success: true, Message: "echo: hi", Output: "echo: hi"}
	want := loop.Result{
		Messages: []loop.Message{
			{Role: loop.RoleUser, Text: "Say hi."},
			{Role: loop.RoleAssistant, Text: "Echoing.", ToolCalls: []wink.Call{call("c1", "echo", `{"text":"hi"}`)}},
			{Role: loop.RoleTool, Result: echoOut},
			{Role: loop.RoleAssistant, Text: "It said hi."},
		},
		Text: "It said hi.", Turns: 2, Stop: loop.StopDone,
		Usage: wink.TokenUsage{Input: 40, Output: 9, Total: 49},
	}
	if diff := cmp.Diff(want, res, sameBlocks); diff != "" {
		t.Errorf("Result (-want +got):\n%s", diff)
	}
	if len(p.reqs) != 2 {
		t.Fatalf("provider called %d times, want 2", len(p.reqs))
	}
	for i, r := range p.reqs {
		if r.System != "Be brief." {
			t.Errorf("request %d: System = %q", i+1, r.System)
		}
		if got := toolNames(r.Tools); !slices.Equal(got, []string{"echo", "step", "peek"}) {
			t.Errorf("request %d: tools = %v, want the registry's [echo step peek]", i+1, got)
		}
	}
	if diff := cmp.Diff(want.Messages[:3], p.reqs[1].Messages, sameBlocks); diff != "" {
		t.Errorf("second request's messages (-want +got):\n%s", diff)
	}
	if len(turns) != 2 || turns[0].Index != 1 || turns[1].Index != 2 {
		t.Fatalf("OnTurn got %d turns: %+v", len(turns), turns)
	}
	if diff := cmp.Diff([]wink.Outcome{echoOut}, turns[0].Outcomes, sameBlocks); diff != "" {
		t.Errorf("turn 1 outcomes (-want +got):\n%s", diff)
	}
	if turns[1].Outcomes != nil {
		t.Errorf("final turn outcomes = %v, want none", turns[1].Outcomes)
	}
	if turns[0].Usage != (wink.TokenUsage{Input: 10, Output: 5, Total: 15}) || turns[1].Usage != want.Usage {
		t.Errorf("cumulative usage per turn = %+v, %+v", turns[0].Usage, turns[1].Usage)
	}
}

func TestRunDoesNotModifyTheInputMessages(t *testing.T) {
	in := make([]loop.Message, 1, 10)
	in[0] = loop.UserMessage("hi")
	p := script(loop.Response{ToolCalls: []wink.Call{call("c1", "echo", `{"text":"x"}`)}}, loop.Response{Text: "done"})
	if _, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: dispatcher(t)}, in); err != nil {
		t.Fatal(err)
	}
	if got := in[:cap(in)][1]; got.Role != "" {
		t.Errorf("Run wrote into the caller's backing array: %+v", got)
	}
}

func TestRunOffersConfigToolsWhenSet(t *testing.T) {
	d := dispatcher(t)
	echo, _ := d.Registry.Lookup("echo")
	p := script(loop.Response{Text: "ok"})
	if _, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: d, Tools: []*wink.Tool{echo}}, nil); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(p.reqs[0].Tools); !slices.Equal(got, []string{"echo"}) {
		t.Errorf("offered %v, want [echo]", got)
	}
}

func TestRunStopsAtMaxTurnsAfterRunningTheLastTurnsCalls(t *testing.T) {
	var rec recorder
	hook(t, rec.hook)
	p := forever(step("a"))
	var n int
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: dispatcher(t), MaxTurns: 3, OnTurn: func(loop.Turn) { n++ }}, nil)
	if !errors.Is(err, loop.ErrMaxTurns) || err.Error() != "loop: maximum number of turns reached" {
		t.Fatalf("err = %v, want ErrMaxTurns", err)
	}
	if res.Stop != loop.StopMaxTurns || res.Turns != 3 || len(p.reqs) != 3 || n != 3 {
		t.Errorf("Stop=%v Turns=%d requests=%d OnTurn=%d, want max_turns 3 3 3", res.Stop, res.Turns, len(p.reqs), n)
	}
	if len(rec.ids) != 3 {
		t.Errorf("handler ran %d times, want 3 (the last turn's calls run)", len(rec.ids))
	}
	if last := res.Messages[len(res.Messages)-1]; last.Role != loop.RoleTool || last.Result.CallID != "call_a" {
		t.Errorf("last message = %+v, want the last call's result", last)
	}
}

func TestRunZeroMaxTurnsMeansDefault(t *testing.T) {
	p := forever(call("c", "echo", `{"text":"x"}`))
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: dispatcher(t)}, nil)
	if !errors.Is(err, loop.ErrMaxTurns) || res.Turns != loop.DefaultMaxTurns || len(p.reqs) != loop.DefaultMaxTurns {
		t.Errorf("err=%v turns=%d requests=%d, want ErrMaxTurns after %d", err, res.Turns, len(p.reqs), loop.DefaultMaxTurns)
	}
}

func TestRunRejectsBadConfig(t *testing.T) {
	cases := []struct {
		name string
		cfg  loop.Config
		want string
	}{
		{"no provider", loop.Config{Dispatcher: &wink.Dispatcher{}}, "loop: Config.Provider and Config.Dispatcher are required"},
		{"no dispatcher", loop.Config{Provider: script()}, "loop: Config.Provider and Config.Dispatcher are required"},
		{"negative max turns", loop.Config{Provider: script(), Dispatcher: &wink.Dispatcher{}, MaxTurns: -1}, "loop: Config.MaxTurns is negative (-1)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := loop.Run(context.Background(), c.cfg, nil)
			if err == nil || err.Error() != c.want || res.Stop != loop.StopError {
				t.Errorf("err = %v (stop %v), want %q", err, res.Stop, c.want)
			}
		})
	}
}

func TestRunChargesUsageToTheBudgetAndStopsWhenExceeded(t *testing.T) {
	var rec recorder
	hook(t, rec.hook)
	d := dispatcher(t)
	d.Budget = wink.NewBudget(wink.BudgetLimits{MaxTotalTokens: 250})
	p := forever(step("a")) // 120 tokens per turn: 120, 240, 360 > 250
	var turns []loop.Turn
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: d, OnTurn: func(tn loop.Turn) { turns = append(turns, tn) }}, nil)
	if !errors.Is(err, wink.ErrBudgetExceeded) {
		t.Fatalf("err = %v, want ErrBudgetExceeded", err)
	}
	if got, want := err.Error(), "token budget exceeded: 360 total tokens used, limit 250"; got != want {
		t.Errorf("err = %q, want %q", got, want)
	}
	if res.Stop != loop.StopBudget || res.Turns != 3 || len(p.reqs) != 3 {
		t.Errorf("Stop=%v Turns=%d requests=%d, want budget 3 3", res.Stop, res.Turns, len(p.reqs))
	}
	if want := (wink.TokenUsage{Input: 300, Output: 60, Total: 360}); res.Usage != want || d.Budget.Used() != want {
		t.Errorf("Result.Usage = %+v, Budget.Used = %+v, want %+v", res.Usage, d.Budget.Used(), want)
	}
	if len(rec.ids) != 2 {
		t.Errorf("handler ran %d times, want 2: the over-budget turn's calls do not run", len(rec.ids))
	}
	if len(turns) != 3 || len(turns[2].Outcomes) != 1 || !turns[2].Outcomes[0].NotRun || turns[2].Outcomes[0].CallID != "call_a" {
		t.Errorf("OnTurn: %d turns, last outcomes %v; want 3 turns, the last one's call NotRun", len(turns), turns[len(turns)-1].Outcomes)
	}
	last := res.Messages[len(res.Messages)-1]
	if last.Role != loop.RoleAssistant || len(last.ToolCalls) != 1 {
		t.Errorf("last message = %+v, want the over-budget response (its calls unanswered)", last)
	}
}

func TestRunBudgetOfOneDimension(t *testing.T) {
	d := dispatcher(t)
	d.Budget = wink.NewBudget(wink.BudgetLimits{MaxOutputTokens: 30})
	res, err := loop.Run(context.Background(), loop.Config{Provider: forever(step("a")), Dispatcher: d}, nil)
	if got, want := errString(err), "token budget exceeded: 40 output tokens used, limit 30"; got != want || res.Turns != 2 {
		t.Errorf("err = %q after %d turns, want %q after 2", got, res.Turns, want)
	}
}

func TestRunWithAnExceededBudgetDoesNotCallTheProvider(t *testing.T) {
	d := dispatcher(t)
	d.Budget = wink.NewBudget(wink.BudgetLimits{MaxInputTokens: 50})
	_ = d.Budget.Consume(60, 0) // an earlier run spent it
	p := script(loop.Response{Text: "never"})
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: d}, []loop.Message{loop.UserMessage("hi")})
	if !errors.Is(err, wink.ErrBudgetExceeded) || res.Stop != loop.StopBudget || len(p.reqs) != 0 {
		t.Errorf("err=%v stop=%v requests=%d, want budget error without a request", err, res.Stop, len(p.reqs))
	}
	if res.Usage != (wink.TokenUsage{}) || len(res.Messages) != 1 {
		t.Errorf("Usage=%+v messages=%d, want zero usage and the input message", res.Usage, len(res.Messages))
	}
}

func TestRunBudgetSpansRunsButResultUsageIsPerRun(t *testing.T) {
	d := dispatcher(t)
	d.Budget = wink.NewBudget(wink.BudgetLimits{MaxTotalTokens: 1000})
	for i := range 2 {
		p := script(loop.Response{Text: "ok", Usage: loop.Usage{Input: 7, Output: 3}})
		res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: d}, nil)
		if err != nil || res.Usage.Total != 10 {
			t.Fatalf("run %d: err=%v usage=%+v, want 10 tokens", i, err, res.Usage)
		}
	}
	if got := d.Budget.Used().Total; got != 20 {
		t.Errorf("Budget.Used().Total = %d, want 20", got)
	}
}

func TestRunStopsBeforeTheRequestWhenTheDeadlineHasPassed(t *testing.T) {
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	p := script(loop.Response{Text: "never"})
	res, err := loop.Run(ctx, loop.Config{Provider: p, Dispatcher: dispatcher(t)}, nil)
	if err != context.DeadlineExceeded || res.Stop != loop.StopDeadline || len(p.reqs) != 0 {
		t.Errorf("err=%v stop=%v requests=%d, want context.DeadlineExceeded before any request", err, res.Stop, len(p.reqs))
	}
}

func TestRunStopsWhenDispatchReportsTheDeadline(t *testing.T) {
	var rec recorder
	hook(t, rec.hook)
	d := dispatcher(t)
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Hour))
	defer cancel()
	// The dispatcher's clock is past ctx's deadline: Dispatch refuses the call before its handler.
	d.Now = func() time.Time { return time.Now().Add(2 * time.Hour) }
	p := script(loop.Response{ToolCalls: []wink.Call{step("a"), step("b")}}, loop.Response{Text: "never"})
	var turns []loop.Turn
	res, err := loop.Run(ctx, loop.Config{Provider: p, Dispatcher: d, OnTurn: func(tn loop.Turn) { turns = append(turns, tn) }}, nil)
	if !errors.Is(err, wink.ErrDeadlineExpired) || !errors.Is(err, context.DeadlineExceeded) || res.Stop != loop.StopDeadline {
		t.Fatalf("err=%v stop=%v, want a deadline error", err, res.Stop)
	}
	var te *loop.TurnError
	if !errors.As(err, &te) || te.Turn != 1 || te.Op != "dispatch" {
		t.Errorf("err = %#v, want a *TurnError for turn 1, dispatch", err)
	}
	if len(rec.ids) != 0 || len(p.reqs) != 1 || len(res.Messages) != 1 {
		t.Errorf("handlers=%v requests=%d messages=%d, want no handler, one request, only the assistant message", rec.ids, len(p.reqs), len(res.Messages))
	}
	if len(turns) != 1 || len(turns[0].Outcomes) != 2 || !turns[0].Outcomes[0].NotRun || !turns[0].Outcomes[1].NotRun ||
		!strings.Contains(turns[0].Outcomes[0].Message, "deadline") {
		t.Errorf("OnTurn = %+v, want one turn with both calls NotRun, the first saying why", turns)
	}
}

func TestRunStopsWhenCancelledDuringTheProviderCall(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &fake{next: func(_ int, ctx context.Context, _ loop.Request) (loop.Response, error) {
		cancel()
		return loop.Response{}, errors.New("request abandoned") // a provider that forgot to wrap ctx.Err()
	}}
	res, err := loop.Run(ctx, loop.Config{Provider: p, Dispatcher: dispatcher(t)}, nil)
	if !errors.Is(err, context.Canceled) || res.Stop != loop.StopCancelled {
		t.Errorf("err=%v stop=%v, want cancelled (ctx.Err joined)", err, res.Stop)
	}
}

func TestRunStopsWhenCancelledBeforeTheToolCallsRun(t *testing.T) {
	var rec recorder
	hook(t, rec.hook)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &fake{next: func(int, context.Context, loop.Request) (loop.Response, error) {
		cancel()
		return loop.Response{ToolCalls: []wink.Call{step("a")}}, nil
	}}
	res, err := loop.Run(ctx, loop.Config{Provider: p, Dispatcher: dispatcher(t)}, nil)
	if !errors.Is(err, context.Canceled) || res.Stop != loop.StopCancelled || len(rec.ids) != 0 {
		t.Errorf("err=%v stop=%v handlers=%v, want cancelled without running the call", err, res.Stop, rec.ids)
	}
}

func TestRunStopsOnAProviderError(t *testing.T) {
	p := script(loop.Response{ToolCalls: []wink.Call{call("c", "echo", `{"text":"x"}`)}})
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: dispatcher(t)}, nil)
	if got, want := errString(err), "loop: turn 2: provider: script exhausted"; got != want {
		t.Errorf("err = %q, want %q", got, want)
	}
	if res.Stop != loop.StopError || res.Turns != 1 || len(res.Messages) != 2 {
		t.Errorf("stop=%v turns=%d messages=%d, want error after 1 turn with its call answered", res.Stop, res.Turns, len(res.Messages))
	}
}

func TestRunFeedsFailedCallsBackToTheModel(t *testing.T) {
	p := script(
		loop.Response{ToolCalls: []wink.Call{call("c1", "echo", `{"text":""}`), call("c2", "nope", `{}`)}},
		loop.Response{Text: "done"},
	)
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: dispatcher(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Invalid arguments for tool \"echo\":\n- text: must be at least 1 character long; got 0\nFix the arguments and call echo again.",
		"Unknown tool \"nope\". Available tools: echo, step, peek.",
	}
	var got []string
	for _, m := range p.reqs[1].Messages {
		if m.Role == loop.RoleTool {
			if m.Result.Success {
				t.Errorf("call %s succeeded", m.Result.CallID)
			}
			got = append(got, m.Result.Output)
		}
	}
	if diff := cmp.Diff(want, got, sameBlocks); diff != "" {
		t.Errorf("tool outputs (-want +got):\n%s", diff)
	}
	if res.Stop != loop.StopDone {
		t.Errorf("stop = %v", res.Stop)
	}
}

// outcomeIDs lists the call ids of a turn's tool messages.
func outcomeIDs(ms []loop.Message) []string {
	var ids []string
	for _, m := range ms {
		if m.Role == loop.RoleTool {
			ids = append(ids, m.Result.CallID)
		}
	}
	return ids
}

func TestRunRunsCallsInOrderByDefault(t *testing.T) {
	var rec recorder
	hook(t, rec.hook)
	p := script(loop.Response{ToolCalls: []wink.Call{step("a"), step("b"), step("c")}}, loop.Response{Text: "ok"})
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: dispatcher(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.ids, []string{"a", "b", "c"}) {
		t.Errorf("handlers ran in order %v", rec.ids)
	}
	if got := outcomeIDs(res.Messages); !slices.Equal(got, []string{"call_a", "call_b", "call_c"}) {
		t.Errorf("results in order %v", got)
	}
}

func TestRunParallelRunsCallsConcurrentlyAndKeepsTheirOrder(t *testing.T) {
	// Three read-only calls: every handler waits until all three are running (which proves concurrency),
	// then they finish in reverse order: c, b, a.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // only guards against a hang
	defer cancel()
	ids := []string{"a", "b", "c"}
	var mu sync.Mutex
	n, all := 0, make(chan struct{})
	finished := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{}), "c": make(chan struct{})}
	after := map[string]string{"a": "b", "b": "c"}
	var rec recorder
	hook(t, func(tc *wink.ToolContext, id string) {
		mu.Lock()
		if n++; n == len(ids) {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-tc.Done():
		}
		if prev, ok := after[id]; ok {
			select {
			case <-finished[prev]:
			case <-tc.Done():
			}
		}
		rec.hook(tc, id)
		close(finished[id])
	})
	p := script(loop.Response{ToolCalls: []wink.Call{peek("a"), peek("b"), peek("c")}}, loop.Response{Text: "ok"})
	var outcomes []wink.Outcome
	res, err := loop.Run(ctx, loop.Config{Provider: p, Dispatcher: dispatcher(t), Parallel: true, OnTurn: func(tn loop.Turn) {
		if tn.Index == 1 {
			outcomes = tn.Outcomes
		}
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.ids, []string{"c", "b", "a"}) {
		t.Fatalf("handlers finished in order %v, want c b a", rec.ids)
	}
	if got := outcomeIDs(res.Messages); !slices.Equal(got, []string{"call_a", "call_b", "call_c"}) {
		t.Errorf("results in order %v, want the calls' order", got)
	}
	for i, o := range outcomes {
		if want := "step " + ids[i] + " done"; o.Output != want {
			t.Errorf("outcome %d = %q, want %q", i, o.Output, want)
		}
	}
}

// failing returns a dispatcher whose transaction cannot start for the call with id callID, so Dispatch
// returns an error for it.
func failing(t *testing.T, callID string) *wink.Dispatcher {
	d := dispatcher(t)
	d.Hooks.Begin = func(tc *wink.ToolContext, _ *wink.Tool) (func() error, error) {
		if tc.CallID == callID {
			return nil, errors.New("no transaction for " + callID)
		}
		return nil, nil
	}
	return d
}

func TestRunDispatchErrorStopsTheTurn(t *testing.T) {
	for _, parallel := range []bool{false, true} {
		t.Run("parallel="+strconv.FormatBool(parallel), func(t *testing.T) {
			var rec recorder
			hook(t, rec.hook)
			p := script(loop.Response{ToolCalls: []wink.Call{step("a"), step("b"), step("c")}}, loop.Response{Text: "never"})
			res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: failing(t, "call_b"), Parallel: parallel}, nil)
			var te *loop.TurnError
			if !errors.As(err, &te) || te.Op != "dispatch" || res.Stop != loop.StopError || len(p.reqs) != 1 {
				t.Fatalf("err=%v stop=%v requests=%d, want a dispatch TurnError and no further request", err, res.Stop, len(p.reqs))
			}
			// Parallel or not, the state-changing calls run in order, and those after the failing one do not.
			wantIDs, wantRan := []string{"call_a"}, []string{"a"}
			if got := outcomeIDs(res.Messages); !slices.Equal(got, wantIDs) {
				t.Errorf("results %v, want %v", got, wantIDs)
			}
			slices.Sort(rec.ids)
			if !slices.Equal(rec.ids, wantRan) {
				t.Errorf("handlers ran %v, want %v", rec.ids, wantRan)
			}
		})
	}
}

func TestStopReasonStrings(t *testing.T) {
	want := map[loop.StopReason]string{
		loop.StopDone: "done", loop.StopMaxTurns: "max_turns", loop.StopBudget: "budget",
		loop.StopDeadline: "deadline", loop.StopCancelled: "cancelled", loop.StopError: "error", 99: "StopReason(99)",
	}
	for r, s := range want {
		if r.String() != s {
			t.Errorf("%d.String() = %q, want %q", r, r.String(), s)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestRunParallelRunsStateChangingCallsInOrder: with Parallel, the state-changing calls of a turn run one
// after another in the model's order even when the first is the slowest, while a read-only call runs
// beside them (it and the first step each wait for the other to start, which only concurrency allows).
func TestRunParallelRunsStateChangingCallsInOrder(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // only guards against a hang
	defer cancel()
	var rec recorder
	started := map[string]chan struct{}{"a": make(chan struct{}), "r": make(chan struct{})}
	delay := map[string]time.Duration{"a": 30 * time.Millisecond, "b": 15 * time.Millisecond}
	hook(t, func(tc *wink.ToolContext, id string) {
		switch id {
		case "a", "r":
			close(started[id])
			other := map[string]string{"a": "r", "r": "a"}[id]
			select {
			case <-started[other]:
			case <-tc.Done():
			}
		}
		time.Sleep(delay[id])
		rec.hook(tc, id)
	})
	p := script(loop.Response{ToolCalls: []wink.Call{step("a"), peek("r"), step("b"), step("c")}}, loop.Response{Text: "ok"})
	res, err := loop.Run(ctx, loop.Config{Provider: p, Dispatcher: dispatcher(t), Parallel: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, id := range rec.ids {
		if id != "r" {
			steps = append(steps, id)
		}
	}
	if !slices.Equal(steps, []string{"a", "b", "c"}) {
		t.Fatalf("state-changing calls ran in order %v, want a b c", steps)
	}
	if got := outcomeIDs(res.Messages); !slices.Equal(got, []string{"call_a", "call_r", "call_b", "call_c"}) {
		t.Errorf("results in order %v, want the calls' order", got)
	}
}

// sameBlocks compares wink.Blocks (content blocks behind an unexported pointer) by identity, as == does.
var sameBlocks = cmp.Comparer(func(a, b wink.Blocks) bool { return a == b })
