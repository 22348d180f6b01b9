package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/mcpserver/internal/authtest"
	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// scopedOptions serve package prompt's prompt and section behind prompts:read (WithScopes), a workspace
// behind files:read (WorkspaceOptions.Scopes), a template with a completer behind notes:read, and an
// unscoped prompt.
func scopedOptions(fs vfs.Filesystem) []mcpserver.Option {
	intro := prompt.MustSection(prompt.SectionSpec{Key: "intro", Title: "Introduction", Template: "Write in ${tone} tone.",
		Params: []prompt.Param{{Name: "tone", Default: "plain"}}})
	get := func(context.Context, map[string]string) ([]mcpserver.PromptMessage, error) {
		return []mcpserver.PromptMessage{{Role: "user", Content: wink.Text("hi")}}, nil
	}
	return []mcpserver.Option{
		mcpserver.WithPrompt(mcpserver.Prompt{Name: "greet", Get: get}),
		mcpserver.WithScopes([]string{"prompts:read"}, mcpserver.WithPrompts(prompt.Must("agent", intro)), mcpserver.WithPromptSections(intro)),
		mcpserver.WithWorkspace(fs, mcpserver.WorkspaceOptions{Poll: 5 * time.Millisecond, Scopes: []string{"files:read"}}),
		mcpserver.WithResourceTemplate(mcpserver.ResourceTemplate{URITemplate: "test://note/{id}", Name: "note", Scopes: []string{"notes:read"},
			Read: func(_ context.Context, uri string, _ map[string]string) (wink.Content, error) {
				return wink.EmbeddedResource(uri, "text/plain", "x"), nil
			},
			Complete: func(context.Context, string, string, map[string]string) ([]string, error) {
				return []string{"1", "2"}, nil
			}}),
	}
}

func scopedFS(t *testing.T) *vfs.Memory {
	t.Helper()
	fs := vfs.NewMemory()
	for p, c := range map[string]string{"README.md": "# Hi\n", "src/main.go": "package main\n"} {
		if err := fs.Write(p, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	return fs
}

// startScopedRS is the resource server of scopedOptions.
func startScopedRS(t *testing.T, issuer string, hide bool, fs vfs.Filesystem) *rs {
	t.Helper()
	var h http.Handler
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	cfg := auth.Config{Issuer: issuer, Resource: hs.URL + "/mcp", MinRefresh: time.Millisecond, HideTools: hide}
	var err error
	h, err = mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(authtest.WinkTools())},
		append(scopedOptions(fs), mcpserver.WithAuth(cfg))...)
	if err != nil {
		t.Fatal(err)
	}
	return &rs{url: hs.URL + "/mcp", metadata: hs.URL + "/.well-known/oauth-protected-resource/mcp"}
}

// updates records the resources/updated notifications a session is sent.
type updates struct {
	mu   sync.Mutex
	uris []string
}

func (u *updates) add(uri string) { u.mu.Lock(); u.uris = append(u.uris, uri); u.mu.Unlock() }
func (u *updates) get() []string  { u.mu.Lock(); defer u.mu.Unlock(); return slices.Clone(u.uris) }

// connectOld opens a session speaking 2025-11-25 (resources/subscribe) whose updates are recorded.
func connectOld(t *testing.T, url, token string) (*mcp.ClientSession, *updates) {
	t.Helper()
	got := &updates{}
	hc := &http.Client{Transport: bearerTransport{token}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { got.add(req.Params.URI) },
	}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, got
}

func completeRef(typ, name string) *mcp.CompleteParams {
	ref := &mcp.CompleteReference{Type: typ}
	arg := "tone"
	if typ == "ref/prompt" {
		ref.Name = name
	} else {
		ref.URI, arg = name, "path"
		if strings.HasPrefix(name, "test://note/") {
			arg = "id"
		}
	}
	return &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: ""}}
}

// TestPackagePromptsWorkspaceCompletionsAndSubscriptionsScopes: against oauth2-mock-server, package
// prompt's prompts and sections given scopes with WithScopes, and a workspace given them with
// WorkspaceOptions.Scopes, are left out of a caller's lists (marked private) when its token lacks them,
// as are the workspace's files and template; prompts/get, resources/read, completion/complete of a
// prompt's argument or a template's variable, resources/subscribe and subscriptions/listen of them get
// 403 with the step-up challenge naming every scope needed; a token holding the scopes gets everything.
func TestPackagePromptsWorkspaceCompletionsAndSubscriptionsScopes(t *testing.T) {
	as := startMockAS(t)
	s := startScopedRS(t, as.issuer, false, scopedFS(t))
	ctx := context.Background()
	plain := as.token(t, 0, map[string]any{"aud": s.url, "sub": "alice", "scope": "tickets:read"})
	full := as.token(t, 0, map[string]any{"aud": s.url, "sub": "alice", "scope": "prompts:read files:read notes:read"})
	for _, c := range []struct {
		token                         string
		prompts, resources, templates []string
	}{
		{plain, []string{"greet"}, nil, nil},
		{full, []string{"agent", "greet", "intro"}, []string{"workspace:///README.md", "workspace:///src/main.go"}, []string{"test://note/{id}", "workspace:///{+path}"}},
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
	challenge := func(scope string) []string {
		return []string{`Bearer error="insufficient_scope", scope="` + scope + `", resource_metadata="` + s.metadata +
			`", error_description="the token lacks ` + scope + `"`}
	}
	for _, c := range []struct{ body, scope string }{
		{`{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"agent"}}`, "prompts:read"},
		{`{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"intro","arguments":{"tone":"dry"}}}`, "prompts:read"},
		{`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"workspace:///README.md"}}`, "files:read"},
		{`{"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"agent"},"argument":{"name":"tone","value":""}}}`, "prompts:read"},
		{`{"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{"argument":{"name":"path","value":"R"},"ref":{"uri":"workspace:///{+path}","type":"ref/resource"}}}`, "files:read"},
		{`{"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"test://note/{id}"},"argument":{"name":"id","value":""}}}`, "notes:read"},
		{`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"workspace:///src/../README.md"}}`, "files:read"},
		{`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"test://note/9"}}`, "notes:read"},
		{`{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["workspace:///README.md","test://note/1"]}}}`, "files:read notes:read"},
	} {
		resp := post(t, s.url, plain, c.body)
		if resp.StatusCode != 403 || !slices.Equal(resp.Header.Values("WWW-Authenticate"), challenge(c.scope)) {
			t.Errorf("%s without %s: %d %q, want 403 %q", c.body, c.scope, resp.StatusCode, resp.Header.Values("WWW-Authenticate"), challenge(c.scope))
		}
		if resp := post(t, s.url, full, c.body); resp.StatusCode == 403 || resp.StatusCode == 401 {
			t.Errorf("%s with every scope: %d", c.body, resp.StatusCode)
		}
	}
	cs := connect(t, s.url, full)
	if r, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "agent", Arguments: map[string]string{"tone": "dry"}}); err != nil || len(r.Messages) != 1 {
		t.Errorf("agent with prompts:read: %v", err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "workspace:///README.md"}); err != nil {
		t.Errorf("README.md with files:read: %v", err)
	}
	if r, err := cs.Complete(ctx, completeRef("ref/prompt", "agent")); err != nil || !slices.Equal(r.Completion.Values, []string{"plain"}) {
		t.Errorf("completing agent's tone with prompts:read: %v %v", r, err)
	}
	if r, err := cs.Complete(ctx, completeRef("ref/resource", "workspace:///{+path}")); err != nil || len(r.Completion.Values) != 2 {
		t.Errorf("completing a workspace path with files:read: %v %v", r, err)
	}
	old, _ := connectOld(t, s.url, full)
	if err := old.Subscribe(ctx, &mcp.SubscribeParams{URI: "workspace:///README.md"}); err != nil {
		t.Errorf("subscribing with files:read: %v", err)
	}
}

// TestItemScopeErrorsWithoutStatus: behind the SDK's own bearer middleware (no status of ours), the same
// requests fail with a JSON-RPC error naming the missing scope, and succeed with it.
func TestItemScopeErrorsWithoutStatus(t *testing.T) {
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(authtest.WinkTools())}, scopedOptions(scopedFS(t))...)
	if err != nil {
		t.Fatal(err)
	}
	verify := func(_ context.Context, token string, _ *http.Request) (*sdkauth.TokenInfo, error) {
		return &sdkauth.TokenInfo{UserID: "dave", Scopes: strings.Split(token, "+"), Expiration: time.Now().Add(time.Hour)}, nil
	}
	hs := httptest.NewServer(sdkauth.RequireBearerToken(verify, nil)(h))
	t.Cleanup(hs.Close)
	ctx := context.Background()
	for _, token := range []string{"tickets:read", "prompts:read+files:read+notes:read"} {
		granted := token != "tickets:read"
		cs, _ := connectOld(t, hs.URL, token)
		for _, c := range []struct {
			what, scope string
			do          func() error
		}{
			{"prompts/get of a package prompt", "prompts:read", func() error {
				_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "intro"})
				return err
			}},
			{"resources/read of a workspace file", "files:read", func() error {
				_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "workspace:///src/main.go"})
				return err
			}},
			{"completion of a prompt's argument", "prompts:read", func() error {
				_, err := cs.Complete(ctx, completeRef("ref/prompt", "agent"))
				return err
			}},
			{"completion of a workspace path", "files:read", func() error {
				_, err := cs.Complete(ctx, completeRef("ref/resource", "workspace:///{+path}"))
				return err
			}},
			{"completion of a template's variable", "notes:read", func() error {
				_, err := cs.Complete(ctx, completeRef("ref/resource", "test://note/{id}"))
				return err
			}},
			{"resources/subscribe of a workspace file", "files:read", func() error {
				return cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "workspace:///README.md"})
			}},
		} {
			err := c.do()
			switch {
			case granted && err != nil:
				t.Errorf("%s with %s: %v", c.what, c.scope, err)
			case !granted && (err == nil || !strings.Contains(err.Error(), "lacks the scope "+c.scope)):
				t.Errorf("%s without %s: %v, want an error naming it", c.what, c.scope, err)
			}
		}
	}
}

// TestHiddenCompletionsAndSubscriptions: with HideTools, completing a hidden prompt's argument or a
// hidden template's variable is answered exactly as for one that does not exist, reading a hidden
// workspace file as reading an unknown resource, and subscribing to a hidden resource is accepted as
// subscribing to an unknown URI is, but the session is never told when it changes, while a session
// whose token permits it is.
func TestHiddenCompletionsAndSubscriptions(t *testing.T) {
	as := startMockAS(t)
	fs := scopedFS(t)
	s := startScopedRS(t, as.issuer, true, fs)
	ctx := context.Background()
	plain := as.token(t, 0, map[string]any{"aud": s.url, "sub": "alice", "scope": "tickets:read"})
	full := as.token(t, 0, map[string]any{"aud": s.url, "sub": "bob", "scope": "prompts:read files:read notes:read"})
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"agent"},"argument":{"name":"tone","value":""}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"workspace:///README.md"}}`,
	} {
		if resp := post(t, s.url, plain, body); resp.StatusCode == 403 {
			t.Errorf("%s: a hidden item was refused with 403", body)
		}
	}
	a, aGot := connectOld(t, s.url, plain)
	same := func(what string, hidden, missing error, hname, mname string) {
		t.Helper()
		if hidden == nil || missing == nil || strings.ReplaceAll(hidden.Error(), hname, "X") != strings.ReplaceAll(missing.Error(), mname, "X") {
			t.Errorf("%s: hidden answered %v, missing %v; want the same answer", what, hidden, missing)
		}
	}
	_, hp := a.Complete(ctx, completeRef("ref/prompt", "agent"))
	_, mp := a.Complete(ctx, completeRef("ref/prompt", "no_such"))
	same("completing a prompt's argument", hp, mp, "agent", "no_such")
	_, ht := a.Complete(ctx, completeRef("ref/resource", "workspace:///{+path}"))
	_, mt := a.Complete(ctx, completeRef("ref/resource", "test://none/{+path}"))
	same("completing a template's variable", ht, mt, "workspace:///{+path}", "test://none/{+path}")
	_, hg := a.GetPrompt(ctx, &mcp.GetPromptParams{Name: "intro"})
	_, mg := a.GetPrompt(ctx, &mcp.GetPromptParams{Name: "no_such"})
	same("prompts/get of a section", hg, mg, "intro", "no_such")
	_, hr := a.ReadResource(ctx, &mcp.ReadResourceParams{URI: "workspace:///README.md"})
	_, mr := a.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://nothing"})
	same("resources/read of a workspace file", hr, mr, "workspace:///README.md", "test://nothing")
	hs := a.Subscribe(ctx, &mcp.SubscribeParams{URI: "workspace:///README.md"})
	ms := a.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://nothing"})
	if hs != nil || ms != nil {
		t.Fatalf("subscribing: hidden %v, unknown %v; want both accepted", hs, ms)
	}
	b, bGot := connectOld(t, s.url, full)
	if err := b.Subscribe(ctx, &mcp.SubscribeParams{URI: "workspace:///README.md"}); err != nil {
		t.Fatal(err)
	}
	// Two changes, each seen by b: the watcher notified a as well in the same rounds, before b's second.
	for i, text := range []string{"# One\n", "# Two\n"} {
		if err := fs.Write("README.md", []byte(text)); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for len(bGot.get()) <= i {
			if time.Now().After(deadline) {
				t.Fatalf("the permitted session was not notified of change %d: %q", i+1, bGot.get())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	if g := aGot.get(); len(g) != 0 {
		t.Errorf("a session whose token may not read the file was notified %q", g)
	}
}
