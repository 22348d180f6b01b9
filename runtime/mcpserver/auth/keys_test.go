package auth_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
)

// goAS is an authorization server built from go-jose's primitives in-process: RFC 8414 metadata and a JWKS
// whose keys the test changes, counting the JWKS fetches.
type goAS struct {
	hs      *httptest.Server
	mu      sync.Mutex
	keys    map[string]*rsa.PrivateKey
	fetches atomic.Int64
}

func startGoAS(t testing.TB) *goAS {
	as := &goAS{keys: map[string]*rsa.PrivateKey{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": as.hs.URL, "jwks_uri": as.hs.URL + "/jwks"})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		as.fetches.Add(1)
		as.mu.Lock()
		var set jose.JSONWebKeySet
		for kid, k := range as.keys {
			set.Keys = append(set.Keys, jose.JSONWebKey{Key: &k.PublicKey, KeyID: kid, Algorithm: "RS256", Use: "sig"})
		}
		as.mu.Unlock()
		json.NewEncoder(w).Encode(set)
	})
	as.hs = httptest.NewServer(mux)
	t.Cleanup(as.hs.Close)
	return as
}

// key makes (and, when publish, publishes) an RSA key named kid.
func (as *goAS) key(t testing.TB, kid string, publish bool) *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	if publish {
		as.publish(kid, k)
	}
	return k
}

func (as *goAS) publish(kid string, k *rsa.PrivateKey) {
	as.mu.Lock()
	as.keys[kid] = k
	as.mu.Unlock()
}

// tokenFor signs a token for resource with k, valid for ten hours.
func (as *goAS) tokenFor(t testing.TB, k *rsa.PrivateKey, kid, resource string) string {
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: k}, (&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", kid))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tok, err := jwt.Signed(sig).Claims(jwt.Claims{Issuer: as.hs.URL, Subject: "erin", Audience: jwt.Audience{resource},
		Expiry: jwt.NewNumericDate(now.Add(10 * time.Hour)), IssuedAt: jwt.NewNumericDate(now)}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestUnknownKidRefreshBound: tokens naming a kid the JWKS lacks make the server fetch the JWKS again at
// most once per MinRefresh, however many arrive (here 40 at once); once MinRefresh has passed, a key
// published meanwhile (a rotation) is found.
func TestUnknownKidRefreshBound(t *testing.T) {
	as := startGoAS(t)
	const resource = "https://mcp.example.com/mcp"
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	s, err := auth.New(auth.Config{Issuer: as.hs.URL, Resource: resource, MinRefresh: time.Minute,
		Now: func() time.Time { return time.Unix(0, clock.Load()) }})
	if err != nil {
		t.Fatal(err)
	}
	k1 := as.key(t, "k1", true)
	ctx := context.Background()
	p, _, err := s.Verify(ctx, as.tokenFor(t, k1, "k1", resource))
	if err != nil || p.Subject != "erin" {
		t.Fatalf("Verify(k1) = %+v, %v", p, err)
	}
	k2 := as.key(t, "k2", false)
	forged := as.tokenFor(t, k2, "k2", resource)
	burst := func() {
		var wg sync.WaitGroup
		for range 40 {
			wg.Go(func() {
				if _, _, err := s.Verify(ctx, forged); !errors.Is(err, auth.ErrInvalidToken) || !strings.Contains(err.Error(), `"k2"`) {
					t.Errorf("Verify(unknown kid) = %v, want ErrInvalidToken naming k2", err)
				}
			})
		}
		wg.Wait()
	}
	burst() // within MinRefresh of the first fetch: none
	if n := as.fetches.Load(); n != 1 {
		t.Fatalf("%d JWKS fetches for one known token and 40 of an unknown kid within MinRefresh, want 1", n)
	}
	clock.Add(int64(time.Minute + time.Second))
	burst() // after it: one for all 40
	if n := as.fetches.Load(); n != 2 {
		t.Fatalf("%d JWKS fetches after 40 tokens of an unknown kid past MinRefresh, want 2", n)
	}
	as.publish("k2", k2) // the rotation
	if _, _, err := s.Verify(ctx, forged); err == nil {
		t.Fatalf("a refresh within MinRefresh of the last one happened")
	}
	clock.Add(int64(time.Minute + time.Second))
	if _, _, err := s.Verify(ctx, forged); err != nil {
		t.Fatalf("after MinRefresh, the rotated key's token: %v", err)
	}
	if n := as.fetches.Load(); n != 3 {
		t.Fatalf("%d JWKS fetches, want 3", n)
	}
	// Known keys are not fetched again until MaxKeyAge.
	for range 10 {
		if _, _, err := s.Verify(ctx, as.tokenFor(t, k1, "k1", resource)); err != nil {
			t.Fatal(err)
		}
	}
	if n := as.fetches.Load(); n != 3 {
		t.Fatalf("%d JWKS fetches after known-key tokens, want 3", n)
	}
}

// TestAuthorizationServerDown: when the keys cannot be fetched, the token is neither accepted nor called
// invalid: Verify says ErrUnavailable, and the handler answers 503 with Retry-After.
func TestAuthorizationServerDown(t *testing.T) {
	as := startGoAS(t)
	k1 := as.key(t, "k1", true)
	const resource = "https://mcp.example.com/mcp"
	tok := as.tokenFor(t, k1, "k1", resource)
	issuer := as.hs.URL
	as.hs.Close()
	s, err := auth.New(auth.Config{Issuer: issuer, Resource: resource, FetchTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Verify(context.Background(), tok); !errors.Is(err, auth.ErrUnavailable) || errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("Verify with the server down = %v, want ErrUnavailable", err)
	}
	h := s.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Error("the request reached the handler") }), nil)
	req := httptest.NewRequest(http.MethodPost, resource, strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer "+tok)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 503 || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("status %d, Retry-After %q; want 503 with Retry-After", rec.Code, rec.Header().Get("Retry-After"))
	}
}

// TestConfigRefused: New refuses a config that would weaken verification.
func TestConfigRefused(t *testing.T) {
	for _, c := range []struct {
		cfg  auth.Config
		want string
	}{
		{auth.Config{Resource: "https://r.example.com"}, "Issuer is required"},
		{auth.Config{Issuer: "https://as.example.com"}, "Resource is required"},
		{auth.Config{Issuer: "http://as.example.com", Resource: "https://r.example.com"}, "loopback"},
		{auth.Config{Issuer: "https://as.example.com", Resource: "https://r.example.com", Algorithms: []string{"HS256"}}, "asymmetric"},
		{auth.Config{Issuer: "https://as.example.com", Resource: "https://r.example.com", Algorithms: []string{"none"}}, "asymmetric"},
		{auth.Config{Issuer: "https://as.example.com", Resource: "https://r.example.com", ClockSkew: time.Hour}, "ClockSkew"},
		{auth.Config{Issuer: "https://as.example.com", Resource: "https://r.example.com#x"}, "fragment"},
	} {
		if _, err := auth.New(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, want an error about %s", c.cfg, err, c.want)
		}
	}
}

// BenchmarkVerify: one RS256 access token verified with cached keys (signature, claims, principal).
func BenchmarkVerify(b *testing.B) {
	as := startGoAS(b)
	const resource = "https://mcp.example.com/mcp"
	tok := as.tokenFor(b, as.key(b, "k1", true), "k1", resource)
	for _, c := range []struct {
		name string
		size int
	}{{"uncached", -1}, {"cached", 0}} {
		b.Run(c.name, func(b *testing.B) {
			s, err := auth.New(auth.Config{Issuer: as.hs.URL, Resource: resource, TokenCacheSize: c.size})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			for range 2 { // the first fetches the keys, the second is cached
				if _, _, err := s.Verify(ctx, tok); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := s.Verify(ctx, tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
