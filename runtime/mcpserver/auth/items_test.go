package auth_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/mcpserver/internal/authtest"
	"github.com/winkgen/wink/runtime/wink"
)

// startItemsRS is startRS with two prompts, two resources and two templates, one of each declaring
// notes:read.
func startItemsRS(t *testing.T, issuer string, hide bool) *rs {
	t.Helper()
	var h http.Handler
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	cfg := auth.Config{Issuer: issuer, Resource: hs.URL + "/mcp", MinRefresh: time.Millisecond, HideTools: hide}
	get := func(context.Context, map[string]string) ([]mcpserver.PromptMessage, error) {
		return []mcpserver.PromptMessage{{Role: "user", Content: wink.Text("hi")}}, nil
	}
	read := func(uri string) func(context.Context) (wink.Content, error) {
		return func(context.Context) (wink.Content, error) { return wink.EmbeddedResource(uri, "text/plain", "x"), nil }
	}
	readT := func(_ context.Context, uri string, _ map[string]string) (wink.Content, error) {
		return wink.EmbeddedResource(uri, "text/plain", "x"), nil
	}
	var err error
	h, err = mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(authtest.WinkTools())}, mcpserver.WithAuth(cfg),
		mcpserver.WithPrompt(mcpserver.Prompt{Name: "greet", Get: get}),
		mcpserver.WithPrompt(mcpserver.Prompt{Name: "summarize_notes", Get: get, Scopes: []string{"notes:read"}}),
		mcpserver.WithResource(mcpserver.Resource{URI: "test://readme", Name: "readme", Read: read("test://readme")}),
		mcpserver.WithResource(mcpserver.Resource{URI: "test://notes", Name: "notes", Read: read("test://notes"), Scopes: []string{"notes:read"}}),
		mcpserver.WithResourceTemplate(mcpserver.ResourceTemplate{URITemplate: "test://doc/{id}", Name: "doc", Read: readT}),
		mcpserver.WithResourceTemplate(mcpserver.ResourceTemplate{URITemplate: "test://note/{id}", Name: "note", Read: readT, Scopes: []string{"notes:read"}}))
	if err != nil {
		t.Fatal(err)
	}
	return &rs{url: hs.URL + "/mcp", metadata: hs.URL + "/.well-known/oauth-protected-resource/mcp"}
}

func names[T any](xs []T, name func(T) string) []string {
	var out []string
	for _, x := range xs {
		out = append(out, name(x))
	}
	return out
}

// TestPromptsAndResourcesScopes: through the official Go SDK client, a token without notes:read sees
// neither the prompt, the resource nor the template declaring it (lists marked private), and its
// prompts/get and resources/read of them get 403 with the step-up challenge naming notes:read; a
// token with notes:read sees and gets everything; the metadata lists notes:read.
func TestPromptsAndResourcesScopes(t *testing.T) {
	as := startMockAS(t)
	s := startItemsRS(t, as.issuer, false)
	ctx := context.Background()
	plain := as.token(t, 0, map[string]any{"aud": s.url, "sub": "alice", "scope": "tickets:read"})
	notes := as.token(t, 0, map[string]any{"aud": s.url, "sub": "alice", "scope": "notes:read"})
	for _, c := range []struct {
		token                         string
		prompts, resources, templates []string
	}{
		{plain, []string{"greet"}, []string{"test://readme"}, []string{"test://doc/{id}"}},
		{notes, []string{"greet", "summarize_notes"}, []string{"test://notes", "test://readme"}, []string{"test://doc/{id}", "test://note/{id}"}},
	} {
		cs := connect(t, s.url, c.token)
		lp, err := cs.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		lr, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		lt, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		gotP := names(lp.Prompts, func(p *mcp.Prompt) string { return p.Name })
		gotR := names(lr.Resources, func(r *mcp.Resource) string { return r.URI })
		gotT := names(lt.ResourceTemplates, func(r *mcp.ResourceTemplate) string { return r.URITemplate })
		slices.Sort(gotP)
		slices.Sort(gotR)
		slices.Sort(gotT)
		if !slices.Equal(gotP, c.prompts) || !slices.Equal(gotR, c.resources) || !slices.Equal(gotT, c.templates) {
			t.Errorf("lists %v %v %v, want %v %v %v", gotP, gotR, gotT, c.prompts, c.resources, c.templates)
		}
		if lp.CacheScope != "private" || lr.CacheScope != "private" || lt.CacheScope != "private" {
			t.Errorf("cacheScope %q %q %q, want private", lp.CacheScope, lr.CacheScope, lt.CacheScope)
		}
	}
	want := []string{`Bearer error="insufficient_scope", scope="notes:read", resource_metadata="` + s.metadata +
		`", error_description="the token lacks notes:read"`}
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"summarize_notes"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"test://notes"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"test://note/42"}}`,
	} {
		resp := post(t, s.url, plain, body)
		if resp.StatusCode != 403 || !slices.Equal(resp.Header.Values("WWW-Authenticate"), want) {
			t.Errorf("%s without notes:read: %d %q, want 403 %q", body, resp.StatusCode, resp.Header.Values("WWW-Authenticate"), want)
		}
		if resp := post(t, s.url, notes, body); resp.StatusCode != 200 {
			t.Errorf("%s with notes:read: %d", body, resp.StatusCode)
		}
	}
	cs := connect(t, s.url, plain)
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet"}); err != nil {
		t.Errorf("greet: %v", err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://doc/1"}); err != nil {
		t.Errorf("test://doc/1: %v", err)
	}
	cs = connect(t, s.url, notes)
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_notes"}); err != nil {
		t.Errorf("summarize_notes with notes:read: %v", err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://note/1"}); err != nil {
		t.Errorf("test://note/1 with notes:read: %v", err)
	}
	resp, err := http.Get(s.metadata)
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	_, _ = io.Copy(&md, resp.Body)
	resp.Body.Close()
	if !strings.Contains(md.String(), `"notes:read"`) {
		t.Errorf("metadata %s does not list notes:read", md.String())
	}
}

// TestHiddenPromptsAndResources: with HideTools, a prompt or resource the token does not permit is
// answered exactly as one that does not exist, with no 403 revealing it.
func TestHiddenPromptsAndResources(t *testing.T) {
	as := startMockAS(t)
	s := startItemsRS(t, as.issuer, true)
	ctx := context.Background()
	plain := as.token(t, 0, map[string]any{"aud": s.url, "sub": "alice", "scope": "tickets:read"})
	if resp := post(t, s.url, plain, `{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"summarize_notes"}}`); resp.StatusCode == 403 {
		t.Fatal("a hidden prompt was refused with 403")
	}
	cs := connect(t, s.url, plain)
	same := func(what string, hidden, missing error, hname, mname string) {
		t.Helper()
		if hidden == nil || missing == nil || strings.ReplaceAll(hidden.Error(), hname, "X") != strings.ReplaceAll(missing.Error(), mname, "X") {
			t.Errorf("%s: hidden answered %v, missing %v; want the same answer", what, hidden, missing)
		}
	}
	_, hp := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_notes"})
	_, mp := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "no_such_prompt"})
	same("prompt", hp, mp, "summarize_notes", "no_such_prompt")
	_, hr := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://notes"})
	_, mr := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://nothing"})
	same("resource", hr, mr, "test://notes", "test://nothing")
	_, ht := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://note/1"})
	same("template", ht, mr, "test://note/1", "test://nothing")
}

// TestPromptScopeErrorWithoutStatus: where no HTTP status is ours to set (the SDK's own
// RequireBearerToken wrapped by hand), prompts/get and resources/read of what the token does not permit
// fail with a JSON-RPC error naming the missing scope.
func TestPromptScopeErrorWithoutStatus(t *testing.T) {
	get := func(context.Context, map[string]string) ([]mcpserver.PromptMessage, error) {
		return []mcpserver.PromptMessage{{Role: "user", Content: wink.Text("hi")}}, nil
	}
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(authtest.WinkTools())},
		mcpserver.WithPrompt(mcpserver.Prompt{Name: "summarize_notes", Get: get, Scopes: []string{"notes:read"}}),
		mcpserver.WithResource(mcpserver.Resource{URI: "test://notes", Name: "notes", Scopes: []string{"notes:read"},
			Read: func(context.Context) (wink.Content, error) {
				return wink.EmbeddedResource("test://notes", "text/plain", "x"), nil
			}}))
	if err != nil {
		t.Fatal(err)
	}
	verify := func(_ context.Context, token string, _ *http.Request) (*sdkauth.TokenInfo, error) {
		return &sdkauth.TokenInfo{UserID: "dave", Scopes: strings.Split(token, "+"), Expiration: time.Now().Add(time.Hour)}, nil
	}
	hs := httptest.NewServer(sdkauth.RequireBearerToken(verify, nil)(h))
	t.Cleanup(hs.Close)
	ctx := context.Background()
	cs := connect(t, hs.URL, "tickets:read")
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_notes"}); err == nil || !strings.Contains(err.Error(), "lacks the scope notes:read") {
		t.Errorf("prompts/get without notes:read: %v", err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://notes"}); err == nil || !strings.Contains(err.Error(), "lacks the scope notes:read") {
		t.Errorf("resources/read without notes:read: %v", err)
	}
	if _, err := connect(t, hs.URL, "notes:read").GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_notes"}); err != nil {
		t.Errorf("prompts/get with notes:read: %v", err)
	}
}
