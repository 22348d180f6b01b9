package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/wink"
)

// inRequest runs f with the context of a request srv accepted for token (what a tool call's context
// carries), and waits for it.
func inRequest(t *testing.T, srv *auth.Server, token string, f func(ctx context.Context)) {
	t.Helper()
	ran := false
	h := srv.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ran = true; f(r.Context()) }), nil)
	req := httptest.NewRequest(http.MethodPost, "https://mcp.example.com/mcp", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if !ran {
		t.Fatalf("the resource server refused the token: %d %s", rec.Code, rec.Body)
	}
}

// gatedEndpoint puts a gate before te: the first exchange request waits until a second one arrives (no
// single flight: the test then fails on the count), its client goes away, or 500 ms pass (a pass does not
// depend on this: with single flight every other caller waits for the first exchange or finds its token).
func gatedEndpoint(te *tokenEndpoint) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	second := make(chan struct{})
	var once sync.Once
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1:
			select {
			case <-second:
			case <-r.Context().Done():
				return
			case <-time.After(500 * time.Millisecond):
			}
		case 2:
			once.Do(func() { close(second) })
		}
		te.hs.Config.Handler.ServeHTTP(w, r)
	}))
	return hs, &n
}

// TestTokenExchangeSingleFlight: 32 goroutines acting for one caller ask for the same scopes at once;
// the token endpoint (a counting real server) gets one request and every goroutine gets its token. A
// caller that gives up while the others wait does not fail them: they ask again.
func TestTokenExchangeSingleFlight(t *testing.T) {
	as := startGoAS(t)
	k := as.key(t, "k1", true)
	te := startTokenEndpoint(t, 3600)
	gate, requests := gatedEndpoint(te)
	t.Cleanup(gate.Close)
	srv, err := auth.New(auth.Config{Issuer: as.hs.URL, Resource: "https://mcp.example.com/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	tok := as.tokenFor(t, k, "k1", "https://mcp.example.com/mcp")
	te.allow(tok)
	cfg := auth.ExchangeConfig{Issuer: as.hs.URL, TokenURL: gate.URL + "/token", ClientID: exchangeClient, ClientSecret: exchangeSecret,
		Audience: upstreamAudience, Resource: upstreamAudience + "/api"}
	ex, err := auth.NewExchanger(cfg)
	if err != nil {
		t.Fatal(err)
	}
	const n = 32
	inRequest(t, srv, tok, func(ctx context.Context) {
		var wg sync.WaitGroup
		got := make([]string, n)
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				et, err := ex.Token(ctx, "orders:read")
				if errs[i] = err; err == nil {
					got[i] = et.AccessToken
				}
			})
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil || got[i] != got[0] || got[i] == "" {
				t.Fatalf("goroutine %d: %q %v; want the one token %q", i, got[i], errs[i], got[0])
			}
		}
	})
	if c := requests.Load(); c != 1 {
		t.Fatalf("%d concurrent first exchanges for one caller and scopes made %d requests, want 1", n, c)
	}

	// The first caller gives up (its context ends) while others wait: they are not failed with its error.
	gate2, requests2 := gatedEndpoint(te)
	t.Cleanup(gate2.Close)
	cfg.TokenURL = gate2.URL + "/token"
	ex2, err := auth.NewExchanger(cfg)
	if err != nil {
		t.Fatal(err)
	}
	inRequest(t, srv, tok, func(ctx context.Context) {
		leader, cancel := context.WithCancel(ctx)
		leaderDone := make(chan error, 1)
		go func() { _, err := ex2.Token(leader, "orders:read"); leaderDone <- err }()
		for requests2.Load() == 0 { // the leader's request is at the gate
			time.Sleep(time.Millisecond)
		}
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() { _, errs[i] = ex2.Token(ctx, "orders:read") })
		}
		cancel()
		if err := <-leaderDone; !errors.Is(err, context.Canceled) {
			t.Errorf("the caller that gave up: %v", err)
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("waiting caller %d failed with the leader's error: %v", i, err)
			}
		}
	})
}

// TestExchangerDiscoversTokenEndpoint: without TokenURL the token endpoint is the token_endpoint of the
// issuer's RFC 8414 metadata (at the well-known path inserted before the issuer's path), fetched once;
// metadata naming another issuer sends nothing anywhere.
func TestExchangerDiscoversTokenEndpoint(t *testing.T) {
	as := startGoAS(t)
	k := as.key(t, "k1", true)
	te := startTokenEndpoint(t, 3600)
	var fetches atomic.Int64
	var issuer, named string
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server/tenant", func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		json.NewEncoder(w).Encode(map[string]string{"issuer": named, "jwks_uri": as.hs.URL + "/jwks", "token_endpoint": te.hs.URL + "/token"})
	})
	tenant := httptest.NewServer(mux)
	t.Cleanup(tenant.Close)
	issuer = tenant.URL + "/tenant"
	named = issuer
	srv, err := auth.New(auth.Config{Issuer: issuer, Resource: "https://mcp.example.com/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	tok := sign(t, k, "k1", "RS256", issuer, map[string]any{"sub": "erin", "aud": "https://mcp.example.com/mcp", "exp": time.Now().Add(time.Hour).Unix()})
	te.allow(tok)
	ex, err := auth.NewExchanger(auth.ExchangeConfig{Issuer: issuer, ClientID: exchangeClient, ClientSecret: exchangeSecret,
		Audience: upstreamAudience, Resource: upstreamAudience + "/api"})
	if err != nil {
		t.Fatal(err)
	}
	inRequest(t, srv, tok, func(ctx context.Context) {
		before := fetches.Load()
		for _, scope := range []string{"orders:read", "orders:write"} {
			if et, err := ex.Token(ctx, scope); err != nil || !strings.HasPrefix(et.AccessToken, "upstream-") {
				t.Fatalf("%s: %v %v", scope, et, err)
			}
		}
		if got := fetches.Load() - before; got != 1 || te.calls.Load() != 2 {
			t.Errorf("metadata fetched %d times for 2 exchanges (%d requests to the endpoint), want once", got, te.calls.Load())
		}
	})
	// Metadata naming another issuer: the token endpoint it names is not trusted.
	named = "https://evil.example.com"
	ex2, err := auth.NewExchanger(auth.ExchangeConfig{Issuer: issuer, ClientID: exchangeClient, ClientSecret: exchangeSecret, Audience: upstreamAudience})
	if err != nil {
		t.Fatal(err)
	}
	calls := te.calls.Load()
	ctx := tokenContext(t, srv, tok)
	if _, err := ex2.Token(ctx, "orders:read"); !errors.Is(err, auth.ErrUnavailable) || !strings.Contains(err.Error(), `names issuer "https://evil.example.com"`) || te.calls.Load() != calls {
		t.Errorf("metadata of another issuer: %v (%d requests)", err, te.calls.Load()-calls)
	}
}

// tokenContext returns the context of a request srv accepted for token, kept past the request.
func tokenContext(t *testing.T, srv *auth.Server, token string) context.Context {
	var ctx context.Context
	inRequest(t, srv, token, func(c context.Context) { ctx = context.WithoutCancel(c) })
	return ctx
}

// TestExchangerDiscoversOIDCTokenEndpoint: oauth2-mock-server publishes OpenID Connect discovery only;
// without TokenURL the Exchanger falls back to it and sends the exchange to the mock's token endpoint,
// whose answer (it does not implement RFC 8693) reaches the caller.
func TestExchangerDiscoversOIDCTokenEndpoint(t *testing.T) {
	as := startMockAS(t)
	srv, err := auth.New(auth.Config{Issuer: as.issuer, Resource: "https://mcp.example.com/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	tok := as.token(t, 0, map[string]any{"aud": "https://mcp.example.com/mcp", "sub": "alice"})
	ex, err := auth.NewExchanger(auth.ExchangeConfig{Issuer: as.issuer, ClientID: "c", ClientSecret: "s", Audience: upstreamAudience})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ex.Token(tokenContext(t, srv, tok), "orders:read")
	t.Logf("the mock answered: %v", err)
	if err == nil || !strings.Contains(err.Error(), "token exchange at "+strings.TrimSuffix(as.issuer, "/")+"/token:") {
		t.Fatalf("exchange through the discovered endpoint: %v, want the answer of %s/token", err, as.issuer)
	}
}

// TestExchangeWithoutTheCallersToken: a principal in the context without its token (a durable run
// resumed on another worker restores the principal only) is refused with ErrNoInboundToken and a text
// saying what to do; nothing is sent.
func TestExchangeWithoutTheCallersToken(t *testing.T) {
	te := startTokenEndpoint(t, 3600)
	ex, err := auth.NewExchanger(auth.ExchangeConfig{Issuer: "https://as.example.com", TokenURL: te.hs.URL, ClientID: exchangeClient,
		ClientSecret: exchangeSecret, Audience: upstreamAudience})
	if err != nil {
		t.Fatal(err)
	}
	ctx := wink.WithPrincipal(context.Background(), &wink.Principal{Subject: "erin", Issuer: "https://as.example.com"})
	_, err = ex.Token(ctx, "orders:read")
	if !errors.Is(err, auth.ErrNoInboundToken) || te.calls.Load() != 0 {
		t.Fatalf("%v (%d requests)", err, te.calls.Load())
	}
	for _, want := range []string{`subject "erin"`, "never stored", "durable run resumed on another worker", "before the run's first checkpoint", "client-credentials"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
}
