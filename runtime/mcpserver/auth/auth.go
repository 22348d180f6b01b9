package auth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/winkgen/wink/runtime/wink"
)

// Config configures a resource server.
type Config struct {
	// Issuer is the authorization server's issuer identifier (required):
	// tokens must carry it as iss, and its metadata is discovered from it.
	Issuer string
	// AuthorizationServers are the issuers the metadata names; default
	// [Issuer].
	AuthorizationServers []string
	// Resource is this server's resource identifier (required, an absolute
	// https URL, or http on a loopback host): the audience tokens must be
	// issued for (RFC 8707), and the base of the metadata URL.
	Resource string
	// Scopes are published in scopes_supported (besides every scope a tool
	// declares, which mcpserver.WithAuth adds).
	Scopes []string
	// ResourceName is the metadata's human-readable resource_name; optional.
	ResourceName string
	// AnyAudience accepts tokens whatever their audience. Leave it false
	// unless the authorization server cannot issue audience-restricted
	// tokens: a token issued for another service could then be replayed
	// here.
	AnyAudience bool
	// Algorithms narrows the accepted JWS algorithms; default RS256, RS384,
	// RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA. "none" and the
	// HMAC algorithms are refused even if listed.
	Algorithms []string
	// ClockSkew is the tolerance on exp, nbf and iat; default 30 s, at most
	// 5 min.
	ClockSkew time.Duration
	// MinRefresh bounds how often a token with an unknown kid may cause the
	// JWKS to be fetched again; default 10 s.
	MinRefresh time.Duration
	// MaxKeyAge is how long fetched keys are used before being fetched
	// again; default 1 h.
	MaxKeyAge time.Duration
	// FetchTimeout bounds each request to the authorization server
	// (metadata, JWKS, introspection); default 10 s.
	FetchTimeout time.Duration
	// HideTools hides the tools a token lacks scopes for completely, for
	// servers whose tool names are themselves sensitive: they are left out
	// of tools/list (as always), and a tools/call of one is answered
	// exactly as one of a tool that does not exist, instead of 403 with a
	// step-up challenge (the default, which lets a client ask for the
	// missing scopes).
	HideTools bool
	// Introspection, when set, verifies tokens that are not JWTs by RFC 7662
	// introspection.
	Introspection *Introspection
	// HTTPClient makes the requests to the authorization server; default a
	// client with no redirects followed.
	HTTPClient *http.Client
	// Now returns the current time; default time.Now.
	Now func() time.Time
	// TokenCacheSize bounds the verified JWTs kept so that a token sent
	// again is not verified again (cache.go: keyed by the token's SHA-256,
	// used until its exp and never past it, only while the key set that
	// verified it is current); default DefaultTokenCacheSize, negative: no
	// cache.
	TokenCacheSize int
}

// Introspection configures RFC 7662 token introspection.
type Introspection struct {
	// URL is the introspection endpoint; default the issuer metadata's
	// introspection_endpoint.
	URL string
	// ClientID and ClientSecret authenticate this resource server to the
	// endpoint (HTTP Basic).
	ClientID, ClientSecret string
}

// Errors of Verify, through errors.Is: ErrInvalidToken for a token that is
// refused (401), ErrUnavailable when the authorization server could not be
// asked (503).
var (
	ErrInvalidToken = errors.New("invalid token")
	ErrUnavailable  = errors.New("authorization server unavailable")
)

// Server is a resource server: it verifies tokens and serves the metadata.
// It is safe for concurrent use.
type Server struct {
	cfg          Config
	algs         []jose.SignatureAlgorithm
	metadataURL  string
	metadataPath string
	metadata     []byte // the metadata document
	keys         *keyCache
	disc         *discovery
	cache        *tokenCache // verified JWTs (cache.go); nil: none
}

// defaultAlgs are the asymmetric JWS algorithms accepted by default.
var defaultAlgs = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA}

// New returns a resource server for cfg. It does not contact the
// authorization server: its metadata and keys are fetched when the first
// token needs them.
func New(cfg Config) (*Server, error) {
	if cfg.Issuer == "" {
		return nil, errors.New("auth: Config.Issuer is required (the authorization server's issuer URL)")
	}
	if err := checkURL(cfg.Issuer); err != nil {
		return nil, errors.New("auth: Config.Issuer: " + err.Error())
	}
	if cfg.Resource == "" {
		return nil, errors.New("auth: Config.Resource is required (this server's resource identifier, the URL clients call)")
	}
	ru, err := url.Parse(cfg.Resource)
	if err == nil {
		err = checkURL(cfg.Resource)
	}
	if err != nil {
		return nil, errors.New("auth: Config.Resource: " + err.Error())
	}
	if ru.Fragment != "" {
		return nil, errors.New("auth: Config.Resource must not have a fragment (RFC 8707)")
	}
	for _, s := range cfg.Scopes {
		if !wink.ValidScope(s) {
			return nil, errors.New("auth: Config.Scopes: " + s + " is not an RFC 6749 scope-token")
		}
	}
	if cfg.ClockSkew == 0 {
		cfg.ClockSkew = 30 * time.Second
	}
	if cfg.ClockSkew < 0 || cfg.ClockSkew > 5*time.Minute {
		return nil, errors.New("auth: Config.ClockSkew must be between 0 and 5 minutes")
	}
	if cfg.MinRefresh <= 0 {
		cfg.MinRefresh = 10 * time.Second
	}
	if cfg.MaxKeyAge <= 0 {
		cfg.MaxKeyAge = time.Hour
	}
	if cfg.FetchTimeout <= 0 {
		cfg.FetchTimeout = 10 * time.Second
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if len(cfg.AuthorizationServers) == 0 {
		cfg.AuthorizationServers = []string{cfg.Issuer}
	}
	s := &Server{cfg: cfg}
	if len(cfg.Algorithms) == 0 {
		s.algs = defaultAlgs
	} else {
		for _, a := range cfg.Algorithms {
			if !slices.Contains(defaultAlgs, jose.SignatureAlgorithm(a)) {
				return nil, errors.New("auth: Config.Algorithms: " + a + " is not an accepted algorithm (asymmetric JWS only: RS*, PS*, ES*, EdDSA)")
			}
			s.algs = append(s.algs, jose.SignatureAlgorithm(a))
		}
	}
	// RFC 9728 §3.1: the well-known path goes between the host and the resource's path.
	path := strings.TrimSuffix(ru.EscapedPath(), "/")
	s.metadataPath = "/.well-known/oauth-protected-resource" + path
	s.metadataURL = ru.Scheme + "://" + ru.Host + s.metadataPath
	s.disc = &discovery{s: s}
	s.keys = &keyCache{s: s}
	s.cache = newTokenCache(cfg.TokenCacheSize)
	s.metadata, err = s.buildMetadata(nil)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// checkURL accepts an absolute https URL, or http on a loopback host.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	switch {
	case u.Scheme == "https" && u.Host != "":
		return nil
	case u.Scheme == "http" && u.Host != "":
		h := u.Hostname()
		if h == "localhost" || h == "127.0.0.1" || h == "::1" {
			return nil
		}
		return errors.New(raw + ": http is accepted only on a loopback host; use https")
	}
	return errors.New(raw + " is not an absolute https URL")
}

// MetadataURL is the URL of the Protected Resource Metadata, the
// resource_metadata of every challenge.
func (s *Server) MetadataURL() string { return s.metadataURL }

// MetadataPath is the path the metadata is served at.
func (s *Server) MetadataPath() string { return s.metadataPath }

// WithScopes returns a copy of s whose metadata also publishes scopes (the
// scopes the served tools declare); s shares its key cache with the copy.
func (s *Server) WithScopes(scopes []string) (*Server, error) {
	c := *s
	md, err := c.buildMetadata(scopes)
	if err != nil {
		return nil, err
	}
	c.metadata = md
	return &c, nil
}

// metadataDoc is the RFC 9728 document.
type metadataDoc struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name,omitempty"`
}

// buildMetadata returns the metadata document publishing cfg.Scopes and
// extra, each once, in order.
func (s *Server) buildMetadata(extra []string) ([]byte, error) {
	var scopes []string
	for _, sc := range slices.Concat(s.cfg.Scopes, extra) {
		if !wink.ValidScope(sc) {
			return nil, errors.New("auth: scope " + sc + " is not an RFC 6749 scope-token")
		}
		if !slices.Contains(scopes, sc) {
			scopes = append(scopes, sc)
		}
	}
	return json.Marshal(metadataDoc{
		Resource: s.cfg.Resource, AuthorizationServers: s.cfg.AuthorizationServers,
		ScopesSupported: scopes, BearerMethodsSupported: []string{"header"}, ResourceName: s.cfg.ResourceName,
	})
}

// Verify verifies token and returns its principal. A JWT is verified with
// the issuer's keys; any other token is introspected when
// Config.Introspection is set. The error wraps ErrInvalidToken or
// ErrUnavailable.
func (s *Server) Verify(ctx context.Context, token string) (*wink.Principal, time.Time, error) {
	var p *wink.Principal
	var exp time.Time
	var err error
	switch {
	case strings.Count(token, ".") == 2:
		p, exp, err = s.verifyCached(ctx, token)
	case s.cfg.Introspection != nil:
		p, exp, err = s.introspect(ctx, token)
	default:
		return nil, time.Time{}, invalid("the token is not a JWT, and this server does not introspect tokens")
	}
	if p != nil {
		p.Expires = exp
	}
	return p, exp, err
}

// tokenError is a refusal: its text is the error_description.
type tokenError struct {
	msg   string
	cause error
}

func (e *tokenError) Error() string { return e.msg }
func (e *tokenError) Unwrap() []error {
	if e.cause != nil {
		return []error{e.cause, ErrInvalidToken}
	}
	return []error{ErrInvalidToken}
}

func invalid(msg string) error { return &tokenError{msg: msg} }

// unavailable wraps err as ErrUnavailable.
func unavailable(what string, err error) error {
	return &unavailableError{msg: what + ": " + err.Error(), cause: err}
}

type unavailableError struct {
	msg   string
	cause error
}

func (e *unavailableError) Error() string   { return e.msg }
func (e *unavailableError) Unwrap() []error { return []error{e.cause, ErrUnavailable} }
