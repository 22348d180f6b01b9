package auth

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// RFC 8693 identifiers.
const (
	grantTokenExchange  = "urn:ietf:params:oauth:grant-type:token-exchange"
	tokenTypeAccess     = "urn:ietf:params:oauth:token-type:access_token"
	defaultExchangeSkew = 30 * time.Second
)

// DefaultExchangeCacheSize bounds the exchanged tokens an Exchanger keeps
// when ExchangeConfig.CacheSize is zero.
const DefaultExchangeCacheSize = 1024

// Errors of Exchanger.Token, through errors.Is: ErrNoInboundToken when the
// context carries no token verified by a Server (stdio, a call made by hand,
// a durable run resumed in another process), ErrExchangeRefused when the
// authorization server refused the exchange (the error is an
// *ExchangeError), ErrUnavailable when it could not be asked.
var (
	ErrNoInboundToken  = errors.New("no inbound token to exchange")
	ErrExchangeRefused = errors.New("token exchange refused")
)

// ExchangeConfig configures an Exchanger: one upstream API, the
// authorization server that issues its tokens, and this server's client
// credentials there.
type ExchangeConfig struct {
	// Issuer is the authorization server's issuer identifier (required). Only
	// an inbound token this issuer issued is exchanged: a token is never sent
	// to another server's token endpoint.
	Issuer string
	// TokenURL is the issuer's token endpoint (an absolute https URL, or
	// http on a loopback host). Empty: the token_endpoint of the issuer's
	// metadata, discovered on the first Token (RFC 8414
	// /.well-known/oauth-authorization-server, then OpenID Connect
	// /.well-known/openid-configuration; the document must name Issuer).
	TokenURL string
	// ClientID and ClientSecret authenticate this server to the token
	// endpoint (HTTP Basic, RFC 6749 §2.3.1). Required.
	ClientID, ClientSecret string
	// Audience and Resource name the upstream API the exchanged tokens are
	// for (RFC 8693 audience, RFC 8707 resource); at least one is required.
	Audience string
	Resource string
	// Scopes are requested when Token is called without scopes.
	Scopes []string
	// Skew is how long before its expiry an exchanged token stops being
	// reused; default 30 s.
	Skew time.Duration
	// CacheSize bounds the exchanged tokens kept; default
	// DefaultExchangeCacheSize, negative: none kept.
	CacheSize int
	// Timeout bounds each request to the token endpoint; default 10 s.
	Timeout time.Duration
	// HTTPClient makes the requests; default a client with no redirects
	// followed (a redirect would carry the inbound token elsewhere).
	HTTPClient *http.Client
	// Now returns the current time; default time.Now.
	Now func() time.Time
}

// Exchanger obtains, by RFC 8693 token exchange, access tokens for one
// upstream API on behalf of the caller of a tool call. It is the only code
// that reads the inbound token a Server verified, and it sends it only to
// ExchangeConfig.TokenURL. Bind it as a resource of the dispatcher
// (resources.Instance) and call Token from the handler with its
// ToolContext. It is safe for concurrent use.
type Exchanger struct {
	cfg     ExchangeConfig
	mu      sync.Mutex
	cache   map[exchangeKey]exchanged // under mu
	flights map[exchangeKey]*flight   // under mu: the exchanges under way

	discMu   sync.Mutex // serializes discovery
	tokenURL string     // under discMu: ExchangeConfig.TokenURL, or the discovered one
	discTry  time.Time  // under discMu: the last failed discovery
	discErr  error      // under discMu: its error
}

// flight is one exchange under way; the callers asking for the same key meanwhile wait for it.
type flight struct {
	done       chan struct{} // closed when tok, err and gone are set
	tok        *ExchangedToken
	err        error
	leaderGone bool // the caller that made it gave up (its context ended): the others try again
}

// discoveryRetry is how long a failed discovery of the token endpoint is answered from its error.
const discoveryRetry = 5 * time.Second

// exchangeKey identifies an exchanged token: the inbound token (by its
// SHA-256: the principal and what it was granted) and the scopes asked for.
type exchangeKey struct {
	subject [32]byte
	scopes  string
}

type exchanged struct {
	token string
	until time.Time // reused before this instant
}

// ExchangedToken is an access token for the upstream API.
type ExchangedToken struct {
	// AccessToken is the token: send it to the upstream API only.
	AccessToken string
	// TokenType is the token_type of the answer, "Bearer" usually.
	TokenType string
	// Scopes are the scopes granted (the answer's scope, else those asked).
	Scopes []string
	// Expiry is when the token expires; zero when the answer did not say
	// (such a token is not reused).
	Expiry time.Time
}

// ExchangeError is the authorization server's refusal (RFC 6749 §5.2).
type ExchangeError struct {
	// Status is the HTTP status of the answer.
	Status int
	// Code is the error code (invalid_grant, invalid_client,
	// invalid_target, invalid_scope, unauthorized_client, ...).
	Code string
	// Description is the error_description, if any.
	Description string
}

func (e *ExchangeError) Error() string {
	msg := "token exchange refused by the authorization server: " + e.Code
	if e.Description != "" {
		msg += " (" + e.Description + ")"
	}
	switch e.Code {
	case "invalid_grant":
		msg += "; the caller's token was not accepted for exchange: it may be expired or revoked, or not allowed to be exchanged for this audience"
	case "invalid_client", "unauthorized_client":
		msg += "; check ExchangeConfig.ClientID and ClientSecret, and that this client may use token exchange"
	case "invalid_target":
		msg += "; the authorization server does not issue tokens for this Audience/Resource to this client"
	case "invalid_scope":
		msg += "; ask for scopes the upstream API grants to this client"
	}
	return msg
}

func (e *ExchangeError) Unwrap() error { return ErrExchangeRefused }

// NewExchanger returns an Exchanger for cfg. It does not contact the
// authorization server.
func NewExchanger(cfg ExchangeConfig) (*Exchanger, error) {
	if cfg.Issuer == "" {
		return nil, errors.New("auth: ExchangeConfig.Issuer is required (the authorization server that issued the inbound tokens)")
	}
	if cfg.TokenURL != "" {
		if err := checkURL(cfg.TokenURL); err != nil {
			return nil, errors.New("auth: ExchangeConfig.TokenURL: " + err.Error())
		}
	} else if err := checkURL(cfg.Issuer); err != nil {
		return nil, errors.New("auth: ExchangeConfig.Issuer: " + err.Error() + " (its token endpoint is discovered from its metadata unless TokenURL is set)")
	}
	if cfg.ClientID == "" {
		return nil, errors.New("auth: ExchangeConfig.ClientID is required (this server's client at the authorization server)")
	}
	if cfg.Audience == "" && cfg.Resource == "" {
		return nil, errors.New("auth: ExchangeConfig needs Audience or Resource (the upstream API the tokens are for)")
	}
	for _, s := range cfg.Scopes {
		if !wink.ValidScope(s) {
			return nil, errors.New("auth: ExchangeConfig.Scopes: " + s + " is not an RFC 6749 scope-token")
		}
	}
	if cfg.Skew <= 0 {
		cfg.Skew = defaultExchangeSkew
	}
	if cfg.CacheSize == 0 {
		cfg.CacheSize = DefaultExchangeCacheSize
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Exchanger{cfg: cfg, cache: map[exchangeKey]exchanged{}, flights: map[exchangeKey]*flight{}, tokenURL: cfg.TokenURL}, nil
}

// Token returns an access token for the upstream API on behalf of the
// caller whose request ctx belongs to (a tool call's ToolContext, or the
// context of a request Server.Handler accepted), with scopes (none:
// ExchangeConfig.Scopes). A token exchanged earlier for the same inbound
// token and scopes is reused until Skew before its expiry; callers asking
// for the same inbound token and scopes while an exchange for them is under
// way wait for it and share its answer (one request). The error wraps
// ErrNoInboundToken, ErrExchangeRefused (an *ExchangeError) or
// ErrUnavailable.
func (e *Exchanger) Token(ctx context.Context, scopes ...string) (*ExchangedToken, error) {
	in, _ := ctx.Value(inboundKey{}).(*inbound)
	if in == nil {
		if p := wink.PrincipalFrom(ctx); p != nil {
			return nil, noInbound("the call acts for " + who(p) + ", but its token is not in the context: the token is only " +
				"in the request a resource server accepted and is never stored, so a durable run resumed on another worker " +
				"(or after a restart), a task, or a principal put into the context by hand has none; exchange while the " +
				"caller's request is live (before starting the run, or in a step driven with the request's context, before the " +
				"run's first checkpoint) and keep the upstream's answer in the run, or give work done later a credential of the " +
				"server's own (an OAuth client-credentials token) for this upstream")
		}
		return nil, noInbound("the call was not made through a resource server (auth.Server.Handler or mcpserver.WithAuth), so there is no caller to act for")
	}
	if in.issuer != e.cfg.Issuer {
		return nil, noInbound("the caller's token was issued by " + strconv.Quote(in.issuer) +
			", not by ExchangeConfig.Issuer " + strconv.Quote(e.cfg.Issuer) + "; it is not sent to another issuer")
	}
	if len(scopes) == 0 {
		scopes = e.cfg.Scopes
	}
	for _, s := range scopes {
		if !wink.ValidScope(s) {
			return nil, errors.New("auth: scope " + strconv.Quote(s) + " is not an RFC 6749 scope-token")
		}
	}
	key := exchangeKey{subject: sha256.Sum256([]byte(in.token)), scopes: strings.Join(scopes, " ")}
	for {
		now := e.cfg.Now()
		e.mu.Lock()
		if c, ok := e.cache[key]; ok && now.Before(c.until) {
			e.mu.Unlock()
			return &ExchangedToken{AccessToken: c.token, TokenType: "Bearer", Scopes: scopes, Expiry: c.until.Add(e.cfg.Skew)}, nil
		}
		if f := e.flights[key]; f != nil { // another caller is exchanging the same: wait for its answer
			e.mu.Unlock()
			select {
			case <-f.done:
			case <-ctx.Done():
				return nil, unavailable("token exchange", ctx.Err())
			}
			if f.leaderGone && ctx.Err() == nil {
				continue // it gave up, not the authorization server: ask again
			}
			if f.err != nil {
				return nil, f.err
			}
			tok := *f.tok
			tok.Scopes = slices.Clone(f.tok.Scopes)
			return &tok, nil
		}
		f := &flight{done: make(chan struct{})}
		e.flights[key] = f
		e.mu.Unlock()
		tok, err := e.exchange(ctx, in.token, scopes)
		if err == nil && tok.Scopes == nil {
			tok.Scopes = scopes
		}
		e.mu.Lock()
		delete(e.flights, key)
		if err == nil && e.cfg.CacheSize > 0 && !tok.Expiry.IsZero() && strings.EqualFold(tok.TokenType, "Bearer") {
			if until := tok.Expiry.Add(-e.cfg.Skew); now.Before(until) {
				e.putLocked(key, exchanged{token: tok.AccessToken, until: until}, now)
			}
		}
		e.mu.Unlock()
		f.err, f.leaderGone = err, err != nil && ctx.Err() != nil
		if err == nil {
			cp := *tok
			cp.Scopes = slices.Clone(tok.Scopes)
			f.tok = &cp
		}
		close(f.done)
		return tok, err
	}
}

// who names a principal in an error.
func who(p *wink.Principal) string {
	if p.Subject != "" {
		return "subject " + strconv.Quote(p.Subject)
	}
	if p.ClientID != "" {
		return "client " + strconv.Quote(p.ClientID)
	}
	return "a caller"
}

// noInbound is ErrNoInboundToken, saying why.
func noInbound(why string) error {
	return &noInboundError{"auth: " + ErrNoInboundToken.Error() + ": " + why}
}

type noInboundError struct{ msg string }

func (e *noInboundError) Error() string { return e.msg }
func (e *noInboundError) Unwrap() error { return ErrNoInboundToken }

// putLocked keeps c, dropping expired entries (then any one) when the cache is full; e.mu is held.
func (e *Exchanger) putLocked(k exchangeKey, c exchanged, now time.Time) {
	if len(e.cache) >= e.cfg.CacheSize {
		for k, v := range e.cache {
			if !now.Before(v.until) {
				delete(e.cache, k)
			}
		}
		for k := range e.cache {
			if len(e.cache) < e.cfg.CacheSize {
				break
			}
			delete(e.cache, k)
		}
	}
	e.cache[k] = c
}

// endpoint returns the token endpoint: ExchangeConfig.TokenURL, else the issuer's metadata's
// token_endpoint, discovered once (a failure is answered from its error for discoveryRetry).
func (e *Exchanger) endpoint(ctx context.Context) (string, error) {
	e.discMu.Lock()
	defer e.discMu.Unlock()
	if e.tokenURL != "" {
		return e.tokenURL, nil
	}
	now := e.cfg.Now()
	if e.discErr != nil && now.Sub(e.discTry) < discoveryRetry {
		return "", e.discErr
	}
	get := func(ctx context.Context, loc string, v any) (int, error) {
		ctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
		if err != nil {
			return 0, err
		}
		req.Header.Set("Accept", "application/json")
		return doJSON(e.cfg.HTTPClient, req, v)
	}
	md, loc, err := fetchMetadata(ctx, e.cfg.Issuer, get)
	switch {
	case err != nil:
	case md.TokenEndpoint == "":
		err = errors.New(loc + " names no token_endpoint; set ExchangeConfig.TokenURL")
	default:
		if cerr := checkURL(md.TokenEndpoint); cerr != nil {
			err = errors.New(loc + ": token_endpoint: " + cerr.Error())
		}
	}
	if err != nil {
		e.discTry, e.discErr = now, unavailable("discovering the token endpoint of issuer "+e.cfg.Issuer, err)
		return "", e.discErr
	}
	e.tokenURL, e.discErr = md.TokenEndpoint, nil
	return e.tokenURL, nil
}

// exchange performs one RFC 8693 request.
func (e *Exchanger) exchange(ctx context.Context, subject string, scopes []string) (*ExchangedToken, error) {
	tokenURL, err := e.endpoint(ctx)
	if err != nil {
		return nil, err
	}
	form := url.Values{
		"grant_type":           {grantTokenExchange},
		"subject_token":        {subject},
		"subject_token_type":   {tokenTypeAccess},
		"requested_token_type": {tokenTypeAccess},
	}
	if e.cfg.Audience != "" {
		form.Set("audience", e.cfg.Audience)
	}
	if e.cfg.Resource != "" {
		form.Set("resource", e.cfg.Resource)
	}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, tokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, unavailable("token exchange at "+tokenURL, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(e.cfg.ClientID), url.QueryEscape(e.cfg.ClientSecret)) // RFC 6749 §2.3.1
	resp, err := e.cfg.HTTPClient.Do(req)
	if err != nil {
		return nil, unavailable("token exchange at "+tokenURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocBytes+1))
	if err != nil {
		return nil, unavailable("token exchange at "+tokenURL, err)
	}
	if len(body) > maxDocBytes {
		return nil, unavailable("token exchange at "+tokenURL, errors.New("the answer exceeds 1 MiB"))
	}
	f := parseTokenAnswer(body)
	switch {
	case resp.StatusCode == http.StatusOK && f.err == "" && f.accessToken != "":
	case (resp.StatusCode == http.StatusBadRequest || resp.StatusCode == http.StatusUnauthorized) && f.err != "":
		return nil, &ExchangeError{Status: resp.StatusCode, Code: f.err, Description: f.desc}
	case resp.StatusCode == http.StatusOK:
		return nil, unavailable("token exchange at "+tokenURL, errors.New("the answer has no access_token"))
	default:
		return nil, unavailable("token exchange at "+tokenURL, errors.New("status "+strconv.Itoa(resp.StatusCode)))
	}
	if f.issuedType != "" && f.issuedType != tokenTypeAccess {
		return nil, unavailable("token exchange at "+tokenURL, errors.New("issued_token_type is "+f.issuedType+", not an access token"))
	}
	tok := &ExchangedToken{AccessToken: f.accessToken, TokenType: f.tokenType}
	if f.scope != "" {
		tok.Scopes = strings.Fields(f.scope)
	}
	if f.expiresIn > 0 {
		tok.Expiry = e.cfg.Now().Add(time.Duration(f.expiresIn) * time.Second)
	}
	return tok, nil
}

// tokenAnswer is what is read of a token endpoint's JSON answer.
type tokenAnswer struct {
	accessToken, tokenType, issuedType, scope, err, desc string
	expiresIn                                            int64
}

var answerLimits = strictjson.Limits{MaxBytes: maxDocBytes, MaxDepth: 16, MaxErrors: 1}

// parseTokenAnswer reads the fields of an RFC 6749 §5.1 / §5.2 answer;
// unknown members are skipped, a malformed answer yields no fields.
func parseTokenAnswer(body []byte) tokenAnswer {
	var a tokenAnswer
	var d strictjson.Decoder
	d.Reset(body, answerLimits)
	if d.Peek() != strictjson.KindObject || !d.ObjectStart() {
		return tokenAnswer{}
	}
	str := func(dst *string) {
		if d.Peek() == strictjson.KindString {
			*dst, _ = d.String()
		} else {
			d.Skip()
		}
	}
	for d.NextKey() {
		switch string(d.Key()) {
		case "access_token":
			str(&a.accessToken)
		case "token_type":
			str(&a.tokenType)
		case "issued_token_type":
			str(&a.issuedType)
		case "scope":
			str(&a.scope)
		case "error":
			str(&a.err)
		case "error_description":
			str(&a.desc)
		case "expires_in":
			if d.Peek() == strictjson.KindNumber {
				a.expiresIn, _ = d.Int(0, 1<<40)
			} else {
				d.Skip()
			}
		default:
			d.Skip()
		}
	}
	d.ObjectEnd()
	if errs := d.Finish(); errs != nil && errs.Len() > 0 {
		return tokenAnswer{}
	}
	return a
}

// inbound is a verified inbound token, kept in a context under inboundKey
// and in TokenInfo.Extra: neither the type nor the key is exported, so only
// an Exchanger reads it.
type inbound struct {
	token  string
	issuer string
}

// String hides the token from fmt and loggers.
func (*inbound) String() string { return "[inbound token]" }

type inboundKey struct{}

// inboundExtra is the key of the *inbound in TokenInfo.Extra.
const inboundExtra = "wink.inbound"

// NewContext returns ctx carrying the caller of a request the MCP SDK hands
// a verified token for (RequestExtra.TokenInfo): its principal
// (wink.PrincipalFrom, PrincipalOf) and, when Server.Handler verified the
// token, what an Exchanger needs to act for the caller. mcpserver does this
// for every tool call; a nil ti returns ctx unchanged.
func NewContext(ctx context.Context, ti *sdkauth.TokenInfo) context.Context {
	if ti == nil {
		return ctx
	}
	ctx = wink.WithPrincipal(ctx, PrincipalOf(ti))
	if in, ok := ti.Extra[inboundExtra].(*inbound); ok {
		ctx = context.WithValue(ctx, inboundKey{}, in)
	}
	return ctx
}
