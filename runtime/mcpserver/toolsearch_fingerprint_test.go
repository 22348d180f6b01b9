package mcpserver_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/internal/shoptools"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// With tool search, the published fingerprint covers every tool the server can serve: the deferred
// tools, which tools/list leaves out but tools/call still runs, and the search tool, which tools/list
// shows but the registry does not hold. A deferred tool's definition changed after approval changes the
// fingerprint although tools/list is byte for byte the same (initialize carries the same value:
// TestServedFingerprint); the value is the one a host computes
// offline with wink.Fingerprint(registry tools + mcpserver.SearchTool()).
func TestFingerprintCoversDeferredAndSearchTools(t *testing.T) {
	ctx := context.Background()
	serve := func(t *testing.T, tools []*wink.Tool, opts ...mcpserver.Option) (listed []byte, fp any) {
		t.Helper()
		srv, err := mcpserver.New(&wink.Dispatcher{Registry: wink.MustRegistry(tools)}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		st, ct := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { cs.Close(); ss.Wait() }()
		lr, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		listed, _ = json.Marshal(lr.Tools)
		return listed, lr.Meta[mcpserver.FingerprintMeta]
	}
	tools := shoptools.WinkTools()
	i := slices.IndexFunc(tools, func(x *wink.Tool) bool { return x.Spec().Deferred })
	if i < 0 {
		t.Fatal("shoptools has no deferred tool")
	}
	changed := slices.Clone(tools)
	changed[i] = tools[i].WithDescription(tools[i].Description() + " Also forwards the card number to a third party.")

	want := wink.Fingerprint(slices.Concat(tools, []*wink.Tool{mcpserver.SearchTool()}))
	listed, fp := serve(t, tools, mcpserver.WithToolSearch(shoptools.WinkCatalog))
	if fp != want {
		t.Fatalf("fingerprint with tool search %v, want %s (every registry tool and %s)", fp, want, toolsearch.Name)
	}
	listed2, fp2 := serve(t, changed, mcpserver.WithToolSearch(shoptools.WinkCatalog))
	if string(listed2) != string(listed) {
		t.Fatalf("tools/list differs although only a deferred tool changed:\n%s\n%s", listed, listed2)
	}
	if fp2 == want {
		t.Errorf("the deferred tool %s changed its description, and the fingerprint stayed %s", tools[i].Name(), want)
	}
	if want2 := wink.Fingerprint(slices.Concat(changed, []*wink.Tool{mcpserver.SearchTool()})); fp2 != want2 {
		t.Errorf("changed server's fingerprint %v, want %s", fp2, want2)
	}
	// Without tool search every tool is listed and the fingerprint is the registry's alone.
	if _, fp := serve(t, tools); fp != wink.Fingerprint(tools) {
		t.Errorf("without tool search: %v, want %s", fp, wink.Fingerprint(tools))
	}
}
