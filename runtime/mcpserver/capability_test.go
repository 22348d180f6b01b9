package mcpserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// TestMissingCapabilityIsAProtocolError: a 2026-07-28 call of a tool that samples, from a client that
// did not declare sampling, is answered with -32021 (HTTP 400) naming the capability, on stateful and
// stateless servers; the same call from a 2025-11-25 client without sampling is a tool error, as before.
func TestMissingCapabilityIsAProtocolError(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())},
			mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: stateless}), mcpserver.WithBothRevisions())
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(h)
		t.Cleanup(hs.Close)
		for _, caps := range []string{`{}`, `{"elicitation":{}}`} {
			body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ask_model","arguments":{"prompt":"?"},"_meta":{` +
				`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}}}`
			req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "ask_model")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var msg struct {
				ID    int `json:"id"`
				Error *struct {
					Code int `json:"code"`
					Data struct {
						RequiredCapabilities map[string]map[string]any `json:"requiredCapabilities"`
					} `json:"data"`
				} `json:"error"`
			}
			if err := json.Unmarshal(raw, &msg); err != nil {
				t.Fatalf("stateless %v: %v: %s", stateless, err, raw)
			}
			if resp.StatusCode != http.StatusBadRequest || msg.ID != 7 || msg.Error == nil || msg.Error.Code != -32021 ||
				len(msg.Error.Data.RequiredCapabilities) != 1 || msg.Error.Data.RequiredCapabilities["sampling"] == nil {
				t.Errorf("stateless %v, capabilities %s: HTTP %d %s", stateless, caps, resp.StatusCode, raw)
			}
		}
	}
	cs := connectClientTools(t, "2025-11-25", nil)
	res := callTool(t, cs, "ask_model", map[string]any{"prompt": "?"})
	if !res.IsError || !strings.Contains(resultText(res), "the client did not declare the sampling capability") {
		t.Errorf("2025-11-25: %q", resultText(res))
	}
}
