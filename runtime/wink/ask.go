package wink

import (
	"context"
	"errors"
	"strconv"
	"strings"
)

// Asking the client several things at once, under names the handler chooses.
//
// A handler (a tool's, or an MCP prompt's Get or resource's Read, which get a context.Context) gathers
// its questions in a Round and waits for all of their answers together:
//
//	r := wink.NewRound(tc)
//	name := wink.AskForm(r, "user_name", "What is your name?", WinkFormName)
//	greeting := r.Sample("greeting", wink.SampleRequest{Messages: []wink.SampleMessage{{Role: "user", Content: wink.Text("Write a greeting")}}, MaxTokens: 50})
//	roots := r.Roots("client_roots")
//	if err := r.Wait(); err != nil {
//		return wink.ToolResult[Out]{}, err // return it as it is: see below
//	}
//	// name.Action, name.Value (a Name, decoded by its generated decoder), greeting.Content, roots.Roots
//
// The key names one question for the whole life of the request: the client's answer to it is bound
// to it, a later round (or a later run of the handler) that asks the same key gets the same answer,
// and asking the same key as another kind of question (a form, then sampling) is an error. Keys are
// the handler's to choose (1 to 64 characters); names starting "wink." are the runtime's own.
//
// What the client sees depends on the protocol revision the request is answered at; the handler is
// the same for all of them:
//   - MCP 2026-07-28 (stateless or not): server requests are forbidden while a request is served, so
//     Wait returns an error the handler returns as it is (do not wrap it in a tool result); the call is
//     rolled back and the server answers with an input-required result whose inputRequests hold every
//     unanswered question of the round under its key (elicitation/create, sampling/createMessage,
//     roots/list), and a signed requestState carrying the answers gathered so far. The client answers and
//     sends the request again with inputResponses and the state; the handler runs again from the start
//     and Wait returns the answers. A handler with k rounds runs k+1 times: what it does before a Wait
//     must be safe to redo (a tool's effects are rolled back like any failed call's).
//   - MCP 2025-11-25 and earlier, on a session: each question is sent to the client as a request of its
//     own (elicitation/create, sampling/createMessage, roots/list), one after the other, and Wait
//     returns when all are answered; the handler runs once.
//   - A task (the tasks extension): the questions become the task's input requests under their keys
//     (tasks/get shows them, tasks/update answers them), and Wait returns when all are answered.
//
// Answers are checked before Wait returns: a form's by its generated decoder, a sampling answer for one
// text, image or audio block, roots for absolute file:// URIs. Wait returns every problem of every
// answer in one error, each named by its key. A client that did not declare the capability a question
// needs (elicitation, sampling, roots) makes Wait fail with an error matching ErrNotAvailable (on
// 2026-07-28 the request is answered with -32021 naming it); ask Declared first to leave such a
// question out.

// QuestionKind is what a Question asks for.
type QuestionKind uint8

// The kinds of questions.
const (
	// AskElicitation asks the user to fill a form (MCP elicitation/create).
	AskElicitation QuestionKind = iota + 1
	// AskSampling asks the client's model for a message (MCP sampling/createMessage).
	AskSampling
	// AskRoots asks for the client's roots (MCP roots/list).
	AskRoots
)

// String returns the MCP method that asks it.
func (k QuestionKind) String() string {
	switch k {
	case AskElicitation:
		return "elicitation/create"
	case AskSampling:
		return "sampling/createMessage"
	case AskRoots:
		return "roots/list"
	}
	return "question kind " + strconv.Itoa(int(k))
}

// Capability is the client capability the question needs.
func (k QuestionKind) Capability() Capability {
	switch k {
	case AskElicitation:
		return CapElicitation
	case AskSampling:
		return CapSampling
	}
	return CapRoots
}

// Root is one of the client's roots (MCP roots/list).
type Root struct {
	// URI is the root's file:// URI.
	URI string
	// Name is its display name, may be empty.
	Name string
}

// Question is one question of a Round as a Client sees it (Asker): its key, what it asks, and, once
// the client answered, the answer.
type Question struct {
	// Key names the question for the whole request (the inputRequests key on MCP 2026-07-28).
	Key string
	// Kind is what it asks for.
	Kind QuestionKind
	// Message and Schema are an AskElicitation's text and form (requestedSchema).
	Message string
	Schema  []byte
	// Sample is an AskSampling's request.
	Sample SampleRequest

	// Answered is set by the client when the fields below hold the answer.
	Answered bool
	// Action and Content are an elicitation's answer (Content, a JSON object, for ElicitAccept).
	Action  ElicitAction
	Content []byte
	// Sampled is a sampling answer.
	Sampled SampleResult
	// Roots is a roots/list answer.
	Roots []Root
}

// Asker is implemented by a Client that can ask several questions in one round (the MCP server's, and a
// task's). Ask fills in the answers of qs (each Answered), or returns an error: one matching
// ErrNotAvailable when the client cannot be asked, or one the handler returns as it is because the
// answers come with a later request (MCP 2026-07-28). A Client that is not an Asker is asked one
// question at a time through Elicit and Sample, and cannot be asked for roots.
type Asker interface {
	Ask(ctx context.Context, qs []*Question) error
}

// Declarer is implemented by a Client that knows which capabilities its caller declared.
type Declarer interface {
	Declared(c Capability) bool
}

// Declared reports whether the client of the request ctx serves (a *ToolContext, or the context of an
// MCP prompt's Get or resource's Read) declared capability c. A client that cannot tell is taken at its
// word (true); without a client, false. Unlike RequireClient, it remembers nothing: a handler asks it to
// leave out a question the client could not answer.
func Declared(ctx context.Context, c Capability) bool {
	cl := ClientOf(ctx)
	if cl == nil {
		return false
	}
	if d, ok := cl.(Declarer); ok {
		return d.Declared(c)
	}
	return true
}

// Round is the questions a handler asks the client together (see NewRound).
type Round struct {
	ctx    context.Context
	qs     []*Question
	decode []func() error // per question, run after the answers came: fills the handler's value
	err    error          // a mistake made while asking (a bad or repeated key)
}

// NewRound starts a round of questions for the client of the request ctx serves: a *ToolContext, or
// the context an MCP prompt's Get or resource's Read is given.
func NewRound(ctx context.Context) *Round { return &Round{ctx: ctx} }

// maxKey bounds a question's key.
const maxKey = 64

// add adds q, checking its key.
func (r *Round) add(q *Question, decode func() error) {
	switch {
	case q.Key == "" || len(q.Key) > maxKey:
		r.fail(errors.New("a question's key must be 1 to " + strconv.Itoa(maxKey) + " characters; got " + strconv.Quote(q.Key)))
	case strings.HasPrefix(q.Key, "wink."):
		r.fail(errors.New("question key " + strconv.Quote(q.Key) + " starts with \"wink.\", which the runtime keeps for its own questions; choose another"))
	default:
		for _, o := range r.qs {
			if o.Key == q.Key {
				r.fail(errors.New("two questions of one round have the key " + strconv.Quote(q.Key) + "; a key names one question"))
			}
		}
	}
	r.qs = append(r.qs, q)
	r.decode = append(r.decode, decode)
}

func (r *Round) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// FormAnswer is the answer to a form asked with AskForm, set when Wait returns nil: Value is meaningful
// when Action is ElicitAccept.
type FormAnswer[T any] struct {
	Action ElicitAction
	Value  T
}

// AskForm adds to r a form for the user (form, a generated WinkForm<T>), showing message, under key. Its
// answer is decoded strictly by the form's generated decoder.
func AskForm[T any](r *Round, key, message string, form *Form[T]) *FormAnswer[T] {
	fa := &FormAnswer[T]{}
	if form == nil || form.Decode == nil {
		r.fail(errors.New("AskForm " + strconv.Quote(key) + " needs a form (a generated WinkForm<T>)"))
		form = &Form[T]{}
	}
	q := &Question{Key: key, Kind: AskElicitation, Message: message, Schema: form.Schema}
	r.add(q, func() error {
		v, action, err := answer(form, q.Action, q.Content)
		if err != nil {
			return err
		}
		fa.Action, fa.Value = action, v
		return nil
	})
	return fa
}

// Sample adds to r a request for the client's model under key; the answer is set when Wait returns nil.
func (r *Round) Sample(key string, req SampleRequest) *SampleResult {
	if req.MaxTokens <= 0 {
		req.MaxTokens = 1000
	}
	res := &SampleResult{}
	q := &Question{Key: key, Kind: AskSampling, Sample: req}
	r.add(q, func() error {
		switch q.Sampled.Content.Kind {
		case KindText, KindImage, KindAudio:
		default:
			return errors.New("the client's model answered with " + q.Sampled.Content.Kind.String() + " content; a sampling answer is one text, image or audio block")
		}
		*res = q.Sampled
		return nil
	})
	return res
}

// RootsAnswer is the answer to Round.Roots, set when Wait returns nil.
type RootsAnswer struct {
	Roots []Root
}

// Roots adds to r a request for the client's roots under key.
func (r *Round) Roots(key string) *RootsAnswer {
	ra := &RootsAnswer{}
	q := &Question{Key: key, Kind: AskRoots}
	r.add(q, func() error {
		var bad []string
		for i, root := range q.Roots {
			if !strings.HasPrefix(root.URI, "file://") {
				bad = append(bad, "roots["+strconv.Itoa(i)+"].uri: must be a file:// URI; got "+strconv.Quote(root.URI))
			}
		}
		if bad != nil {
			return errors.New(strings.Join(bad, "; "))
		}
		ra.Roots = q.Roots
		return nil
	})
	return ra
}

// Wait asks the client every question of r at once and returns when all are answered, with the answers
// set in the values AskForm, Sample and Roots returned; see the package documentation of Round for what
// each protocol revision sends. An error from Wait is returned by the handler as it is.
func (r *Round) Wait() error {
	if r.err != nil {
		return r.err
	}
	if len(r.qs) == 0 {
		return nil
	}
	c := ClientOf(r.ctx)
	if c == nil {
		return notAvailable(r.qs[0].Kind.Capability().what(), "no client is connected to this call")
	}
	parent := r.ctx
	if tc, ok := r.ctx.(*ToolContext); ok {
		if tc.ended() {
			return notAvailable(r.qs[0].Kind.Capability().what(), "the call has ended; ask during the call")
		}
		parent = tc.parent()
	}
	if a, ok := c.(Asker); ok {
		if err := a.Ask(parent, r.qs); err != nil {
			return err
		}
	} else {
		for _, q := range r.qs {
			var err error
			switch q.Kind {
			case AskElicitation:
				q.Action, q.Content, err = c.Elicit(parent, q.Message, q.Schema)
			case AskSampling:
				q.Sampled, err = c.Sample(parent, q.Sample)
			default:
				err = notAvailable("roots", "this client cannot be asked for its roots")
			}
			if err != nil {
				return err
			}
			q.Answered = true
		}
	}
	var problems []string
	for i, q := range r.qs {
		if !q.Answered {
			problems = append(problems, strconv.Quote(q.Key)+": the client gave no answer")
			continue
		}
		if err := r.decode[i](); err != nil {
			problems = append(problems, strconv.Quote(q.Key)+": "+err.Error())
		}
	}
	if problems != nil {
		return &AnswerError{Problems: problems}
	}
	return nil
}

// AnswerError is Wait's error when answers do not fit their questions.
type AnswerError struct {
	// Problems are the problems, each starting with its question's key.
	Problems []string
}

// Error returns "the client's answers do not fit the questions: - "key": problem ...".
func (e *AnswerError) Error() string {
	return "the client's answers do not fit the questions:\n- " + strings.Join(e.Problems, "\n- ")
}

// what is the capability's name as ErrNotAvailable errors say it.
func (c Capability) what() string { return string(c) }
