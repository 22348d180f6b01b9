package mcpserver

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// The rounds of one tools/call on protocol 2026-07-28. A call may need several round
// trips before it completes: a policy holds it for a person's approval (approval.go), then its handler
// asks the client any number of questions (elicitation, sampling: inputrequired.go). Each round's
// input-required result carries one requestState holding everything the call has gathered so far: the
// held call's ID and whether the person approved it, and the client's answers to the handler's
// questions, in order. So the mechanisms compose: approve, then answer, answer, ..., complete, in one
// call. (Before, the approval and the questions each carried their own state and lost each other's:
// the retry that answered a question was held again, approved again, asked again, for ever.)
//
// The state is "wink-call." + base64url(payload) + "." + base64url(MAC); the payload is
// {"held":ID,"digest":D[,"tool":T],"approved":bool,"answers":[...]} (tool: the held call's tool when a
// program's inner call was held, not the called program tool) and the MAC (HMAC-SHA256 with the server's state key,
// WithRequestStateKey) is over the tool's name, the arguments' digest and the payload: a client cannot
// carry a state over to another tool or other arguments, nor forge an approval or an earlier answer.
//
// An approved call runs once, whatever the client replays. The round that records the approval runs
// the call under the held ID; every later round runs it under an ID of its own, the held ID and the
// number of answers (roundID), and stages the approval for that ID in the session exactly as the first
// approval is staged (approval.go: checked undecided and recorded by the round's own transaction). A
// round's state can therefore be used once: replaying any round, the last one included, is refused
// ("already decided") before anything runs. The handler runs once per round (k questions: k+1 runs
// after the approval), each run but the last failing with the question and rolled back, as for a call
// that is not held.

// statePrefix starts every requestState this server issues.
const statePrefix = "wink-call."

// callState is what a requestState carries from one round of a tools/call to the next.
type callState struct {
	held     string   // the held call's hold id (wink.Binding.Hold); "" when no policy held the call
	digest   string   // the held call's arguments digest (wink.Binding.Digest)
	tool     string   // the held call's tool (wink.Binding.Tool) when it is not the called tool's: a program's inner call
	approved bool     // the person approved the held call; false: the state asks for the decision
	answers  []answer // the client's answers to the handler's questions, by key
	asked    []string // the keys the round that issued the state asked
}

// errForeignState refuses a requestState this server did not issue for the call.
var errForeignState = errors.New("requestState does not belong to this call (another tool, other arguments, or not issued by this server)")

// encodeState returns the requestState of st for the call of tool name with args.
func (s *server) encodeState(name string, args []byte, st callState) string {
	payload := []byte(`{"held":`)
	payload = strictjson.AppendString(payload, st.held)
	payload = append(payload, `,"digest":`...)
	payload = strictjson.AppendString(payload, st.digest)
	if st.tool != "" {
		payload = append(payload, `,"tool":`...)
		payload = strictjson.AppendString(payload, st.tool)
	}
	payload = append(payload, `,"approved":`...)
	payload = strictjson.AppendBool(payload, st.approved)
	payload = append(payload, `,"answers":`...)
	payload = encodeAnswers(payload, st.answers)
	payload = append(payload, `,"asked":[`...)
	for i, k := range st.asked {
		if i > 0 {
			payload = append(payload, ',')
		}
		payload = strictjson.AppendString(payload, k)
	}
	payload = append(payload, "]}"...)
	return statePrefix + base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(s.stateMAC(name, args, payload))
}

// stateMAC signs a state's payload for the call of tool name with args.
func (s *server) stateMAC(name string, args, payload []byte) []byte {
	m := hmac.New(sha256.New, s.stateKey)
	// The arguments in canonical form (RFC 8785): a retry that spells them otherwise is the same call.
	canon, err := strictjson.CanonicalExact(nil, args)
	if err != nil {
		canon = args
	}
	sum := sha256.Sum256(canon)
	m.Write([]byte("wink-call:" + strconv.Itoa(len(name)) + ":" + name))
	m.Write(sum[:])
	m.Write(payload)
	return m.Sum(nil)
}

// readState checks requestState against the request (tool, prompt or resource name, args) and returns what
// it carries.
func (s *server) readState(name string, args []byte, requestState string) (callState, error) {
	rest, ok := strings.CutPrefix(requestState, statePrefix)
	enc, macText, ok2 := strings.Cut(rest, ".")
	payload, err1 := base64.RawURLEncoding.DecodeString(enc)
	mac, err2 := base64.RawURLEncoding.DecodeString(macText)
	if !ok || !ok2 || err1 != nil || err2 != nil || !hmac.Equal(mac, s.stateMAC(name, args, payload)) {
		return callState{}, errForeignState
	}
	// The MAC was checked: this is the server's own text.
	var st callState
	var d strictjson.Decoder
	d.Reset(payload, strictjson.Limits{MaxBytes: len(payload) + 1})
	var bad error
	if d.ObjectStart() {
		for d.NextKey() {
			switch string(d.Key()) {
			case "held":
				st.held, _ = d.String()
			case "digest":
				st.digest, _ = d.String()
			case "tool":
				st.tool, _ = d.String()
			case "approved":
				st.approved, _ = d.Bool()
			case "answers":
				st.answers, bad = decodeAnswers(&d)
			case "asked":
				if d.ArrayStart() {
					for d.NextElem() {
						k, _ := d.String()
						st.asked = append(st.asked, k)
					}
					d.ArrayEnd()
				}
			default:
				d.Skip()
			}
		}
		d.ObjectEnd()
	}
	if errs := d.Finish(); errs != nil {
		return callState{}, errors.New("requestState: " + errs.Error())
	}
	if bad != nil {
		return callState{}, errors.New("requestState: " + bad.Error())
	}
	return st, nil
}

// resume reads the retry of a call that needed input: its requestState and, for a held call, the client's
// response to what the previous round asked. It returns the ID the call now runs under ("": a fresh one)
// and the state. A response to an approval records the person's decision (approval.go); a later round of
// an approved call stages the approval for its own ID (roundID). The handler's answers are read from the
// responses when it asks their keys (sessionClient.lookup).
func (s *server) resume(ctx context.Context, disp *wink.Dispatcher, p *mcp.CallToolParamsRaw, args []byte) (string, callState, error) {
	st, err := s.readState(p.Name, args, p.RequestState)
	if err != nil {
		return "", st, err
	}
	if st.held != "" && !st.approved {
		resp, _ := p.InputResponses[approvalInput].(*mcp.ElicitResult)
		if resp == nil {
			return "", st, errors.New("inputResponses lacks the " + strconv.Quote(approvalInput) + " elicitation result")
		}
		if err := s.decide(ctx, disp, binding(disp, st.held, st.heldTool(p.Name), st.digest), resp); err != nil {
			return "", st, err
		}
		st.approved = resp.Action == "accept"
		return st.held, st, nil
	}
	if st.held == "" {
		return "", st, nil
	}
	// An approved call's round: it runs under an ID of its own, which the answers it brings make new.
	n := 0
	for _, k := range st.asked {
		if p.InputResponses[k] != nil {
			n++
		}
	}
	if n == 0 {
		return "", st, errors.New("inputResponses answers none of the questions the previous round asked (" + strings.Join(st.asked, ", ") + ")")
	}
	id := roundID(st.held, len(st.answers)+n)
	return id, st, stageApproval(ctx, disp, binding(disp, id, st.heldTool(p.Name), st.digest))
}

// heldTool is the tool of the held call: the called tool's (name), or, when a program's inner call was
// held (a program tool such as run_program holds under its inner call's binding), the inner call's.
func (st callState) heldTool(name string) string {
	if st.tool != "" {
		return st.tool
	}
	return name
}

// roundID is the ID an approved held call runs under once the client has given n answers.
func roundID(held string, n int) string { return held + "#" + strconv.Itoa(n) }

// nextState is the state of the round that follows one run under st, in which the handler got answers
// and asked the questions keyed asked.
func nextState(st callState, answers []answer, asked []string) callState {
	if !st.approved {
		st.held = ""
	}
	st.answers, st.asked = answers, asked
	return st
}
