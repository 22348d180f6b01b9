package auth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/winkgen/wink/runtime/wink"
)

// verifyJWT verifies a JWT access token with the issuer's keys.
func (s *Server) verifyJWT(ctx context.Context, token string) (*wink.Principal, time.Time, error) {
	// The allow-list refuses alg "none" and the HMAC algorithms before any key is chosen.
	tok, err := jwt.ParseSigned(token, s.algs)
	if err != nil {
		return nil, time.Time{}, &tokenError{msg: "the token is not a JWT signed with an accepted algorithm: " + err.Error(), cause: err}
	}
	if len(tok.Headers) != 1 {
		return nil, time.Time{}, invalid("the token must have exactly one signature")
	}
	h := tok.Headers[0]
	if typ, _ := h.ExtraHeaders["typ"].(string); typ != "" && !strings.EqualFold(typ, "JWT") &&
		!strings.EqualFold(typ, "at+jwt") && !strings.EqualFold(typ, "application/at+jwt") {
		return nil, time.Time{}, invalid("the token's typ " + typ + " is not an access token's")
	}
	keys, err := s.keys.lookup(ctx, h.KeyID)
	if err != nil {
		return nil, time.Time{}, err
	}
	var std jwt.Claims
	var all map[string]any
	verified := false
	for _, k := range keys {
		if k.Algorithm != "" && k.Algorithm != h.Algorithm {
			continue // the key is published for another algorithm
		}
		std, all = jwt.Claims{}, nil
		if tok.Claims(k.Key, &std, &all) == nil {
			verified = true
			break
		}
	}
	if !verified {
		return nil, time.Time{}, invalid("the token's signature does not verify with the issuer's keys")
	}
	if std.Issuer != s.cfg.Issuer {
		return nil, time.Time{}, invalid("the token was issued by " + std.Issuer + ", not by " + s.cfg.Issuer)
	}
	if std.Expiry == nil {
		return nil, time.Time{}, invalid("the token has no expiry (exp)")
	}
	exp := std.Expiry.Time()
	var aud []string
	if !s.cfg.AnyAudience {
		aud = []string{s.cfg.Resource}
	}
	if err := std.ValidateWithLeeway(jwt.Expected{AnyAudience: aud, Time: s.cfg.Now()}, s.cfg.ClockSkew); err != nil {
		return nil, time.Time{}, &tokenError{msg: claimsMessage(err, s.cfg.Resource), cause: err}
	}
	return principal(all), exp, nil
}

// claimsMessage is the error_description of a claims check that failed.
func claimsMessage(err error, resource string) string {
	switch {
	case errors.Is(err, jwt.ErrExpired):
		return "the token has expired"
	case errors.Is(err, jwt.ErrNotValidYet):
		return "the token is not valid yet (nbf)"
	case errors.Is(err, jwt.ErrIssuedInTheFuture):
		return "the token was issued in the future (iat)"
	case errors.Is(err, jwt.ErrInvalidAudience):
		return "the token was not issued for this resource (its aud does not contain " + resource + ")"
	}
	return "the token's claims are not valid: " + err.Error()
}

// principal makes the principal of verified claims.
func principal(claims map[string]any) *wink.Principal {
	p := &wink.Principal{Claims: claims}
	p.Subject, _ = claims["sub"].(string)
	p.Issuer, _ = claims["iss"].(string)
	if p.ClientID, _ = claims["client_id"].(string); p.ClientID == "" {
		p.ClientID, _ = claims["azp"].(string)
	}
	add := func(s string) {
		if wink.ValidScope(s) && !slices.Contains(p.Scopes, s) {
			p.Scopes = append(p.Scopes, s)
		}
	}
	switch v := claims["scope"].(type) { // RFC 9068 §2.2.3, RFC 7662: space-separated
	case string:
		for _, s := range strings.Fields(v) {
			add(s)
		}
	}
	switch v := claims["scp"].(type) { // the array some authorization servers issue
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok {
				add(s)
			}
		}
	case string:
		for _, s := range strings.Fields(v) {
			add(s)
		}
	}
	return p
}

// introspect verifies an opaque token by RFC 7662 introspection.
func (s *Server) introspect(ctx context.Context, token string) (*wink.Principal, time.Time, error) {
	in := s.cfg.Introspection
	endpoint := in.URL
	if endpoint == "" {
		md, err := s.disc.get(ctx)
		if err != nil {
			return nil, time.Time{}, err
		}
		if endpoint = md.IntrospectionEndpoint; endpoint == "" {
			return nil, time.Time{}, unavailable("issuer "+s.cfg.Issuer, errors.New("its metadata has no introspection_endpoint; set Introspection.URL"))
		}
	}
	if err := checkURL(endpoint); err != nil {
		return nil, time.Time{}, unavailable("introspection endpoint", err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.FetchTimeout)
	defer cancel()
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, time.Time{}, unavailable("introspection", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if in.ClientID != "" {
		req.SetBasicAuth(url.QueryEscape(in.ClientID), url.QueryEscape(in.ClientSecret)) // RFC 6749 §2.3.1
	}
	var claims map[string]any
	if _, err := s.do(req, &claims); err != nil {
		return nil, time.Time{}, unavailable("introspecting the token", err)
	}
	if active, _ := claims["active"].(bool); !active {
		return nil, time.Time{}, invalid("the token is not active")
	}
	if iss, ok := claims["iss"].(string); ok && iss != s.cfg.Issuer {
		return nil, time.Time{}, invalid("the token was issued by " + iss + ", not by " + s.cfg.Issuer)
	}
	if !s.cfg.AnyAudience && !audienceHas(claims["aud"], s.cfg.Resource) {
		return nil, time.Time{}, invalid("the token was not issued for this resource (its aud does not contain " + s.cfg.Resource + ")")
	}
	now, skew := s.cfg.Now(), s.cfg.ClockSkew
	var exp time.Time
	if v, ok := numericDate(claims["exp"]); ok {
		if exp = v; now.Add(-skew).After(exp) {
			return nil, time.Time{}, invalid("the token has expired")
		}
	}
	if v, ok := numericDate(claims["nbf"]); ok && now.Add(skew).Before(v) {
		return nil, time.Time{}, invalid("the token is not valid yet (nbf)")
	}
	if claims["iss"] == nil {
		claims["iss"] = s.cfg.Issuer
	}
	return principal(claims), exp, nil
}

// audienceHas reports whether aud (a string or an array of strings) holds
// resource.
func audienceHas(aud any, resource string) bool {
	switch v := aud.(type) {
	case string:
		return v == resource
	case []any:
		for _, e := range v {
			if e == resource {
				return true
			}
		}
	}
	return false
}

// numericDate reads a JSON NumericDate.
func numericDate(v any) (time.Time, bool) {
	f, ok := v.(float64)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(int64(f), 0), true
}
