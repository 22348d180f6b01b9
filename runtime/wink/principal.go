package wink

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Principal is who a call is made for: the subject and client an
// authorization server vouched for, and the scopes it granted. A resource
// server (runtime/mcpserver/auth) puts one into the context of each
// authenticated request; code that starts a loop, a durable run or a direct
// Dispatch on someone's behalf puts one in with WithPrincipal. The raw
// token is never part of it: a handler that must call an upstream API gets
// its own credential for that API.
//
// A Principal is shared by every call of its request and must not be
// modified once it is in a context: code that needs another principal makes
// a new one. Rate limiters rely on this: runtime/ratelimit recognises a
// principal it has seen by its pointer, without reading its fields again.
type Principal struct {
	// Subject is the token's sub: the user, or the client acting for itself.
	Subject string
	// ClientID is the OAuth client the token was issued to (client_id, or
	// azp), "" when the token does not say.
	ClientID string
	// Issuer is the authorization server that issued the token (iss).
	Issuer string
	// Scopes are the scopes granted, in the token's order, without
	// duplicates.
	Scopes []string
	// Expires is when the token the principal comes from expires (its exp),
	// zero when unknown (a principal made by hand). The dispatcher does not
	// compare it: a request's token was checked when the request came in. A
	// durable run, which may outlive its token, does (runtime/durable).
	Expires time.Time
	// Claims are the token's claims (a JWT's payload, or an introspection
	// response), for handlers that need more than the fields above; nil
	// when none were kept.
	Claims map[string]any
}

// HasScope reports whether p was granted scope.
func (p *Principal) HasScope(scope string) bool {
	if p == nil {
		return false
	}
	for _, s := range p.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// Missing returns the scopes of need that p was not granted, in need's
// order; nil when p has them all.
func (p *Principal) Missing(need []string) []string {
	var miss []string
	for _, s := range need {
		if !p.HasScope(s) {
			miss = append(miss, s)
		}
	}
	return miss
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p: every tool call dispatched with the
// returned context (directly, by the loop, by a durable run) is checked
// against the scopes its tool declares (Spec.Scopes) before its arguments
// are decoded. A nil p returns ctx unchanged.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	if p == nil {
		return ctx
	}
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal ctx carries, or nil when the call is
// not made for an authenticated caller (stdio, a local loop): then no scope
// is checked.
func PrincipalFrom(ctx context.Context) *Principal {
	if ctx == nil {
		return nil
	}
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// Principal returns the principal the call is made for, or nil (see
// PrincipalFrom).
func (tc *ToolContext) Principal() *Principal { return PrincipalFrom(tc.ctx) }

// ErrInsufficientScope is the cause (ToolInvoked.Err, through errors.Is) of
// a call refused because the caller's principal lacks a scope its tool
// declares.
var ErrInsufficientScope = errors.New("insufficient scope")

// ScopeError is the cause of a call refused for a missing scope.
type ScopeError struct {
	// Tool is the tool called.
	Tool string
	// Required are all the scopes the tool declares (what a client asks the
	// authorization server for, in one step-up); Missing those the caller
	// lacks.
	Required, Missing []string
}

// Error is the model-facing text of the refusal: which scopes are missing
// and how to obtain them.
func (e *ScopeError) Error() string {
	var b strings.Builder
	b.WriteString("tool ")
	b.WriteString(strconv.Quote(e.Tool))
	b.WriteString(" was not called: the caller's token lacks the scope")
	if len(e.Missing) > 1 {
		b.WriteString("s")
	}
	for i, s := range e.Missing {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(" ")
		b.WriteString(strconv.Quote(s))
	}
	b.WriteString("; obtain a token granting ")
	b.WriteString(strconv.Quote(strings.Join(e.Required, " ")))
	b.WriteString(" from the authorization server and call again")
	return b.String()
}

// Is reports that e is ErrInsufficientScope.
func (e *ScopeError) Is(target error) bool { return target == ErrInsufficientScope }

// checkScopes returns the refusal of a call to the tool spec describes made
// for ctx's principal, or nil: no principal, a tool declaring no scopes, or
// every declared scope granted.
func checkScopes(ctx context.Context, spec *Spec) *ScopeError {
	if len(spec.Scopes) == 0 {
		return nil
	}
	p := PrincipalFrom(ctx)
	if p == nil {
		return nil
	}
	miss := p.Missing(spec.Scopes)
	if miss == nil {
		return nil
	}
	return &ScopeError{Tool: spec.Name, Required: spec.Scopes, Missing: miss}
}

// ValidScope reports whether s is an RFC 6749 §3.3 scope-token: one or more
// of the characters %x21 / %x23-5B / %x5D-7E (printable ASCII other than
// space, '"' and '\').
func ValidScope(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// Permitted returns the tools of ts that ctx's principal may call (it holds
// every scope the tool declares), in order: what a model or a client acting
// for that principal is offered. Without a principal it returns ts itself.
func Permitted(ctx context.Context, ts []*Tool) []*Tool {
	p := PrincipalFrom(ctx)
	if p == nil {
		return ts
	}
	out := make([]*Tool, 0, len(ts))
	for _, t := range ts {
		if len(p.Missing(t.spec.Scopes)) == 0 {
			out = append(out, t)
		}
	}
	return out
}
