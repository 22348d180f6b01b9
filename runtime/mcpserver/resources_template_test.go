package mcpserver_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// TestTemplateVariablesHoldWhatTheirExpansionAllows: a simple variable ({id}) reaches the handler as one
// segment's text, decoded, for every template (in the middle, at the end, two of them, beside a reserved
// one): a URI whose decoded value would be a separator, a dot segment, a query or fragment delimiter, a
// second encoding or a control character does not match ("Resource not found") and the handler is never
// called. "..%2Fsecret" used to reach the handler as "../secret". A reserved variable ({+path}) may hold
// "/" (RFC 6570 reserved expansion), but not NUL.
func TestTemplateVariablesHoldWhatTheirExpansionAllows(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var seen []string
	read := func(_ context.Context, uri string, vars map[string]string) (wink.Content, error) {
		mu.Lock()
		defer mu.Unlock()
		var parts []string
		for _, k := range []string{"id", "a", "b", "path"} {
			if v, ok := vars[k]; ok {
				parts = append(parts, k+"="+v)
			}
		}
		seen = append(seen, strings.Join(parts, " "))
		return wink.EmbeddedResource(uri, "text/plain", "ok"), nil
	}
	var opts []mcpserver.Option
	for i, tpl := range []string{"test://template/{id}/data", "docs://{id}", "pair://{a}/{b}.txt", "mixed://{id}/{+path}"} {
		opts = append(opts, mcpserver.WithResourceTemplate(mcpserver.ResourceTemplate{URITemplate: tpl, Name: "t" + string(rune('0'+i)), Read: read}))
	}
	cs := connectClientTools(t, "", nil, opts...)
	last := func() string {
		mu.Lock()
		defer mu.Unlock()
		if len(seen) == 0 {
			return ""
		}
		return seen[len(seen)-1]
	}
	for uri, want := range map[string]string{
		"test://template/123/data":          "id=123",
		"docs://a%20b":                      "id=a b",
		"docs://user%40example.com":         "id=user@example.com",
		"docs://caf%C3%A9":                  "id=café",
		"docs://..x":                        "id=..x",
		"pair://x/y.txt":                    "a=x b=y",
		"mixed://1/a/b/c.txt":               "id=1 path=a/b/c.txt",
		"mixed://1/..%2Fup":                 "id=1 path=../up",
		"test://template/a%2Bb/data":        "id=a+b",
		"pair://%E2%82%AC/%C3%A9%C3%A9.txt": "a=€ b=éé",
	} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil {
			t.Errorf("%s: %v", uri, err)
		} else if got := last(); got != want {
			t.Errorf("%s: the handler got %q, want %q", uri, got, want)
		}
	}
	mu.Lock()
	n := len(seen)
	mu.Unlock()
	var bad []string
	for _, v := range []string{"..%2Fsecret", "..%2fsecret", "a%2Fb", "%2F", "%2e%2e", "%2E%2E", "%2e", ".", "..",
		"%252e%252e", "..%252Fsecret", "%25", "a%5Cb", "..%5C..%5Csecret", "a%3Fb", "a%23b", "a%5Bb%5D", "a%00b", "a%0Ab", "%7F",
		"%FF", "%C3", "a%2"} {
		bad = append(bad, "test://template/"+v+"/data", "docs://"+v, "pair://"+v+"/y.txt", "pair://x/"+v+".txt", "mixed://"+v+"/ok")
	}
	bad = append(bad, "mixed://1/a%00b", "mixed://1/a%0Ab", "mixed://1/%FF")
	for _, uri := range bad {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil || !strings.Contains(err.Error(), "Resource not found") {
			t.Errorf("%s: %v, want Resource not found", uri, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != n {
		t.Errorf("the handler was called with %q", seen[n:])
	}
}
