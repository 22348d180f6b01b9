package auth

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// rootMetadataPath is the metadata path of a resource without a path, which
// clients try after the path-specific one.
const rootMetadataPath = "/.well-known/oauth-protected-resource"

// MaxPeekBytes bounds how much of a POST body Handler reads to find the
// tool a tools/call names. A larger request is passed on unread; the
// dispatcher still refuses a call lacking scopes, as a tool error.
const MaxPeekBytes = 4 << 20

// MetadataHandler serves the Protected Resource Metadata document (GET, and
// OPTIONS for CORS preflight) at any path it is mounted at.
func (s *Server) MetadataHandler() http.Handler {
	return http.HandlerFunc(s.serveMetadata)
}

func (s *Server) serveMetadata(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*") // public metadata (RFC 9728 §3)
	h.Set("Access-Control-Allow-Methods", "GET, OPTIONS")
	switch r.Method {
	case http.MethodOptions:
		w.WriteHeader(http.StatusNoContent)
	case http.MethodGet, http.MethodHead:
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "public, max-age=3600")
		if r.Method == http.MethodGet {
			_, _ = w.Write(s.metadata)
		}
	default:
		h.Set("Allow", "GET, HEAD, OPTIONS")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// ScopesFunc returns the scopes a request needs: method is "tools/call"
// (name: the tool), "prompts/get" (the prompt; also asked for a
// completion/complete of one of its arguments), "resources/read" or
// "resources/subscribe" (name: the URI; subscriptions/listen asks it for each
// URI it names) or "completion/complete" (name: the URI template whose
// variable is completed). ok is false when nothing is needed or the name is
// unknown.
type ScopesFunc func(method, name string) (scopes []string, ok bool)

// Handler returns next behind the resource server: the metadata at its
// well-known paths, every other request refused with 401 unless it carries
// a valid bearer token, and a tools/call of a tool whose scopes (scopesOf;
// nil: none checked here) the token lacks refused with 403. An accepted
// request reaches next with the principal in its context (PrincipalFrom,
// and the MCP SDK's auth.TokenInfoFromContext, whose UserID binds MCP
// sessions to their user).
func (s *Server) Handler(next http.Handler, scopesOf ScopesFunc) http.Handler {
	inner := sdkauth.RequireBearerToken(func(_ context.Context, _ string, r *http.Request) (*sdkauth.TokenInfo, error) {
		ti, _ := r.Context().Value(tokenInfoKey{}).(*sdkauth.TokenInfo)
		if ti == nil {
			return nil, sdkauth.ErrInvalidToken
		}
		return ti, nil
	}, &sdkauth.RequireBearerTokenOptions{AllowMissingExpiration: true})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == s.metadataPath || r.URL.Path == rootMetadataPath {
			s.serveMetadata(w, r)
			return
		}
		token, ok := bearer(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+s.metadataURL+`"`)
			http.Error(w, "unauthorized: this server needs an OAuth bearer token; see "+s.metadataURL, http.StatusUnauthorized)
			return
		}
		p, _, err := s.Verify(r.Context(), token)
		if err != nil {
			if errors.Is(err, ErrUnavailable) {
				w.Header().Set("Retry-After", "10")
				http.Error(w, "the token could not be verified now: "+err.Error(), http.StatusServiceUnavailable)
				return
			}
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", error_description="`+quotable(err.Error())+
				`", resource_metadata="`+s.metadataURL+`"`)
			http.Error(w, "invalid token: "+err.Error(), http.StatusUnauthorized)
			return
		}
		if scopesOf != nil && r.Method == http.MethodPost && !s.cfg.HideTools { // hidden: answered as unknown (mcpserver)
			need, ok := s.peekScopes(r, scopesOf)
			if miss := p.Missing(need); ok && len(miss) > 0 {
				w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+strings.Join(need, " ")+
					`", resource_metadata="`+s.metadataURL+`", error_description="`+quotable("the token lacks "+strings.Join(miss, " "))+`"`)
				http.Error(w, "insufficient scope: the request needs "+strings.Join(need, " ")+"; the token lacks "+strings.Join(miss, " "), http.StatusForbidden)
				return
			}
		}
		// The token itself travels only as an *inbound (exchange.go), which nothing but an Exchanger reads.
		in := &inbound{token: token, issuer: p.Issuer}
		ti := &sdkauth.TokenInfo{Scopes: p.Scopes, UserID: userID(p), Extra: map[string]any{principalExtra: p, inboundExtra: in}}
		ctx := context.WithValue(context.WithValue(wink.WithPrincipal(r.Context(), p), inboundKey{}, in), tokenInfoKey{}, ti)
		inner.ServeHTTP(w, r.WithContext(ctx))
	})
}

// tokenInfoKey carries the verified token's TokenInfo to the SDK's middleware.
type tokenInfoKey struct{}

// principalExtra is the key of the principal in TokenInfo.Extra.
const principalExtra = "wink.principal"

// PrincipalOf returns the principal of a verified token as the MCP SDK hands
// it to a request (RequestExtra.TokenInfo): the one Handler verified, or,
// for a token verified by the SDK's own auth.RequireBearerToken, one made of
// its UserID and Scopes. nil for a nil ti.
func PrincipalOf(ti *sdkauth.TokenInfo) *wink.Principal {
	if ti == nil {
		return nil
	}
	if p, ok := ti.Extra[principalExtra].(*wink.Principal); ok {
		return p
	}
	return &wink.Principal{Subject: ti.UserID, Scopes: ti.Scopes}
}

// userID binds MCP sessions: the issuer's subject, else the client.
func userID(p *wink.Principal) string {
	if p.Subject != "" {
		return p.Issuer + " sub " + p.Subject
	}
	if p.ClientID != "" {
		return p.Issuer + " client " + p.ClientID
	}
	return ""
}

// bearer returns the token of an "Authorization: Bearer <token>" header
// (RFC 6750 §2.1; the token in a query or form is not accepted).
func bearer(r *http.Request) (string, bool) {
	vals := r.Header.Values("Authorization")
	if len(vals) != 1 {
		return "", false
	}
	scheme, token, ok := strings.Cut(vals[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// quotable makes s fit an auth-param quoted string (RFC 6750 §3: %x20-21 /
// %x23-5B / %x5D-7E).
func quotable(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			b[i] = '\''
		}
	}
	return string(b)
}

// peekLimits bound the reading of a request body for its method and names.
var peekLimits = strictjson.Limits{MaxBytes: MaxPeekBytes, MaxDepth: 64, MaxErrors: 1}

// peekScopes reads r's body (restoring it for next) and returns the scopes
// a single tools/call, prompts/get, resources/read, resources/subscribe,
// subscriptions/listen or completion/complete needs (scopesOf); ok is
// false for any other request (another method, a batch, an unknown name, a
// body too large to read).
func (s *Server) peekScopes(r *http.Request, scopesOf ScopesFunc) (need []string, ok bool) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxPeekBytes+1))
	if err != nil || len(body) > MaxPeekBytes {
		r.Body = readCloser{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
		return nil, false
	}
	r.Body = readCloser{bytes.NewReader(body), r.Body}
	var d strictjson.Decoder
	d.Reset(body, peekLimits)
	if d.Peek() != strictjson.KindObject {
		return nil, false
	}
	method, name, uri, refType := "", "", "", ""
	var uris []string // subscriptions/listen's
	str := func(dst *string) {
		if d.Peek() == strictjson.KindString {
			*dst, _ = d.String()
		} else {
			d.Skip()
		}
	}
	if d.ObjectStart() {
		for d.NextKey() {
			switch string(d.Key()) {
			case "method":
				str(&method)
			case "params":
				if d.Peek() != strictjson.KindObject {
					d.Skip()
					continue
				}
				if !d.ObjectStart() {
					continue
				}
				for d.NextKey() {
					switch string(d.Key()) {
					case "name":
						str(&name)
					case "uri":
						str(&uri)
					case "ref": // completion/complete
						if d.Peek() != strictjson.KindObject || !d.ObjectStart() {
							d.Skip()
							continue
						}
						for d.NextKey() {
							switch string(d.Key()) {
							case "type":
								str(&refType)
							case "name":
								str(&name)
							case "uri":
								str(&uri)
							default:
								d.Skip()
							}
						}
						d.ObjectEnd()
					case "notifications": // subscriptions/listen
						if d.Peek() != strictjson.KindObject || !d.ObjectStart() {
							d.Skip()
							continue
						}
						for d.NextKey() {
							if string(d.Key()) != "resourceSubscriptions" || d.Peek() != strictjson.KindArray || !d.ArrayStart() {
								d.Skip()
								continue
							}
							for d.NextElem() {
								var u string
								str(&u)
								uris = append(uris, u)
							}
							d.ArrayEnd()
						}
						d.ObjectEnd()
					default:
						d.Skip()
					}
				}
				d.ObjectEnd()
			default:
				d.Skip()
			}
		}
		d.ObjectEnd()
	}
	if errs := d.Finish(); errs != nil && errs.Len() > 0 {
		return nil, false
	}
	switch method {
	case "tools/call", "prompts/get":
		return scopesOf(method, name)
	case "resources/read", "resources/subscribe":
		return scopesOf(method, uri)
	case "completion/complete":
		switch refType {
		case "ref/prompt":
			return scopesOf("prompts/get", name)
		case "ref/resource":
			return scopesOf(method, uri)
		}
	case "subscriptions/listen":
		for _, u := range uris {
			if sc, ok := scopesOf("resources/subscribe", u); ok {
				for _, x := range sc {
					if !slices.Contains(need, x) {
						need = append(need, x)
					}
				}
			}
		}
		return need, len(need) > 0
	}
	return nil, false
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (rc readCloser) Close() error { return rc.c.Close() }
