package toolsearch_test

import (
	"context"
	"testing"

	"github.com/winkgen/wink/runtime/internal/shoptools"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/scripted"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// The same task for a support desk of twenty tools, as a scripted model does it with every tool loaded
// and with the eighteen deferred ones found by search.
const (
	task      = "Refund order o-7 and email the customer that it is done."
	allLoaded = `# every definition is sent on every turn
turn Refund and email
call refund_order {"order_id":"o-7","amount_cents":1999}
expect ok
call send_email {"to":"ana@example.com","subject":"Refund","body":"Your refund is on its way."}
expect ok
turn Done
text Refunded and emailed.
`
	bySearch = `# two definitions loaded; the rest found by search
turn Search
call tool_search {"query":"refund an order and email the customer","limit":3}
expect ok refund_order(order_id, amount_cents)
turn Refund and email
call refund_order {"order_id":"o-7","amount_cents":1999}
expect ok
call send_email {"to":"ana@example.com","subject":"Refund","body":"Your refund is on its way."}
expect ok
turn Done
text Refunded and emailed.
`
)

// counting counts a provider's requests and the tool-definition bytes they load into the model's
// context: each loaded tool's name, description and schema, and the search tool's when offered
// (deferred definitions are not loaded).
type counting struct {
	p            *scripted.Provider
	loadAll      bool // count the deferred definitions as loaded too (no tool search)
	turns, bytes int
}

func (c *counting) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	c.turns++
	loaded := req.Tools
	if c.loadAll {
		loaded = append(loaded[:len(loaded):len(loaded)], req.Deferred...)
	}
	for _, t := range loaded {
		c.bytes += len(t.Name()) + len(t.Description()) + len(t.Spec().ParamsSchema)
	}
	if req.Search {
		c.bytes += len(toolsearch.Name) + len(toolsearch.Description) + len(toolsearch.ParamsSchema)
	}
	return c.p.Complete(ctx, req)
}

func runShop(tb testing.TB, search bool) *counting {
	tb.Helper()
	text := allLoaded
	cfg := loop.Config{}
	if search {
		text = bySearch
		cfg.Search = []*toolsearch.Catalog{shoptools.WinkCatalog}
	}
	s, err := scripted.Parse("shop", []byte(text))
	if err != nil {
		tb.Fatal(err)
	}
	c := &counting{p: scripted.New(s), loadAll: !search}
	cfg.Provider = c
	cfg.Dispatcher = &wink.Dispatcher{Registry: wink.MustRegistry(shoptools.WinkTools()), Session: session.New()}
	res, err := loop.Run(context.Background(), cfg, []loop.Message{loop.UserMessage(task)})
	if err != nil || res.Stop != loop.StopDone {
		tb.Fatalf("run: %v (%s)", err, res.Stop)
	}
	if err := c.p.Verify(res.Messages); err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestSearchLoadsFewerDefinitionBytes runs the task both ways: found by search, the tool definitions
// the model reads shrink several times over for one more turn.
func TestSearchLoadsFewerDefinitionBytes(t *testing.T) {
	all, found := runShop(t, false), runShop(t, true)
	t.Logf("all loaded: %d turns, %d definition bytes; deferred and searched: %d turns, %d bytes; ratios %.2fx turns, %.2fx bytes",
		all.turns, all.bytes, found.turns, found.bytes, float64(found.turns)/float64(all.turns), float64(all.bytes)/float64(found.bytes))
	if all.turns != 2 || found.turns != 3 || found.bytes*2 > all.bytes {
		t.Errorf("all loaded %d turns %d bytes; by search %d turns %d bytes", all.turns, all.bytes, found.turns, found.bytes)
	}
}

// BenchmarkShopTask runs the task with every tool loaded and with deferred tools found by search,
// reporting model turns and loaded tool-definition bytes per run (go test -bench ShopTask -benchmem
// ./runtime/toolsearch).
func BenchmarkShopTask(b *testing.B) {
	for _, mode := range []struct {
		name   string
		search bool
	}{{"all-loaded", false}, {"search", true}} {
		b.Run(mode.name, func(b *testing.B) {
			var c *counting
			for b.Loop() {
				c = runShop(b, mode.search)
			}
			b.ReportMetric(float64(c.turns), "turns/op")
			b.ReportMetric(float64(c.bytes), "defbytes/op")
		})
	}
}

// BenchmarkSearch is one search of the generated catalog.
func BenchmarkSearch(b *testing.B) {
	cats := []*toolsearch.Catalog{shoptools.WinkCatalog}
	for b.Loop() {
		if len(toolsearch.Search(cats, "refund an order and email the customer", 5, nil)) == 0 {
			b.Fatal("no hits")
		}
	}
}
