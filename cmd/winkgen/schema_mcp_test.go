package main

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winkgen/wink/example/cmd/conformance/everything"
	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// TestSchemaMCPIsWhatTheServerLists: `winkgen schema -format mcp -revision R`, which reads the source
// only, prints exactly the tools array a server made with mcpserver for the compiled package sends for
// tools/list at R, as the official Go SDK client receives it over streamable HTTP: titles, all four
// hints, examples in the description, inputSchema and _meta, x-mcp-header, and the outputSchema
// envelope (none before 2025-06-18). Without -revision it prints the newest revision's.
func TestSchemaMCPIsWhatTheServerLists(t *testing.T) {
	pkgs := []struct {
		dir   string
		tools []*wink.Tool
	}{
		{"../../example/tools", tools.WinkTools()},
		{"../../example/cmd/conformance/everything", everything.WinkTools()},
	}
	for _, p := range pkgs {
		h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(p.tools)},
			mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true}))
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(h)
		t.Cleanup(hs.Close)
		for _, rev := range append(mcpserver.Revisions(), "") {
			args := []string{"schema", "-format", "mcp"}
			if rev != "" {
				args = append(args, "-revision", rev)
			}
			code, stdout, stderr := runIn(t, p.dir, args...)
			if code != 0 || stderr != "" {
				t.Fatalf("%s %v: exit %d\n%s", p.dir, args, code, stderr)
			}
			want := rev
			if want == "" {
				want = mcpserver.Revisions()[0]
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "wink-test-client", Version: "v0"}, nil).Connect(t.Context(),
				&mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: want})
			if err != nil {
				t.Fatal(err)
			}
			if v := cs.InitializeResult().ProtocolVersion; v != want {
				t.Fatalf("negotiated %s, want %s", v, want)
			}
			lr, err := cs.ListTools(t.Context(), nil)
			cs.Close()
			if err != nil {
				t.Fatal(err)
			}
			if lr.NextCursor != "" {
				t.Fatalf("%s: tools/list spans pages", p.dir)
			}
			listed, err := json.Marshal(lr.Tools)
			if err != nil {
				t.Fatal(err)
			}
			var got, server []any
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("%s %v: output is not a JSON array: %v\n%s", p.dir, args, err, stdout)
			}
			if err := json.Unmarshal(listed, &server); err != nil {
				t.Fatal(err)
			}
			if len(server) != len(p.tools) {
				t.Fatalf("%s at %s: the server listed %d tools, want %d", p.dir, want, len(server), len(p.tools))
			}
			if !reflect.DeepEqual(got, server) {
				t.Errorf("%s %v: printed\n%s\nthe server listed at %s\n%s", p.dir, args, stdout, want, listed)
			}
		}
	}
}
