package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strconv"
	"time"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/tasks"
	"github.com/winkgen/wink/runtime/wink"
)

// What a task asks its client. A task cannot send the client requests: everything it needs from the
// client is an input request of the task (status input_required), shown by tasks/get and answered by
// tasks/update in the shapes of input-required results:
//
//   - wink.Round (wink.NewRound, AskForm, Sample, Roots): every question of the round at once, each
//     under the key the handler chose, answered like the ones below (roots/list with
//     {"roots":[{"uri":"file:///...","name":...}]}); Wait returns when all are answered.
//   - wink.Elicit: inputRequests["wink.input.N"] = {"method":"elicitation/create","params":{...}},
//     answered with an elicitation result ({"action":"accept","content":{...}}).
//   - ToolContext.Sample: inputRequests["wink.input.N"] = {"method":"sampling/createMessage",
//     "params":{...}}, answered with a sampling result ({"role":"assistant","content":{...},"model":...}).
//     N counts the handler's questions and samplings together, from 0.
//   - A call a policy holds for a person's approval (policy.RequireApproval):
//     inputRequests["wink.approval.M.H"] = an elicitation asking to approve the call (its tool and
//     arguments as wink.HeldError.Question shows them), answered with {"action":"accept"} to approve or
//     {"action":"decline","content":{"reason":"..."}} to deny (cancel denies too). M counts the task's
//     holds from 0; H names the held call: the first 16 hex digits of SHA-256 over its tool and the
//     digest of its canonical arguments. The decision is recorded in the dispatcher's session bound to
//     the held call (its hold id, tool, arguments digest, session and run: wink.Binding), and the call
//     is dispatched again under that hold id, so it runs, or the model reads the denial.
//
// Keys are never reused within a task: an answer is stored with the task under its key, and a worker
// that takes the task over replays it to the same question only (the same N; for an approval the same
// M and the same held call, so an approval given for one call never authorizes another, in this task
// or any other). Answers are stored per task: tasks/update on one task never answers another's.

// taskInputKey is the key of a task's input request n.
func taskInputKey(n int) string { return "wink.input." + strconv.Itoa(n) }

// taskApprovalKey is the key of a task's hold m, of the held call held.
func taskApprovalKey(m int, held *wink.HeldError) string {
	sum := sha256.Sum256([]byte(held.Binding.Tool + "\x00" + held.Binding.Digest))
	return "wink.approval." + strconv.Itoa(m) + "." + hex.EncodeToString(sum[:8])
}

// taskClient is the wink.Client of a task's handler: its questions are the task's input requests.
type taskClient struct {
	tk    *Tasks
	id    string
	token int64
	// carried are the answers given in the request before the task started (StartTask), by key.
	carried []answer
	next    int // the handler's next question
	holds   int // the task's next hold
}

func (c *taskClient) Log(context.Context, wink.LogLevel, string, string) error { return nil }

// key returns the number of the handler's next question.
func (c *taskClient) key() int {
	c.tk.mu.Lock()
	defer c.tk.mu.Unlock()
	c.next++
	return c.next - 1
}

// await adds the input request req under key and waits for its answer (returned at once when it was
// answered before: a worker that took the task over asks again).
func (c *taskClient) await(ctx context.Context, key string, req []byte) ([]byte, error) {
	ans, ok, err := c.tk.o.Store.Ask(ctx, c.id, c.token, key, req)
	for err == nil && !ok {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(min(c.tk.o.PollInterval, 200*time.Millisecond)):
		}
		var t tasks.Task
		t, err = c.tk.o.Store.Get(ctx, c.id)
		if err == nil {
			ans, ok = t.Answers[key]
		}
	}
	return ans, err
}

func (c *taskClient) Elicit(ctx context.Context, message string, schema []byte) (wink.ElicitAction, []byte, error) {
	n := c.key()
	if a, ok := c.carriedAnswer(taskInputKey(n)); ok {
		if a.kind == wink.AskElicitation {
			return a.action, a.content, nil
		}
		return "", nil, errors.New("mcpserver: the answer given in the request to this question is not an elicitation result")
	}
	req := append([]byte(nil), `{"method":"elicitation/create","params":{"mode":"form","message":`...)
	req = strictjson.AppendString(req, message)
	req = append(req, `,"requestedSchema":`...)
	req = append(req, schema...)
	req = append(req, `}}`...)
	ans, err := c.await(ctx, taskInputKey(n), req)
	if err != nil {
		return "", nil, err
	}
	return readElicitAnswer(ans)
}

func (c *taskClient) Sample(ctx context.Context, sr wink.SampleRequest) (wink.SampleResult, error) {
	req, err := appendSampleRequest(nil, sr)
	if err != nil {
		return wink.SampleResult{}, err
	}
	n := c.key()
	if a, ok := c.carriedAnswer(taskInputKey(n)); ok {
		if a.kind == wink.AskSampling {
			return a.sample, nil
		}
		return wink.SampleResult{}, errors.New("mcpserver: the answer given in the request to this sampling request is not a sampling result")
	}
	ans, err := c.await(ctx, taskInputKey(n), req)
	if err != nil {
		return wink.SampleResult{}, err
	}
	return readSampleAnswer(ans)
}

// decision asks for a person's decision on the held call as the task's next approval input request,
// and returns it with the person's reason.
func (c *taskClient) decision(ctx context.Context, held *wink.HeldError) (wink.ElicitAction, string, error) {
	c.tk.mu.Lock()
	m := c.holds
	c.holds++
	c.tk.mu.Unlock()
	req := append([]byte(nil), `{"method":"elicitation/create","params":{"mode":"form","message":`...)
	req = strictjson.AppendString(req, held.Question())
	req = append(req, `,"requestedSchema":`...)
	req = append(req, approvalSchema...)
	req = append(req, `}}`...)
	ans, err := c.await(ctx, taskApprovalKey(m, held), req)
	if err != nil {
		return "", "", err
	}
	action, content, err := readElicitResult(ans)
	if err != nil {
		return "", "", err
	}
	return action, reasonOf(content), nil // a decline's reason, which the model reads
}

// reasonOf returns the reason member of an approval form's content, "" when there is none.
func reasonOf(content []byte) string {
	if len(content) == 0 {
		return ""
	}
	var d strictjson.Decoder
	d.Reset(content, strictjson.Limits{MaxBytes: len(content) + 1, MaxDepth: 64, MaxErrors: 1})
	reason := ""
	if d.ObjectStart() {
		for d.NextKey() {
			if string(d.Key()) == "reason" && d.Peek() == strictjson.KindString {
				reason, _ = d.String()
				continue
			}
			d.Skip()
		}
		d.ObjectEnd()
	}
	return reason
}

// readElicitAnswer reads an elicitation result: {"action":..., "content":{...}}; content only when
// accepted.
func readElicitAnswer(raw []byte) (wink.ElicitAction, []byte, error) {
	a, content, err := readElicitResult(raw)
	if a != wink.ElicitAccept {
		content = nil
	}
	return a, content, err
}

// readElicitResult reads an elicitation result, with its content whatever the action.
func readElicitResult(raw []byte) (wink.ElicitAction, []byte, error) {
	var d strictjson.Decoder
	d.Reset(raw, strictjson.Limits{MaxBytes: len(raw) + 1, MaxDepth: 128, MaxErrors: 1})
	var action string
	var content []byte
	if d.ObjectStart() {
		for d.NextKey() {
			switch string(d.Key()) {
			case "action":
				action, _ = d.String()
			case "content":
				if v, ok := d.Raw(); ok {
					content = append([]byte(nil), v...)
				}
			default:
				d.Skip()
			}
		}
		d.ObjectEnd()
	}
	if errs := d.Finish(); errs != nil && errs.Len() > 0 {
		return "", nil, errors.New("the client's answer is not an elicitation result: " + errs.Error())
	}
	switch a := wink.ElicitAction(action); a {
	case wink.ElicitAccept, wink.ElicitDecline, wink.ElicitCancel:
		return a, content, nil
	}
	return "", nil, errors.New("the client's answer has action " + strconv.Quote(action) + "; expected accept, decline or cancel")
}

// appendSampleRequest appends the input request of a sampling request (sampling/createMessage).
func appendSampleRequest(b []byte, sr wink.SampleRequest) ([]byte, error) {
	b = append(b, `{"method":"sampling/createMessage","params":{"messages":[`...)
	for i, m := range sr.Messages {
		if i > 0 {
			b = append(b, ',')
		}
		switch m.Content.Kind {
		case wink.KindText, wink.KindImage, wink.KindAudio:
		default:
			return nil, errors.New("sampling message " + strconv.Itoa(i) + " holds " + m.Content.Kind.String() + " content; sampling takes text, image and audio")
		}
		b = append(b, `{"role":`...)
		b = strictjson.AppendString(b, m.Role)
		b = append(b, `,"content":`...)
		b = appendSampleContent(b, m.Content)
		b = append(b, '}')
	}
	maxTokens := sr.MaxTokens
	if maxTokens <= 0 {
		maxTokens = 1000
	}
	b = append(b, `],"maxTokens":`...)
	b = strictjson.AppendInt(b, int64(maxTokens))
	if sr.SystemPrompt != "" {
		b = append(b, `,"systemPrompt":`...)
		b = strictjson.AppendString(b, sr.SystemPrompt)
	}
	if sr.Temperature != 0 {
		b = append(b, `,"temperature":`...)
		b = strictjson.AppendFloat(b, sr.Temperature, 64)
	}
	if len(sr.StopSequences) > 0 {
		b = append(b, `,"stopSequences":[`...)
		for i, s := range sr.StopSequences {
			if i > 0 {
				b = append(b, ',')
			}
			b = strictjson.AppendString(b, s)
		}
		b = append(b, ']')
	}
	if len(sr.ModelHints) > 0 {
		b = append(b, `,"modelPreferences":{"hints":[`...)
		for i, h := range sr.ModelHints {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = strictjson.AppendString(b, h)
			b = append(b, '}')
		}
		b = append(b, `]}`...)
	}
	return append(b, `}}`...), nil
}

// appendSampleContent appends a text, image or audio block.
func appendSampleContent(b []byte, c wink.Content) []byte {
	switch c.Kind {
	case wink.KindImage, wink.KindAudio:
		if c.Kind == wink.KindImage {
			b = append(b, `{"type":"image","data":`...)
		} else {
			b = append(b, `{"type":"audio","data":`...)
		}
		b = strictjson.AppendString(b, base64.StdEncoding.EncodeToString(c.Data))
		b = append(b, `,"mimeType":`...)
		b = strictjson.AppendString(b, c.MIMEType)
		return append(b, '}')
	}
	b = append(b, `{"type":"text","text":`...)
	b = strictjson.AppendString(b, c.Text)
	return append(b, '}')
}

// readSampleAnswer reads a sampling result: {"role":..., "content":{...} or [{...}], "model":...,
// "stopReason":...}; its content is one text, image or audio block.
func readSampleAnswer(raw []byte) (wink.SampleResult, error) {
	var d strictjson.Decoder
	d.Reset(raw, strictjson.Limits{MaxBytes: len(raw) + 1, MaxDepth: 128, MaxErrors: 1})
	var out wink.SampleResult
	blocks := 0
	var bad error
	block := func() {
		blocks++
		c, err := readSampleContent(&d)
		if err != nil && bad == nil {
			bad = err
		}
		out.Content = c
	}
	if d.ObjectStart() {
		for d.NextKey() {
			switch string(d.Key()) {
			case "role":
				out.Role, _ = d.String()
			case "model":
				out.Model, _ = d.String()
			case "stopReason":
				out.StopReason, _ = d.String()
			case "content":
				if d.Peek() == strictjson.KindArray {
					if d.ArrayStart() {
						for d.NextElem() {
							block()
						}
						d.ArrayEnd()
					}
				} else {
					block()
				}
			default:
				d.Skip()
			}
		}
		d.ObjectEnd()
	}
	if errs := d.Finish(); errs != nil && errs.Len() > 0 {
		return wink.SampleResult{}, errors.New("the client's answer is not a sampling result: " + errs.Error())
	}
	if bad != nil {
		return wink.SampleResult{}, bad
	}
	if blocks != 1 {
		return wink.SampleResult{}, errors.New("the sampling answer holds " + strconv.Itoa(blocks) + " content blocks; a tool takes one")
	}
	return out, nil
}

// readSampleContent reads one content block of a sampling result.
func readSampleContent(d *strictjson.Decoder) (wink.Content, error) {
	var typ, text, data, mime string
	if d.ObjectStart() {
		for d.NextKey() {
			switch string(d.Key()) {
			case "type":
				typ, _ = d.String()
			case "text":
				text, _ = d.String()
			case "data":
				data, _ = d.String()
			case "mimeType":
				mime, _ = d.String()
			default:
				d.Skip()
			}
		}
		d.ObjectEnd()
	}
	switch typ {
	case "text":
		return wink.Content{Kind: wink.KindText, Text: text}, nil
	case "image", "audio":
		raw, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return wink.Content{}, errors.New("the sampling answer's " + typ + " data is not base64: " + err.Error())
		}
		k := wink.KindImage
		if typ == "audio" {
			k = wink.KindAudio
		}
		return wink.Content{Kind: k, Data: raw, MIMEType: mime}, nil
	}
	return wink.Content{}, errors.New("the sampling answer holds content of type " + strconv.Quote(typ) + ", which a tool cannot read; send text, image or audio")
}

// carriedAnswer returns the answer to key given before the task started.
func (c *taskClient) carriedAnswer(key string) (answer, bool) {
	for _, a := range c.carried {
		if a.key == key {
			return a, true
		}
	}
	return answer{}, false
}

// Declared is wink.Declarer: a task's client answers through tasks/update, whatever it declared.
func (c *taskClient) Declared(wink.Capability) bool { return true }

// Ask is wink.Asker: every question of the round not answered yet becomes an input request of the task
// at once, under its key, and Ask returns when all are answered (or ctx ends: the task was cancelled or
// this worker lost it). Every problem of every answer is reported, each under its key.
func (c *taskClient) Ask(ctx context.Context, qs []*wink.Question) error {
	raw := make(map[string][]byte, len(qs))
	var pending []*wink.Question
	for _, q := range qs {
		if a, ok := c.carriedAnswer(q.Key); ok {
			if a.kind != q.Kind {
				return errors.New("question " + strconv.Quote(q.Key) + " was asked as " + a.kind.String() + " before the task started and now as " + q.Kind.String() + "; a key names one question for the whole request")
			}
			fill(q, a)
			continue
		}
		req, err := taskRequest(q)
		if err != nil {
			return errors.New("question " + strconv.Quote(q.Key) + ": " + err.Error())
		}
		ans, ok, err := c.tk.o.Store.Ask(ctx, c.id, c.token, q.Key, req)
		if err != nil {
			return err
		}
		if ok {
			raw[q.Key] = ans
		} else {
			pending = append(pending, q)
		}
	}
	for len(pending) > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(min(c.tk.o.PollInterval, 200*time.Millisecond)):
		}
		t, err := c.tk.o.Store.Get(ctx, c.id)
		if err != nil {
			return err
		}
		rest := pending[:0]
		for _, q := range pending {
			if ans, ok := t.Answers[q.Key]; ok {
				raw[q.Key] = ans
			} else {
				rest = append(rest, q)
			}
		}
		pending = rest
	}
	var problems []string
	for _, q := range qs {
		b, ok := raw[q.Key]
		if !ok {
			continue // carried
		}
		a, err := readTaskAnswer(q.Kind, b)
		if err != nil {
			problems = append(problems, strconv.Quote(q.Key)+": "+err.Error())
			continue
		}
		a.key = q.Key
		fill(q, a)
	}
	if problems != nil {
		return &wink.AnswerError{Problems: problems}
	}
	return nil
}

// taskRequest is q as a task's input request: {"method":...,"params":{...}}.
func taskRequest(q *wink.Question) ([]byte, error) {
	switch q.Kind {
	case wink.AskElicitation:
		b := append([]byte(nil), `{"method":"elicitation/create","params":{"mode":"form","message":`...)
		b = strictjson.AppendString(b, q.Message)
		b = append(b, `,"requestedSchema":`...)
		b = append(b, q.Schema...)
		return append(b, `}}`...), nil
	case wink.AskSampling:
		return appendSampleRequest(nil, q.Sample)
	case wink.AskRoots:
		return []byte(`{"method":"roots/list","params":{}}`), nil
	}
	return nil, errors.New("unknown question kind " + q.Kind.String())
}

// readTaskAnswer reads the client's answer to a question of kind.
func readTaskAnswer(kind wink.QuestionKind, raw []byte) (answer, error) {
	a := answer{kind: kind}
	var err error
	switch kind {
	case wink.AskElicitation:
		a.action, a.content, err = readElicitAnswer(raw)
	case wink.AskSampling:
		a.sample, err = readSampleAnswer(raw)
	case wink.AskRoots:
		a.roots, err = readRootsAnswer(raw)
	default:
		err = errors.New("unknown question kind " + kind.String())
	}
	return a, err
}

// readRootsAnswer reads a roots/list result, strictly: {"roots":[{"uri":...,"name":...}]} (other members
// are ignored); every problem is reported with its path.
func readRootsAnswer(raw []byte) ([]wink.Root, error) {
	roots := []wink.Root{}
	var d strictjson.Decoder
	d.Reset(raw, strictjson.Limits{MaxBytes: len(raw) + 1, MaxDepth: 32, MaxErrors: 20})
	seen := false
	if d.ObjectStart() {
		for d.NextKey() {
			if string(d.Key()) != "roots" {
				d.Skip()
				continue
			}
			seen = true
			if d.ArrayStart() {
				for d.NextElem() {
					var r wink.Root
					hasURI := false
					if d.ObjectStart() {
						for d.NextKey() {
							switch string(d.Key()) {
							case "uri":
								hasURI = true
								r.URI, _ = d.String()
							case "name":
								r.Name, _ = d.String()
							default:
								d.Skip()
							}
						}
						if !hasURI {
							d.Missing("uri")
						}
						d.ObjectEnd()
					}
					roots = append(roots, r)
				}
				d.ArrayEnd()
			}
		}
		if !seen {
			d.Missing("roots")
		}
		d.ObjectEnd()
	}
	if errs := d.Finish(); errs != nil && errs.Len() > 0 {
		return nil, errors.New("the client's answer is not a roots/list result: " + errs.Error())
	}
	return roots, nil
}
