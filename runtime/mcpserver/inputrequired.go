package mcpserver

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// Sampling and elicitation on protocol 2026-07-28, which forbids server requests while a call is served
// (SEP-2322, multi round-trip requests). When a handler asks (ToolContext.Sample, wink.Elicit) and no
// answer is at hand, the request is recorded and the handler gets errInputNeeded, which it returns like
// any error: the call fails and is rolled back, and the server answers the tools/call with an
// input-required result carrying the request (inputRequests["wink.input.N"], N counting the handler's
// requests from 0) and a requestState. The client answers and calls the tool again with the responses
// and the state; the handler runs again from the start, and its requests 0..N are answered from the state
// (the earlier answers, carried in it) and the responses (the new one), so it gets one step further each
// round, until it completes. A handler that asks k questions runs k+1 times, so what it does before a
// question must be safe to redo (the failed runs are rolled back like any failed call).
//
// The state is "wink-input." + base64url(answers) + "." + base64url(MAC), the MAC (HMAC-SHA256 with the
// server's state key, WithRequestStateKey) over the tool's name, the arguments and the answers: a client
// cannot carry answers over to other arguments or forge earlier ones.

// inputPrefix starts the requestState of a call waiting for input requests.
const inputPrefix = "wink-input."

// inputKey is the inputRequests key of the handler's request n.
func inputKey(n int) string { return "wink.input." + strconv.Itoa(n) }

// errInputNeeded is what Sample and Elicit return on 2026-07-28 while the client's answer is not known.
var errInputNeeded = errors.New("mcpserver: the client's answer is needed; the call is asked again with it (input-required result)")

// answer is the client's answer to one input request.
type answer struct {
	elicit  bool
	action  wink.ElicitAction
	content []byte // the accepted form, JSON
	sample  wink.SampleResult
}

// sessionClientFor returns the client of one tools/call; on the retry of an input-required call it
// takes the answers from req's requestState and inputResponses, and clears the state (so that the
// held-call path, approval.go, does not read it).
func (s *server) sessionClientFor(req *mcp.CallToolRequest) (*sessionClient, error) {
	c := &sessionClient{ss: req.Session}
	// The version the request is answered at, not the one the client asked for: a client that asked
	// 2026-07-28 in initialize was answered 2025-11-25 and cannot read an input-required result.
	if requestVersion(req, s.versions) >= newProtocol {
		c.mrtr = true
	}
	p := req.Params
	if p == nil || !strings.HasPrefix(p.RequestState, inputPrefix) {
		return c, nil
	}
	state := p.RequestState
	p.RequestState = ""
	enc, macText, ok := strings.Cut(state[len(inputPrefix):], ".")
	payload, err1 := base64.RawURLEncoding.DecodeString(enc)
	mac, err2 := base64.RawURLEncoding.DecodeString(macText)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(mac, s.inputMAC(p.Name, argsOf(p), payload)) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tool " + strconv.Quote(p.Name) + ": requestState does not belong to this call (another tool, other arguments, or not issued by this server)"}
	}
	answers, err := decodeAnswers(payload)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tool " + strconv.Quote(p.Name) + ": requestState: " + err.Error()}
	}
	n := len(answers)
	resp, present := p.InputResponses[inputKey(n)]
	if !present {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tool " + strconv.Quote(p.Name) + ": inputResponses lacks " + strconv.Quote(inputKey(n))}
	}
	var a answer
	switch r := resp.(type) {
	case *mcp.ElicitResult:
		a = answer{elicit: true, action: wink.ElicitAction(r.Action)}
		if a.action == wink.ElicitAccept {
			if a.content, err = appendFlatJSON(nil, r.Content); err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tool " + strconv.Quote(p.Name) + ": " + err.Error()}
			}
		}
	case *mcp.CreateMessageWithToolsResult: // how the SDK reads every sampling answer
		a = answer{sample: wink.SampleResult{Role: string(r.Role), Model: r.Model, StopReason: r.StopReason}}
		if len(r.Content) > 1 {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tool " + strconv.Quote(p.Name) + ": the sampling answer holds " + strconv.Itoa(len(r.Content)) + " content blocks; a tool takes one"}
		}
		if len(r.Content) == 1 {
			wc, ok := winkContent(r.Content[0])
			if !ok {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tool " + strconv.Quote(p.Name) + ": the sampling answer holds content a tool cannot read"}
			}
			a.sample.Content = wc
		}
	default:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tool " + strconv.Quote(p.Name) + ": " + strconv.Quote(inputKey(n)) + " is not an elicitation or sampling result"}
	}
	c.answers = append(answers, a)
	return c, nil
}

// argsOf is the call's arguments as handle dispatches them.
func argsOf(p *mcp.CallToolParamsRaw) []byte {
	if len(p.Arguments) == 0 {
		return emptyArgs
	}
	return p.Arguments
}

// inputMAC signs a state's answers for the call of tool name with args.
func (s *server) inputMAC(name string, args, payload []byte) []byte {
	m := hmac.New(sha256.New, s.stateKey)
	sum := sha256.Sum256(args)
	m.Write([]byte("wink-input:" + strconv.Itoa(len(name)) + ":" + name))
	m.Write(sum[:])
	m.Write(payload)
	return m.Sum(nil)
}

// inputRequired is the input-required result of a call whose handler failed waiting for an answer of the
// client; nil when it did not.
func (s *server) inputRequired(ctx context.Context, out wink.Outcome, derr error, name string, args []byte) *mcp.CallToolResult {
	c, _ := wink.ClientOf(ctx).(*sessionClient)
	if c == nil || c.need == nil || derr != nil || out.Success {
		return nil
	}
	payload := encodeAnswers(c.answers)
	state := inputPrefix + base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(s.inputMAC(name, args, payload))
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{inputKey(len(c.answers)): c.need}, RequestState: state}
}

// ask returns the answer to the handler's next input request on a 2026-07-28 session, or records req as
// the one needed and returns errInputNeeded.
func (c *sessionClient) ask(req mcp.InputRequest) (answer, error) {
	n := c.next
	c.next++
	if n < len(c.answers) {
		return c.answers[n], nil
	}
	if c.need == nil {
		c.need = req
	}
	return answer{}, errInputNeeded
}

// encodeAnswers writes the answers as a JSON array.
func encodeAnswers(as []answer) []byte {
	b := []byte{'['}
	for i, a := range as {
		if i > 0 {
			b = append(b, ',')
		}
		if a.elicit {
			b = append(b, `{"action":`...)
			b = strictjson.AppendString(b, string(a.action))
			b = append(b, `,"content":`...)
			b = strictjson.AppendString(b, string(a.content))
			b = append(b, '}')
			continue
		}
		r := a.sample
		b = append(b, `{"role":`...)
		b = strictjson.AppendString(b, r.Role)
		b = append(b, `,"model":`...)
		b = strictjson.AppendString(b, r.Model)
		b = append(b, `,"stop":`...)
		b = strictjson.AppendString(b, r.StopReason)
		b = append(b, `,"kind":`...)
		b = strictjson.AppendInt(b, int64(r.Content.Kind))
		b = append(b, `,"text":`...)
		b = strictjson.AppendString(b, r.Content.Text)
		b = append(b, `,"mime":`...)
		b = strictjson.AppendString(b, r.Content.MIMEType)
		b = append(b, `,"data":`...)
		b = strictjson.AppendString(b, base64.StdEncoding.EncodeToString(r.Content.Data))
		b = append(b, '}')
	}
	return append(b, ']')
}

// decodeAnswers reads what encodeAnswers wrote (the MAC was checked: this is the server's own text).
func decodeAnswers(data []byte) ([]answer, error) {
	var d strictjson.Decoder
	d.Reset(data, strictjson.Limits{MaxBytes: len(data) + 1})
	var out []answer
	var bad error
	if d.ArrayStart() {
		for d.NextElem() {
			var a answer
			if d.ObjectStart() {
				for d.NextKey() {
					key := string(d.Key())
					if key == "kind" {
						k, _ := d.Int(0, 255)
						a.sample.Content.Kind = wink.ContentKind(k)
						continue
					}
					s, _ := d.String()
					switch key {
					case "action":
						a.elicit, a.action = true, wink.ElicitAction(s)
					case "content":
						a.content = []byte(s)
					case "role":
						a.sample.Role = s
					case "model":
						a.sample.Model = s
					case "stop":
						a.sample.StopReason = s
					case "text":
						a.sample.Content.Text = s
					case "mime":
						a.sample.Content.MIMEType = s
					case "data":
						if s != "" {
							b, err := base64.StdEncoding.DecodeString(s)
							if err != nil {
								bad = err
							}
							a.sample.Content.Data = b
						}
					}
				}
				d.ObjectEnd()
			}
			out = append(out, a)
		}
		d.ArrayEnd()
	}
	if errs := d.Finish(); errs != nil {
		return nil, errs
	}
	return out, bad
}
