package wink

import (
	"context"

	"github.com/winkgen/wink/runtime/session"
)

// txToolContext is the allocation of the ToolContext of a call on a session: the context and the
// call's session transaction together, so that a transaction costs no allocation of its own and the
// Tx lives exactly as long as the ToolContext that hands it out (ToolContext.Tx): a handler keeping
// either keeps both, and neither is ever reused for another call.
type txToolContext struct {
	tc ToolContext
	tx session.Tx
}

// newSessionToolContext returns a zero ToolContext whose tx points at its call's (not yet begun)
// transaction.
func newSessionToolContext() *ToolContext {
	x := new(txToolContext)
	x.tc.tx = &x.tx
	return &x.tc
}

// beginTx begins the call's session transaction in the storage tc carries (a ToolContext made
// without it gets its own).
func beginTx(ctx context.Context, tc *ToolContext, s *session.Session, cs *callState, access session.Access) error {
	tx := tc.tx
	if tx == nil { // a ToolContext made without room for it
		tx = new(session.Tx)
	}
	if err := s.BeginIn(ctx, access, tx); err != nil {
		return err
	}
	cs.tx = tx
	if tc.tx != tx { // a ToolContext made without room for it (its tx is set before it is published otherwise)
		tc.tx = tx
	}
	if s := tx.Session(); s != tc.sess.Load() { // a read-only call's view
		tc.sess.Store(s)
	}
	return nil
}
