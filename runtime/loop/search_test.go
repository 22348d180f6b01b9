package loop_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/internal/shoptools"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

func specNames(ts []*wink.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Spec().Name)
	}
	return out
}

// searchRecorder answers with rs and keeps every request whole.
type searchRecorder struct {
	rs   []loop.Response
	reqs []loop.Request
}

func (r *searchRecorder) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	req.Messages = slices.Clone(req.Messages)
	r.reqs = append(r.reqs, req)
	if len(r.reqs) > len(r.rs) {
		return loop.Response{}, errors.New("script exhausted")
	}
	return r.rs[len(r.reqs)-1], nil
}

func shopDispatcher() *wink.Dispatcher {
	return &wink.Dispatcher{Registry: wink.MustRegistry(shoptools.WinkTools()), Session: session.New()}
}

func TestSearchLoadsFoundToolsIntoTheNextRequest(t *testing.T) {
	p := &searchRecorder{rs: []loop.Response{
		{ToolCalls: []wink.Call{call("s1", toolsearch.Name, `{"query":"refund the payment of an order","limit":2}`)}},
		{ToolCalls: []wink.Call{call("r1", "refund_order", `{"order_id":"o-7","amount_cents":500}`)}},
		{Text: "refunded"},
	}}
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: shopDispatcher(),
		Search: []*toolsearch.Catalog{shoptools.WinkCatalog}}, []loop.Message{loop.UserMessage("refund o-7")})
	if err != nil {
		t.Fatal(err)
	}
	first := p.reqs[0]
	if got := specNames(first.Tools); !slices.Equal(got, []string{"lookup_customer", "search_orders"}) {
		t.Errorf("first request loads %v, want only the tools not deferred", got)
	}
	if len(first.Deferred) != 18 || !first.Search {
		t.Errorf("first request: %d deferred, search %v; want 18 and true", len(first.Deferred), first.Search)
	}
	found := res.Messages[2]
	if found.Role != loop.RoleTool || !found.Result.Success || len(found.Found) == 0 || found.Found[0] != "refund_order" {
		t.Fatalf("search answer: %+v", found)
	}
	if !strings.Contains(found.Result.Output, "refund_order(order_id, amount_cents): Refunds an order's payment") {
		t.Errorf("search text: %q", found.Result.Output)
	}
	second := p.reqs[1]
	for _, n := range found.Found {
		if !slices.Contains(specNames(second.Tools), n) || slices.Contains(specNames(second.Deferred), n) {
			t.Errorf("second request: %s not loaded (tools %v)", n, specNames(second.Tools))
		}
	}
	if len(second.Tools)+len(second.Deferred) != 20 {
		t.Errorf("second request offers %d tools, want 20", len(second.Tools)+len(second.Deferred))
	}
	if r := res.Messages[4].Result; !r.Success || r.Name != "refund_order" {
		t.Errorf("refund: %+v", r)
	}

	// A run continued from the messages loads what the conversation found.
	p2 := &searchRecorder{rs: []loop.Response{{Text: "ok"}}}
	if _, err := loop.Run(context.Background(), loop.Config{Provider: p2, Dispatcher: shopDispatcher(),
		Search: []*toolsearch.Catalog{shoptools.WinkCatalog}}, res.Messages); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(specNames(p2.reqs[0].Tools), "refund_order") {
		t.Errorf("continued run does not load refund_order: %v", specNames(p2.reqs[0].Tools))
	}
}

func TestSearchFindsOnlyOfferedDeferredTools(t *testing.T) {
	var offered []*wink.Tool
	for _, tl := range shoptools.WinkTools() {
		if n := tl.Spec().Name; n != "send_email" {
			offered = append(offered, tl)
		}
	}
	p := &searchRecorder{rs: []loop.Response{
		{ToolCalls: []wink.Call{call("s1", toolsearch.Name, `{"query":"send an email to a customer"}`),
			call("s2", toolsearch.Name, `{"qeury":"x"}`)}},
		{Text: "done"},
	}}
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: shopDispatcher(), Tools: offered,
		Search: []*toolsearch.Catalog{shoptools.WinkCatalog}}, []loop.Message{loop.UserMessage("mail them")})
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Messages[2].Found; slices.Contains(f, "send_email") || slices.Contains(f, "lookup_customer") {
		t.Errorf("found %v: a tool not offered, or not deferred", f)
	}
	bad := res.Messages[3].Result
	if bad.Success || !strings.Contains(bad.Output, `unknown field "qeury"; did you mean "query"?`) {
		t.Errorf("bad search: %+v", bad)
	}
}

func TestSearchOffWithoutCatalogs(t *testing.T) {
	p := &searchRecorder{rs: []loop.Response{{ToolCalls: []wink.Call{call("s1", toolsearch.Name, `{"query":"refund"}`)}}, {Text: "x"}}}
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: shopDispatcher()}, []loop.Message{loop.UserMessage("x")})
	if err != nil {
		t.Fatal(err)
	}
	if p.reqs[0].Search || len(p.reqs[0].Deferred) != 18 {
		t.Errorf("without Search: search %v, %d deferred", p.reqs[0].Search, len(p.reqs[0].Deferred))
	}
	if r := res.Messages[2].Result; r.Success || !strings.Contains(r.Output, "tool_search") {
		t.Errorf("a search call without Search is an unknown tool for the dispatcher: %+v", r)
	}
}
