package mcpserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/headerstest"
	"github.com/winkgen/wink/runtime/wink"
)

func headersDispatcher() *wink.Dispatcher {
	return &wink.Dispatcher{Registry: wink.MustRegistry(headerstest.WinkTools())}
}

// TestParamHeaders: parameters tagged wink:"header=NAME" are listed with "x-mcp-header", the official Go
// SDK client mirrors them into Mcp-Param-* headers at 2026-07-28 and its call succeeds, and a 2026-07-28
// tools/call whose headers are missing, do not match the arguments or hold invalid Base64 is refused with
// HTTP 400 and -32020 before the tool runs, on a stateless and a stateful server. Earlier revisions need
// no headers.
func TestParamHeaders(t *testing.T) {
	for _, stateless := range []bool{true, false} {
		h, err := mcpserver.HTTPHandler(headersDispatcher(),
			mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: stateless}), mcpserver.WithBothRevisions())
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(h)
		t.Cleanup(hs.Close)

		cs, err := mcp.NewClient(&mcp.Implementation{Name: "wink-test-client", Version: "v0"}, nil).Connect(t.Context(),
			&mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
			t.Fatalf("negotiated %s", v)
		}
		lr, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, lt := range lr.Tools {
			schema, _ := json.Marshal(lt.InputSchema)
			for _, want := range []string{`"x-mcp-header":"Region"`, `"x-mcp-header":"Shard"`, `"x-mcp-header":"Fresh"`} {
				if !strings.Contains(string(schema), want) {
					t.Errorf("%s: inputSchema lacks %s: %s", lt.Name, want, schema)
				}
			}
		}
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "route_query",
			Arguments: map[string]any{"region": " eu west ", "shard": 7, "fresh": true, "query": "q"}})
		if err != nil || res.IsError {
			t.Fatalf("stateless %v: the SDK client's call: %v %v", stateless, err, res)
		}
		cs.Close()

		for _, tool := range []string{"route_query", "page_query"} {
			for _, c := range []struct {
				why     string
				headers map[string]string
				ok      bool
			}{
				{"every header", map[string]string{"Region": "eu", "Shard": "7", "Fresh": "true"}, true},
				{"Base64 and 7.0", map[string]string{"Region": "=?base64?ZXU=?=", "Shard": "7.0", "Fresh": "true"}, true},
				{"a literal that only starts like Base64", map[string]string{"Region": "=?base64?ZXU=", "Shard": "7", "Fresh": "true"}, false},
				{"missing header", map[string]string{"Shard": "7", "Fresh": "true"}, false},
				{"other value", map[string]string{"Region": "us", "Shard": "7", "Fresh": "true"}, false},
				{"other integer", map[string]string{"Region": "eu", "Shard": "8", "Fresh": "true"}, false},
				{"bool spelled otherwise", map[string]string{"Region": "eu", "Shard": "7", "Fresh": "True"}, false},
				{"invalid Base64", map[string]string{"Region": "=?base64?ZX!U=?=", "Shard": "7", "Fresh": "true"}, false},
			} {
				body := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"region":"eu","shard":7,"fresh":true,"query":"q"},"_meta":{` +
					`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
				req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
				req.Header.Set("Mcp-Method", "tools/call")
				req.Header.Set("Mcp-Name", tool)
				for k, v := range c.headers {
					req.Header.Set("Mcp-Param-"+k, v)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				raw, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				switch {
				case c.ok && (resp.StatusCode != http.StatusOK || !strings.Contains(string(raw), `eu/7/true: q`)):
					t.Errorf("stateless %v, %s, %s: HTTP %d %s", stateless, tool, c.why, resp.StatusCode, raw)
				case !c.ok && (resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(raw), `"code":-32020`) || !strings.Contains(string(raw), `"id":3`)):
					t.Errorf("stateless %v, %s, %s: HTTP %d %s, want 400 and -32020", stateless, tool, c.why, resp.StatusCode, raw)
				}
			}
		}
	}
	srv, err := mcpserver.New(headersDispatcher())
	if err != nil {
		t.Fatal(err)
	}
	cs := connectServer(t, srv, "2025-11-25", nil)
	if res := callTool(t, cs, "route_query", map[string]any{"region": "eu", "shard": 7, "fresh": false, "query": "q"}); res.IsError {
		t.Errorf("2025-11-25: %s", resultText(res))
	}
}
