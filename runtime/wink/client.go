package wink

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
)

// Client is the party that called a tool, as a handler can talk to it during
// the call: log messages, questions for its model (sampling) and forms for
// its user (elicitation). The MCP server (package mcpserver) provides one
// for every tools/call, bound to the calling MCP session; ToolContext.Log,
// ToolContext.Sample and Elicit reach it through the call's context
// (WithClient). Without a client those calls do what the package
// documentation of each says (nothing, ErrNotAvailable, or the held-call path).
type Client interface {
	// Log sends a log message; a client that asked for a higher level
	// (MCP logging/setLevel) drops it silently.
	Log(ctx context.Context, level LogLevel, logger, message string) error
	// Sample asks the client's model for one message.
	Sample(ctx context.Context, req SampleRequest) (SampleResult, error)
	// Elicit asks the client's user to fill a form: schema is the form's
	// requestedSchema (MCP's elicitation subset); content is the answer as a
	// JSON object when action is ElicitAccept.
	Elicit(ctx context.Context, message string, schema []byte) (action ElicitAction, content []byte, err error)
}

type clientKey struct{}

// WithClient returns a copy of ctx that carries c: a handler dispatched with
// it logs, samples and elicits through c. The MCP server sets it for every
// call.
func WithClient(ctx context.Context, c Client) context.Context {
	return context.WithValue(ctx, clientKey{}, c)
}

// ClientOf returns the client ctx carries (WithClient), or nil.
func ClientOf(ctx context.Context) Client {
	c, _ := ctx.Value(clientKey{}).(Client)
	return c
}

// client is the call's client, or nil.
func (tc *ToolContext) client() Client {
	if tc == nil || tc.ctx == nil {
		return nil
	}
	return ClientOf(tc.ctx)
}

// ErrNotAvailable is the error of Sample and Elicit when the caller of the
// tool cannot be asked: no client (a call outside MCP without a session for
// Elicit), or an MCP client without the capability. It is wrapped with the
// reason; test with errors.Is.
var ErrNotAvailable = errors.New("not available")

// LogLevel is a log message's severity, as MCP (RFC 5424) names them.
type LogLevel string

// The log levels, least severe first.
const (
	LogDebug     LogLevel = "debug"
	LogInfo      LogLevel = "info"
	LogNotice    LogLevel = "notice"
	LogWarning   LogLevel = "warning"
	LogError     LogLevel = "error"
	LogCritical  LogLevel = "critical"
	LogAlert     LogLevel = "alert"
	LogEmergency LogLevel = "emergency"
)

// Log sends message at level to the client (an MCP client receives a
// notifications/message with the tool's name as the logger, when it asked for
// that level or a lower one with logging/setLevel). Without a client it does
// nothing: a log message is advice, never the call's outcome, so a failure to
// deliver it is ignored.
func (tc *ToolContext) Log(level LogLevel, message string) {
	c := tc.client()
	if c == nil {
		return
	}
	defer func() { _ = recover() }()
	_ = c.Log(tc.parent(), level, tc.ToolName, message)
}

// SampleRequest asks the client's model for a message (MCP
// sampling/createMessage).
type SampleRequest struct {
	// Messages is the conversation: text, image or audio blocks with roles.
	Messages []SampleMessage
	// SystemPrompt is the system prompt the server asks for; the client may
	// change or drop it.
	SystemPrompt string
	// MaxTokens bounds the answer (required by MCP; 0 means 1000).
	MaxTokens int
	// Temperature, when not 0, is the sampling temperature.
	Temperature float64
	// StopSequences end the answer.
	StopSequences []string
	// ModelHints name models in order of preference (substrings such as
	// "claude", "gpt-4o"); the client chooses.
	ModelHints []string
}

// SampleMessage is one message of a sampling conversation.
type SampleMessage struct {
	// Role is "user" or "assistant".
	Role string
	// Content is a KindText, KindImage or KindAudio block.
	Content Content
}

// SampleResult is the client model's answer.
type SampleResult struct {
	// Role is "assistant".
	Role string
	// Content is the answer: a text, image or audio block.
	Content Content
	// Model is the name of the model that answered.
	Model string
	// StopReason is why it stopped ("endTurn", "maxTokens", ...).
	StopReason string
}

// Sample asks the client's model (MCP sampling/createMessage). Without a
// client, or when the client cannot sample, it returns an error matching
// ErrNotAvailable; so it does once the call has ended (the question would
// belong to a request already answered).
func (tc *ToolContext) Sample(req SampleRequest) (SampleResult, error) {
	c := tc.client()
	if c == nil {
		return SampleResult{}, notAvailable("sampling", "no client is connected to this call")
	}
	if tc.ended() {
		return SampleResult{}, notAvailable("sampling", "the call has ended; sample during the call")
	}
	if req.MaxTokens <= 0 {
		req.MaxTokens = 1000
	}
	return c.Sample(tc.parent(), req)
}

// SampleText asks the client's model to answer prompt, a user message, and
// returns the text of its answer (an error when the answer is not text).
func (tc *ToolContext) SampleText(prompt string, maxTokens int) (string, error) {
	res, err := tc.Sample(SampleRequest{Messages: []SampleMessage{{Role: "user", Content: Text(prompt)}}, MaxTokens: maxTokens})
	if err != nil {
		return "", err
	}
	if res.Content.Kind != KindText {
		return "", errors.New("the client's model answered with " + res.Content.Kind.String() + " content, not text")
	}
	return res.Content.Text, nil
}

// notAvailable is an ErrNotAvailable error about what, saying why.
func notAvailable(what, why string) error {
	return &notAvailableError{what: what, why: why}
}

type notAvailableError struct{ what, why string }

func (e *notAvailableError) Error() string { return e.what + " is not available: " + e.why }
func (e *notAvailableError) Unwrap() error { return ErrNotAvailable }

// NotAvailable returns an error matching ErrNotAvailable saying that what
// (sampling, elicitation) cannot be done, and why. Clients use it.
func NotAvailable(what, why string) error { return notAvailable(what, why) }

// ElicitAction is the user's answer to a form: accept (with content),
// decline or cancel.
type ElicitAction string

// The answers to a form.
const (
	ElicitAccept  ElicitAction = "accept"
	ElicitDecline ElicitAction = "decline"
	ElicitCancel  ElicitAction = "cancel"
)

// Form is a form a handler asks the user to fill: winkgen generates one,
// WinkForm<T>, for every struct type marked //wink:form. Schema is its
// requestedSchema in MCP's elicitation subset (a flat object of strings,
// numbers, integers, booleans, single- and multi-select enums, with
// titles, descriptions and defaults); Decode is T's strict generated decoder
// (unknown keys, wrong types, values outside the enums and missing required
// fields are errors; defaults fill absent fields).
type Form[T any] struct {
	// Name is the Go type's name.
	Name string
	// Schema is the requestedSchema.
	Schema []byte
	// Decode decodes one answer into a T.
	Decode func(d *strictjson.Decoder, v *T)
}

// DecodeForm decodes content, a form's answer, strictly into a T.
func DecodeForm[T any](f *Form[T], content []byte) (T, error) {
	var v T
	var d strictjson.Decoder
	d.Reset(content, strictjson.Limits{MaxBytes: len(content) + 1})
	f.Decode(&d, &v)
	if errs := d.Finish(); errs != nil {
		return v, &FormError{Form: f.Name, Errs: errs}
	}
	return v, nil
}

// FormError is Elicit's error when the answer does not fit the form.
type FormError struct {
	// Form is the form's type name.
	Form string
	// Errs are the problems, each with its JSON path.
	Errs *strictjson.Errors
}

// Error returns `the answer to form Contact does not fit it: <problems>` (a text that may reach the
// model: the handler returns it).
func (e *FormError) Error() string {
	return "the answer to form " + e.Form + " does not fit it: " + e.Errs.Error()
}

// Elicit asks the user to fill form, showing message, and returns the answer
// decoded strictly into a T with the user's action; the T is meaningful only
// when the action is ElicitAccept.
//
// Through MCP it is elicitation/create on the calling client (an error
// matching ErrNotAvailable when the client has no elicitation capability, or
// speaks a protocol version that forbids server requests during a call).
// Outside MCP, with a session, it takes the held-call path: the first time,
// it returns a *HeldError (its Elicitation says what is asked) that the
// handler returns as its error: Dispatch then returns it, the call's effects
// are rolled back, and the agent loop stops with StopHeld; AnswerElicitation
// records the answer in the session, and dispatching the held call again
// (loop.Resume: the call with Call.Hold set) runs the handler again, whose
// Elicit now returns the answer. An answer is bound to the held call's
// Binding: a later call that reuses the provider's call id (or asks with
// other arguments, in another session or run) is asked anew.
// Without a client and a session it returns an error matching
// ErrNotAvailable, and so it does once the call has ended.
func Elicit[T any](tc *ToolContext, message string, form *Form[T]) (T, ElicitAction, error) {
	var zero T
	if form == nil || form.Decode == nil {
		return zero, "", errors.New("Elicit needs a form (a generated WinkForm<T>)")
	}
	seq, live := tc.nextElicit()
	if !live {
		return zero, "", notAvailable("elicitation", "the call has ended; elicit during the call")
	}
	if c := tc.client(); c != nil {
		action, content, err := c.Elicit(tc.parent(), message, form.Schema)
		if err != nil {
			return zero, "", err
		}
		return answer(form, action, content)
	}
	s := tc.Session()
	if s == nil {
		return zero, "", notAvailable("elicitation", "no client is connected to this call and the dispatcher has no session to hold it in")
	}
	if tc.hold() != "" {
		b := tc.Binding()
		for a := range session.Values(s, ElicitationSlice) {
			if a.Hold == b.Hold && a.Seq == seq && a.Action != "" && a.bound(b) {
				return answer(form, a.Action, []byte(a.Content))
			}
		}
	}
	he := tc.heldError(Call{ID: tc.CallID, Name: tc.ToolName}, "elicitation", message)
	he.Elicitation = &ElicitationRequest{Message: message, Schema: form.Schema, Seq: seq}
	// Record the question (a LOG slice: the call's rollback keeps it), for PendingElicitations.
	func() {
		defer func() { _ = recover() }() // a read-only view of the session cannot record it
		b := he.Binding
		for a := range session.Values(s, ElicitationSlice) {
			if a.Hold == b.Hold && a.Seq == seq && a.Action == "" && a.bound(b) {
				return // asked before (the call was dispatched again before the answer)
			}
		}
		session.Append(s, ElicitationSlice, ElicitationAnswer{CallID: tc.CallID, Seq: seq, Tool: tc.ToolName, Message: message,
			Schema: string(form.Schema), Hold: b.Hold, Digest: b.Digest, Session: b.Session, Run: b.Run, Arguments: he.Arguments})
	}()
	return zero, "", he
}

// bound reports whether a was recorded for a call with binding b (its hold id aside).
func (a *ElicitationAnswer) bound(b Binding) bool {
	return a.Tool == b.Tool && a.Digest == b.Digest && a.Session == b.Session && a.Run == b.Run
}

// PendingElicitations returns the questions Elicit asked in s that have no answer yet, oldest first,
// as the *HeldError each call was held with (Call has the ID, the tool's name and the hold id; Binding
// and Arguments say which call asked): what a program driving the agent loop shows the user after
// loop.StopHeld, then answers with AnswerElicitation. On a stored session, read it inside a transaction
// (s.Begin) to see what other workers recorded.
func PendingElicitations(s *session.Session) []*HeldError {
	if s == nil {
		return nil
	}
	type key struct {
		hold string
		seq  int
	}
	answered := map[key]bool{}
	var asked []ElicitationAnswer
	for a := range session.Values(s, ElicitationSlice) {
		k := key{a.Hold, a.Seq}
		if a.Action != "" {
			answered[k] = true
		} else if !slices.ContainsFunc(asked, func(b ElicitationAnswer) bool { return b.Hold == a.Hold && b.Seq == a.Seq }) {
			asked = append(asked, a)
		}
	}
	var out []*HeldError
	for _, a := range asked {
		if !answered[key{a.Hold, a.Seq}] {
			out = append(out, &HeldError{Call: Call{ID: a.CallID, Name: a.Tool, Hold: a.Hold}, Policy: "elicitation", Reason: a.Message,
				Binding:     Binding{Hold: a.Hold, Tool: a.Tool, Digest: a.Digest, Session: a.Session, Run: a.Run},
				Arguments:   a.Arguments,
				Elicitation: &ElicitationRequest{Message: a.Message, Schema: []byte(a.Schema), Seq: a.Seq}})
		}
	}
	return out
}

// nextElicit returns the number of Elicit calls tc's handler made before this one (counted in rare, so
// that calls which never elicit do not pay for it); false once the call has ended.
func (tc *ToolContext) nextElicit() (int, bool) {
	r := tc.lockRare()
	if r == nil {
		return 0, false
	}
	defer r.unlock()
	if r.ended() {
		return 0, false
	}
	seq := r.elicits
	r.elicits++
	return seq, true
}

// answer decodes an accepted answer.
func answer[T any](form *Form[T], action ElicitAction, content []byte) (T, ElicitAction, error) {
	var zero T
	switch action {
	case ElicitAccept:
		if len(content) == 0 {
			content = []byte("{}")
		}
		v, err := DecodeForm(form, content)
		if err != nil {
			return zero, action, err
		}
		return v, action, nil
	case ElicitDecline, ElicitCancel:
		return zero, action, nil
	}
	return zero, action, errors.New("unknown elicitation action " + strconv.Quote(string(action)))
}

// ElicitationRequest is what a call held by Elicit asks (HeldError.Elicitation).
type ElicitationRequest struct {
	// Message is the handler's message for the user.
	Message string
	// Schema is the form's requestedSchema.
	Schema []byte
	// Seq numbers the Elicit calls of one run of the handler, from 0.
	Seq int
}

// ElicitationAnswer is a question Elicit asked outside MCP (Action empty;
// Tool, Message and Schema set) or the user's answer to it (Action set), kept
// in the session (ElicitationSlice).
type ElicitationAnswer struct {
	// CallID is the held call's ID.
	CallID string
	// Seq is ElicitationRequest.Seq.
	Seq int
	// Action is the user's action; empty for the question.
	Action ElicitAction
	// Content is the answer, a JSON object, when Action is ElicitAccept.
	Content string
	// Tool, Message and Schema describe the question.
	Tool, Message, Schema string
	// Hold, Digest, Session and Run are the held call's Binding (with Tool): an answer is given to the
	// call with that binding only.
	Hold, Digest, Session, Run string
	// Arguments are the call's arguments as shown (HeldError.Arguments).
	Arguments string
}

// ElicitationSlice holds the answers (a LOG slice, with a codec: a stored
// session keeps them, so any worker may resume the call). Give it to the
// session store with the other slices.
var ElicitationSlice = session.NewSlice[ElicitationAnswer]("wink.elicitations", session.NoRollback, session.WithCodec(elicitationCodec))

// AnswerElicitation records the user's answer to the elicitation that held
// call (held.Elicitation), in a transaction of s, bound to held.Binding: the
// answer is given to that held call only (dispatched again with Call.Hold),
// never to another call that reuses its provider id. content is the answer as a
// JSON object (for ElicitAccept; nil otherwise); it is checked against the
// form when the handler runs again.
func AnswerElicitation(ctx context.Context, s *session.Session, held *HeldError, action ElicitAction, content []byte) error {
	if s == nil {
		return errors.New("wink: no session to record the answer in")
	}
	if held == nil || held.Elicitation == nil || held.Binding.Hold == "" {
		return errors.New("wink: AnswerElicitation needs the *HeldError of a call held by Elicit")
	}
	switch action {
	case ElicitAccept, ElicitDecline, ElicitCancel:
	default:
		return errors.New("wink: unknown elicitation action " + strconv.Quote(string(action)))
	}
	tx, err := s.Begin(ctx, session.ReadWrite)
	if err != nil {
		return err
	}
	b := held.Binding
	session.Append(tx.Session(), ElicitationSlice, ElicitationAnswer{CallID: held.Call.ID, Seq: held.Elicitation.Seq, Action: action, Content: string(content),
		Tool: b.Tool, Hold: b.Hold, Digest: b.Digest, Session: b.Session, Run: b.Run})
	return tx.End(ctx)
}

// elicitationCodec stores ElicitationAnswer as
// {"call_id":..,"seq":..,"action":..,"content":..}.
var elicitationCodec = session.Codec[ElicitationAnswer]{
	Encode: func(dst []byte, v *ElicitationAnswer) []byte {
		dst = append(dst, `{"call_id":`...)
		dst = strictjson.AppendString(dst, v.CallID)
		dst = append(dst, `,"seq":`...)
		dst = strictjson.AppendInt(dst, int64(v.Seq))
		dst = append(dst, `,"action":`...)
		dst = strictjson.AppendString(dst, string(v.Action))
		dst = append(dst, `,"content":`...)
		dst = strictjson.AppendString(dst, v.Content)
		dst = append(dst, `,"tool":`...)
		dst = strictjson.AppendString(dst, v.Tool)
		dst = append(dst, `,"message":`...)
		dst = strictjson.AppendString(dst, v.Message)
		dst = append(dst, `,"schema":`...)
		dst = strictjson.AppendString(dst, v.Schema)
		dst = append(dst, `,"hold":`...)
		dst = strictjson.AppendString(dst, v.Hold)
		dst = append(dst, `,"digest":`...)
		dst = strictjson.AppendString(dst, v.Digest)
		dst = append(dst, `,"session":`...)
		dst = strictjson.AppendString(dst, v.Session)
		dst = append(dst, `,"run":`...)
		dst = strictjson.AppendString(dst, v.Run)
		dst = append(dst, `,"arguments":`...)
		dst = strictjson.AppendString(dst, v.Arguments)
		return append(dst, '}')
	},
	Decode: func(data []byte) (ElicitationAnswer, error) {
		var v ElicitationAnswer
		var d strictjson.Decoder
		d.Reset(data, strictjson.Limits{MaxBytes: len(data) + 1})
		var seen uint64
		if d.ObjectStart() {
			for d.NextKey() {
				switch string(d.Key()) {
				case "call_id":
					if !d.Repeated(&seen, 1) {
						v.CallID, _ = d.String()
					}
				case "seq":
					if !d.Repeated(&seen, 2) {
						n, _ := d.Int(0, 1<<31-1)
						v.Seq = int(n)
					}
				case "action":
					if !d.Repeated(&seen, 4) {
						s, _ := d.String()
						v.Action = ElicitAction(s)
					}
				case "content":
					if !d.Repeated(&seen, 8) {
						v.Content, _ = d.String()
					}
				case "tool":
					if !d.Repeated(&seen, 16) {
						v.Tool, _ = d.String()
					}
				case "message":
					if !d.Repeated(&seen, 32) {
						v.Message, _ = d.String()
					}
				case "schema":
					if !d.Repeated(&seen, 64) {
						v.Schema, _ = d.String()
					}
				case "hold":
					if !d.Repeated(&seen, 128) {
						v.Hold, _ = d.String()
					}
				case "digest":
					if !d.Repeated(&seen, 256) {
						v.Digest, _ = d.String()
					}
				case "session":
					if !d.Repeated(&seen, 512) {
						v.Session, _ = d.String()
					}
				case "run":
					if !d.Repeated(&seen, 1024) {
						v.Run, _ = d.String()
					}
				case "arguments":
					if !d.Repeated(&seen, 2048) {
						v.Arguments, _ = d.String()
					}
				default:
					d.Unknown(elicitationKeys)
				}
			}
			for i, k := range elicitationKeys[:4] { // the others are optional (records written before them have no hold: never answered)
				if seen&(1<<i) == 0 {
					d.Missing(k)
				}
			}
			d.ObjectEnd()
		}
		if errs := d.Finish(); errs != nil {
			return v, errs
		}
		return v, nil
	},
}

var elicitationKeys = []string{"call_id", "seq", "action", "content", "tool", "message", "schema", "hold", "digest", "session", "run", "arguments"}
