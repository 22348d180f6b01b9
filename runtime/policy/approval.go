package policy

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"context"
	"errors"
	"strconv"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// ApprovalDecision is a person's decision on one held call, kept in the session (ApprovalSlice).
//
//wink:state
type ApprovalDecision struct {
	// CallID is the held call's ID.
	CallID string `json:"call_id"`
	// Approved lets the call run; false denies it.
	Approved bool `json:"approved"`
	// Reason is what the model reads when the call is denied.
	Reason string `json:"reason,omitempty"`
}

// ApprovalSlice holds the decisions (a LOG slice: a failed call's rollback never drops one). It carries
// the generated codec, so a session store keeps it and a decision recorded on one worker is seen by the
// worker that resumes the run: give it to the store (session.NewMemoryStore(policy.ApprovalSlice, ...),
// pgstore.New(ctx, pool, policy.ApprovalSlice, ...)).
var ApprovalSlice = session.NewSlice[ApprovalDecision]("policy.approvals", session.NoRollback, session.WithCodec(WinkApprovalDecisionCodec))

// RequireApproval holds every call of its tools until a person decides: the first dispatch of a call
// returns a *wink.HeldError (nothing runs; the agent loop stops with loop.StopHeld and lists the call);
// Approve or Deny records the decision in the session; dispatching the same call again (loop.Resume)
// runs it, or answers the model with the denial. A dispatcher without a session cannot hold a call:
// its calls are denied, saying so.
type RequireApproval struct {
	tools map[string]bool
}

// NewRequireApproval returns the policy for the named tools.
func NewRequireApproval(tools ...string) *RequireApproval { return &RequireApproval{tools: set(tools)} }

// Name returns "require_approval".
func (p *RequireApproval) Name() string { return "require_approval" }

// Check holds, allows or denies the call by the decision recorded for its ID.
func (p *RequireApproval) Check(tc *wink.ToolContext, tool *wink.Tool, params any) wink.Decision {
	if !p.tools[tool.Name()] {
		return wink.Allow()
	}
	s := tc.Session()
	if s == nil {
		return wink.Deny("Tool " + strconv.Quote(tool.Name()) + " needs a person's approval, and none can be asked for here.")
	}
	if d, ok := decision(s, tc.CallID); ok {
		if d.Approved {
			return wink.Allow()
		}
		reason := "A person declined this call to " + strconv.Quote(tool.Name()) + "."
		if d.Reason != "" {
			reason += " Their reason: " + d.Reason
		}
		return wink.Deny(reason, "Do not call it again with the same arguments; ask the user how to proceed.")
	}
	return wink.Hold("tool " + strconv.Quote(tool.Name()) + " needs a person's approval")
}

// OnResult does nothing.
func (p *RequireApproval) OnResult(*wink.ToolContext, *wink.Tool, any, *wink.Outcome) {}

// decision returns the latest decision recorded for callID.
func decision(s *session.Session, callID string) (ApprovalDecision, bool) {
	var found ApprovalDecision
	ok := false
	for d := range session.Values(s, ApprovalSlice) {
		if d.CallID == callID {
			found, ok = d, true
		}
	}
	return found, ok
}

// Approve records that the held call callID may run, in a transaction of s (so a stored session commits
// it for every worker).
func Approve(ctx context.Context, s *session.Session, callID string) error {
	return decide(ctx, s, ApprovalDecision{CallID: callID, Approved: true})
}

// Deny records that the held call callID must not run; the model reads reason.
func Deny(ctx context.Context, s *session.Session, callID, reason string) error {
	return decide(ctx, s, ApprovalDecision{CallID: callID, Reason: reason})
}

func decide(ctx context.Context, s *session.Session, d ApprovalDecision) error {
	if s == nil {
		return errors.New("policy: no session to record the decision in")
	}
	if d.CallID == "" {
		return errors.New("policy: a decision needs the held call's ID")
	}
	tx, err := s.Begin(ctx, session.ReadWrite)
	if err != nil {
		return err
	}
	session.Append(tx.Session(), ApprovalSlice, d)
	return tx.End(ctx)
}
