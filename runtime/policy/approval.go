package policy

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"context"
	"errors"
	"strconv"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// ApprovalDecision is a person's decision on one held call, kept in the session (ApprovalSlice). It is
// bound to the held call's wink.Binding (hold id, tool, canonical arguments' digest, session, run) and
// applies to a call with that exact binding only.
//
//wink:state
type ApprovalDecision struct {
	// Hold is the held call's hold id (wink.Binding.Hold), which winkgen assigned.
	Hold string `json:"hold,omitempty"`
	// Tool is the held call's tool.
	Tool string `json:"tool,omitempty"`
	// Digest is the digest of the held call's canonical arguments (wink.Binding.Digest).
	Digest string `json:"digest,omitempty"`
	// Session is the id of the session the call was held in.
	Session string `json:"session,omitempty"`
	// Run is the run the call was held in (wink.RunContext.RunID).
	Run string `json:"run,omitempty"`
	// CallID is the provider's id of the held call, for the record only: it identifies nothing.
	CallID string `json:"call_id,omitempty"`
	// Approved lets the call run; false denies it.
	Approved bool `json:"approved"`
	// Reason is what the model reads when the call is denied.
	Reason string `json:"reason,omitempty"`
}

// Binding returns the binding the decision was recorded for.
func (d ApprovalDecision) Binding() wink.Binding {
	return wink.Binding{Hold: d.Hold, Tool: d.Tool, Digest: d.Digest, Session: d.Session, Run: d.Run}
}

// ApprovalSlice holds the decisions (a LOG slice: a failed call's rollback never drops one). It carries
// the generated codec, so a session store keeps it and a decision recorded on one worker is seen by the
// worker that resumes the run: give it to the store (session.NewMemoryStore(policy.ApprovalSlice, ...),
// pgstore.New(ctx, pool, policy.ApprovalSlice, ...)). Decisions recorded by winkgen before they were
// bound (a call id alone) apply to nothing: their calls are held again.
var ApprovalSlice = session.NewSlice[ApprovalDecision]("policy.approvals", session.NoRollback, session.WithCodec(WinkApprovalDecisionCodec))

// RequireApproval holds every call of its tools until a person decides: the first dispatch of a call
// returns a *wink.HeldError (nothing runs; the agent loop stops with loop.StopHeld and lists it); Approve
// or Deny records the decision in the session, bound to the held call (its hold id, tool, canonical
// arguments, session and run); dispatching the held call again (loop.Resume, which sets Call.Hold) runs
// it, or answers the model with the denial. A decision applies to nothing else: a later call that reuses
// the provider's call id (Gemini's "gemini-0" starts every turn), names another tool, passes other
// arguments, or runs in another session or run is held again. A dispatcher without a session cannot hold
// a call: its calls are denied, saying so.
type RequireApproval struct {
	tools map[string]bool
}

// NewRequireApproval returns the policy for the named tools.
func NewRequireApproval(tools ...string) *RequireApproval { return &RequireApproval{tools: set(tools)} }

// Name returns "require_approval".
func (p *RequireApproval) Name() string { return "require_approval" }

// Check holds, allows or denies the call by the decision recorded for its exact binding.
func (p *RequireApproval) Check(tc *wink.ToolContext, tool *wink.Tool, params any) wink.Decision {
	if !p.tools[tool.Name()] {
		return wink.Allow()
	}
	s := tc.Session()
	if s == nil {
		return wink.Deny("Tool " + strconv.Quote(tool.Name()) + " needs a person's approval, and none can be asked for here.")
	}
	if b := tc.Binding(); b.Hold != "" {
		if d, ok := decision(s, b); ok {
			if d.Approved {
				return wink.Allow()
			}
			reason := "A person declined this call to " + strconv.Quote(tool.Name()) + "."
			if d.Reason != "" {
				reason += " Their reason: " + d.Reason
			}
			return wink.Deny(reason, "Do not call it again with the same arguments; ask the user how to proceed.")
		}
	}
	return wink.Hold("tool " + strconv.Quote(tool.Name()) + " needs a person's approval")
}

// OnResult does nothing.
func (p *RequireApproval) OnResult(*wink.ToolContext, *wink.Tool, any, *wink.Outcome) {}

// decision returns the latest decision recorded for exactly the binding b.
func decision(s *session.Session, b wink.Binding) (ApprovalDecision, bool) {
	var found ApprovalDecision
	ok := false
	for d := range session.Values(s, ApprovalSlice) {
		if d.Hold != "" && d.Binding() == b {
			found, ok = d, true
		}
	}
	return found, ok
}

// Decided reports whether a decision is recorded in s for the held call with hold id hold.
func Decided(s *session.Session, hold string) bool {
	for d := range session.Values(s, ApprovalSlice) {
		if d.Hold == hold {
			return true
		}
	}
	return false
}

// Approve records that the held call may run, in a transaction of s (so a stored session commits it for
// every worker). held is the *wink.HeldError the call was held with (loop.Result.Held,
// durable.Status.Held, the dispatcher's error): the approval is bound to it (wink.Binding) and lets
// that call run, and no other.
func Approve(ctx context.Context, s *session.Session, held *wink.HeldError) error {
	return decide(ctx, s, held, true, "")
}

// Deny records that the held call must not run; the model reads reason. Like Approve, it is bound to
// held.
func Deny(ctx context.Context, s *session.Session, held *wink.HeldError, reason string) error {
	return decide(ctx, s, held, false, reason)
}

// NewDecision returns the decision on the held call with binding b (callID is kept for the record).
// Record it with Record; Approve and Deny do both.
func NewDecision(b wink.Binding, callID string, approved bool, reason string) ApprovalDecision {
	return ApprovalDecision{Hold: b.Hold, Tool: b.Tool, Digest: b.Digest, Session: b.Session, Run: b.Run,
		CallID: callID, Approved: approved, Reason: reason}
}

// Record records d in a transaction of s.
func Record(ctx context.Context, s *session.Session, d ApprovalDecision) error {
	if s == nil {
		return errors.New("policy: no session to record the decision in")
	}
	if d.Hold == "" || d.Tool == "" || d.Digest == "" {
		return errors.New("policy: a decision needs the held call's binding (the *wink.HeldError it was held with)")
	}
	if d.Session != s.ID() {
		return errors.New("policy: the call was held in session " + strconv.Quote(d.Session) + ", not in " + strconv.Quote(s.ID()))
	}
	tx, err := s.Begin(ctx, session.ReadWrite)
	if err != nil {
		return err
	}
	session.Append(tx.Session(), ApprovalSlice, d)
	return tx.End(ctx)
}

func decide(ctx context.Context, s *session.Session, held *wink.HeldError, approved bool, reason string) error {
	if held == nil {
		return errors.New("policy: a decision needs the *wink.HeldError the call was held with")
	}
	return Record(ctx, s, NewDecision(held.Binding, held.Call.ID, approved, reason))
}
