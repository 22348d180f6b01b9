package wink_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/wink"
)

// TestUnknownToolListsOnlyPermittedTools: for a caller with a principal, the unknown-tool text names
// only the tools it may call (never edit_docs, whose scope it lacks), with or without
// HideUnpermitted; with HideUnpermitted a call to edit_docs itself is answered exactly as a call to a
// tool that does not exist (same text apart from the echoed name, ErrUnknownTool, no handler). A caller
// holding the scope, and one without a principal, see both tools.
func TestUnknownToolListsOnlyPermittedTools(t *testing.T) {
	rec := &recorder{}
	search := newSearchDef("search_docs", okHandler(rec), nil)
	reader := wink.WithPrincipal(context.Background(), &wink.Principal{Subject: "alice", Scopes: []string{"docs:read"}})
	writer := wink.WithPrincipal(context.Background(), &wink.Principal{Subject: "bob", Scopes: []string{"docs:write"}})
	for _, hide := range []bool{false, true} {
		d := newDispatcher(rec, newScopedDef(rec, "docs:write"), search)
		d.HideUnpermitted = hide
		call := func(ctx context.Context, name string) wink.Outcome {
			t.Helper()
			out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: name, Arguments: []byte(`{"query":"q","limit":1}`)})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		if got, want := call(reader, "nope").Output, `Unknown tool "nope". Available tools: search_docs.`; got != want {
			t.Errorf("hide=%v, a caller without docs:write: %q, want %q", hide, got, want)
		}
		for _, ctx := range []context.Context{writer, context.Background()} {
			if got, want := call(ctx, "nope").Output, `Unknown tool "nope". Available tools: edit_docs, search_docs.`; got != want {
				t.Errorf("hide=%v, a caller who may call both: %q, want %q", hide, got, want)
			}
		}
		rec.events = nil
		out := call(reader, "edit_docs")
		if hide {
			if want := `Unknown tool "edit_docs". Available tools: search_docs.`; out.Output != want || out.Success {
				t.Errorf("hidden edit_docs: %q, want %q", out.Output, want)
			}
			if len(rec.events) != 1 || !errors.Is(rec.events[0].Err, wink.ErrUnknownTool) {
				t.Errorf("hidden edit_docs: events %+v, want one with ErrUnknownTool", rec.events)
			}
		} else if !strings.Contains(out.Output, `lacks the scope "docs:write"`) {
			t.Errorf("edit_docs without hiding: %q, want the scope refusal", out.Output)
		}
		if out := call(writer, "edit_docs"); !out.Success {
			t.Errorf("hide=%v, edit_docs with docs:write: %+v", hide, out)
		}
	}
	d := newDispatcher(rec, newScopedDef(rec, "docs:write"))
	if got, want := func() string { o, _ := d.Dispatch(reader, wink.Call{Name: "x"}); return o.Output }(), `Unknown tool "x". No tools are available.`; got != want {
		t.Errorf("no tool permitted: %q, want %q", got, want)
	}
}
