package wink

import (
	"context"
	"time"

	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/session"
)

// ScopeSession and ScopeGlobal are the idempotency scopes the dispatcher
// knows: "session" keys are prefixed with the session's id, "global" keys are
// shared by every session using the same ledger. Any other scope is used
// verbatim as the key's prefix.
const (
	// ScopeSession scopes idempotency keys to the dispatcher's session.
	ScopeSession = "session"
	// ScopeGlobal shares idempotency keys across sessions.
	ScopeGlobal = "global"
)

// idemScope returns the key prefix for a tool's scope: the session's scope
// (ledger.SessionScope, which escapes the session's id) or the declared scope
// (ledger.Scope), so that keys are unambiguous whatever a session's id holds.
func (d *Dispatcher) idemScope(scope string) string {
	if scope == "" {
		scope = ledger.DefaultScope
	}
	if scope == ScopeSession && d.Session != nil {
		return ledger.SessionScope(d.Session.ID())
	}
	return ledger.Scope(scope)
}

// idemKey returns the ledger key of a call to t with the params fr holds, or
// "" when the call is not idempotent (no strategy, no encoder, an empty
// custom key).
func (t *Tool) idemKey(disp *Dispatcher, fr *frame) string {
	id := &t.spec.Idempotency
	name := t.spec.Name
	switch id.Strategy {
	case IdemAuto, IdemParams:
		bp := bufPool.Get().(*[]byte)
		b, ok := fr.appendParams((*bp)[:0])
		if !ok {
			bufPool.Put(bp)
			return ""
		}
		var key string
		if id.Strategy == IdemAuto {
			key = ledger.AutoKey(disp.idemScope(id.Scope), name, b)
		} else {
			var stack [4]ledger.Field
			fields := stack[:0]
			for _, k := range id.Keys {
				raw, _ := JSONField(b, k)
				fields = append(fields, ledger.Field{Name: k, JSON: raw})
			}
			key = ledger.ParamsKey(disp.idemScope(id.Scope), name, fields)
		}
		if cap(b) <= maxPooledBuf {
			*bp = b[:0]
			bufPool.Put(bp)
		}
		return key
	case IdemCustom:
		k, ok := fr.customKey()
		if !ok || k == "" {
			return ""
		}
		return ledger.CustomKey(disp.idemScope(id.Scope), name, k)
	}
	return ""
}

// IdempotencyKey returns the ledger key the dispatcher d would use for a
// call to t with the decoded params (the tool's P), or "" when the call is
// not idempotent.
func (d *Dispatcher) IdempotencyKey(t *Tool, params any) string {
	return t.impl.idemKeyAny(d, params)
}

// ledgerDo runs an idempotent call through the ledger. With a ledger.TxDoer and a session, the
// record of a success joins the session's commit (the transaction fn leaves open in cs.tx), so that
// the ledger never answers "success, replayed" for a change the session did not keep: see the ledger
// package's guarantees.
func (d *Dispatcher) ledgerDo(ctx context.Context, cs *callState, key, tool string, ttl time.Duration,
	now func() time.Time, fn func() (ledger.Entry, bool)) (ledger.Entry, bool, error) {
	td, ok := d.Ledger.(ledger.TxDoer)
	if !ok {
		return d.Ledger.Do(ctx, key, tool, ttl, now, fn)
	}
	return td.DoTx(ctx, key, tool, ttl, now, func() (ledger.Entry, bool, ledger.Txn) {
		e, ok := fn()
		if !ok || cs.tx == nil {
			return e, ok, nil
		}
		return e, ok, sessionTxn{cs.tx}
	})
}

// sessionTxn is a session transaction as a ledger.Txn.
type sessionTxn struct{ tx *session.Tx }

// Join joins p to the session's commit. The ledger joins on the dispatcher's goroutine, before the
// commit, so the transaction accepts p; were it refused, p is told at once that nothing was committed
// (the ledger then frees the key), as it is after a rollback.
func (t sessionTxn) Join(p ledger.Participant) {
	if t.tx.Join(p) != nil {
		p.Done(context.Background(), false)
	}
}
