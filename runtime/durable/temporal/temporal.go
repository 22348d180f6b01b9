// Package temporal runs durable agent runs (runtime/durable) as Temporal workflows, for users who outgrow
// the embedded engine: Temporal's server schedules the steps, retries them on another worker when one
// dies, and keeps the run's history.
//
//	acts := &temporal.Activities{Store: st, Agent: wire}        // st: a durable.Store (pgdurable for a fleet)
//	w := worker.New(c, temporal.TaskQueue, worker.Options{})
//	temporal.Register(w, acts)
//	go w.Run(worker.InterruptCh())
//	temporal.Start(ctx, c, st, "order-42", []loop.Message{loop.UserMessage(task)}, temporal.Options{Session: "conv-7"})
//	temporal.Approve(ctx, c, "order-42", hold)                  // a held call (Status(...).Held[i].Binding.Hold): a signal
//	s, _ := temporal.Status(ctx, c, st, "order-42")             // a query, and the transcript from the store
//
// The run is the same as the embedded engine's: the workflow (Workflow) asks for one model turn at a time
// (the Model activity) and dispatches its calls in order (the Tool activity, through the wink.Dispatcher
// the Agent wires, with its transaction); a call a policy holds makes the workflow wait for the approval
// signal (the Decide activity records it in the session with policy.Approve or policy.Deny, then the
// call is dispatched again); the status query reports where the run stands.
//
// # Guarantees
//
// They are the embedded engine's (see runtime/durable), for the same reasons: each activity checkpoints
// its result in the durable.Store before it returns, and looks for that checkpoint before it works, so a
// model call completed by a worker that died before Temporal recorded the activity is not sent again; a
// tool call commits its session changes and its checkpoint in one transaction (durable.DispatchStep) and
// hands its handler durable.IdempotencyKey for effects outside (at-least-once with a key). A model call
// after a retried activity or an approval is sent exactly the request an uninterrupted run sends,
// content blocks included (the checkpoints are the embedded engine's). When the run ends, the Forget
// activity removes its commits from its session (durable.Forget): a session serving many runs keeps only
// those of the runs still going, and a tool call's write does not grow with the runs it has served.
//
// # Who a run acts for
//
// A run started for a caller (Start's context carries its principal, or Options.Principal) keeps it in
// the durable.Store, never in the workflow's history: every Model and Tool activity, on whichever worker
// and attempt runs it, restores it into its context, so calls are checked against their tools' scopes
// and the model is offered only the tools the principal may call. Past the token's expiry a step is
// taken only if Activities.Reauthorize renews the principal; otherwise the workflow fails (not
// retried) with durable.ErrPrincipalExpired, as on the embedded engine.
//
// # Approvals
//
// A signal names the held call by its hold id (durable.Status.Held[i].Binding.Hold, the step's
// durable.HoldID), never by the provider's call id, which providers reuse (Gemini's "gemini-0" opens every
// turn): a decision for one turn's call can never be taken for another's. The Decide activity records it
// bound to the call the workflow holds (its hold id, tool, canonical arguments' digest, session and run,
// from the Tool activity's result), whatever else the signal says. A decision may be signalled before the
// workflow holds its call (while the run is still working towards it, or while it waits for another
// call's decision): it is kept until the call is held, across continue-as-new too. When several decisions for a held call are waiting, the latest is the call's (as
// with policy.Approve and policy.Deny on the embedded engine); once the call is resolved, further
// decisions for it (a duplicate, an Approve after a Deny that ran) are dropped.
//
// # Speed
//
// Each step is an activity: the workflow task that schedules it and the activity task are dispatched by
// the server. The worker asks for eager activity execution (the activity comes back with the workflow
// task's completion, without a trip through the server's queues) when the server allows it: set the
// server's dynamic config system.enableActivityEagerExecution to true (it is false by default); the
// development server of the tests does. Options.LocalActivities runs the steps inside the workflow
// task instead, with no trip through the server per step.
//
// # Small histories
//
// Payloads stay out of the history: the conversation, the model's responses and the tools' outcomes
// live in the durable.Store, and the history carries only step references (run, turn, call index) and
// what the workflow branches on (the number of calls, whether a call is held, the held call's id). A
// run continues as new every Options.TurnsPerRun turns (default 50), carrying only its turn number.
//
// # Why a module of its own
//
// This package is a Go module nested in winkgen's (runtime/durable/temporal/go.mod, replacing winkgen
// with the enclosing tree): the Temporal SDK and its dependencies (gRPC, protobuf, the API's generated
// code) are then in this module's go.sum and build graph only. A package of the winkgen module would put
// them in every user's module graph and go.sum, and in `go mod download`, whether they use Temporal or
// not. The Makefile's test, race, vet, cross and check-fresh targets enter the nested module too.
package temporal

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// TaskQueue is the task queue Start uses when Options.TaskQueue is empty.
const TaskQueue = "wink-durable"

// Names of the workflow, its signal and query, and the activities, as registered by Register.
const (
	WorkflowName   = "wink.durable.Run"
	SignalApproval = "approval"
	QueryStatus    = "status"
	ActivityModel  = "wink.durable.Model"
	ActivityTool   = "wink.durable.Tool"
	ActivityDecide = "wink.durable.Decide"
	ActivityForget = "wink.durable.Forget"
)

// versionForget is the workflow change that runs the Forget activity when a run ends (workflow.GetVersion):
// histories recorded before it replay without the activity.
const versionForget = "forget-commits"

// Options are a run's settings.
type Options struct {
	// Session is passed to the Agent as durable.Run.Session.
	Session string
	// MaxTurns bounds the model calls (0: loop.DefaultMaxTurns).
	MaxTurns int
	// TaskQueue is the workflow's and its activities' task queue (default TaskQueue).
	TaskQueue string
	// TurnsPerRun is how many turns a workflow run takes before it continues as new (default 50).
	TurnsPerRun int
	// ActivityTimeout is an activity attempt's start-to-close timeout: a worker that dies in an activity
	// is replaced after it (default one minute).
	ActivityTimeout time.Duration
	// RetryInterval is the first retry's delay after an activity failed or timed out (default one second).
	RetryInterval time.Duration
	// LocalActivities runs the model calls, tool calls and decisions as local activities: executed by
	// the worker running the workflow task, their results recorded in the history when the task
	// completes, with no trip through the server per step (a step costs about a millisecond instead of
	// two task dispatches). A worker that dies loses the steps its unfinished workflow task ran: after
	// WorkflowTaskTimeout another worker replays the history and runs them again, and they answer from
	// the store's checkpoints as a retried activity does (the guarantees are the same). A step longer
	// than the workflow task timeout is fine: the worker extends its task while the step runs (Status's
	// query, answered between workflow tasks, may wait for that).
	LocalActivities bool
	// WorkflowTaskTimeout is how long a workflow task may run before the server gives it to another
	// worker (Temporal's default, ten seconds, when zero): with LocalActivities, how long a dead
	// worker's run waits before another worker resumes it.
	WorkflowTaskTimeout time.Duration
	// Principal is who the run acts for; nil: the principal of Start's context (wink.PrincipalFrom), if
	// any. It is stored with the run in the durable.Store (never in the workflow's history, never the
	// raw token) and every Model and Tool activity, on any worker, acts for it: calls its scopes do not
	// permit are refused and the model is offered only the tools it may call. Its expiry is handled as
	// on the embedded engine (durable.Authorize, Activities.Reauthorize).
	Principal *wink.Principal
}

// Input is the workflow's argument: the run's id and settings, and the turn to start from (a run that
// continued as new starts at its next turn).
type Input struct {
	RunID           string
	Session         string
	MaxTurns        int
	TurnsPerRun     int
	Turn            int
	ActivityTimeout time.Duration
	RetryInterval   time.Duration
	LocalActivities bool
	// Pending are the approval signals a run had received for calls it had not yet held when it
	// continued as new (a signal left in the channel at continue-as-new would be lost).
	Pending []Decision
}

// maxPending bounds the decisions a run keeps for calls it has not held (yet): signals naming calls the
// run never holds are dropped oldest first beyond it.
const maxPending = 64

// Output is how a run ended.
type Output struct {
	Stop  string
	Turns int
	Err   string
}

// StepRef names one step of a run: what the activities receive instead of payloads.
type StepRef struct {
	RunID   string
	Session string
	Turn    int
	Index   int
	Attempt int
}

// ModelResult is what the Model activity reports to the workflow: how many calls the response made.
type ModelResult struct {
	Calls int
}

// ToolResult is what the Tool activity reports: whether the call is held, and then what a decision on
// it is bound to.
type ToolResult struct {
	Held   bool
	CallID string
	Call   HeldCall
}

// HeldCall is a held call as the workflow keeps it and the status query reports it: its binding
// (wink.Binding: the hold id a decision names, the tool, the digest of the canonical arguments, the
// session and the run), the provider's id, and what the person is shown (wink.HeldError.Arguments and
// Question).
type HeldCall struct {
	Hold, CallID, Tool, Digest, Session, Run string
	Arguments, Question                      string
}

// Binding returns the held call's binding.
func (h HeldCall) Binding() wink.Binding {
	return wink.Binding{Hold: h.Hold, Tool: h.Tool, Digest: h.Digest, Session: h.Session, Run: h.Run}
}

// Decision is the approval signal's payload: the held call's hold id (HeldCall.Hold, from Status) and
// the decision. Call is filled in by the workflow from the held call itself: the decision is recorded
// bound to what was held, whatever the signal says.
type Decision struct {
	Hold     string
	Approved bool
	Reason   string
	Call     HeldCall
}

// WorkflowStatus is what the status query returns.
type WorkflowStatus struct {
	State string // "running", "held", "done", "failed"
	Turn  int
	Held  []HeldCall
	// Err is why a failed run failed.
	Err string
}

// Activities are the activities of a run. Store holds the payloads (the same store the workflow's
// client reads transcripts from); Agent wires the run on the worker executing the activity.
type Activities struct {
	Store durable.Store
	Agent durable.Agent
	// Observe, when set, is told the steps as the embedded engine tells them (durable.Event).
	Observe func(durable.Event)
	// Worker names this worker in the events and the checkpoints.
	Worker string
	// Reauthorize renews the principal of a run whose token has expired (durable.Reauthorize); nil:
	// such a run fails (durable.ErrPrincipalExpired, not retried) at its next step.
	Reauthorize durable.Reauthorize
}

func (a *Activities) observe(ev durable.Event) {
	if a.Observe != nil {
		ev.Worker = a.Worker
		a.Observe(ev)
	}
}

// Register registers the workflow and a's activities on w.
func Register(w worker.Registry, a *Activities) {
	w.RegisterWorkflowWithOptions(Workflow, workflow.RegisterOptions{Name: WorkflowName})
	w.RegisterActivityWithOptions(a.Model, activity.RegisterOptions{Name: ActivityModel})
	w.RegisterActivityWithOptions(a.Tool, activity.RegisterOptions{Name: ActivityTool})
	w.RegisterActivityWithOptions(a.Decide, activity.RegisterOptions{Name: ActivityDecide})
	w.RegisterActivityWithOptions(a.Forget, activity.RegisterOptions{Name: ActivityForget})
}

// Start records the run in st and starts its workflow, with the run's id as the workflow id. Starting
// an id that exists changes nothing.
func Start(ctx context.Context, c client.Client, st durable.Store, id string, input []loop.Message, o Options) error {
	if id == "" {
		return errors.New("temporal: a run needs an id")
	}
	p := o.Principal
	if p == nil {
		p = wink.PrincipalFrom(ctx)
	}
	created, err := st.Create(ctx, durable.Record{ID: id, Session: o.Session, Input: durable.EncodeMessages(input), MaxTurns: o.MaxTurns,
		Principal: durable.EncodePrincipal(p)})
	if err != nil {
		return err
	}
	if !created {
		// The run exists (a Start retried after its workflow could not be started, or a second Start):
		// the workflow gets the recorded run's settings, not these.
		rec, _, err := st.Load(ctx, id)
		if err != nil {
			return err
		}
		o.Session, o.MaxTurns = rec.Session, rec.MaxTurns
	}
	q := o.TaskQueue
	if q == "" {
		q = TaskQueue
	}
	// RejectDuplicate: a second Start of a finished run must not run its workflow again (Temporal's
	// default policy would start a new execution under the same id); a running one is returned as is.
	_, err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: q, WorkflowTaskTimeout: o.WorkflowTaskTimeout,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE}, WorkflowName, NewInput(id, o))
	if _, ok := errors.AsType[*serviceerror.WorkflowExecutionAlreadyStarted](err); ok {
		return nil
	}
	return err
}

// NewInput returns the workflow's input for run id with o.
func NewInput(id string, o Options) Input {
	return Input{RunID: id, Session: o.Session, MaxTurns: o.MaxTurns, TurnsPerRun: o.TurnsPerRun, Turn: 1,
		ActivityTimeout: o.ActivityTimeout, RetryInterval: o.RetryInterval, LocalActivities: o.LocalActivities}
}

// Approve sends the approval signal for the held call of run id whose hold id is hold
// (durable.Status.Held[i].Binding.Hold; never the provider's call id); Deny the denial.
func Approve(ctx context.Context, c client.Client, id, hold string) error {
	return c.SignalWorkflow(ctx, id, "", SignalApproval, Decision{Hold: hold, Approved: true})
}

// Deny sends the denial of the held call of run id whose hold id is hold; the model reads reason.
func Deny(ctx context.Context, c client.Client, id, hold, reason string) error {
	return c.SignalWorkflow(ctx, id, "", SignalApproval, Decision{Hold: hold, Reason: reason})
}

// Status returns the run's transcript from the store and its state from the workflow's status query
// (durable.Status.State: Running, Held or Done; Failed, with Status.Err, when the workflow failed).
func Status(ctx context.Context, c client.Client, st durable.Store, id string) (durable.Status, error) {
	// The query first, then the store: the steps the workflow's state depends on were checkpointed
	// before it reached that state, so the transcript is at least as recent as the state (the other
	// order could report a call held with a transcript read before the turn that holds it).
	v, err := c.QueryWorkflow(ctx, id, "", QueryStatus)
	if err != nil {
		return durable.Status{}, err
	}
	var ws WorkflowStatus
	if err := v.Get(&ws); err != nil {
		return durable.Status{}, err
	}
	rec, steps, err := st.Load(ctx, id)
	if err != nil {
		return durable.Status{}, err
	}
	s, err := durable.Rebuild(rec, steps)
	if err != nil {
		return s, err
	}
	s.Held = nil
	switch ws.State {
	case "held":
		s.State = durable.Held
		for _, h := range ws.Held {
			s.Held = append(s.Held, &wink.HeldError{Call: wink.Call{ID: h.CallID, Name: h.Tool, Hold: h.Hold}, Policy: "require_approval",
				Binding: h.Binding(), Arguments: h.Arguments})
		}
	case "done":
		s.State = durable.Done
	case "failed":
		s.State, s.Stop, s.Err = durable.Failed, loop.StopError, ws.Err
	default:
		s.State = durable.Running
	}
	return s, nil
}

// Workflow is a run as a Temporal workflow: deterministic, it branches only on the activities' small
// results and the approval signals. When the run ends (done, the turn limit, or an error), the Forget
// activity removes its commits from its session (durable.Forget) before the workflow returns; a run
// that continues as new has not ended.
func Workflow(ctx workflow.Context, in Input) (Output, error) {
	out, err := runWorkflow(ctx, in)
	if _, cont := errors.AsType[*workflow.ContinueAsNewError](err); cont {
		return out, err
	}
	if workflow.GetVersion(ctx, versionForget, workflow.DefaultVersion, 1) == 1 {
		// Retried until it is written (a session store that is down): the run ends once its commits
		// are gone, as on the embedded engine.
		actx, exec := executor(ctx, in)
		if ferr := exec(actx, ActivityForget, StepRef{RunID: in.RunID, Session: in.Session}).Get(actx, nil); ferr != nil && err == nil {
			return Output{Stop: loop.StopError.String(), Turns: out.Turns, Err: ferr.Error()}, ferr
		}
	}
	return out, err
}

// executor returns ctx with the run's activity options and the function that schedules its steps: as
// activities, or as local activities (Input.LocalActivities).
func executor(ctx workflow.Context, in Input) (workflow.Context, func(ctx workflow.Context, name string, args ...any) workflow.Future) {
	timeout, policy := activityTimeout(in), retryPolicy(in)
	if in.LocalActivities {
		ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: timeout, RetryPolicy: policy})
		return ctx, func(ctx workflow.Context, name string, args ...any) workflow.Future {
			return workflow.ExecuteLocalActivity(ctx, name, args...)
		}
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: timeout, RetryPolicy: policy})
	return ctx, func(ctx workflow.Context, name string, args ...any) workflow.Future {
		return workflow.ExecuteActivity(ctx, name, args...)
	}
}

func activityTimeout(in Input) time.Duration {
	if in.ActivityTimeout <= 0 {
		return time.Minute
	}
	return in.ActivityTimeout
}

func retryPolicy(in Input) *sdktemporal.RetryPolicy {
	retry := in.RetryInterval
	if retry <= 0 {
		retry = time.Second
	}
	return &sdktemporal.RetryPolicy{InitialInterval: retry, BackoffCoefficient: 2, MaximumInterval: 30 * retry}
}

func runWorkflow(ctx workflow.Context, in Input) (Output, error) {
	ctx, exec := executor(ctx, in)
	maxTurns := in.MaxTurns
	if maxTurns <= 0 {
		maxTurns = loop.DefaultMaxTurns
	}
	perRun := in.TurnsPerRun
	if perRun <= 0 {
		perRun = 50
	}
	turn := in.Turn
	if turn < 1 {
		turn = 1
	}
	status := WorkflowStatus{State: "running", Turn: turn}
	// fail ends the run on an error its activities' retries cannot cure, saying so to the status query.
	fail := func(err error) (Output, error) {
		status.State, status.Held, status.Err = "failed", nil, err.Error()
		return Output{Stop: loop.StopError.String(), Turns: turn, Err: err.Error()}, err
	}
	if err := workflow.SetQueryHandler(ctx, QueryStatus, func() (WorkflowStatus, error) { return status, nil }); err != nil {
		return Output{}, err
	}
	signals := workflow.GetSignalChannel(ctx, SignalApproval)
	// Decisions received for calls not held (yet): an approval may arrive before the workflow holds its
	// call, or while it waits for another call's. decided are the calls this workflow run resolved: a
	// duplicate signal for one of them is dropped.
	pending := append([]Decision(nil), in.Pending...)
	var decided []string
	keep := func(d Decision) {
		for _, id := range decided {
			if id == d.Hold {
				return
			}
		}
		if len(pending) >= maxPending {
			pending = pending[1:]
		}
		pending = append(pending, d)
	}
	for first := turn; ; turn++ {
		if turn-first >= perRun {
			// Signals still in the channel would be lost with this run: the next one carries them.
			var d Decision
			for signals.ReceiveAsync(&d) {
				keep(d)
				d = Decision{}
			}
			next := in
			next.Turn = turn
			next.Pending = pending
			return Output{}, workflow.NewContinueAsNewError(ctx, WorkflowName, next)
		}
		status.Turn = turn
		ref := StepRef{RunID: in.RunID, Session: in.Session, Turn: turn}
		var m ModelResult
		if err := exec(ctx, ActivityModel, ref).Get(ctx, &m); err != nil {
			return fail(err)
		}
		if m.Calls == 0 {
			status.State = "done"
			return Output{Stop: loop.StopDone.String(), Turns: turn}, nil
		}
		held := map[int]string{}
		calls := map[int]HeldCall{}
		var order []int
		for i := range m.Calls {
			r, err := runTool(ctx, exec, ref, i)
			if err != nil {
				return fail(err)
			}
			if r.Held {
				held[i], calls[i] = r.Call.Hold, r.Call
				order = append(order, i)
			}
		}
		for len(order) > 0 {
			status.State = "held"
			status.Held = status.Held[:0]
			for _, i := range order {
				status.Held = append(status.Held, calls[i])
			}
			// Every decision signalled so far, then the latest one for the held call decided first (a
			// person who changes their mind before the call runs again is heard, as policy.Approve and
			// policy.Deny are on the embedded engine: the latest decision recorded wins).
			for {
				var x Decision
				if !signals.ReceiveAsync(&x) {
					break
				}
				keep(x)
			}
			d, idx, rest := choose(pending, order, held)
			if idx < 0 {
				var x Decision
				signals.Receive(ctx, &x)
				keep(x) // for a call held later (or never: bounded by maxPending)
				continue
			}
			pending = rest
			d.Call = calls[idx] // bound to what was held
			if err := exec(ctx, ActivityDecide, StepRef{RunID: in.RunID, Session: in.Session}, d).Get(ctx, nil); err != nil {
				return fail(err)
			}
			r, err := runTool(ctx, exec, ref, idx)
			if err != nil {
				return fail(err)
			}
			if !r.Held {
				// Resolved: later decisions for this call (duplicates, an Approve after a Deny that ran)
				// are dropped.
				decided = append(decided, d.Hold)
				kept := order[:0]
				for _, i := range order {
					if i != idx {
						kept = append(kept, i)
					}
				}
				order = kept
			}
		}
		status.State, status.Held = "running", nil
		if turn >= maxTurns {
			status.State = "done"
			return Output{Stop: loop.StopMaxTurns.String(), Turns: turn, Err: loop.ErrMaxTurns.Error()}, nil
		}
	}
}

// choose returns the latest of the pending decisions for the held call whose first pending decision
// came first, that call's index, and the other pending decisions; idx is -1 when no pending decision
// names a held call.
func choose(pending []Decision, order []int, held map[int]string) (d Decision, idx int, rest []Decision) {
	idx = -1
	for _, p := range pending {
		if idx = heldIndex(order, held, p.Hold); idx >= 0 {
			break
		}
	}
	if idx < 0 {
		return Decision{}, -1, pending
	}
	id := held[idx]
	for _, p := range pending {
		if p.Hold == id {
			d = p
		} else {
			rest = append(rest, p)
		}
	}
	return d, idx, rest
}

// heldIndex returns the index of the call order holds whose hold id is hold, or -1.
func heldIndex(order []int, held map[int]string, hold string) int {
	for _, i := range order {
		if held[i] == hold {
			return i
		}
	}
	return -1
}

func runTool(ctx workflow.Context, exec func(workflow.Context, string, ...any) workflow.Future, ref StepRef, i int) (ToolResult, error) {
	ref.Index = i
	var r ToolResult
	err := exec(ctx, ActivityTool, ref).Get(ctx, &r)
	return r, err
}

// load returns the run's record and checkpoints.
func (a *Activities) load(ctx context.Context, id string) (durable.Record, []durable.Step, error) {
	return a.Store.Load(ctx, id)
}

func find(steps []durable.Step, kind durable.StepKind, turn, index int) ([]byte, bool) {
	for _, s := range steps {
		if s.Kind == kind && s.Turn == turn && s.Index == index {
			return s.Data, true
		}
	}
	return nil, false
}

// Model is the Model activity: the response of turn ref.Turn, from its checkpoint when there is one,
// else from the provider (then checkpointed).
func (a *Activities) Model(ctx context.Context, ref StepRef) (ModelResult, error) {
	rec, steps, err := a.load(ctx, ref.RunID)
	if err != nil {
		return ModelResult{}, err
	}
	data, ok := find(steps, durable.StepModel, ref.Turn, 0)
	if !ok {
		st, err := durable.Rebuild(rec, steps)
		if err != nil {
			return ModelResult{}, sdktemporal.NewNonRetryableApplicationError(err.Error(), "corrupt", err)
		}
		if st.Turns != ref.Turn-1 {
			return ModelResult{}, errors.New("temporal: turn " + itoa(ref.Turn) + " asked before the previous turns were checkpointed")
		}
		actx, run, err := a.authorize(ctx, ref, rec)
		if err != nil {
			return ModelResult{}, err
		}
		cfg, err := a.Agent(actx, run)
		if err != nil {
			return ModelResult{}, err
		}
		tools := cfg.Tools
		if tools == nil && cfg.Dispatcher != nil && cfg.Dispatcher.Registry != nil {
			tools = cfg.Dispatcher.Registry.Tools()
		}
		tools = wink.Permitted(actx, tools)
		a.observe(durable.Event{Kind: durable.EventModelStart, Run: ref.RunID, Turn: ref.Turn})
		// Nothing fences a model call at the provider: an attempt past its start-to-close timeout (its
		// worker stopped, its VM frozen) may have been retried on another worker, which sent the call
		// and checkpointed the response. The deadline is checked right before sending, on the
		// monotonic clock (which runs on while the process is stopped).
		if dl, ok := ctx.Deadline(); ctx.Err() != nil || (ok && !time.Now().Before(dl)) {
			return ModelResult{}, errors.New("temporal: the model activity's attempt outlived its timeout; not sending its request")
		}
		offer, err := loop.NewOffer(tools, cfg.Search, st.Messages) // as loop.Run offers them, found tools loaded
		if err != nil {
			return ModelResult{}, sdktemporal.NewNonRetryableApplicationError(err.Error(), "config", err)
		}
		resp, err := cfg.Provider.Complete(ctx, offer.Request(cfg.System, st.Messages))
		if err != nil {
			return ModelResult{}, err
		}
		data = durable.EncodeResponse(resp)
		if err := a.Store.Append(ctx, ref.RunID, -1, durable.Step{Kind: durable.StepModel, Turn: ref.Turn, Data: data, Worker: a.Worker}); err != nil {
			if !errors.Is(err, durable.ErrStepExists) {
				return ModelResult{}, err
			}
			// Another attempt of this activity checkpointed first: its response is the turn's.
			_, steps, err := a.load(ctx, ref.RunID)
			if err != nil {
				return ModelResult{}, err
			}
			data, _ = find(steps, durable.StepModel, ref.Turn, 0)
		}
		a.observe(durable.Event{Kind: durable.EventModelDone, Run: ref.RunID, Turn: ref.Turn})
	}
	resp, err := durable.DecodeResponse(data)
	if err != nil {
		return ModelResult{}, sdktemporal.NewNonRetryableApplicationError(err.Error(), "corrupt", err)
	}
	return ModelResult{Calls: len(resp.ToolCalls)}, nil
}

// Tool is the Tool activity: call ref.Index of turn ref.Turn, answered from its checkpoint when there is
// one, else dispatched (durable.DispatchStep: the commit and the checkpoint in one transaction) and
// checkpointed. A held call is reported, not checkpointed.
func (a *Activities) Tool(ctx context.Context, ref StepRef) (ToolResult, error) {
	rec, steps, err := a.load(ctx, ref.RunID)
	if err != nil {
		return ToolResult{}, err
	}
	if _, ok := find(steps, durable.StepTool, ref.Turn, ref.Index); ok {
		return ToolResult{}, nil
	}
	data, ok := find(steps, durable.StepModel, ref.Turn, 0)
	if !ok {
		return ToolResult{}, errors.New("temporal: turn " + itoa(ref.Turn) + " has no model checkpoint")
	}
	resp, err := durable.DecodeResponse(data)
	if err != nil || ref.Index >= len(resp.ToolCalls) {
		return ToolResult{}, sdktemporal.NewNonRetryableApplicationError("temporal: no call "+itoa(ref.Index)+" in turn "+itoa(ref.Turn), "corrupt", err)
	}
	call := resp.ToolCalls[ref.Index]
	ctx, run, err := a.authorize(ctx, ref, rec)
	if err != nil {
		return ToolResult{}, err
	}
	cfg, err := a.Agent(ctx, run)
	if err != nil {
		return ToolResult{}, err
	}
	if s := cfg.Dispatcher.Session; s != nil {
		if err := refresh(ctx, s); err != nil {
			return ToolResult{}, err
		}
	}
	a.observe(durable.Event{Kind: durable.EventToolStart, Run: ref.RunID, Turn: ref.Turn, Index: ref.Index})
	if cfg.Search != nil && call.Name == toolsearch.Name {
		return a.search(ctx, ref, rec, steps, cfg, call)
	}
	o, err := durable.DispatchStep(ctx, cfg.Dispatcher, durable.ToolStep{Run: ref.RunID, Turn: ref.Turn, Index: ref.Index,
		Attempt: int(activity.GetInfo(ctx).Attempt)}, call)
	if he, ok := errors.AsType[*wink.HeldError](err); ok {
		a.observe(durable.Event{Kind: durable.EventReleased, Run: ref.RunID, Turn: ref.Turn, Index: ref.Index, State: durable.Held})
		b := he.Binding
		return ToolResult{Held: true, CallID: he.Call.ID, Call: HeldCall{Hold: b.Hold, CallID: he.Call.ID, Tool: b.Tool, Digest: b.Digest,
			Session: b.Session, Run: b.Run, Arguments: he.Arguments, Question: he.Question()}}, nil
	}
	if errors.Is(err, durable.ErrStaleStep) {
		// The session has moved past this turn while the store's checkpoints have not: no retry can
		// run the call (every attempt meets the same commit), so the run ends with the reason.
		return ToolResult{}, sdktemporal.NewNonRetryableApplicationError(err.Error(), "stale", err)
	}
	if err != nil {
		return ToolResult{}, err
	}
	a.observe(durable.Event{Kind: durable.EventToolDispatched, Run: ref.RunID, Turn: ref.Turn, Index: ref.Index})
	if err := a.Store.Append(ctx, ref.RunID, -1, durable.Step{Kind: durable.StepTool, Turn: ref.Turn, Index: ref.Index,
		Data: durable.EncodeOutcome(o), Worker: a.Worker}); err != nil && !errors.Is(err, durable.ErrStepExists) {
		return ToolResult{}, err
	}
	a.observe(durable.Event{Kind: durable.EventToolDone, Run: ref.RunID, Turn: ref.Turn, Index: ref.Index})
	return ToolResult{}, nil
}

// search answers a call of the client tool search (loop.Config.Search) as loop.Run does, over the tools
// the run offers its principal, and checkpoints the outcome with the names found
// (durable.EncodeToolStep): every later Model activity, on any worker, loads them.
func (a *Activities) search(ctx context.Context, ref StepRef, rec durable.Record, steps []durable.Step, cfg loop.Config, call wink.Call) (ToolResult, error) {
	st, err := durable.Rebuild(rec, steps)
	if err != nil {
		return ToolResult{}, sdktemporal.NewNonRetryableApplicationError(err.Error(), "corrupt", err)
	}
	tools := cfg.Tools
	if tools == nil && cfg.Dispatcher != nil && cfg.Dispatcher.Registry != nil {
		tools = cfg.Dispatcher.Registry.Tools()
	}
	offer, err := loop.NewOffer(wink.Permitted(ctx, tools), cfg.Search, st.Messages)
	if err != nil {
		return ToolResult{}, sdktemporal.NewNonRetryableApplicationError(err.Error(), "config", err)
	}
	o, found := offer.Search(call)
	if err := a.Store.Append(ctx, ref.RunID, -1, durable.Step{Kind: durable.StepTool, Turn: ref.Turn, Index: ref.Index,
		Data: durable.EncodeToolStep(o, found), Worker: a.Worker}); err != nil && !errors.Is(err, durable.ErrStepExists) {
		return ToolResult{}, err
	}
	a.observe(durable.Event{Kind: durable.EventToolDone, Run: ref.RunID, Turn: ref.Turn, Index: ref.Index})
	return ToolResult{}, nil
}

// authorize returns ctx carrying the principal the run rec acts for in this step (durable.Authorize)
// and the run as the Agent is told it. A principal expired beyond renewal fails the activity for good.
func (a *Activities) authorize(ctx context.Context, ref StepRef, rec durable.Record) (context.Context, durable.Run, error) {
	run := durable.Run{ID: ref.RunID, Session: rec.Session, Attempt: int(activity.GetInfo(ctx).Attempt)}
	p, err := durable.DecodePrincipal(rec.Principal)
	if err != nil {
		return ctx, run, sdktemporal.NewNonRetryableApplicationError(err.Error(), "corrupt", err)
	}
	run.Principal = p
	actx, p, err := durable.Authorize(ctx, run, time.Now(), a.Reauthorize)
	if errors.Is(err, durable.ErrPrincipalExpired) {
		return ctx, run, sdktemporal.NewNonRetryableApplicationError(err.Error(), "principal_expired", err)
	}
	run.Principal = p
	return actx, run, err
}

// Decide is the Decide activity: it records the decision in the run's session, bound to the held call
// (policy.NewDecision with d.Call's binding), so that the next dispatch of that call sees it.
func (a *Activities) Decide(ctx context.Context, ref StepRef, d Decision) error {
	cfg, err := a.Agent(ctx, durable.Run{ID: ref.RunID, Session: ref.Session, Attempt: int(activity.GetInfo(ctx).Attempt)})
	if err != nil {
		return err
	}
	return policy.Record(ctx, cfg.Dispatcher.Session, policy.NewDecision(d.Call.Binding(), d.Call.CallID, d.Approved, d.Reason))
}

// Forget is the Forget activity: it removes the ended run's commits from its session (durable.Forget).
func (a *Activities) Forget(ctx context.Context, ref StepRef) error {
	cfg, err := a.Agent(ctx, durable.Run{ID: ref.RunID, Session: ref.Session, Attempt: int(activity.GetInfo(ctx).Attempt)})
	if err != nil {
		return err
	}
	if cfg.Dispatcher == nil || cfg.Dispatcher.Session == nil {
		return nil
	}
	return durable.Forget(ctx, cfg.Dispatcher.Session, ref.RunID)
}

// refresh loads what other workers committed to s.
func refresh(ctx context.Context, s *session.Session) error {
	tx, err := s.Begin(ctx, session.ReadOnly)
	if err != nil {
		return err
	}
	return tx.End(ctx)
}

func itoa(n int) string { return strconv.Itoa(n) }
