package auth_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/mcpserver/auth"
)

// TestTokenCache: a token verified once is answered from the cache (the same principal) until its exp,
// never past it (at exp, within the clock skew, it is verified in full again; past the skew it is
// refused as expired), and only while the key set that verified it is current: once the issuer has
// withdrawn its key and the server has fetched the keys without it, the cached token is refused.
func TestTokenCache(t *testing.T) {
	as := startGoAS(t)
	const resource = "https://mcp.example.com/mcp"
	var offset atomic.Int64
	s, err := auth.New(auth.Config{Issuer: as.hs.URL, Resource: resource, MinRefresh: time.Millisecond, MaxKeyAge: 100 * time.Hour,
		Now: func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	k1 := as.key(t, "k1", true)
	tok := as.tokenFor(t, k1, "k1", resource)        // expires in ten hours
	if _, _, err := s.Verify(ctx, tok); err != nil { // fetches the keys: not cached (no key set was current before)
		t.Fatal(err)
	}
	p1, exp, err := s.Verify(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	if !p1.Expires.Equal(exp) {
		t.Errorf("principal expires %v, token %v", p1.Expires, exp)
	}
	if p, _, err := s.Verify(ctx, tok); err != nil || p != p1 {
		t.Fatalf("second verification: %v, same principal %v; want the cached one", err, p == p1)
	}
	offset.Store(int64(10*time.Hour - 5*time.Second))
	if p, _, err := s.Verify(ctx, tok); err != nil || p != p1 {
		t.Fatalf("5 s before exp: %v, cached %v", err, p == p1)
	}
	offset.Store(int64(10*time.Hour + 5*time.Second)) // past exp, within the 30 s skew
	if p, _, err := s.Verify(ctx, tok); err != nil || p == p1 {
		t.Fatalf("past exp within the skew: %v, cached %v; want verified again (and accepted)", err, p == p1)
	}
	offset.Store(int64(10*time.Hour + time.Minute))
	if _, _, err := s.Verify(ctx, tok); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("past exp and the skew: %v, want refused", err)
	}

	// The issuer withdraws k1 and signs with k2; a k2 token makes the server fetch the keys.
	offset.Store(0)
	tok1 := as.tokenFor(t, k1, "k1", resource)
	if _, _, err := s.Verify(ctx, tok1); err != nil {
		t.Fatal(err)
	}
	as.mu.Lock()
	delete(as.keys, "k1")
	as.mu.Unlock()
	k2 := as.key(t, "k2", true)
	time.Sleep(5 * time.Millisecond) // MinRefresh
	if _, _, err := s.Verify(ctx, as.tokenFor(t, k2, "k2", resource)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Verify(ctx, tok1); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("a cached token whose key was withdrawn: %v, want refused", err)
	}
}

// TestTokenCacheBounded: the cache never holds more than TokenCacheSize tokens, and a token pushed out
// is verified again, not refused.
func TestTokenCacheBounded(t *testing.T) {
	as := startGoAS(t)
	const resource = "https://mcp.example.com/mcp"
	s, err := auth.New(auth.Config{Issuer: as.hs.URL, Resource: resource, TokenCacheSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	k := as.key(t, "k1", true)
	var toks []string
	for range 5 {
		toks = append(toks, as.tokenFor(t, k, "k1", resource))
		time.Sleep(1100 * time.Millisecond) // iat differs: another token
	}
	for _, tok := range append(toks, toks...) {
		if _, _, err := s.Verify(context.Background(), tok); err != nil {
			t.Fatal(err)
		}
	}
	if n := auth.CachedTokens(s); n != 2 {
		t.Fatalf("%d tokens cached, want the bound 2", n)
	}
}
