package loop_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/loop/internal/scopetest"
	"github.com/winkgen/wink/runtime/ratelimit"
	"github.com/winkgen/wink/runtime/wink"
)

// TestRunAppliesTheDispatchersRateLimit: a model that calls a tool past its rate within a run gets the
// refusal, saying when to retry, as the call's result; the handler does not run for it.
func TestRunAppliesTheDispatchersRateLimit(t *testing.T) {
	l, err := ratelimit.New(ratelimit.Limits{Tools: map[string]wink.Rate{"close_ticket": {Count: 1, Per: time.Hour}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := &wink.Dispatcher{Registry: wink.MustRegistry(scopetest.WinkTools()), RateLimit: l}
	prov := script(
		loop.Response{ToolCalls: []wink.Call{call("c1", "close_ticket", `{"id":7}`), call("c2", "close_ticket", `{"id":8}`)}, Stop: "tool_calls"},
		loop.Response{Text: "done", Stop: "stop"},
	)
	before := scopetest.Calls.Load()
	ctx := wink.WithPrincipal(context.Background(), &wink.Principal{Subject: "alice", Scopes: []string{"tickets:write"}})
	res, err := loop.Run(ctx, loop.Config{Provider: prov, Dispatcher: d}, []loop.Message{loop.UserMessage("Close 7 and 8.")})
	if err != nil {
		t.Fatal(err)
	}
	first, second := res.Messages[2].Result, res.Messages[3].Result
	if !first.Success || second.Success || second.RetryAfter <= 0 ||
		!strings.Contains(second.Output, `tool "close_ticket" was not called: this tool's rate limit for the caller (1/h) is used up; call it again in`) {
		t.Fatalf("outcomes: %+v / %+v", first, second)
	}
	if got := scopetest.Calls.Load() - before; got != 1 {
		t.Fatalf("handler ran %d times, want 1", got)
	}
}
