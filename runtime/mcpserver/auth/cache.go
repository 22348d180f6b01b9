package auth

import (
	"context"
	"crypto/sha256"
	"sync"
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// The verified-token cache. A JWT's signature check costs a few hundred microseconds and a hundred
// allocations, on every HTTP request of a client that sends the same token for an hour; the cache
// answers a token verified before with the principal it verified to.
//
//   - Keyed by the SHA-256 of the token: the cache holds no token, and a token differing in one byte
//     is another key, verified in full.
//   - Bounded: at most Config.TokenCacheSize entries (default DefaultTokenCacheSize; negative: no
//     cache). When full, expired entries are dropped, then arbitrary ones: a token pushed out is
//     verified again, never accepted on less.
//   - Valid until the token's exp and never past it: an entry is used only while now < exp, on
//     Config.Now (the verifier would still accept the token within ClockSkew after exp; the cache
//     does not stretch it).
//   - Tied to the key set that verified it: an entry is used only while the issuer's keys it was
//     verified with are still the current set and younger than MaxKeyAge. A refresh of the keys (a
//     rotation, an unknown kid, MaxKeyAge passed) drops every entry's standing: each token is verified
//     again against the new set, so a key the issuer withdrew stops vouching for its tokens as soon as
//     the server has fetched the keys without it (as without the cache).
//   - Only JWTs: an introspected (opaque) token is asked about on every request, so the
//     authorization server's revocation of it is seen at once (RFC 7662 §4 leaves caching to the
//     resource server; this one trades the round trip for that).
//   - Only successes: a refused token is checked again each time (so that a token refused as not yet
//     valid is accepted once it is).

// DefaultTokenCacheSize is the number of verified tokens a Server keeps by default.
const DefaultTokenCacheSize = 4096

type cacheEntry struct {
	p    *wink.Principal
	exp  time.Time
	keys *keySet
}

type tokenCache struct {
	mu  sync.RWMutex
	max int
	m   map[[32]byte]cacheEntry
}

func newTokenCache(size int) *tokenCache {
	if size < 0 {
		return nil
	}
	if size == 0 {
		size = DefaultTokenCacheSize
	}
	return &tokenCache{max: size, m: make(map[[32]byte]cacheEntry)}
}

// get returns the principal of the token hashed to key when it was verified with keys (the current
// set, not older than maxAge) and has not expired at now.
func (c *tokenCache) get(key [32]byte, keys *keySet, now time.Time, maxAge time.Duration) (*wink.Principal, time.Time, bool) {
	c.mu.RLock()
	e, ok := c.m[key]
	c.mu.RUnlock()
	if !ok || e.keys != keys || keys == nil || now.Sub(keys.fetched) >= maxAge || !now.Before(e.exp) {
		return nil, time.Time{}, false
	}
	return e.p, e.exp, true
}

func (c *tokenCache) put(key [32]byte, e cacheEntry, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok && len(c.m) >= c.max {
		for k, o := range c.m {
			if !now.Before(o.exp) {
				delete(c.m, k)
			}
		}
		for k := range c.m {
			if len(c.m) < c.max {
				break
			}
			delete(c.m, k)
		}
	}
	c.m[key] = e
}

// verifyCached is verifyJWT through the cache.
func (s *Server) verifyCached(ctx context.Context, token string) (*wink.Principal, time.Time, error) {
	if s.cache == nil {
		return s.verifyJWT(ctx, token)
	}
	key := sha256.Sum256([]byte(token))
	before := s.keys.cur.Load()
	if p, exp, ok := s.cache.get(key, before, s.cfg.Now(), s.cfg.MaxKeyAge); ok {
		return p, exp, nil
	}
	p, exp, err := s.verifyJWT(ctx, token)
	// Kept only when the key set did not change while the token was verified: the entry is then
	// tied to the set that verified it.
	if err == nil && before != nil && s.keys.cur.Load() == before {
		p.Expires = exp
		s.cache.put(key, cacheEntry{p: p, exp: exp, keys: before}, s.cfg.Now())
	}
	return p, exp, err
}
