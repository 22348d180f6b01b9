package auth_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/authtest"
	"github.com/winkgen/wink/runtime/wink"
)

// TestServedFingerprint: through the official Go SDK client, the initialize result and tools/list
// carry the fingerprint of the tools the caller may call under mcpserver.FingerprintMeta: for a caller
// whose token lists its scopes, wink.Fingerprint of the permitted tools computed offline; a server
// built again (a restart) publishes the same; and a caller without a principal gets the fingerprint of
// every tool.
func TestServedFingerprint(t *testing.T) {
	reg := wink.MustRegistry(authtest.WinkTools())
	serve := func(t *testing.T, withToken bool) string {
		h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		if withToken {
			verify := func(_ context.Context, token string, _ *http.Request) (*sdkauth.TokenInfo, error) {
				return &sdkauth.TokenInfo{UserID: "dave", Scopes: strings.Split(token, "+"), Expiration: time.Now().Add(time.Hour)}, nil
			}
			h = sdkauth.RequireBearerToken(verify, nil)(h)
		}
		hs := httptest.NewServer(h)
		t.Cleanup(hs.Close)
		return hs.URL
	}
	ctx := context.Background()
	check := func(t *testing.T, cs *mcp.ClientSession, want string) {
		t.Helper()
		lr, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := lr.Meta[mcpserver.FingerprintMeta]; got != want {
			t.Errorf("tools/list _meta fingerprint %v, want %s", got, want)
		}
		var listed []*wink.Tool
		for _, tool := range lr.Tools {
			lt, _ := reg.Lookup(tool.Name)
			listed = append(listed, lt)
		}
		if wink.Fingerprint(listed) != want {
			t.Errorf("the fingerprint is not that of the tools listed")
		}
	}
	read := wink.WithPrincipal(ctx, &wink.Principal{Scopes: []string{"tickets:read"}})
	wantRead := wink.Fingerprint(wink.Permitted(read, reg.Tools()))
	wantAll := wink.Fingerprint(reg.Tools())
	if wantRead == wantAll {
		t.Fatal("the permitted set's fingerprint is the whole set's")
	}
	for range 2 { // two servers: a restart publishes the same
		url := serve(t, true)
		check(t, connect(t, url, "tickets:read"), wantRead)
		// The initialize result (2025-06-18; the SDK client speaks 2026-07-28, whose server/discover
		// result carries it too).
		if body := postRead(t, url, "tickets:read", initialize); !strings.Contains(body, `"`+mcpserver.FingerprintMeta+`":"`+wantRead+`"`) {
			t.Errorf("initialize result %s lacks the fingerprint %s", body, wantRead)
		}
		check(t, connect(t, url, "tickets:read+tickets:write"), wantAll)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: serve(t, false)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	check(t, cs, wantAll)
}

// postRead is post with the body read.
func postRead(t *testing.T, url, token, body string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
