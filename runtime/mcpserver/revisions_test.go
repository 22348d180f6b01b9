package mcpserver_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// TestStatefulServerServesBothRevisions: one stateful HTTPHandler serves a 2026-07-28 client (no
// session, every request standing alone, questions as input-required rounds) and a 2025-11-25 client
// (initialize, a session, questions as requests to the client) side by side. The SDK alone refuses
// every 2026-07-28 request of a stateful server with -32022, and its client falls back to 2025-11-25,
// which is what a stateful server without WithBothRevisions still does.
func TestStatefulServerServesBothRevisions(t *testing.T) {
	for _, both := range []bool{true, false} {
		var opts []mcpserver.Option
		if both {
			opts = append(opts, mcpserver.WithBothRevisions())
		}
		h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(h)
		t.Cleanup(hs.Close)
		bothRevisions(t, hs.URL, both)
	}
}

func bothRevisions(t *testing.T, url string, both bool) {
	for _, asked := range []string{"2026-07-28", "2025-11-25", "2026-07-28"} {
		version := asked
		if !both {
			version = "2025-11-25"
		}
		client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, &mcp.ClientOptions{
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Di", "age": 40, "plan": "free", "newsletter": true}}, nil
			},
		})
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: asked})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		if got := cs.InitializeResult().ProtocolVersion; got != version {
			t.Fatalf("both revisions %v: a client asking for %s speaks %s", both, asked, got)
		}
		if stateful := cs.ID() != ""; stateful != (version == "2025-11-25") {
			t.Errorf("%s: session id %q", version, cs.ID())
		}
		res := callTool(t, cs, "sign_up", map[string]any{})
		if res.IsError || !strings.Contains(resultText(res), `"summary":"Di, 40, free, [], newsletter true"`) {
			t.Fatalf("%s: sign_up: %q", version, resultText(res))
		}
	}
}
