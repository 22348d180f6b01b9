package durable

import (
	"context"
	"errors"
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// A run's principal is who it acts for: the caller whose context started it (wink.PrincipalFrom at
// Start, or StartOptions.Principal). It is stored with the run (Record.Principal) and put back into the
// context of every step on every worker, after a takeover too, so the dispatcher checks each call
// against the scopes its tool declares and the model is offered only the tools the principal may call
// (wink.Permitted), however many workers the run passes through.
//
// What is stored is the subject, the issuer, the client id, the scopes and the expiry: never the raw
// token (no store or history holds a credential) and not the claims (the token's payload may hold
// anything; a handler that needs more looks the subject up).
//
// # When the token expires during a run
//
// A principal's Expires is its token's exp. A run may outlive it (a held call waits for days); the
// authority the token carried does not. Before each step it has not checkpointed (a model call, a tool
// call) on or after Expires, the worker asks Engine.Reauthorize (temporal.Activities.Reauthorize) for
// the principal to go on with: the host checks that the user may still act (its directory, a refresh
// token it keeps, a new grant) and returns the principal, whose scopes then apply. Without a
// Reauthorize, or when it returns no principal, the run ends Failed with ErrPrincipalExpired: a run
// never acts for a caller past the authority it was given. Reauthorize's error is taken as transient:
// the run is given back and retried. Checkpointed steps are replayed whatever the expiry (they were
// authorized when they ran). The expiry is compared with the worker's clock, as the resource server
// compared the token's exp with its own: both read a time the authorization server wrote.

// ErrPrincipalExpired is the cause of a run ended because its principal's token expired and no
// Reauthorize renewed it.
var ErrPrincipalExpired = errors.New("durable: the run's principal has expired")

// Reauthorize returns the principal a run goes on with once its principal (expired) has passed its
// Expires; nil when the run may not go on (it ends Failed with ErrPrincipalExpired). The principal
// returned must be for the same subject and issuer, and not yet expired. An error gives the run back to
// be retried.
type Reauthorize func(ctx context.Context, run Run, expired *wink.Principal) (*wink.Principal, error)

// principalVersion starts the stored form of a principal.
const principalVersion = 1

// EncodePrincipal returns the stored form of p (nil for nil): its subject, client id, issuer, scopes and
// expiry, never its claims.
func EncodePrincipal(p *wink.Principal) []byte {
	if p == nil {
		return nil
	}
	e := enc{b: make([]byte, 0, 64)}
	e.b = append(e.b, principalVersion)
	e.str(p.Subject)
	e.str(p.ClientID)
	e.str(p.Issuer)
	e.uvarint(uint64(len(p.Scopes)))
	for _, s := range p.Scopes {
		e.str(s)
	}
	var exp int64
	if !p.Expires.IsZero() {
		exp = p.Expires.UnixNano()
	}
	e.varint(exp)
	return e.b
}

// DecodePrincipal reads what EncodePrincipal wrote; nil for an empty b.
func DecodePrincipal(b []byte) (*wink.Principal, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if b[0] != principalVersion {
		return nil, errors.New("durable: corrupt checkpoint (principal version)")
	}
	d := dec{b: b[1:]}
	p := &wink.Principal{Subject: d.str(), ClientID: d.str(), Issuer: d.str()}
	if n := d.count(1); n > 0 {
		p.Scopes = make([]string, 0, n)
		for range n {
			p.Scopes = append(p.Scopes, d.str())
		}
	}
	if exp := d.varint(); exp != 0 {
		p.Expires = time.Unix(0, exp)
	}
	if err := d.finish("principal"); err != nil {
		return nil, err
	}
	return p, nil
}

// Authorize returns ctx carrying run's principal for a step taken at now (wink.WithPrincipal), or ctx
// as it is for a run without one. A principal past its Expires is renewed with reauth; without one, or
// when it refuses, the error wraps ErrPrincipalExpired (the run must end). Another error from reauth is
// returned as it is (retry). The engines call it before each step they execute; run.Principal is the
// principal to act for (Run.Principal).
func Authorize(ctx context.Context, run Run, now time.Time, reauth Reauthorize) (context.Context, *wink.Principal, error) {
	p := run.Principal
	if p == nil {
		return ctx, nil, nil
	}
	if p.Expires.IsZero() || now.Before(p.Expires) {
		return wink.WithPrincipal(ctx, p), p, nil
	}
	expired := errors.New("durable: run " + run.ID + " acts for " + who(p) + ", whose token expired at " +
		p.Expires.UTC().Format(time.RFC3339) + "; start it again with a fresh token, or renew its principal with Reauthorize")
	if reauth == nil {
		return ctx, nil, errors.Join(ErrPrincipalExpired, expired)
	}
	np, err := reauth(ctx, run, p)
	if err != nil {
		return ctx, nil, errors.New("durable: reauthorizing run " + run.ID + ": " + err.Error())
	}
	switch {
	case np == nil:
		return ctx, nil, errors.Join(ErrPrincipalExpired, expired)
	case np.Subject != p.Subject || np.Issuer != p.Issuer:
		return ctx, nil, errors.Join(ErrPrincipalExpired, errors.New("durable: Reauthorize returned a principal for "+who(np)+
			", not "+who(p)+"; the run acts for one caller"))
	case !np.Expires.IsZero() && !now.Before(np.Expires):
		return ctx, nil, errors.Join(ErrPrincipalExpired, errors.New("durable: Reauthorize returned a principal that expired at "+
			np.Expires.UTC().Format(time.RFC3339)))
	}
	return wink.WithPrincipal(ctx, np), np, nil
}

func who(p *wink.Principal) string {
	s := "subject " + p.Subject
	if p.Issuer != "" {
		s += " of " + p.Issuer
	}
	return s
}
