package auth_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/mcpserver/internal/authtest"
	"github.com/winkgen/wink/runtime/wink"
)

// rs is a resource server (mcpserver.HTTPHandler with WithAuth over authtest's tools) on a loopback port.
type rs struct {
	url      string // the MCP endpoint, which is the resource identifier
	metadata string // the metadata URL
}

// startRS serves authtest's tools as a resource server trusting issuer; edit adjusts the config.
func startRS(t *testing.T, issuer string, edit func(*auth.Config)) *rs {
	t.Helper()
	var h http.Handler
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	cfg := auth.Config{Issuer: issuer, Resource: hs.URL + "/mcp", Scopes: []string{"profile"}, MinRefresh: time.Millisecond}
	if edit != nil {
		edit(&cfg)
	}
	var err error
	h, err = mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(authtest.WinkTools())}, mcpserver.WithAuth(cfg))
	if err != nil {
		t.Fatal(err)
	}
	return &rs{url: hs.URL + "/mcp", metadata: hs.URL + "/.well-known/oauth-protected-resource/mcp"}
}

// post sends one JSON-RPC request with token ("" for none) and returns the response.
func post(t *testing.T, url, token, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func callBody(tool string) string {
	return `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"id":7}}}`
}

// connect opens an MCP session sending token.
func connect(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: bearerTransport{token}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMetadata: RFC 9728 metadata at the resource's well-known path and at the root form, naming the
// resource, the authorization server, Config.Scopes and every scope a tool declares, and the header method.
func TestMetadata(t *testing.T) {
	const issuer = "https://as.example.com"
	s := startRS(t, issuer, nil)
	for _, u := range []string{s.metadata, strings.TrimSuffix(s.metadata, "/mcp")} {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		var md map[string]any
		err = json.NewDecoder(resp.Body).Decode(&md)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s, %v", u, resp.Status, err)
		}
		want := map[string]any{
			"resource":                 s.url,
			"authorization_servers":    []any{issuer},
			"scopes_supported":         []any{"profile", "tickets:read", "tickets:write"},
			"bearer_methods_supported": []any{"header"},
		}
		got, _ := json.Marshal(md)
		wantJSON, _ := json.Marshal(want)
		if string(got) != string(wantJSON) {
			t.Errorf("GET %s:\n got %s\nwant %s", u, got, wantJSON)
		}
	}
}

// TestNoToken: a request without a token (or with another scheme) is 401 with the resource_metadata
// challenge, before the MCP handler sees it.
func TestNoToken(t *testing.T) {
	as := startMockAS(t)
	s := startRS(t, as.issuer, nil)
	for _, hdr := range []string{"", "Basic dXNlcjpwYXNz", "Bearer"} {
		req, _ := http.NewRequest(http.MethodPost, s.url, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if hdr != "" {
			req.Header.Set("Authorization", hdr)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 {
			t.Errorf("Authorization %q: status %d, want 401", hdr, resp.StatusCode)
		}
		if got, want := resp.Header.Values("WWW-Authenticate"), []string{`Bearer resource_metadata="` + s.metadata + `"`}; !slices.Equal(got, want) {
			t.Errorf("Authorization %q: WWW-Authenticate %q, want %q", hdr, got, want)
		}
	}
}

// invalidChallenge checks a 401 for an invalid token naming why.
func invalidChallenge(t *testing.T, resp *http.Response, s *rs, why string) {
	t.Helper()
	if resp.StatusCode != 401 {
		t.Fatalf("status %d, want 401", resp.StatusCode)
	}
	h := resp.Header.Values("WWW-Authenticate")
	prefix, suffix := `Bearer error="invalid_token", error_description="`, `", resource_metadata="`+s.metadata+`"`
	if len(h) != 1 || !strings.HasPrefix(h[0], prefix) || !strings.HasSuffix(h[0], suffix) || !strings.Contains(h[0], why) {
		t.Fatalf("WWW-Authenticate %q: want %s...%s...%s", h, prefix, why, suffix)
	}
}

// TestInvalidTokens: every way a JWT can be wrong is a 401 invalid_token naming what is wrong. Each case
// fails when its check is removed.
func TestInvalidTokens(t *testing.T) {
	as := startMockAS(t)
	s := startRS(t, as.issuer, func(c *auth.Config) { c.ClockSkew = 5 * time.Second })
	good := map[string]any{"aud": s.url, "sub": "alice", "scope": "tickets:read"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for k, v := range good {
			m[k] = v
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	now := time.Now().Unix()
	stranger, _ := rsa.GenerateKey(rand.Reader, 2048)
	for _, c := range []struct {
		name, token, why string
	}{
		{"expired", as.token(t, -60, good), "has expired"},
		{"not yet valid", as.token(t, 0, with("nbf", now+3600)), "not valid yet"},
		{"issued in the future", as.token(t, 0, with("iat", now+3600)), "issued in the future"},
		{"another audience", as.token(t, 0, with("aud", "https://other.example.com/mcp")), "not issued for this resource"},
		{"audience list without this resource", as.token(t, 0, with("aud", []string{"https://a.example.com", s.url + "/"})), "not issued for this resource"},
		{"no audience", as.token(t, 0, with("aud", nil)), "not issued for this resource"},
		{"another issuer", as.token(t, 0, with("iss", "http://127.0.0.1:1")), "issued by http://127.0.0.1:1"},
		{"no expiry", as.token(t, 0, map[string]any{"aud": s.url, "sub": "alice", "exp": nil}), "no expiry"},
		{"unknown key", sign(t, stranger, "stranger", jose.RS256, as.issuer, good), `key 'stranger'`},
		{"alg none", algNone(as.issuer, good), "accepted algorithm"},
		{"HMAC", sign(t, []byte("0123456789abcdef0123456789abcdef"), "", jose.HS256, as.issuer, good), "accepted algorithm"},
		{"tampered", tamper(as.token(t, 0, good)), "signature does not verify"},
		{"opaque without introspection", "not-a-jwt", "not a JWT"},
	} {
		t.Run(c.name, func(t *testing.T) {
			invalidChallenge(t, post(t, s.url, c.token, initialize), s, c.why)
		})
	}
	// The same token within its audience, time and issuer is accepted (the cases above differ by one claim).
	if resp := post(t, s.url, as.token(t, 0, good), initialize); resp.StatusCode != 200 {
		t.Fatalf("a good token: status %d", resp.StatusCode)
	}
	// Within the clock skew, an expired or not-yet-valid token is accepted.
	if resp := post(t, s.url, as.token(t, 0, with("nbf", now+2)), initialize); resp.StatusCode != 200 {
		t.Fatalf("nbf within the skew: status %d", resp.StatusCode)
	}
}

// sign makes a JWT signed with key (a test's own, unknown to the issuer).
func sign(t *testing.T, key any, kid string, alg jose.SignatureAlgorithm, issuer string, claims map[string]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType("JWT")
	if kid != "" {
		opts = opts.WithHeader("kid", kid)
	}
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tok, err := jwt.Signed(sig).Claims(jwt.Claims{Issuer: issuer, Expiry: jwt.NewNumericDate(now.Add(time.Hour)), IssuedAt: jwt.NewNumericDate(now)}).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// algNone is an unsigned JWT (alg "none").
func algNone(issuer string, claims map[string]any) string {
	m := map[string]any{"iss": issuer, "exp": time.Now().Add(time.Hour).Unix()}
	for k, v := range claims {
		m[k] = v
	}
	p, _ := json.Marshal(m)
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc(p) + "."
}

// tamper changes the payload of a signed JWT (the scope claim grows).
func tamper(tok string) string {
	parts := strings.Split(tok, ".")
	p, _ := base64.RawURLEncoding.DecodeString(parts[1])
	p = []byte(strings.Replace(string(p), `"scope":"tickets:read"`, `"scope":"tickets:read tickets:write"`, 1))
	parts[1] = base64.RawURLEncoding.EncodeToString(p)
	return strings.Join(parts, ".")
}

// TestScopes: through an MCP client, a token with tickets:read calls read_ticket and whoami (which sees
// the principal, not the token), and its tools/call of close_ticket is 403 with one challenge naming every
// scope the tool needs; a token with both scopes closes the ticket.
func TestScopes(t *testing.T) {
	as := startMockAS(t)
	s := startRS(t, as.issuer, nil)
	read := as.token(t, 0, map[string]any{"aud": s.url, "sub": "alice", "scope": "tickets:read profile"})
	cs := connect(t, s.url, read)
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_ticket", Arguments: map[string]any{"id": 7}})
	if err != nil || res.IsError {
		t.Fatalf("read_ticket: %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "whoami"})
	if err != nil || res.IsError {
		t.Fatalf("whoami: %v %+v", err, res)
	}
	if got, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(got), `{"scopes":"tickets:read profile","subject":"alice"}`) /* with or without the result envelope, per protocol version */ {
		t.Errorf("whoami = %s", got)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "close_ticket", Arguments: map[string]any{"id": 7}}); err == nil {
		t.Fatalf("close_ticket succeeded without tickets:write")
	}
	resp := post(t, s.url, read, callBody("close_ticket"))
	want := []string{`Bearer error="insufficient_scope", scope="tickets:read tickets:write", resource_metadata="` + s.metadata +
		`", error_description="the token lacks tickets:write"`}
	if resp.StatusCode != 403 || !slices.Equal(resp.Header.Values("WWW-Authenticate"), want) {
		t.Fatalf("close_ticket with tickets:read: %d %q, want 403 %q", resp.StatusCode, resp.Header.Values("WWW-Authenticate"), want)
	}
	// A token without any scope may call a tool that declares none, but not read_ticket.
	none := as.token(t, 0, map[string]any{"aud": s.url, "sub": "bob"})
	if resp := post(t, s.url, none, callBody("read_ticket")); resp.StatusCode != 403 {
		t.Fatalf("read_ticket without scopes: %d, want 403", resp.StatusCode)
	}
	res, err = connect(t, s.url, none).CallTool(ctx, &mcp.CallToolParams{Name: "whoami"})
	if err != nil || res.IsError {
		t.Fatalf("whoami without scopes: %v %+v", err, res)
	}
	write := as.token(t, 0, map[string]any{"aud": []string{"https://other.example.com", s.url}, "sub": "alice", "scope": "tickets:write tickets:read"})
	// Each caller's tools/list shows the tools its token permits, marked private.
	for _, c := range []struct {
		token string
		want  []string
	}{{read, []string{"read_ticket", "whoami"}}, {none, []string{"whoami"}}, {write, []string{"read_ticket", "close_ticket", "whoami"}}} {
		lr, err := connect(t, s.url, c.token).ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range lr.Tools {
			names = append(names, tool.Name)
		}
		if !slices.Equal(names, c.want) || lr.CacheScope != "private" {
			t.Errorf("tools/list = %v (cacheScope %q), want %v (private)", names, lr.CacheScope, c.want)
		}
	}
	res, err = connect(t, s.url, write).CallTool(ctx, &mcp.CallToolParams{Name: "close_ticket", Arguments: map[string]any{"id": 7}})
	if err != nil || res.IsError {
		t.Fatalf("close_ticket with both scopes: %v %+v", err, res)
	}
}

// TestScopeErrorWithoutStatus: where the HTTP status is not ours to set (here the MCP SDK's own
// auth.RequireBearerToken wrapped around the handler by hand, as for a batch or stdio), the dispatcher refuses
// a call lacking a scope, before decoding its arguments, with a tool error naming the missing scope.
func TestScopeErrorWithoutStatus(t *testing.T) {
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(authtest.WinkTools())})
	if err != nil {
		t.Fatal(err)
	}
	verify := func(_ context.Context, token string, _ *http.Request) (*sdkauth.TokenInfo, error) { // the token lists its scopes
		return &sdkauth.TokenInfo{UserID: "dave", Scopes: strings.Split(token, "+"), Expiration: time.Now().Add(time.Hour)}, nil
	}
	hs := httptest.NewServer(sdkauth.RequireBearerToken(verify, nil)(h))
	t.Cleanup(hs.Close)
	res, err := connect(t, hs.URL, "tickets:read").CallTool(context.Background(),
		&mcp.CallToolParams{Name: "close_ticket", Arguments: map[string]any{"id": "not a number"}})
	if err != nil {
		t.Fatal(err)
	}
	text := ""
	if len(res.Content) == 1 {
		text = res.Content[0].(*mcp.TextContent).Text
	}
	if !res.IsError || !strings.Contains(text, `lacks the scope "tickets:write"`) || !strings.Contains(text, `"tickets:read tickets:write"`) {
		t.Fatalf("close_ticket with tickets:read: %+v %q; want a tool error naming tickets:write", res, text)
	}
	res, err = connect(t, hs.URL, "tickets:read+tickets:write").CallTool(context.Background(),
		&mcp.CallToolParams{Name: "close_ticket", Arguments: map[string]any{"id": 7}})
	if err != nil || res.IsError {
		t.Fatalf("close_ticket with both scopes: %v %+v", err, res)
	}
}

// TestKeyRotation: after the authorization server adds a key and signs with it, a token naming the new
// kid makes the resource server fetch the JWKS again and is accepted; the old key's tokens still are.
func TestKeyRotation(t *testing.T) {
	as := startMockAS(t)
	s := startRS(t, as.issuer, nil)
	claims := map[string]any{"aud": s.url, "sub": "alice"}
	old := as.token(t, 0, claims)
	if resp := post(t, s.url, old, initialize); resp.StatusCode != 200 {
		t.Fatalf("before rotation: %d", resp.StatusCode)
	}
	as.rotate(t)
	if resp := post(t, s.url, as.token(t, 0, claims), initialize); resp.StatusCode != 200 {
		t.Fatalf("a token of the new key: %d", resp.StatusCode)
	}
	if resp := post(t, s.url, old, initialize); resp.StatusCode != 200 {
		t.Fatalf("a token of the old key after rotation: %d", resp.StatusCode)
	}
}

// TestIntrospection: opaque tokens verified by RFC 7662 introspection, held to the same audience, time
// and scope rules as JWTs.
func TestIntrospection(t *testing.T) {
	as := startMockAS(t)
	s := startRS(t, as.issuer, func(c *auth.Config) {
		c.Introspection = &auth.Introspection{URL: as.issuer + "/opaque/introspect", ClientID: "rs", ClientSecret: "secret"}
	})
	now := time.Now().Unix()
	good := map[string]any{"active": true, "aud": s.url, "sub": "carol", "scope": "tickets:read", "exp": now + 3600}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for k, v := range good {
			m[k] = v
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	tok := as.opaque(t, good)
	if resp := post(t, s.url, tok, initialize); resp.StatusCode != 200 {
		t.Fatalf("an active token: %d", resp.StatusCode)
	}
	res, err := connect(t, s.url, tok).CallTool(context.Background(), &mcp.CallToolParams{Name: "whoami"})
	if got, _ := json.Marshal(res.StructuredContent); err != nil || !strings.Contains(string(got), `{"scopes":"tickets:read","subject":"carol"}`) {
		t.Fatalf("whoami: %s %v", got, err)
	}
	if resp := post(t, s.url, tok, callBody("close_ticket")); resp.StatusCode != 403 {
		t.Fatalf("close_ticket: %d, want 403", resp.StatusCode)
	}
	for _, c := range []struct {
		name string
		resp map[string]any
		why  string
	}{
		{"inactive", with("active", false), "not active"},
		{"unknown", nil, "not active"},
		{"another audience", with("aud", "https://other.example.com"), "not issued for this resource"},
		{"no audience", with("aud", nil), "not issued for this resource"},
		{"expired", with("exp", now-3600), "expired"},
		{"not yet valid", with("nbf", now+3600), "not valid yet"},
		{"another issuer", with("iss", "https://evil.example.com"), "issued by https://evil.example.com"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tok := "never-issued"
			if c.resp != nil {
				tok = as.opaque(t, c.resp)
			}
			invalidChallenge(t, post(t, s.url, tok, initialize), s, c.why)
		})
	}
}

// TestIntrospectionDiscovered: without Introspection.URL the endpoint is the issuer metadata's; the mock
// server's own endpoint answers {"active":true} with no audience, which is refused.
func TestIntrospectionDiscovered(t *testing.T) {
	as := startMockAS(t)
	s := startRS(t, as.issuer, func(c *auth.Config) { c.Introspection = &auth.Introspection{} })
	invalidChallenge(t, post(t, s.url, "opaque-token", initialize), s, "not issued for this resource")
}

// TestHiddenTools: with HideTools, a tool the token lacks scopes for is not listed, and calling it is
// answered exactly as calling a tool that does not exist (no 403 that would reveal it); a permitted call
// still runs.
func TestHiddenTools(t *testing.T) {
	as := startMockAS(t)
	s := startRS(t, as.issuer, func(c *auth.Config) { c.HideTools = true })
	read := as.token(t, 0, map[string]any{"aud": s.url, "sub": "alice", "scope": "tickets:read"})
	if resp := post(t, s.url, read, callBody("close_ticket")); resp.StatusCode == 403 {
		t.Fatalf("a hidden tool was refused with 403, which reveals it")
	}
	cs := connect(t, s.url, read)
	ctx := context.Background()
	lr, err := cs.ListTools(ctx, nil)
	if err != nil || len(lr.Tools) != 2 {
		t.Fatalf("tools/list = %+v, %v; want read_ticket and whoami", lr, err)
	}
	_, hidden := cs.CallTool(ctx, &mcp.CallToolParams{Name: "close_ticket", Arguments: map[string]any{"id": 7}})
	_, missing := cs.CallTool(ctx, &mcp.CallToolParams{Name: "open_ticket", Arguments: map[string]any{"id": 7}})
	if hidden == nil || missing == nil ||
		strings.ReplaceAll(hidden.Error(), "close_ticket", "X") != strings.ReplaceAll(missing.Error(), "open_ticket", "X") {
		t.Fatalf("hidden tool answered %v, a missing one %v; want the same answer", hidden, missing)
	}
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_ticket", Arguments: map[string]any{"id": 7}}); err != nil || res.IsError {
		t.Fatalf("read_ticket: %v %+v", err, res)
	}
}
