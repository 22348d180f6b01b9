package mcpserver

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"

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
// The state is signed (HMAC-SHA256 over the call's ID, tool name and arguments) and checked on the
// retry: a client cannot apply an approval to other arguments or to another call, and a held call is
// decided once (a replayed retry is refused, so an approved call runs once). Each server draws a
// random key; servers that share sessions (a fleet behind one address) must share the key
// (WithRequestStateKey) so that a retry may reach any of them.

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

// heldResult is the input-required answer to a held call.
func (s *server) heldResult(held *wink.HeldError) *mcp.CallToolResult {
	c := held.Call
	msg := "Allow the call to tool " + strconv.Quote(c.Name) + " with the arguments " + string(c.Arguments) + "?"
	if held.Reason != "" {
		msg += " (" + held.Reason + ")"
	}
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{approvalInput: &mcp.ElicitParams{Message: msg, RequestedSchema: approvalSchema}},
		RequestState:  s.signState(c.ID, c.Name, c.Arguments),
	}
}

// signState returns "id.mac": the held call's ID and the MAC of ID, name and arguments.
func (s *server) signState(id, name string, args []byte) string {
	return base64.RawURLEncoding.EncodeToString([]byte(id)) + "." + base64.RawURLEncoding.EncodeToString(s.stateMAC(id, name, args))
}

func (s *server) stateMAC(id, name string, args []byte) []byte {
	m := hmac.New(sha256.New, s.stateKey)
	sum := sha256.Sum256(args)
	m.Write([]byte(strconv.Itoa(len(id)) + ":" + id + strconv.Itoa(len(name)) + ":" + name))
	m.Write(sum[:])
	return m.Sum(nil)
}

// resumeHeld handles the retry of a held call: it checks the state against the call, records the user's
// decision in disp's session and returns the held call's ID, under which the call is dispatched again.
func (s *server) resumeHeld(ctx context.Context, disp *wink.Dispatcher, p *mcp.CallToolParamsRaw, args []byte) (string, error) {
	enc, macText, ok := strings.Cut(p.RequestState, ".")
	idBytes, err1 := base64.RawURLEncoding.DecodeString(enc)
	mac, err2 := base64.RawURLEncoding.DecodeString(macText)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(mac, s.stateMAC(string(idBytes), p.Name, args)) {
		return "", errors.New("requestState does not belong to this call (another tool, other arguments, or not issued by this server)")
	}
	id := string(idBytes)
	if disp.Session != nil {
		// One decision per held call: a replayed retry must not run an approved call twice.
		for d := range session.Values(disp.Session, policy.ApprovalSlice) {
			if d.CallID == id {
				return "", errors.New("the held call " + strconv.Quote(id) + " was already decided; call the tool anew")
			}
		}
	}
	resp, _ := p.InputResponses[approvalInput].(*mcp.ElicitResult)
	if resp == nil {
		return "", errors.New("inputResponses lacks the " + strconv.Quote(approvalInput) + " elicitation result")
	}
	if resp.Action == "accept" {
		return id, policy.Approve(ctx, disp.Session, id)
	}
	reason, _ := resp.Content["reason"].(string)
	if reason == "" && resp.Action == "cancel" {
		reason = "The person dismissed the request without deciding."
	}
	return id, policy.Deny(ctx, disp.Session, id, reason)
}
