package wink_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// newScopedDef is the search tool declaring scopes.
func newScopedDef(rec *recorder, scopes ...string) *wink.Tool {
	f := wink.Funcs[searchParams, searchResult]{
		Decode: func(d *strictjson.Decoder, v *searchParams) {
			rec.add("decode")
			decodeSearchParams(d, v)
		},
		EncodeParams: encodeSearchParams,
		EncodeResult: encodeSearchResult,
		Handler:      okHandler(rec),
	}
	return wink.NewTool(wink.Spec{
		Name: "edit_docs", Description: "Edits the docs.", Position: "search.go:12:1",
		ParamsSchema: []byte(`{"type":"object"}`), Scopes: scopes,
	}, &f)
}

// TestScopesRefusedBeforeDecoding: a principal lacking one of the tool's scopes is refused with a tool
// error naming the missing scope and every scope the tool needs; neither the decoder, the hooks nor the
// handler runs (the arguments are not even valid JSON), and the event's cause is ErrInsufficientScope.
func TestScopesRefusedBeforeDecoding(t *testing.T) {
	rec := &recorder{}
	d := newDispatcher(rec, newScopedDef(rec, "docs:read", "docs:write"))
	ctx := wink.WithPrincipal(context.Background(), &wink.Principal{Subject: "alice", Scopes: []string{"docs:read", "other"}})
	out, err := d.Dispatch(ctx, wink.Call{ID: "c1", Name: "edit_docs", Arguments: []byte(`{not json`)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Success {
		t.Fatalf("call succeeded without the scope docs:write: %+v", out)
	}
	for _, want := range []string{`"docs:write"`, `"docs:read docs:write"`, "edit_docs"} {
		if !strings.Contains(out.Output, want) {
			t.Errorf("output %q does not name %s", out.Output, want)
		}
	}
	if strings.Contains(out.Output, `scope "docs:read"`) {
		t.Errorf("output %q names a granted scope as missing", out.Output)
	}
	for _, step := range []string{"decode", "check", "begin", "handler"} {
		if rec.count(step) != 0 {
			t.Errorf("%s ran for a refused call: %s", step, rec.trace())
		}
	}
	if len(rec.events) != 1 || !errors.Is(rec.events[0].Err, wink.ErrInsufficientScope) {
		t.Fatalf("events %+v: want one with cause ErrInsufficientScope", rec.events)
	}
	var se *wink.ScopeError
	if !errors.As(rec.events[0].Err, &se) || strings.Join(se.Missing, " ") != "docs:write" || strings.Join(se.Required, " ") != "docs:read docs:write" {
		t.Fatalf("cause %#v: want Missing [docs:write], Required [docs:read docs:write]", rec.events[0].Err)
	}
}

// TestScopesGranted: a principal holding every scope, a call with no principal (stdio, a local loop),
// and a tool declaring no scopes called by a principal holding none all run.
func TestScopesGranted(t *testing.T) {
	args := []byte(`{"query":"q","limit":3}`)
	for _, c := range []struct {
		name   string
		scopes []string
		p      *wink.Principal
	}{
		{"all scopes", []string{"docs:read", "docs:write"}, &wink.Principal{Subject: "a", Scopes: []string{"docs:write", "x", "docs:read"}}},
		{"no principal", []string{"docs:write"}, nil},
		{"unscoped tool", nil, &wink.Principal{Subject: "a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := &recorder{}
			d := newDispatcher(rec, newScopedDef(rec, c.scopes...))
			out, err := d.Dispatch(wink.WithPrincipal(context.Background(), c.p), wink.Call{ID: "c1", Name: "edit_docs", Arguments: args})
			if err != nil || !out.Success {
				t.Fatalf("Dispatch = %+v, %v; want success", out, err)
			}
			if rec.count("handler") != 1 {
				t.Fatalf("handler ran %d times: %s", rec.count("handler"), rec.trace())
			}
		})
	}
}

// TestValidScope: RFC 6749 §3.3 scope-tokens, and NewTool refusing a spec with another.
func TestValidScope(t *testing.T) {
	for _, s := range []string{"tickets:write", "a", "https://api.example.com/read", "!#[]~"} {
		if !wink.ValidScope(s) {
			t.Errorf("ValidScope(%q) = false", s)
		}
	}
	for _, s := range []string{"", "a b", `a"b`, `a\b`, "é", "a\tb", "\x7f"} {
		if wink.ValidScope(s) {
			t.Errorf("ValidScope(%q) = true", s)
		}
	}
	defer func() {
		if pv := recover(); pv == nil || !strings.Contains(pv.(string), "scope-token") {
			t.Fatalf("NewTool with scope %q: panic %v", "a b", pv)
		}
	}()
	newScopedDef(&recorder{}, "a b")
}

// BenchmarkDispatchScopes: a dispatch of a tool declaring two scopes, without a principal (no check, as
// before) and with one holding them (the check's cost).
func BenchmarkDispatchScopes(b *testing.B) {
	args := []byte(`{"query":"q","limit":3}`)
	for _, c := range []struct {
		name string
		p    *wink.Principal
	}{{"no-principal", nil}, {"principal", &wink.Principal{Subject: "a", Scopes: []string{"x", "docs:write", "docs:read"}}}} {
		b.Run(c.name, func(b *testing.B) {
			rec := &recorder{}
			d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{newScopedDef(rec, "docs:read", "docs:write")})}
			ctx := wink.WithPrincipal(context.Background(), c.p)
			call := wink.Call{ID: "c1", Name: "edit_docs", Arguments: args}
			b.ReportAllocs()
			for b.Loop() {
				if out, err := d.Dispatch(ctx, call); err != nil || !out.Success {
					b.Fatal(out, err)
				}
			}
		})
	}
}
