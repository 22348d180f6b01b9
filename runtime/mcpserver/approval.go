package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// Held calls over MCP. A call a policy holds for a person (policy.RequireApproval) is answered with an
// MCP 2026-07-28 input request (SEP-2322, multi round-trip requests): an elicitation asking the client's
// user to approve it, and a requestState naming the held call. The client fulfils the elicitation and
// calls the tool again with the response and the state; the server records the decision in the
// client's session (policy.Approve or policy.Deny) and dispatches the held call again under its
// original ID, so it runs, or the model reads the denial. Clients on older protocol versions are asked
// the same question by the SDK itself (elicitation/create), transparently.
//
// The state is the call's one requestState (callstate.go), signed (HMAC-SHA256 over the tool name, the
// arguments and what it carries: the held call's ID, the decision, the handler's answers so far) and
// checked on the retry: a client cannot apply an approval to other arguments or to another call. An
// approved call whose handler then asks the client questions goes on in the same state, round after
// round, without asking the person again. Each server draws a
// random key; servers that share sessions (a fleet behind one address) must share the key
// (WithRequestStateKey) so that a retry may reach any of them.
//
// A held call is decided once and an approved call runs once, across servers, restarts and MCP
// sessions mapped to one conversation. The state names the held call by an ID of its own (the call's
// ID and 64 random bits), so a decision can never apply to a later call that happens to get the same
// server-assigned ID (after a restart, or on another server). An approval is staged in the session
// (session.Stage) and committed by the transaction of the call it approves: checking that the call is
// not yet decided (on the session as the store holds it, under its lock), recording the approval and
// running the call are one atomic step, so of two replays of the same retry (on two servers, or one
// after a restart) one runs the call and the other is refused before anything runs, and a worker that
// dies before the call's commit leaves no decision behind (the retry is then accepted). One exception,
// which never runs a call twice: the approval is committed by the session's next transaction, so when
// another request's call on the same Session value begins first, that call's commit records the
// approval; a worker that dies after it and before the held call runs leaves the approval recorded, the
// retry is refused, and the model calls the tool anew (asking again). A denial runs nothing: it is
// checked and recorded in one transaction before the model is answered.

// approvalInput is the ID of the approval elicitation in inputRequests and inputResponses.
const approvalInput = "wink.approval"

// approvalSchema is the elicitation's form: an optional reason, which the model reads on a decline.
var approvalSchema = rawJSON(`{"type":"object","properties":{"reason":{"type":"string","title":"Reason","description":"Why you decline the call (the model reads it)."}}}`)

// WithRequestStateKey sets the key that signs the requestState of held calls (at least 32 bytes);
// servers that share sessions must share it. By default each server draws its own.
func WithRequestStateKey(key []byte) Option {
	return func(c *config) { c.stateKey = append([]byte(nil), key...) }
}

// stateKey returns the configured key or a fresh random one.
func stateKey(c *config) ([]byte, error) {
	if c.stateKey != nil {
		if len(c.stateKey) < 32 {
			return nil, errors.New("mcpserver: WithRequestStateKey needs at least 32 bytes")
		}
		return c.stateKey, nil
	}
	key := make([]byte, 32)
	_, err := rand.Read(key)
	return key, err
}

// heldResult is the input-required answer to a held call; answers are those the handler was given in the
// call's earlier rounds, kept for its run once decided.
func (s *server) heldResult(held *wink.HeldError, answers []answer) *mcp.CallToolResult {
	c := held.Call
	msg := "Allow the call to tool " + strconv.Quote(c.Name) + " with the arguments " + string(c.Arguments) + "?"
	if held.Reason != "" {
		msg += " (" + held.Reason + ")"
	}
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{approvalInput: &mcp.ElicitParams{Message: msg, RequestedSchema: approvalSchema}},
		RequestState:  s.encodeState(c.Name, c.Arguments, callState{held: heldID(c.ID), answers: answers}),
	}
}

// heldID returns the ID the held call callID runs under once decided: callID and 64 random bits, so that
// no other call, on any server, ever has it.
func heldID(callID string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return callID + "~" + hex.EncodeToString(b[:])
}

// undecided is the guard of a decision on the held call id: none may be recorded yet.
func undecided(id string) func(session.View[policy.ApprovalDecision]) error {
	return func(v session.View[policy.ApprovalDecision]) error {
		for d := range v.Values() {
			if d.CallID == id {
				return &decidedError{id: id}
			}
		}
		return nil
	}
}

// decide records the person's decision on the held call id (resp, the approval elicitation's result) in
// disp's session.
func (s *server) decide(ctx context.Context, disp *wink.Dispatcher, id string, resp *mcp.ElicitResult) error {
	if resp.Action == "accept" {
		return stageApproval(ctx, disp, id)
	}
	if disp.Session == nil {
		return errors.New("policy: no session to record the decision in")
	}
	reason, _ := resp.Content["reason"].(string)
	if reason == "" && resp.Action == "cancel" {
		reason = "The person dismissed the request without deciding."
	}
	// A denial runs nothing: checked and recorded in one transaction before the model is answered.
	tx, err := disp.Session.Begin(ctx, session.ReadWrite)
	if err != nil {
		return err
	}
	if err := undecided(id)(session.ViewOf(tx.Session(), policy.ApprovalSlice)); err != nil {
		_ = tx.End(ctx)
		return err
	}
	session.Append(tx.Session(), policy.ApprovalSlice, policy.ApprovalDecision{CallID: id, Reason: reason})
	return tx.End(ctx)
}

// stageApproval approves the call that is about to run under id. One decision per ID, checked on the
// session as the store holds it, in the transaction that records it, which is the call's own (Stage,
// whose Begin checks undecided again): a replayed retry never runs an approved call twice.
func stageApproval(ctx context.Context, disp *wink.Dispatcher, id string) error {
	if disp.Session == nil {
		return errors.New("policy: no session to record the decision in")
	}
	return session.Stage(ctx, disp.Session, policy.ApprovalSlice, policy.ApprovalDecision{CallID: id, Approved: true}, undecided(id))
}

// decidedError refuses the replay of a retry whose held call was already decided.
type decidedError struct{ id string }

func (e *decidedError) Error() string {
	return "the held call " + strconv.Quote(e.id) + " was already decided; call the tool anew"
}
