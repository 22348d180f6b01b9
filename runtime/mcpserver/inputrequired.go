package mcpserver

import (
	"context"
	"encoding/base64"
	"errors"
	"strconv"

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
// The requestState is the one state of the call's rounds (callstate.go): it also carries a held call's
// approval, so a call approved by a person can go on to ask its questions.

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

// sessionClientFor returns the client of one tools/call, holding the answers the client gave in the call's
// earlier rounds (callstate.go).
func (s *server) sessionClientFor(req *mcp.CallToolRequest, answers []answer) *sessionClient {
	c := &sessionClient{ss: req.Session, answers: answers}
	// The version the request is answered at, not the one the client asked for: a client that asked
	// 2026-07-28 in initialize was answered 2025-11-25 and cannot read an input-required result.
	if requestVersion(req, s.versions) >= newProtocol {
		c.mrtr = true
	}
	return c
}

// inputAnswer reads the client's answer to the handler's request n from a retry's inputResponses.
func inputAnswer(responses mcp.InputResponseMap, n int) (answer, error) {
	resp, present := responses[inputKey(n)]
	if !present {
		return answer{}, errors.New("inputResponses lacks " + strconv.Quote(inputKey(n)))
	}
	var a answer
	switch r := resp.(type) {
	case *mcp.ElicitResult:
		a = answer{elicit: true, action: wink.ElicitAction(r.Action)}
		if a.action == wink.ElicitAccept {
			var err error
			if a.content, err = appendFlatJSON(nil, r.Content); err != nil {
				return answer{}, err
			}
		}
	case *mcp.CreateMessageWithToolsResult: // how the SDK reads every sampling answer
		a = answer{sample: wink.SampleResult{Role: string(r.Role), Model: r.Model, StopReason: r.StopReason}}
		if len(r.Content) > 1 {
			return answer{}, errors.New("the sampling answer holds " + strconv.Itoa(len(r.Content)) + " content blocks; a tool takes one")
		}
		if len(r.Content) == 1 {
			wc, ok := winkContent(r.Content[0])
			if !ok {
				return answer{}, errors.New("the sampling answer holds content a tool cannot read")
			}
			a.sample.Content = wc
		}
	default:
		return answer{}, errors.New(strconv.Quote(inputKey(n)) + " is not an elicitation or sampling result")
	}
	return a, nil
}

// inputRequired is the input-required result of a call whose handler failed waiting for an answer of the
// client; nil when it did not. st is the state the call ran under.
func (s *server) inputRequired(ctx context.Context, out wink.Outcome, derr error, name string, args []byte, st callState) *mcp.CallToolResult {
	c, _ := wink.ClientOf(ctx).(*sessionClient)
	if c == nil || c.need == nil || derr != nil || out.Success {
		return nil
	}
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{inputKey(len(c.answers)): c.need}, RequestState: s.encodeState(name, args, nextState(st, c.answers))}
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

// encodeAnswers appends the answers as a JSON array to b.
func encodeAnswers(b []byte, as []answer) []byte {
	b = append(b, '[')
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

// decodeAnswers reads what encodeAnswers wrote (the MAC was checked: this is the server's own text); d's
// errors are the caller's to read.
func decodeAnswers(d *strictjson.Decoder) ([]answer, error) {
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
	return out, bad
}
