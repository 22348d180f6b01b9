package loop

import (
	"context"
	"errors"
	"strconv"
	"sync"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// DefaultMaxTurns is the number of turns a run may take when Config.MaxTurns is zero.
const DefaultMaxTurns = 32

// ErrMaxTurns is returned by Run when the model was still calling tools after the last allowed turn.
var ErrMaxTurns = errors.New("loop: maximum number of turns reached")

// Role says who wrote a Message.
type Role string

// The roles of a conversation. The system prompt is not a message: it is Request.System.
const (
	// RoleUser marks what the user (or the application) said.
	RoleUser Role = "user"
	// RoleAssistant marks what the model answered: text and/or tool calls.
	RoleAssistant Role = "assistant"
	// RoleTool marks the result of one tool call, fed back to the model.
	RoleTool Role = "tool"
)

// Message is one entry of the conversation, in a provider-neutral form that providers translate to their
// wire format.
type Message struct {
	// Role says who wrote the message.
	Role Role
	// Text is the user's or the model's text (empty for tool messages).
	Text string
	// ToolCalls are the calls the model requested (assistant messages only), in the model's order.
	ToolCalls []wink.Call
	// Result is the dispatched call's outcome (tool messages only): Result.CallID answers the call with
	// that id, Result.Output is the text the model reads, Result.Success says whether the call failed.
	Result wink.Outcome
	// Found names the tools a tool search found (tool messages answering a call of toolsearch.Name
	// only), best first: providers that load deferred tools by reference answer with these names
	// (Anthropic tool_reference blocks, OpenAI tool_search_output), and the loop loads them from the
	// next request on. Keep it with the message: a run continued from these messages loads them too.
	Found []string
	// Container is the id of the provider's code execution container this assistant turn ran in
	// (Anthropic's container.id), "" for none: the provider sends the latest one back so that programs
	// continue where they stopped.
	Container string
	// Native is the assistant turn as the provider wrote it, when the turn holds items the neutral form
	// cannot carry (Anthropic's server_tool_use and code_execution results, OpenAI's program items with
	// their fingerprint): the provider's own JSON, sent back byte for byte in place of Text and
	// ToolCalls. Nil for an ordinary turn.
	Native []byte
}

// UserMessage returns a user message with text.
func UserMessage(text string) Message { return Message{Role: RoleUser, Text: text} }

// Usage counts the tokens one provider response consumed.
type Usage struct {
	// Input counts the input (prompt) tokens.
	Input int
	// Output counts the output (completion) tokens.
	Output int
}

// Request is what the loop sends a provider for one turn.
type Request struct {
	// System is the system prompt ("" for none).
	System string
	// Messages is the conversation so far, oldest first.
	Messages []Message
	// Tools are the tools the model may call, in order, loaded into its context.
	Tools []*wink.Tool
	// Deferred are the tools the model may find with a tool search but whose definitions are not loaded
	// yet (wink.Spec.Deferred, not found by a search of this conversation), in order. Providers that
	// load tools on demand send them marked so (defer_loading); the others leave them out.
	Deferred []*wink.Tool
	// Search asks for the client-side tool search (Config.Search): the provider offers the model a tool
	// named toolsearch.Name (with toolsearch.ParamsSchema) whose calls the loop answers.
	Search bool
	// Programs are the offered tools only programs may call (//wink:tool callers=program, see
	// wink.Spec.Callable), in order: never in Tools or Deferred, as the model may not call them itself.
	// A provider that runs programs calling the client's tools sends them for its programs only
	// (Anthropic's allowed_callers naming the code execution tool, OpenAI's "programmatic"); the others
	// leave them out. Programs winkgen runs (runtime/suites/eval's run_program) find them in their
	// guide.
	Programs []*wink.Tool
}

// Response is one model turn as a provider reports it.
type Response struct {
	// Text is the model's text (may be empty when it only calls tools).
	Text string
	// ToolCalls are the calls the model requested, in order. None means the model is done.
	ToolCalls []wink.Call
	// Usage is the tokens this response consumed.
	Usage Usage
	// Stop is the provider's own stop reason, verbatim ("stop", "tool_calls", "length", "end_turn", ...).
	// The loop does not interpret it: only ToolCalls decides whether the run goes on.
	Stop string
	// Container and Native become the assistant message's (see Message).
	Container string
	Native    []byte
}

// Provider is a model behind some API: it answers a conversation with text and/or tool calls.
type Provider interface {
	// Complete returns the model's next turn. An error stops the run; it should wrap ctx.Err() when the
	// request was abandoned because ctx is done.
	Complete(ctx context.Context, req Request) (Response, error)
}

// Turn is one model response and what the loop did with it, reported to Config.OnTurn.
type Turn struct {
	// Index counts the run's turns from 1; it is 0 for the turn Resume completes (Resumed).
	Index int
	// Resumed marks the turn Resume completes: the held turn of the run being resumed (Response is
	// rebuilt from its assistant message, without usage), reported once Resume has dispatched its held
	// calls, with the outcomes of all its calls: those answered before the hold and those Resume ran.
	Resumed bool
	// Response is the provider's response.
	Response Response
	// Outcomes holds one outcome per call of Response.ToolCalls: Outcomes[i] is the outcome of
	// ToolCalls[i] (same CallID and Name), always as many as the calls (none for a response without
	// calls). A call that has no result has an outcome that says why, and is not sent to the model: Held
	// for a call held for a person's decision (Message is the reason; Resume reports its result in a
	// Resumed turn), NotRun for a call the run stopped before (an exceeded budget, before any call runs;
	// its Dispatch returned an error, or an earlier call's did; Message says which).
	Outcomes []wink.Outcome
	// Usage is the tokens the run has consumed so far, this turn included.
	Usage wink.TokenUsage
}

// StopReason says why a run ended.
type StopReason uint8

// The reasons a run ends.
const (
	// StopDone: the model answered without calling tools. Run's error is nil only then.
	StopDone StopReason = iota
	// StopMaxTurns: the last allowed turn still called tools (they ran); the error is ErrMaxTurns.
	StopMaxTurns
	// StopBudget: the Dispatcher's Budget is exceeded; the error is a *wink.BudgetExceededError.
	StopBudget
	// StopDeadline: ctx's deadline passed; the error matches context.DeadlineExceeded.
	StopDeadline
	// StopCancelled: ctx was cancelled; the error matches context.Canceled.
	StopCancelled
	// StopError: the provider or the dispatcher failed; the error says how.
	StopError
	// StopHeld: a policy held some of the turn's calls for a person's approval (Result.Held); the
	// others ran. The error is ErrHeld. Record the decisions (policy.Approve, policy.Deny with each
	// *wink.HeldError), then continue with Resume, on this worker or another over the same stored session.
	StopHeld
)

// ErrHeld is returned with StopHeld.
var ErrHeld = errors.New("loop: tool calls are held for approval")

// String returns the reason's name: "done", "max_turns", "budget", "deadline", "cancelled", "error" or
// "held".
func (r StopReason) String() string {
	switch r {
	case StopDone:
		return "done"
	case StopMaxTurns:
		return "max_turns"
	case StopBudget:
		return "budget"
	case StopDeadline:
		return "deadline"
	case StopCancelled:
		return "cancelled"
	case StopError:
		return "error"
	case StopHeld:
		return "held"
	}
	return "StopReason(" + strconv.Itoa(int(r)) + ")"
}

// Config configures a run.
type Config struct {
	// Provider answers each turn (required).
	Provider Provider
	// Dispatcher runs the tool calls (required). Its Budget, when set, is charged with every response's
	// usage, and the run stops once it is exceeded.
	Dispatcher *wink.Dispatcher
	// System is the system prompt sent with every request.
	System string
	// Tools are the tools offered to the model; nil offers every tool of Dispatcher.Registry. When the
	// run's context carries a principal (wink.WithPrincipal), only the tools whose scopes it holds are
	// offered (wink.Permitted). Tools only programs may call are offered to programs only
	// (Request.Programs). A call to a tool that is not offered still goes to the dispatcher, which
	// answers unknown names itself and refuses a call lacking a scope.
	Tools []*wink.Tool
	// MaxTurns bounds the number of provider calls; zero means DefaultMaxTurns, a negative value is an
	// error.
	MaxTurns int
	// Parallel runs the read-only calls of one turn (//wink:tool readonly) concurrently with each other
	// and with the turn's other calls, which run one after another in the order the model gave them (a
	// call that changes state may depend on the one before it: "create the file, then append to it").
	// Results keep the calls' order either way. It is safe on one session: the dispatcher isolates
	// calls (one that changes state holds its session exclusively from snapshot to commit or rollback;
	// read-only ones share it), so no call undoes another's writes.
	Parallel bool
	// OnTurn, when set, is called after each turn, from the goroutine running Run.
	OnTurn func(Turn)
	// Search turns on the client-side tool search over these generated catalogs (each package's
	// WinkCatalog): the model is offered a tool named toolsearch.Name, the loop answers its calls
	// (only tools offered by Tools and deferred are found), and the tools found are loaded into every
	// later request (Request.Tools; the other deferred tools stay in Request.Deferred). Nil: no client
	// search (deferred tools are still sent as Request.Deferred, for a provider's own search).
	Search []*toolsearch.Catalog
}

// Result is what a run produced, complete or not.
type Result struct {
	// Messages is the whole conversation: the input messages, then every assistant message and a tool
	// message per dispatched call, in order. It is valid whatever the error: a caller may inspect it or
	// continue the conversation from it.
	Messages []Message
	// Text is the text of the last response (the final answer when Stop is StopDone).
	Text string
	// Turns counts the provider responses received.
	Turns int
	// Usage is the tokens this run consumed (not the Budget's total, which may span runs).
	Usage wink.TokenUsage
	// Stop says why the run ended.
	Stop StopReason
	// Held lists the calls held for approval (or waiting for an answer to Elicit) when Stop is StopHeld,
	// in the calls' order: show each one's Question, and record the decision with policy.Approve or
	// policy.Deny (wink.AnswerElicitation) given the *wink.HeldError itself. The held calls in Messages
	// carry their hold id (wink.Call.Hold), which is how Resume dispatches them to their decision.
	Held []*wink.HeldError
}

// Run drives cfg.Provider until the model stops calling tools: each turn sends the conversation and the
// tools, charges the response's usage to the dispatcher's Budget, runs the response's tool calls through
// cfg.Dispatcher (in order, or concurrently with Parallel) and appends their outcomes as tool messages.
//
// The run stops, with Result.Stop saying why:
//   - when a response has no tool calls (StopDone, nil error);
//   - after MaxTurns responses, the last one's calls run (StopMaxTurns, ErrMaxTurns);
//   - when the Budget is exceeded, before the response's calls run; also before the first request when
//     the Budget is already exceeded (StopBudget, the *wink.BudgetExceededError);
//   - when ctx is done, checked before every request and reported by the provider or the dispatcher
//     (StopDeadline or StopCancelled, an error matching ctx.Err());
//   - when the provider fails, or Dispatch returns an error (StopError, the error wrapped with the turn);
//   - after a turn in which a policy held calls for a person's approval (StopHeld, ErrHeld): the turn's
//     other calls ran, Result.Held lists the held ones, and Resume continues once they are decided.
//
// messages is not modified; Result.Messages starts with a copy of it.
func Run(ctx context.Context, cfg Config, messages []Message) (Result, error) {
	return run(ctx, cfg, messages, false)
}

// Resume continues a run that stopped with StopHeld: messages is its Result.Messages (kept by the caller,
// possibly on another worker). The calls of the last assistant message that have no tool message are
// dispatched again, in order, after the dispatcher's session is refreshed from its store (so decisions
// recorded elsewhere are seen); their results join the turn's tool messages in the calls' order, and the
// run goes on as Run does. Calls still undecided stop it again with StopHeld.
func Resume(ctx context.Context, cfg Config, messages []Message) (Result, error) {
	return run(ctx, cfg, messages, true)
}

func run(ctx context.Context, cfg Config, messages []Message, resume bool) (Result, error) {
	res := Result{Messages: append([]Message(nil), messages...)}
	if ctx == nil {
		ctx = context.Background()
	}
	if cfg.Provider == nil || cfg.Dispatcher == nil {
		res.Stop = StopError
		return res, errors.New("loop: Config.Provider and Config.Dispatcher are required")
	}
	maxTurns := cfg.MaxTurns
	switch {
	case maxTurns < 0:
		res.Stop = StopError
		return res, errors.New("loop: Config.MaxTurns is negative (" + strconv.Itoa(maxTurns) + ")")
	case maxTurns == 0:
		maxTurns = DefaultMaxTurns
	}
	tools := cfg.Tools
	if tools == nil && cfg.Dispatcher.Registry != nil {
		tools = cfg.Dispatcher.Registry.Tools()
	}
	tools = wink.Permitted(ctx, tools) // a run for a caller offers only the tools its scopes permit
	offered, err := newOffer(tools, cfg.Search, res.Messages)
	if err != nil {
		res.Stop = StopError
		return res, err
	}
	budget := cfg.Dispatcher.Budget
	if err := budget.Err(); err != nil {
		res.Stop = StopBudget
		return res, err
	}

	if resume {
		if err := res.resumeHeld(ctx, &cfg); err != nil || res.Stop == StopHeld {
			return res, err
		}
	}

	for turn := 1; ; turn++ {
		if err := ctx.Err(); err != nil {
			return res.stop(ctx, err, StopError)
		}
		req := Request{System: cfg.System, Messages: res.Messages}
		offered.request(&req) // search.go
		resp, err := cfg.Provider.Complete(ctx, req)
		if err != nil {
			return res.stop(ctx, turnError(turn, "provider", err), StopError)
		}
		res.Turns = turn
		res.Text = resp.Text
		in, out := int64(max(resp.Usage.Input, 0)), int64(max(resp.Usage.Output, 0))
		res.Usage.Input += in
		res.Usage.Output += out
		res.Usage.Total += in + out
		res.Messages = append(res.Messages, Message{Role: RoleAssistant, Text: resp.Text, ToolCalls: resp.ToolCalls,
			Container: resp.Container, Native: resp.Native})
		t := Turn{Index: turn, Response: resp, Usage: res.Usage}

		if err := budget.Consume(in, out); err != nil {
			t.Outcomes = make([]wink.Outcome, len(resp.ToolCalls))
			for i, c := range resp.ToolCalls {
				t.Outcomes[i] = notRun(c, "not run: the token budget is exceeded")
			}
			cfg.report(t)
			res.Stop = StopBudget
			return res, err
		}
		if len(resp.ToolCalls) == 0 {
			cfg.report(t)
			res.Stop = StopDone
			return res, nil
		}

		asst := len(res.Messages) - 1 // the assistant message just appended
		outcomes, found, held, err := offered.dispatch(func(calls []wink.Call) ([]wink.Outcome, []*wink.HeldError, error) {
			return dispatch(ctx, &cfg, calls)
		}, resp.ToolCalls)
		for i, o := range outcomes {
			if answered(o) {
				m := Message{Role: RoleTool, Result: o}
				if found != nil {
					m.Found = found[i]
				}
				res.Messages = append(res.Messages, m)
			}
		}
		t.Outcomes = outcomes
		cfg.report(t)
		if err != nil {
			return res.stop(ctx, turnError(turn, "dispatch", err), StopError)
		}
		if len(held) > 0 {
			res.stampHolds(asst, held)
			res.Stop, res.Held = StopHeld, held
			return res, ErrHeld
		}
		if turn >= maxTurns {
			res.Stop = StopMaxTurns
			return res, ErrMaxTurns
		}
	}
}

func (cfg *Config) report(t Turn) {
	if cfg.OnTurn != nil {
		cfg.OnTurn(t)
	}
}

// stop ends the run with err, classified as a deadline or a cancellation when it matches one (or when
// ctx is done: the error is then joined with ctx.Err() if it does not already match it).
func (res Result) stop(ctx context.Context, err error, otherwise StopReason) (Result, error) {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		err = errors.Join(err, cerr)
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		res.Stop = StopDeadline
	case errors.Is(err, context.Canceled):
		res.Stop = StopCancelled
	default:
		res.Stop = otherwise
	}
	return res, err
}

// turnError wraps err in a *TurnError saying where it happened.
func turnError(turn int, what string, err error) error {
	return &TurnError{Turn: turn, Op: what, Err: err}
}

// TurnError is the error Run returns when the provider or the dispatcher fails during a turn.
type TurnError struct {
	// Turn is the turn's Index.
	Turn int
	// Op is "provider" or "dispatch".
	Op string
	// Err is the provider's or Dispatch's error.
	Err error
}

// Error returns "loop: turn 3: provider: <error>".
func (e *TurnError) Error() string {
	return "loop: turn " + strconv.Itoa(e.Turn) + ": " + e.Op + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *TurnError) Unwrap() error { return e.Err }

// dispatch runs a turn's calls (concurrently with cfg.Parallel) and returns one outcome per call, at
// its index: Dispatch's outcome, or a Held or NotRun one for a call without a result. held lists the
// held calls in order; err is the error of the earliest call whose Dispatch failed.
func dispatch(ctx context.Context, cfg *Config, calls []wink.Call) (outcomes []wink.Outcome, held []*wink.HeldError, err error) {
	if cfg.Parallel && len(calls) > 1 {
		return dispatchParallel(ctx, cfg.Dispatcher, calls)
	}
	return dispatchSequential(ctx, cfg.Dispatcher, calls)
}

// answered reports whether o is a result the model reads (a tool message), not a Held or NotRun mark.
func answered(o wink.Outcome) bool { return !o.Held && !o.NotRun }

// heldOutcome is the outcome Turn.Outcomes reports for a call held with he.
func heldOutcome(c wink.Call, he *wink.HeldError) wink.Outcome {
	return wink.Outcome{CallID: c.ID, Name: c.Name, Held: true, Message: he.Error()}
}

// notRun is the outcome Turn.Outcomes reports for a call without a result because the run stopped.
func notRun(c wink.Call, why string) wink.Outcome {
	return wink.Outcome{CallID: c.ID, Name: c.Name, NotRun: true, Message: why}
}

// stoppedAt is the NotRun message of the call whose Dispatch returned err.
func stoppedAt(err error) string {
	return "not run: its dispatch failed and the run stopped: " + err.Error()
}

// notRunAfter is the NotRun message of the calls after one whose Dispatch failed.
const notRunAfter = "not run: the run stopped at an earlier call's dispatch error"

// dispatchSequential runs calls in order and stops at the first Dispatch error: that call and the ones
// after it are NotRun. Calls a policy holds (*wink.HeldError) are Held and listed in held, and do not
// stop the turn.
func dispatchSequential(ctx context.Context, d *wink.Dispatcher, calls []wink.Call) (outcomes []wink.Outcome, held []*wink.HeldError, err error) {
	outcomes = make([]wink.Outcome, len(calls))
	for i, c := range calls {
		o, err := d.Dispatch(ctx, c)
		if he, ok := errors.AsType[*wink.HeldError](err); ok {
			outcomes[i] = heldOutcome(c, he)
			held = append(held, he)
			continue
		}
		if err != nil {
			outcomes[i] = notRun(c, stoppedAt(err))
			for j := i + 1; j < len(calls); j++ {
				outcomes[j] = notRun(calls[j], notRunAfter)
			}
			return outcomes, held, err
		}
		outcomes[i] = o
	}
	return outcomes, held, nil
}

// dispatchParallel runs the read-only calls concurrently, each on its own goroutine, and the others one
// after another in their order on one more goroutine, and waits for all of them. Outcomes keep the calls'
// order (one per call, at its index); when some calls return an error, they are NotRun and the error is
// the earliest failing call's; as in a sequential turn, the state-changing calls after one that returned
// an error (not a hold) do not run (NotRun). Held calls are Held and listed in held, in order. A call to
// an unknown tool counts as changing state.
func dispatchParallel(ctx context.Context, d *wink.Dispatcher, calls []wink.Call) ([]wink.Outcome, []*wink.HeldError, error) {
	outcomes := make([]wink.Outcome, len(calls))
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	var ordered []int
	for i := range calls {
		if readOnly(d, calls[i].Name) {
			wg.Go(func() { outcomes[i], errs[i] = d.Dispatch(ctx, calls[i]) })
		} else {
			ordered = append(ordered, i)
		}
	}
	if len(ordered) > 0 {
		wg.Go(func() {
			for n, i := range ordered {
				outcomes[i], errs[i] = d.Dispatch(ctx, calls[i])
				if _, held := errors.AsType[*wink.HeldError](errs[i]); errs[i] != nil && !held {
					for _, j := range ordered[n+1:] {
						errs[j] = errNotRun
					}
					return
				}
			}
		})
	}
	wg.Wait()
	var first error
	var held []*wink.HeldError
	for i, err := range errs {
		if he, ok := errors.AsType[*wink.HeldError](err); ok {
			outcomes[i] = heldOutcome(calls[i], he)
			held = append(held, he)
			continue
		}
		switch {
		case err == errNotRun:
			outcomes[i] = notRun(calls[i], notRunAfter)
		case err != nil:
			outcomes[i] = notRun(calls[i], stoppedAt(err))
			if first == nil {
				first = err
			}
		}
	}
	return outcomes, held, first
}

// errNotRun marks the calls dispatchParallel did not run after an error: never returned, as the earlier
// call's error comes first.
var errNotRun = errors.New("loop: not run after an earlier call's error")

// readOnly reports whether name is a read-only tool of d's registry.
func readOnly(d *wink.Dispatcher, name string) bool {
	if d.Registry == nil {
		return false
	}
	t, ok := d.Registry.Lookup(name)
	return ok && t.Spec().ReadOnly
}

// resumeHeld dispatches the calls of the last assistant message that have no tool message, after
// refreshing the session, rewrites the turn's tool messages in the calls' order, and reports the turn
// (Resumed) to OnTurn with the outcomes of all its calls.
func (res *Result) resumeHeld(ctx context.Context, cfg *Config) error {
	last := -1
	for i := len(res.Messages) - 1; i >= 0; i-- {
		if res.Messages[i].Role == RoleAssistant {
			last = i
			break
		}
	}
	if last < 0 || len(res.Messages[last].ToolCalls) == 0 {
		return nil // nothing was held: the run simply goes on
	}
	calls := res.Messages[last].ToolCalls
	answers := map[string]wink.Outcome{}
	found := map[string][]string{} // what the turn's searches found, kept with their answers
	for _, m := range res.Messages[last+1:] {
		if m.Role == RoleTool {
			answers[m.Result.CallID] = m.Result
			found[m.Result.CallID] = m.Found
		}
	}
	outcomes := make([]wink.Outcome, len(calls))
	var pending []wink.Call
	var at []int // at[k] is the index of pending[k] among calls
	for i, c := range calls {
		if o, ok := answers[c.ID]; ok {
			outcomes[i] = o
		} else {
			pending = append(pending, c)
			at = append(at, i)
		}
	}
	if len(pending) == 0 {
		return nil
	}
	t := Turn{Resumed: true, Response: Response{Text: res.Messages[last].Text, ToolCalls: calls}, Outcomes: outcomes}
	if s := cfg.Dispatcher.Session; s != nil {
		// Load what other workers committed (the decisions) before the policies read it.
		tx, err := s.Begin(ctx, session.ReadOnly)
		if err == nil {
			err = tx.End(ctx)
		}
		if err != nil {
			for _, i := range at {
				outcomes[i] = notRun(calls[i], stoppedAt(err))
			}
			cfg.report(t)
			*res, err = res.stop(ctx, turnError(0, "dispatch", err), StopError)
			return err
		}
	}
	got, held, err := dispatch(ctx, cfg, pending)
	for k, o := range got {
		outcomes[at[k]] = o
	}
	tail := res.Messages[:last+1]
	for _, o := range outcomes {
		if answered(o) {
			tail = append(tail, Message{Role: RoleTool, Result: o, Found: found[o.CallID]})
		}
	}
	res.Messages = tail
	cfg.report(t)
	if err != nil {
		*res, err = res.stop(ctx, turnError(0, "dispatch", err), StopError)
		return err
	}
	if len(held) > 0 {
		res.stampHolds(last, held)
		res.Stop, res.Held = StopHeld, held
		return ErrHeld
	}
	return nil
}

// stampHolds sets the hold id of each held call in the assistant message at index at (a copy of its
// calls: the caller's messages and the provider's response are not modified), so that Resume dispatches
// each held call with the id its decision is bound to. A call is matched by its place among the calls
// with its provider id, name and arguments, in order: a provider id may repeat within a turn.
func (res *Result) stampHolds(at int, held []*wink.HeldError) {
	if at < 0 || at >= len(res.Messages) || res.Messages[at].Role != RoleAssistant {
		return
	}
	m := res.Messages[at]
	calls := append([]wink.Call(nil), m.ToolCalls...)
	used := make([]bool, len(calls))
	for _, h := range held {
		for i := range calls {
			if !used[i] && calls[i].ID == h.Call.ID && calls[i].Name == h.Call.Name && string(calls[i].Arguments) == string(h.Call.Arguments) {
				calls[i].Hold, used[i] = h.Binding.Hold, true
				break
			}
		}
	}
	m.ToolCalls = calls
	res.Messages[at] = m
}
