package auth

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// maxDocBytes bounds every document read from the authorization server.
const maxDocBytes = 1 << 20

// asMetadata is what is read of the authorization server's metadata (RFC
// 8414, or OpenID Connect discovery).
type asMetadata struct {
	Issuer                string `json:"issuer"`
	JWKSURI               string `json:"jwks_uri"`
	IntrospectionEndpoint string `json:"introspection_endpoint"`
	TokenEndpoint         string `json:"token_endpoint"`
}

// discovery holds the issuer's metadata once fetched. A failed fetch is
// retried at most once per MinRefresh.
type discovery struct {
	s       *Server
	mu      sync.Mutex
	md      *asMetadata
	lastTry time.Time
	lastErr error
}

// get returns the issuer's metadata, fetching it the first time.
func (d *discovery) get(ctx context.Context) (*asMetadata, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.md != nil {
		return d.md, nil
	}
	now := d.s.cfg.Now()
	if !d.lastTry.IsZero() && now.Sub(d.lastTry) < d.s.cfg.MinRefresh && d.lastErr != nil {
		return nil, d.lastErr
	}
	d.lastTry = now
	md, err := d.fetch(ctx)
	if err != nil {
		d.lastErr = unavailable("discovering the metadata of issuer "+d.s.cfg.Issuer, err)
		return nil, d.lastErr
	}
	d.md, d.lastErr = md, nil
	return md, nil
}

// fetch tries the RFC 8414 location, then the OpenID Connect one. The
// document's issuer must be Config.Issuer exactly (RFC 8414 §3.3).
func (d *discovery) fetch(ctx context.Context) (*asMetadata, error) {
	md, loc, err := fetchMetadata(ctx, d.s.cfg.Issuer, d.s.getJSON)
	if err != nil {
		return nil, err
	}
	if md.JWKSURI != "" {
		if err := checkURL(md.JWKSURI); err != nil {
			return nil, errors.New(loc + ": jwks_uri: " + err.Error())
		}
	}
	return md, nil
}

// fetchMetadata reads the metadata of issuer iss with get: the RFC 8414 location first, then the OpenID
// Connect one; loc is where it was found. The document's issuer must be iss exactly (RFC 8414 §3.3).
func fetchMetadata(ctx context.Context, iss string, get func(ctx context.Context, loc string, v any) (int, error)) (md *asMetadata, loc string, err error) {
	u, err := url.Parse(iss)
	if err != nil {
		return nil, "", err
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	origin := u.Scheme + "://" + u.Host
	var errs []error
	for _, loc := range []string{
		origin + "/.well-known/oauth-authorization-server" + path,          // RFC 8414 §3.1
		strings.TrimSuffix(iss, "/") + "/.well-known/openid-configuration", // OpenID Connect Discovery §4
	} {
		var md asMetadata
		status, err := get(ctx, loc, &md)
		if err != nil {
			errs = append(errs, err)
			if status >= 400 && status < 500 {
				continue // not served here: try the next location
			}
			return nil, "", errors.Join(errs...)
		}
		if md.Issuer != iss {
			return nil, "", errors.New(loc + " names issuer " + strconv.Quote(md.Issuer) + ", not " + strconv.Quote(iss))
		}
		return &md, loc, nil
	}
	return nil, "", errors.Join(errs...)
}

// getJSON GETs loc into v, bounded by FetchTimeout and maxDocBytes; status
// is the response's status code (0 when there was none).
func (s *Server) getJSON(ctx context.Context, loc string, v any) (status int, err error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/json")
	return s.do(req, v)
}

// do sends req and decodes a 200 response's JSON body into v.
func (s *Server) do(req *http.Request, v any) (int, error) { return doJSON(s.cfg.HTTPClient, req, v) }

// doJSON sends req with c and decodes a 200 response's JSON body into v, bounded by maxDocBytes.
func doJSON(c *http.Client, req *http.Request, v any) (int, error) {
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocBytes+1))
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, errors.New(req.URL.String() + ": " + resp.Status)
	}
	if len(body) > maxDocBytes {
		return resp.StatusCode, errors.New(req.URL.String() + ": the document exceeds 1 MiB")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return resp.StatusCode, errors.New(req.URL.String() + ": " + err.Error())
	}
	return resp.StatusCode, nil
}

// keySet is one fetched JWKS.
type keySet struct {
	set     jose.JSONWebKeySet
	fetched time.Time
}

// keyCache holds the issuer's signing keys. Lookups of known keys read the
// current set without a lock; a refresh (keys missing, stale, or an unknown
// kid) is made by one caller at a time, at most once per MinRefresh.
type keyCache struct {
	s       *Server
	cur     atomic.Pointer[keySet]
	mu      sync.Mutex // serializes refreshes
	lastTry time.Time  // under mu
	lastErr error      // under mu: the last refresh's error
	fetches atomic.Int64
}

// lookup returns the keys that may have signed a token naming kid ("": any
// signing key).
func (c *keyCache) lookup(ctx context.Context, kid string) ([]jose.JSONWebKey, error) {
	ks := c.cur.Load()
	if ks != nil && c.s.cfg.Now().Sub(ks.fetched) < c.s.cfg.MaxKeyAge {
		if keys := ks.find(kid); len(keys) > 0 {
			return keys, nil
		}
	}
	ks, err := c.refresh(ctx, ks)
	if ks == nil {
		return nil, err
	}
	keys := ks.find(kid)
	if len(keys) == 0 {
		if kid == "" {
			return nil, invalid("the issuer publishes no signing key")
		}
		return nil, invalid("the token is signed with key " + strconv.Quote(kid) + ", which the issuer does not publish")
	}
	return keys, nil
}

// refresh fetches the JWKS unless another caller already replaced seen, or
// the last attempt was less than MinRefresh ago. It returns the newest set
// it has (seen when the fetch failed or was not allowed), and the fetch's
// error.
func (c *keyCache) refresh(ctx context.Context, seen *keySet) (*keySet, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur := c.cur.Load(); cur != seen {
		return cur, nil
	}
	now := c.s.cfg.Now()
	if !c.lastTry.IsZero() && now.Sub(c.lastTry) < c.s.cfg.MinRefresh {
		return seen, c.lastErr
	}
	c.lastTry = now
	ks, err := c.fetch(ctx)
	if err != nil {
		c.lastErr = err
		return seen, err
	}
	c.lastErr = nil
	c.cur.Store(ks)
	return ks, nil
}

// fetch reads the JWKS named by the issuer's metadata.
func (c *keyCache) fetch(ctx context.Context) (*keySet, error) {
	md, err := c.s.disc.get(ctx)
	if err != nil {
		return nil, err
	}
	if md.JWKSURI == "" {
		return nil, unavailable("issuer "+c.s.cfg.Issuer, errors.New("its metadata has no jwks_uri"))
	}
	c.fetches.Add(1)
	ks := &keySet{fetched: c.s.cfg.Now()}
	if _, err := c.s.getJSON(ctx, md.JWKSURI, &ks.set); err != nil {
		return nil, unavailable("fetching the issuer's keys", err)
	}
	return ks, nil
}

// find returns the public signing keys named kid (every one for "").
func (ks *keySet) find(kid string) []jose.JSONWebKey {
	var keys []jose.JSONWebKey
	for _, k := range ks.set.Keys {
		if (kid == "" || k.KeyID == kid) && (k.Use == "" || k.Use == "sig") && k.IsPublic() && k.Valid() {
			keys = append(keys, k)
		}
	}
	return keys
}
