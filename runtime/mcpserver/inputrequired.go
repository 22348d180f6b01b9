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

// Questions to the client on protocol 2026-07-28, which forbids server requests while a request is
// served (SEP-2322, multi round-trip requests). A handler asks (wink.Round, or one question at a time
// with ToolContext.Sample and wink.Elicit); questions without an answer at hand are recorded and the
// handler gets errInputNeeded, which it returns like any error: a tool's call fails and is rolled back,
// and the server answers the request (tools/call, prompts/get, resources/read) with an input-required
// result carrying every unanswered question of the round under its key (the key the handler chose;
// wink.input.N for Sample and Elicit, N counting the handler's one-at-a-time questions from 0) and a
// requestState. The client answers and sends the request again with its inputResponses and the state;
// the handler runs again from the start, and its questions are answered from the state (the earlier
// answers, carried in it) and the responses (the new ones), so it gets one round further each time,
// until it completes. A handler with k rounds runs k+1 times, so what it does before a question must be
// safe to redo (a tool's failed runs are rolled back like any failed call).
//
// An answer is bound to its key for the whole request: once given (carried in the signed state), a key
// keeps its answer, and a question of another kind under the same key is refused. The responses a
// retry carries are read when the handler asks their keys: keys nobody asks are ignored, and a key the
// handler asks that the retry does not answer is asked again. An answer the server cannot read (a
// sampling result for a form, content of a kind a tool cannot take) fails the request with -32602
// naming every such key.
//
// The requestState is the one state of the request's rounds (callstate.go): for a tool it also carries a
// held call's approval, so a call approved by a person can go on to ask its questions.

// inputKey is the inputRequests key of the handler's one-at-a-time question n.
func inputKey(n int) string { return "wink.input." + strconv.Itoa(n) }

// errInputNeeded is what questions return on 2026-07-28 while the client's answer is not known.
var errInputNeeded = errors.New("mcpserver: the client's answer is needed; the request is sent again with it (input-required result)")

// answer is the client's answer to one question, under its key.
type answer struct {
	key     string
	kind    wink.QuestionKind
	action  wink.ElicitAction
	content []byte // the accepted form, JSON
	sample  wink.SampleResult
	roots   []wink.Root
}

// asked is a question of the current round without an answer.
type asked struct {
	key string
	req mcp.InputRequest
}

// clientFor returns the client of one request, holding the answers the request's earlier rounds
// gathered (callstate.go) and the retry's responses.
func (s *server) clientFor(req mcp.Request, ss *mcp.ServerSession, answers []answer, responses mcp.InputResponseMap) *sessionClient {
	c := &sessionClient{ss: ss, answers: answers, responses: responses}
	// The version the request is answered at, not the one the client asked for: a client that asked
	// 2026-07-28 in initialize was answered 2025-11-25 and cannot read an input-required result.
	if requestVersion(req, s.versions) >= newProtocol {
		c.mrtr = true
	}
	return c
}

// inputAnswer reads the client's response to question key of kind.
func inputAnswer(key string, kind wink.QuestionKind, resp mcp.InputResponse) (answer, error) {
	a := answer{key: key, kind: kind}
	switch r := resp.(type) {
	case *mcp.ElicitResult:
		if kind != wink.AskElicitation {
			break
		}
		a.action = wink.ElicitAction(r.Action)
		switch a.action {
		case wink.ElicitAccept:
			var err error
			if a.content, err = appendFlatJSON(nil, r.Content); err != nil {
				return answer{}, err
			}
		case wink.ElicitDecline, wink.ElicitCancel:
		default:
			return answer{}, errors.New("the elicitation result's action is " + strconv.Quote(r.Action) + "; expected accept, decline or cancel")
		}
		return a, nil
	case *mcp.CreateMessageWithToolsResult: // how the SDK reads every sampling answer
		if kind != wink.AskSampling {
			break
		}
		a.sample = wink.SampleResult{Role: string(r.Role), Model: r.Model, StopReason: r.StopReason}
		if len(r.Content) != 1 {
			return answer{}, errors.New("the sampling result holds " + strconv.Itoa(len(r.Content)) + " content blocks; one is expected")
		}
		wc, ok := winkContent(r.Content[0])
		if !ok {
			return answer{}, errors.New("the sampling result holds content a tool cannot read")
		}
		a.sample.Content = wc
		return a, nil
	case *mcp.ListRootsResult:
		if kind != wink.AskRoots {
			break
		}
		a.roots = make([]wink.Root, 0, len(r.Roots))
		for _, root := range r.Roots {
			if root == nil {
				return answer{}, errors.New("the roots result holds a null root")
			}
			a.roots = append(a.roots, wink.Root{URI: root.URI, Name: root.Name})
		}
		return a, nil
	}
	return answer{}, errors.New("the answer is not a result of " + kind.String() + ", which the question asked")
}

// lookup returns the answer to question key of kind: from the request's state, else from the retry's
// responses (then kept, so the next round's state carries it). ok is false when the client has not
// answered it yet.
func (c *sessionClient) lookup(key string, kind wink.QuestionKind) (answer, bool, error) {
	for _, a := range c.answers {
		if a.key == key {
			if a.kind != kind {
				return answer{}, false, errors.New("question " + strconv.Quote(key) + " was asked as " + a.kind.String() + " earlier in this request and now as " + kind.String() + "; a key names one question for the whole request")
			}
			return a, true, nil
		}
	}
	resp, present := c.responses[key]
	if !present || resp == nil {
		return answer{}, false, nil
	}
	a, err := inputAnswer(key, kind, resp)
	if err != nil {
		c.bad = append(c.bad, "inputResponses["+strconv.Quote(key)+"]: "+err.Error())
		return answer{}, false, err
	}
	c.answers = append(c.answers, a)
	return a, true, nil
}

// askRound answers qs from what the request carries on a 2026-07-28 session, or records the unanswered
// ones as the round's input requests and returns errInputNeeded.
func (c *sessionClient) askRound(qs []*wink.Question, reqs []mcp.InputRequest) error {
	var need []asked
	for i, q := range qs {
		a, ok, err := c.lookup(q.Key, q.Kind)
		if err != nil {
			return err
		}
		if !ok {
			need = append(need, asked{key: q.Key, req: reqs[i]})
			continue
		}
		fill(q, a)
	}
	if need == nil {
		return nil
	}
	if c.need == nil {
		c.need = need
	}
	return errInputNeeded
}

// fill sets q's answer from a.
func fill(q *wink.Question, a answer) {
	q.Answered = true
	q.Action, q.Content, q.Sampled, q.Roots = a.action, a.content, a.sample, a.roots
}

// inputRequests is the inputRequests of the round the handler is waiting on, or nil.
func (c *sessionClient) inputRequests() mcp.InputRequestMap {
	if c == nil || len(c.need) == 0 {
		return nil
	}
	m := make(mcp.InputRequestMap, len(c.need))
	for _, n := range c.need {
		m[n.key] = n.req
	}
	return m
}

// askedKeys are the keys of the round the handler is waiting on.
func (c *sessionClient) askedKeys() []string {
	keys := make([]string, len(c.need))
	for i, n := range c.need {
		keys[i] = n.key
	}
	return keys
}

// badAnswers is the -32602 error of a request whose retry carried answers the server cannot read; nil
// when there were none.
func (c *sessionClient) badAnswers(what string) error {
	if c == nil || len(c.bad) == 0 {
		return nil
	}
	msg := what + ": the client's answers cannot be read:"
	for _, b := range c.bad {
		msg += "\n- " + b
	}
	return invalidParams(msg)
}

// inputRequired is the input-required result of a call whose handler failed waiting for an answer of the
// client; nil when it did not. st is the state the call ran under.
func (s *server) inputRequired(ctx context.Context, out wink.Outcome, derr error, name string, args []byte, st callState) *mcp.CallToolResult {
	c, _ := wink.ClientOf(ctx).(*sessionClient)
	c.end() // (done already by the caller) nothing writes c from here on
	if c == nil || c.need == nil || derr != nil || out.Success {
		return nil
	}
	return &mcp.CallToolResult{InputRequests: c.inputRequests(), RequestState: s.encodeState(name, args, nextState(st, c.answers, c.askedKeys()))}
}

// ask returns the answer to the handler's next one-at-a-time question on a 2026-07-28 session, or records
// req as the one needed and returns errInputNeeded.
func (c *sessionClient) ask(kind wink.QuestionKind, req mcp.InputRequest) (answer, error) {
	if !c.lockLive() {
		return answer{}, wink.NotAvailable(string(kind.Capability()), callEnded)
	}
	defer c.mu.Unlock()
	key := inputKey(c.next)
	c.next++
	q := &wink.Question{Key: key, Kind: kind}
	if err := c.askRound([]*wink.Question{q}, []mcp.InputRequest{req}); err != nil {
		return answer{}, err
	}
	return answer{key: key, kind: kind, action: q.Action, content: q.Content, sample: q.Sampled, roots: q.Roots}, nil
}

// encodeAnswers appends the answers as a JSON array to b.
func encodeAnswers(b []byte, as []answer) []byte {
	b = append(b, '[')
	for i, a := range as {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"key":`...)
		b = strictjson.AppendString(b, a.key)
		b = append(b, `,"q":`...)
		b = strictjson.AppendInt(b, int64(a.kind))
		switch a.kind {
		case wink.AskElicitation:
			b = append(b, `,"action":`...)
			b = strictjson.AppendString(b, string(a.action))
			b = append(b, `,"content":`...)
			b = strictjson.AppendString(b, string(a.content))
		case wink.AskSampling:
			r := a.sample
			b = append(b, `,"role":`...)
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
		case wink.AskRoots:
			b = append(b, `,"roots":[`...)
			for j, root := range a.roots {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"uri":`...)
				b = strictjson.AppendString(b, root.URI)
				b = append(b, `,"name":`...)
				b = strictjson.AppendString(b, root.Name)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
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
					switch key {
					case "q":
						k, _ := d.Int(0, 255)
						a.kind = wink.QuestionKind(k)
						continue
					case "kind":
						k, _ := d.Int(0, 255)
						a.sample.Content.Kind = wink.ContentKind(k)
						continue
					case "roots":
						if d.ArrayStart() {
							for d.NextElem() {
								var r wink.Root
								if d.ObjectStart() {
									for d.NextKey() {
										k := string(d.Key())
										s, _ := d.String()
										switch k {
										case "uri":
											r.URI = s
										case "name":
											r.Name = s
										}
									}
									d.ObjectEnd()
								}
								a.roots = append(a.roots, r)
							}
							d.ArrayEnd()
						}
						if a.roots == nil {
							a.roots = []wink.Root{}
						}
						continue
					}
					s, _ := d.String()
					switch key {
					case "key":
						a.key = s
					case "action":
						a.action = wink.ElicitAction(s)
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
