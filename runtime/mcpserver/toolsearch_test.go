package mcpserver_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/internal/shoptools"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// Over MCP, deferred tools are left out of tools/list; the search tool finds them with their input
// schemas, and they are called by name.
func TestToolSearchOverMCP(t *testing.T) {
	srv, err := mcpserver.New(&wink.Dispatcher{Registry: wink.MustRegistry(shoptools.WinkTools())},
		mcpserver.WithToolSearch(shoptools.WinkCatalog))
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	ctx := context.Background()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if !slices.Equal(names, []string{"lookup_customer", "search_orders", toolsearch.Name}) {
		t.Fatalf("tools/list = %v, want the two loaded tools and the search", names)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: toolsearch.Name, Arguments: map[string]any{"query": "refund an order's payment", "limit": 2}})
	if err != nil || res.IsError {
		t.Fatalf("search: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var found struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(b, &found); err != nil || len(found.Tools) == 0 || found.Tools[0].Name != "refund_order" ||
		!strings.Contains(string(found.Tools[0].InputSchema), `"amount_cents"`) {
		t.Fatalf("structured content %s (%v)", b, err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "refund_order(order_id, amount_cents)") {
		t.Errorf("text: %q", text)
	}

	call, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "refund_order", Arguments: map[string]any{"order_id": "o-7", "amount_cents": 5}})
	if err != nil || call.IsError {
		t.Fatalf("calling a found tool by name: %v %+v", err, call)
	}
	bad, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: toolsearch.Name, Arguments: map[string]any{"qeury": "x"}})
	if err != nil || !bad.IsError || !strings.Contains(bad.Content[0].(*mcp.TextContent).Text, `did you mean "query"?`) {
		t.Errorf("bad search: %v %+v", err, bad)
	}
}
