package mcpserver

import (
	"context"
	"crypto/rand"
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
// client's session, bound to the held call (policy.NewDecision with its wink.Binding: the hold id the
// dispatcher drew, the tool, the digest of the canonical arguments, the session, the run), and
// dispatches the held call again under its hold id (wink.Call.Hold), so it runs, or the model reads the
// denial. Clients on older protocol versions (2025-06-18, 2025-11-25) are asked the same question by the
// SDK itself (elicitation/create), transparently, and take the same path.
//
// A program tool (wink.Tool.AsProgram, runtime/suites/eval's run_program) whose inner call is held is
// asked the same way: the question and the decision are the inner call's (its tool, its arguments), the
// state carries that tool, and the retried program call runs the program again under the inner call's
// hold id: its completed inner calls are answered from their checkpoints, the approved one runs once.
//
// The question shows the tool and its arguments as wink.HeldError.Question writes them: re-encoded in
// canonical form (RFC 8785), each long string cut and the whole bounded (wink.ShowArguments), so the
// same arguments read the same however the model spelled them, and padding cannot push what the call
// does out of sight.
//
// The state is the call's one requestState (callstate.go), signed (HMAC-SHA256 over the tool name, the
// digest of the arguments in canonical form, and what it carries: the held call's hold id and
// arguments digest, the decision, the handler's answers so far) and checked on the retry: a client
// cannot apply an approval to other arguments (any spelling of the same ones is accepted) or to another
// call. An approved call whose handler then asks the client questions goes on in the same state, round
// after round, without asking the person again. Each server draws a random key; servers that share
// sessions (a fleet behind one address) must share the key (WithRequestStateKey) so that a retry may
// reach any of them.
//
// A held call is decided once and an approved call runs once, across servers, restarts and MCP
// sessions mapped to one conversation. The decision is bound to the hold id, which the dispatcher drew
// at random and no other call ever has, so a decision can never apply to a later call. An approval is
// staged in the session (session.Stage) and committed by the transaction of the call it approves:
// checking that the call is not yet decided (on the session as the store holds it, under its lock),
// recording the approval and running the call are one atomic step, so of two replays of the same retry
// (on two servers, or one after a restart) one runs the call and the other is refused before anything
// runs, and a worker that dies before the call's commit leaves no decision behind (the retry is then
// accepted). One exception, which never runs a call twice: the approval is committed by the session's
// next transaction, so when another request's call on the same Session value begins first, that call's
// commit records the approval; a worker that dies after it and before the held call runs leaves the
// approval recorded, the retry is refused, and the model calls the tool anew (asking again). A denial
// runs nothing: it is checked and recorded in one transaction before the model is answered.

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
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{approvalInput: &mcp.ElicitParams{Message: held.Question(), RequestedSchema: approvalSchema}},
		RequestState:  s.encodeState(c.Name, c.Arguments, callState{held: held.Binding.Hold, digest: held.Binding.Digest, tool: heldTool(held), answers: answers}),
	}
}

// heldTool is the tool the decision on held binds, when it is not the called tool: a program's inner
// call held under the program call (wink.Tool.AsProgram); "" otherwise.
func heldTool(held *wink.HeldError) string {
	if held.Binding.Tool != held.Call.Name {
		return held.Binding.Tool
	}
	return ""
}

// binding is the binding of a decision on the held call (or round) hold of tool name, whose canonical
// arguments have digest, in disp's session and run.
func binding(disp *wink.Dispatcher, hold, name, digest string) wink.Binding {
	b := wink.Binding{Hold: hold, Tool: name, Digest: digest, Run: disp.RunContext.RunID}
	if disp.Session != nil {
		b.Session = disp.Session.ID()
	}
	return b
}

// undecided is the guard of a decision on the held call (or round) hold: none may be recorded yet.
func undecided(hold string) func(session.View[policy.ApprovalDecision]) error {
	return func(v session.View[policy.ApprovalDecision]) error {
		for d := range v.Values() {
			if d.Hold == hold {
				return &decidedError{id: hold}
			}
		}
		return nil
	}
}

// decide records the person's decision (resp, the approval elicitation's result) on the held call b in
// disp's session.
func (s *server) decide(ctx context.Context, disp *wink.Dispatcher, b wink.Binding, resp *mcp.ElicitResult) error {
	reason, _ := resp.Content["reason"].(string)
	return decideAs(ctx, disp, b, resp.Action, reason)
}

// decideAs records the decision action ("accept", "decline" or "cancel"), with the person's reason, on
// the held call b in disp's session.
func decideAs(ctx context.Context, disp *wink.Dispatcher, b wink.Binding, action, reason string) error {
	if action == "accept" {
		return stageApproval(ctx, disp, b)
	}
	if disp.Session == nil {
		return errors.New("policy: no session to record the decision in")
	}
	if reason == "" && action == "cancel" {
		reason = "The person dismissed the request without deciding."
	}
	// A denial runs nothing: checked and recorded in one transaction before the model is answered.
	tx, err := disp.Session.Begin(ctx, session.ReadWrite)
	if err != nil {
		return err
	}
	if err := undecided(b.Hold)(session.ViewOf(tx.Session(), policy.ApprovalSlice)); err != nil {
		_ = tx.End(ctx)
		return err
	}
	session.Append(tx.Session(), policy.ApprovalSlice, policy.NewDecision(b, "", false, reason))
	return tx.End(ctx)
}

// stageApproval approves the call that is about to run under the hold id b.Hold. One decision per hold
// id, checked on the session as the store holds it, in the transaction that records it, which is the
// call's own (Stage, whose Begin checks undecided again): a replayed retry never runs an approved call
// twice.
func stageApproval(ctx context.Context, disp *wink.Dispatcher, b wink.Binding) error {
	if disp.Session == nil {
		return errors.New("policy: no session to record the decision in")
	}
	return session.Stage(ctx, disp.Session, policy.ApprovalSlice, policy.NewDecision(b, "", true, ""), undecided(b.Hold))
}

// decidedError refuses the replay of a retry whose held call was already decided.
type decidedError struct{ id string }

func (e *decidedError) Error() string {
	return "the held call " + strconv.Quote(e.id) + " was already decided; call the tool anew"
}
