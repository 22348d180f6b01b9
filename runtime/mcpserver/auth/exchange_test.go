package auth_test

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/wink"
)

const (
	upstreamAudience = "https://orders.example.com"
	exchangeClient   = "mcp server" // a space: client credentials are form-encoded before Basic (RFC 6749 §2.3.1)
	exchangeSecret   = "s3cret:&"
)

// tokenEndpoint is an RFC 8693 token endpoint in-process, for the inbound tokens goAS signs: it checks the
// whole request form and the client's authentication, and refuses what is wrong the way an authorization
// server does (RFC 6749 §5.2). accept says which subject tokens it knows.
type tokenEndpoint struct {
	hs       *httptest.Server
	mu       sync.Mutex
	accept   map[string]bool // subject tokens it exchanges
	calls    atomic.Int64
	problems []string // requests it found malformed (the test fails on any)
}

func startTokenEndpoint(t *testing.T, expiresIn int) *tokenEndpoint {
	te := &tokenEndpoint{accept: map[string]bool{}}
	te.hs = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := te.calls.Add(1)
		refuse := func(status int, code string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": "refused by the test"})
		}
		id, secret, ok := r.BasicAuth()
		if !ok || id != "mcp+server" || secret != "s3cret%3A%26" {
			refuse(401, "invalid_client")
			return
		}
		if err := r.ParseForm(); err != nil || r.Method != http.MethodPost || len(r.URL.Query()) != 0 {
			te.problem("not a form POST without query")
			refuse(400, "invalid_request")
			return
		}
		want := map[string]string{
			"grant_type":           "urn:ietf:params:oauth:grant-type:token-exchange",
			"subject_token_type":   "urn:ietf:params:oauth:token-type:access_token",
			"requested_token_type": "urn:ietf:params:oauth:token-type:access_token",
			"audience":             upstreamAudience,
			"resource":             upstreamAudience + "/api",
		}
		for k, v := range want {
			if r.PostForm.Get(k) != v {
				te.problem(k + " is " + strconv.Quote(r.PostForm.Get(k)) + ", want " + strconv.Quote(v))
				refuse(400, "invalid_request")
				return
			}
		}
		te.mu.Lock()
		known := te.accept[r.PostForm.Get("subject_token")]
		te.mu.Unlock()
		if !known {
			refuse(400, "invalid_grant")
			return
		}
		if r.PostForm.Get("scope") == "orders:delete" {
			refuse(400, "invalid_scope")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":"upstream-%d","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"Bearer","expires_in":%d,"scope":%q}`,
			n, expiresIn, r.PostForm.Get("scope"))
	}))
	t.Cleanup(te.hs.Close)
	t.Cleanup(func() {
		te.mu.Lock()
		defer te.mu.Unlock()
		for _, p := range te.problems {
			t.Errorf("token endpoint: %s", p)
		}
	})
	return te
}

func (te *tokenEndpoint) problem(p string) {
	te.mu.Lock()
	te.problems = append(te.problems, p)
	te.mu.Unlock()
}

func (te *tokenEndpoint) allow(token string) {
	te.mu.Lock()
	te.accept[token] = true
	te.mu.Unlock()
}

// upstreamKey is the resource a tool gets its Exchanger from.
var upstreamKey = resources.NewKey[*auth.Exchanger]("OrdersAPI")

// upstreamResult is what call_orders answers: the token it would send upstream, or the exchange's error.
type upstreamResult struct{ Token, Err string }

// callOrders is a tool handler that must call the orders API for its caller.
func callOrders(tc *wink.ToolContext, _ wink.NoParams) (wink.ToolResult[upstreamResult], error) {
	ex, err := resources.Get(tc.Resources(), upstreamKey)
	if err != nil {
		return wink.ToolResult[upstreamResult]{}, err
	}
	tok, err := ex.Token(tc, "orders:read")
	if err != nil {
		return wink.OK(upstreamResult{Err: err.Error()}, "exchange failed"), nil
	}
	return wink.OK(upstreamResult{Token: tok.AccessToken}, "ok"), nil
}

var callOrdersTool = wink.NewTool(wink.Spec{
	Name:         "call_orders",
	Description:  "Calls the orders API for the caller.",
	ParamsSchema: []byte(`{"type":"object","properties":{},"additionalProperties":false}`),
	ResultSchema: []byte(`{"type":"object","properties":{"token":{"type":"string"},"err":{"type":"string"}},"required":["token","err"],"additionalProperties":false}`),
	Signature:    "call_orders() -> {token: str, err: str}",
	ReadOnly:     true,
}, &wink.Funcs[wink.NoParams, upstreamResult]{
	Decode:       wink.DecodeNoParams,
	EncodeParams: wink.EncodeNoParams,
	EncodeResult: func(dst []byte, v *upstreamResult) []byte {
		dst = strconv.AppendQuote(append(dst, `{"token":`...), v.Token)
		return append(strconv.AppendQuote(append(dst, `,"err":`...), v.Err), '}')
	},
	Handler: callOrders,
})

// exchangeServer serves call_orders (and whoami's like: a tool reading the principal) as a resource server
// trusting as, with an Exchanger to te bound as the dispatcher's resource.
func exchangeServer(t *testing.T, as *goAS, te *tokenEndpoint, edit func(*auth.ExchangeConfig)) (resource string) {
	cfg := auth.ExchangeConfig{Issuer: as.hs.URL, TokenURL: te.hs.URL + "/token", ClientID: exchangeClient, ClientSecret: exchangeSecret,
		Audience: upstreamAudience, Resource: upstreamAudience + "/api"}
	if edit != nil {
		edit(&cfg)
	}
	ex, err := auth.NewExchanger(cfg)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := resources.NewRegistry(resources.Instance(upstreamKey, ex))
	if err != nil {
		t.Fatal(err)
	}
	tools := wink.MustRegistry([]*wink.Tool{callOrdersTool, principalTool})
	var h http.Handler
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	// Each client gets its own resource context; they share the Exchanger, which keeps callers apart.
	perClient := func(ctx context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
		rc, err := reg.Open()
		if err != nil {
			return nil, nil, err
		}
		return &wink.Dispatcher{Registry: tools, Resources: rc}, func() { rc.Close() }, nil
	}
	h, err = mcpserver.HTTPHandler(&wink.Dispatcher{Registry: tools}, mcpserver.WithSessions(perClient),
		mcpserver.WithAuth(auth.Config{Issuer: as.hs.URL, Resource: hs.URL + "/mcp"}))
	if err != nil {
		t.Fatal(err)
	}
	return hs.URL + "/mcp"
}

func callExchange(t *testing.T, cs *mcp.ClientSession) upstreamResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "call_orders", Arguments: json.RawMessage(`{}`)})
	if err != nil || res.IsError {
		t.Fatalf("call_orders: %v %+v", err, res)
	}
	var out struct{ Result upstreamResult }
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("call_orders answered %s: %v", b, err)
	}
	return out.Result
}

// TestTokenExchange: a tool handler gets a token for the upstream API by RFC 8693 token exchange at the
// token endpoint, which checks that the subject_token is the inbound token, the audience, resource and
// scope, and the client's credentials; the token is reused for the same caller until shortly before it
// expires, and exchanged anew for another caller.
func TestTokenExchange(t *testing.T) {
	as := startGoAS(t)
	k := as.key(t, "k1", true)
	te := startTokenEndpoint(t, 3600)
	resource := exchangeServer(t, as, te, nil)
	erin := as.tokenFor(t, k, "k1", resource)
	te.allow(erin)

	cs := connect(t, resource, erin)
	first := callExchange(t, cs)
	if first.Err != "" || !strings.HasPrefix(first.Token, "upstream-") {
		t.Fatalf("first call: %+v, want an exchanged token", first)
	}
	if again := callExchange(t, cs); again != first || te.calls.Load() != 1 {
		t.Fatalf("second call: %+v after %d exchanges, want the cached %+v after 1", again, te.calls.Load(), first)
	}
	// Another inbound token (another caller) is exchanged on its own.
	other := signFor(t, as, k, "k1", resource, "grace")
	te.allow(other)
	if got := callExchange(t, connect(t, resource, other)); got.Err != "" || got.Token == first.Token || te.calls.Load() != 2 {
		t.Fatalf("another caller: %+v after %d exchanges, want a token of its own", got, te.calls.Load())
	}
}

// signFor signs a token for resource with subject sub.
func signFor(t *testing.T, as *goAS, k *rsa.PrivateKey, kid, resource, sub string) string {
	return sign(t, k, kid, "RS256", as.hs.URL, map[string]any{"sub": sub, "aud": resource, "exp": time.Now().Add(time.Hour).Unix()})
}

// TestTokenExchangeExpiry: an exchanged token is reused only until Skew before its expiry.
func TestTokenExchangeExpiry(t *testing.T) {
	as := startGoAS(t)
	k := as.key(t, "k1", true)
	te := startTokenEndpoint(t, 20) // expires within the default 30 s skew: never reused
	resource := exchangeServer(t, as, te, nil)
	tok := as.tokenFor(t, k, "k1", resource)
	te.allow(tok)
	cs := connect(t, resource, tok)
	a, b := callExchange(t, cs), callExchange(t, cs)
	if a.Err != "" || b.Err != "" || a == b || te.calls.Load() != 2 {
		t.Fatalf("%+v then %+v after %d exchanges: a token about to expire must not be reused", a, b, te.calls.Load())
	}
}

// TestTokenExchangeRefused: the authorization server's refusals reach the handler as errors that say what
// went wrong and how to fix it: an inbound token it does not accept (invalid_grant), wrong client
// credentials (invalid_client); and an Exchanger configured for another issuer does not send the token at
// all. (invalid_scope: TestExchangerErrors.)
func TestTokenExchangeRefused(t *testing.T) {
	as := startGoAS(t)
	k := as.key(t, "k1", true)
	for _, c := range []struct {
		name  string
		edit  func(*auth.ExchangeConfig)
		allow bool
		want  string
		calls int64
	}{
		{"invalid_grant", nil, false, "invalid_grant (refused by the test); the caller's token was not accepted for exchange", 1},
		{"invalid_client", func(c *auth.ExchangeConfig) { c.ClientSecret = "wrong" }, true, "invalid_client (refused by the test); check ExchangeConfig.ClientID and ClientSecret", 1},
		{"another issuer", func(c *auth.ExchangeConfig) { c.Issuer = "https://other.example.com" }, true, "is not sent to another issuer", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			te := startTokenEndpoint(t, 3600)
			resource := exchangeServer(t, as, te, c.edit)
			tok := as.tokenFor(t, k, "k1", resource)
			if c.allow {
				te.allow(tok)
			}
			got := callExchange(t, connect(t, resource, tok))
			if got.Token != "" || !strings.Contains(got.Err, c.want) || te.calls.Load() != c.calls {
				t.Fatalf("got %+v after %d requests, want an error containing %q after %d", got, te.calls.Load(), c.want, c.calls)
			}
		})
	}
}

// TestExchangerErrors: Token outside a request the resource server accepted fails with ErrNoInboundToken;
// a refusal is an *ExchangeError (ErrExchangeRefused); an unreachable endpoint is ErrUnavailable.
func TestExchangerErrors(t *testing.T) {
	as := startGoAS(t)
	k := as.key(t, "k1", true)
	te := startTokenEndpoint(t, 3600)
	ex, err := auth.NewExchanger(auth.ExchangeConfig{Issuer: as.hs.URL, TokenURL: te.hs.URL, ClientID: exchangeClient,
		ClientSecret: exchangeSecret, Audience: upstreamAudience, Resource: upstreamAudience + "/api"})
	if err != nil {
		t.Fatal(err)
	}
	// A principal put in by hand (a local loop, a test) carries no token: nothing to exchange.
	ctx := wink.WithPrincipal(context.Background(), &wink.Principal{Subject: "erin", Issuer: as.hs.URL})
	if _, err := ex.Token(ctx, "orders:read"); !errors.Is(err, auth.ErrNoInboundToken) || te.calls.Load() != 0 {
		t.Fatalf("no inbound token: %v (%d requests)", err, te.calls.Load())
	}
	// Through Server.Handler, around any handler.
	srv, err := auth.New(auth.Config{Issuer: as.hs.URL, Resource: "https://mcp.example.com/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	tok := as.tokenFor(t, k, "k1", "https://mcp.example.com/mcp")
	var got []error
	h := srv.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := ex.Token(r.Context(), "orders:delete")
		got = append(got, err)
		te.allow(tok)
		_, err = ex.Token(r.Context(), "orders:delete")
		got = append(got, err)
		_, err = ex.Token(r.Context(), "orders:read")
		got = append(got, err)
	}), nil)
	req := httptest.NewRequest(http.MethodPost, "https://mcp.example.com/mcp", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+tok)
	h.ServeHTTP(httptest.NewRecorder(), req)
	var ee *auth.ExchangeError
	if len(got) != 3 || !errors.As(got[0], &ee) || ee.Code != "invalid_grant" || !errors.Is(got[0], auth.ErrExchangeRefused) {
		t.Fatalf("unknown subject token: %v", got)
	}
	if !errors.As(got[1], &ee) || ee.Code != "invalid_scope" || !strings.Contains(got[1].Error(), "ask for scopes the upstream API grants") {
		t.Fatalf("scope not granted: %v", got[1])
	}
	if got[2] != nil {
		t.Fatalf("orders:read: %v", got[2])
	}
	te.hs.Close()
	h2 := srv.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := ex.Token(r.Context(), "orders:write")
		got = append(got, err)
	}), nil)
	h2.ServeHTTP(httptest.NewRecorder(), req.Clone(context.Background()))
	if !errors.Is(got[3], auth.ErrUnavailable) {
		t.Fatalf("endpoint down: %v", got[3])
	}
}

// principalTool answers everything a handler can learn of its caller through the public API: the
// principal's fields and claims, printed, and the ToolContext printed.
var principalTool = wink.NewTool(wink.Spec{
	Name:         "principal_dump",
	Description:  "Dumps the caller.",
	ParamsSchema: []byte(`{"type":"object","properties":{},"additionalProperties":false}`),
	ResultSchema: []byte(`{"type":"object","properties":{"token":{"type":"string"},"err":{"type":"string"}},"required":["token","err"],"additionalProperties":false}`),
	Signature:    "principal_dump() -> {token: str, err: str}",
	ReadOnly:     true,
}, &wink.Funcs[wink.NoParams, upstreamResult]{
	Decode:       wink.DecodeNoParams,
	EncodeParams: wink.EncodeNoParams,
	EncodeResult: func(dst []byte, v *upstreamResult) []byte {
		dst = strconv.AppendQuote(append(dst, `{"token":`...), v.Token)
		return append(strconv.AppendQuote(append(dst, `,"err":`...), v.Err), '}')
	},
	Handler: func(tc *wink.ToolContext, _ wink.NoParams) (wink.ToolResult[upstreamResult], error) {
		p := tc.Principal()
		claims, _ := json.Marshal(p.Claims)
		dump := fmt.Sprintf("%+v %#v %s %+v %v", *p, *p, claims, tc, tc.Value(nil))
		return wink.OK(upstreamResult{Token: dump}, "dumped"), nil
	},
})

// TestHandlerCannotReadInboundToken: whatever a handler prints of its principal (fields, claims) and of
// its ToolContext holds neither the inbound token nor its signature, although the Exchanger of the same
// call can exchange it.
func TestHandlerCannotReadInboundToken(t *testing.T) {
	as := startGoAS(t)
	k := as.key(t, "k1", true)
	te := startTokenEndpoint(t, 3600)
	resource := exchangeServer(t, as, te, nil)
	tok := as.tokenFor(t, k, "k1", resource)
	te.allow(tok)
	cs := connect(t, resource, tok)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "principal_dump", Arguments: json.RawMessage(`{}`)})
	if err != nil || res.IsError {
		t.Fatalf("principal_dump: %v %+v", err, res)
	}
	b, _ := json.Marshal(res)
	sig := tok[strings.LastIndexByte(tok, '.')+1:]
	if !strings.Contains(string(b), "erin") {
		t.Fatalf("the dump %s does not even name the caller", b)
	}
	if strings.Contains(string(b), sig) || strings.Contains(string(b), tok) {
		t.Fatalf("a handler can read the inbound token: %s", b)
	}
	if got := callExchange(t, cs); got.Err != "" || got.Token == "" {
		t.Fatalf("the exchanger of the same caller: %+v", got)
	}
}
