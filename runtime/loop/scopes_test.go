package loop_test

import (
	"context"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/loop/internal/looptest"
	"github.com/winkgen/wink/runtime/loop/internal/scopetest"
	"github.com/winkgen/wink/runtime/wink"
)

// TestRunChecksThePrincipalsScopes: a run whose context carries a principal (wink.WithPrincipal) has each
// call checked against its tool's //wink:tool scopes: a call lacking one is a failed outcome the model reads,
// naming the scope, and the handler does not run; with the scope, the call runs.
func TestRunChecksThePrincipalsScopes(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(scopetest.WinkTools())}
	run := func(p *wink.Principal) wink.Outcome {
		t.Helper()
		prov := script(
			loop.Response{ToolCalls: []wink.Call{call("c1", "close_ticket", `{"id":7}`)}, Stop: "tool_calls"},
			loop.Response{Text: "done", Stop: "stop"},
		)
		res, err := loop.Run(wink.WithPrincipal(context.Background(), p), loop.Config{Provider: prov, Dispatcher: d},
			[]loop.Message{loop.UserMessage("Close ticket 7.")})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		return res.Messages[2].Result
	}
	// The model is offered only the tools the principal may call.
	offered := func(p *wink.Principal) []string {
		prov := script(loop.Response{Text: "ok", Stop: "stop"})
		if _, err := loop.Run(wink.WithPrincipal(context.Background(), p), loop.Config{Provider: prov, Dispatcher: d},
			[]loop.Message{loop.UserMessage("Hi.")}); err != nil {
			t.Fatal(err)
		}
		return toolNames(prov.reqs[0].Tools)
	}
	if got := offered(&wink.Principal{Scopes: []string{"tickets:read"}}); len(got) != 0 {
		t.Errorf("tools offered without tickets:write: %v, want none", got)
	}
	if got := offered(&wink.Principal{Scopes: []string{"tickets:write"}}); len(got) != 1 {
		t.Errorf("tools offered with tickets:write: %v, want close_ticket", got)
	}
	if got := offered(nil); len(got) != 1 {
		t.Errorf("tools offered without a principal: %v, want close_ticket", got)
	}
	before := scopetest.Calls.Load()
	out := run(&wink.Principal{Subject: "alice", Scopes: []string{"tickets:read"}})
	if out.Success || !strings.Contains(out.Output, `lacks the scope "tickets:write"`) {
		t.Fatalf("close_ticket without tickets:write: %+v", out)
	}
	if scopetest.Calls.Load() != before {
		t.Fatalf("the handler ran for a call lacking its scope")
	}
	if out := run(&wink.Principal{Subject: "alice", Scopes: []string{"tickets:write"}}); !out.Success {
		t.Fatalf("close_ticket with tickets:write: %+v", out)
	}
	if out := run(nil); !out.Success { // no principal: the run is not made for a caller, as before
		t.Fatalf("close_ticket without a principal: %+v", out)
	}
	if scopetest.Calls.Load() != before+2 {
		t.Fatalf("handler ran %d times, want 2", scopetest.Calls.Load()-before)
	}
}

// TestRunUnknownToolNamesOnlyPermittedTools: in a run for a principal lacking tickets:write, the model's
// call of a tool that does not exist is answered with a list that leaves close_ticket out, and with
// Dispatcher.HideUnpermitted its call of close_ticket reads exactly like a call of a missing tool.
func TestRunUnknownToolNamesOnlyPermittedTools(t *testing.T) {
	reg := wink.MustRegistry(append(looptest.WinkTools(), scopetest.WinkTools()...))
	ctx := wink.WithPrincipal(context.Background(), &wink.Principal{Subject: "alice", Scopes: []string{"tickets:read"}})
	for _, hide := range []bool{false, true} {
		prov := script(
			loop.Response{ToolCalls: []wink.Call{call("c1", "nope", `{}`), call("c2", "close_ticket", `{"id":7}`)}, Stop: "tool_calls"},
			loop.Response{Text: "done", Stop: "stop"},
		)
		res, err := loop.Run(ctx, loop.Config{Provider: prov, Dispatcher: &wink.Dispatcher{Registry: reg, HideUnpermitted: hide}},
			[]loop.Message{loop.UserMessage("Close ticket 7.")})
		if err != nil {
			t.Fatal(err)
		}
		unknown, closeOut := res.Messages[2].Result.Output, res.Messages[3].Result.Output
		if strings.Contains(unknown, "close_ticket") || !strings.Contains(unknown, "Available tools: ") {
			t.Errorf("hide=%v: the unknown-tool text %q names close_ticket", hide, unknown)
		}
		if hide && closeOut != strings.Replace(unknown, `"nope"`, `"close_ticket"`, 1) {
			t.Errorf("hidden close_ticket answered %q; a missing tool %q", closeOut, unknown)
		}
		if !hide && !strings.Contains(closeOut, `lacks the scope "tickets:write"`) {
			t.Errorf("close_ticket without hiding: %q", closeOut)
		}
	}
}
