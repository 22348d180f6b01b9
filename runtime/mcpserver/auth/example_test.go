package auth_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/mcpserver/internal/authtest"
	"github.com/winkgen/wink/runtime/wink"
)

// ExampleConfig serves tools (whose //wink:tool scopes say who may call them) as an OAuth resource server.
func ExampleConfig() {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(authtest.WinkTools())}
	h, err := mcpserver.HTTPHandler(d, mcpserver.WithAuth(auth.Config{
		Issuer:   "https://auth.example.com",    // the authorization server: tokens are verified with its JWKS
		Resource: "https://mcp.example.com/mcp", // this server: the audience tokens must be issued for
	}))
	if err != nil {
		panic(err)
	}
	_ = h // serve it at the root of the resource's origin: http.ListenAndServe(addr, h)
	// Output:
}

// TestExampleServer: example/cmd/mcpserver run with -issuer and -resource, checked from outside as anyone
// would: its metadata names the scopes its tools declare, a request without a token is 401, a token with
// docs:read searches the docs, and its call of schedule_task is 403 naming tasks:write.
func TestExampleServer(t *testing.T) {
	as := startMockAS(t)
	bin := filepath.Join(t.TempDir(), "mcpserver")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/winkgen/wink/example/cmd/mcpserver").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free port for the resource identifier
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	resource := "http://" + addr + "/mcp"
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-http", addr, "-issuer", as.issuer, "-resource", resource)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "listening on ") {
	}
	go func() {
		for sc.Scan() {
		}
	}()

	resp, err := http.Get("http://" + addr + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var md struct {
		Resource string   `json:"resource"`
		Scopes   []string `json:"scopes_supported"`
	}
	json.NewDecoder(resp.Body).Decode(&md)
	resp.Body.Close()
	if md.Resource != resource || !slices.Contains(md.Scopes, "docs:read") || !slices.Contains(md.Scopes, "tasks:write") {
		t.Fatalf("metadata %+v: want resource %s and scopes docs:read, tasks:write", md, resource)
	}
	s := &rs{url: resource, metadata: "http://" + addr + "/.well-known/oauth-protected-resource/mcp"}
	if resp := post(t, resource, "", initialize); resp.StatusCode != 401 ||
		resp.Header.Get("WWW-Authenticate") != `Bearer resource_metadata="`+s.metadata+`"` {
		t.Fatalf("no token: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	read := as.token(t, 0, map[string]any{"aud": resource, "sub": "frank", "scope": "docs:read"})
	res, err := connect(t, resource, read).CallTool(context.Background(), &mcp.CallToolParams{Name: "search_docs", Arguments: json.RawMessage(`{"query":"filesystem","limit":10,"filters":{"path_prefix":"/docs","max_size":1000}}`)})
	if err != nil || res.IsError {
		t.Fatalf("search_docs with docs:read: %v %+v", err, res)
	}
	at := strconv.Quote(time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	resp = post(t, resource, read, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"schedule_task","arguments":{"title":"Ship","at":`+at+`}}}`)
	if want := `Bearer error="insufficient_scope", scope="tasks:write"`; resp.StatusCode != 403 || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), want) {
		t.Fatalf("schedule_task with docs:read: %d %q, want 403 %s...", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
	}
}
