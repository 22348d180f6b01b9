// Package loop is the agent loop: [Run] drives a [Provider] (a model behind some API) until the model stops
// calling tools, running every tool call through a [wink.Dispatcher] and feeding the outcomes back, within
// a maximum number of turns ([Config].MaxTurns), the context's deadline and the dispatcher's token Budget.
// [Resume] goes on after calls held for approval.
//
//	res, err := loop.Run(ctx, loop.Config{Provider: p, Dispatcher: d, System: prompt}, []loop.Message{loop.UserMessage(task)})
//
// Providers live elsewhere: runtime/providers/openaihttp (any OpenAI-compatible chat completions server),
// openairesponses (the OpenAI Responses API), anthropichttp (the Anthropic Messages API), and
// runtime/providers/scripted (replays a transcript file, for demos and tests).
//
// # Decisions where the design was silent
//
//   - A turn is one provider response plus the execution of its tool calls. MaxTurns bounds provider
//     calls; zero means DefaultMaxTurns (32), since an unbounded loop is never what production wants.
//     When the last allowed turn still calls tools, its calls run (so that every call in the transcript
//     is answered) and Run returns ErrMaxTurns.
//   - Run's error is nil only when the model finished (StopDone). Every other stop returns the partial
//     Result (transcript, usage, turns) together with the error; Result.Stop classifies it.
//   - Budget: each response's usage is charged to Dispatcher.Budget (the tracker handlers see) right after
//     it arrives. When that exceeds a limit, the run stops before the response's tool calls run: the
//     model's instructions are not acted on once the budget is spent. The transcript then ends with an
//     assistant message whose calls are unanswered; a caller resuming the conversation must answer or
//     drop them. A Budget already exceeded (shared with earlier runs) stops the run before any request.
//     Result.Usage counts this run's tokens only; the Budget keeps the total.
//   - Deadline: ctx is checked before every request; the provider and Dispatch report it while they
//     work (Dispatch refuses a call whose deadline has passed). A provider error while ctx is done is
//     joined with ctx.Err() if it does not wrap it, so errors.Is(err, context.DeadlineExceeded) holds.
//   - Errors from Dispatch (deadline, cancellation, a transaction that could not start or roll back)
//     stop the run: the tool results obtained before the error are kept in the transcript, later calls
//     of the turn do not run. With Parallel, every read-only call of the turn has run, and the
//     state-changing ones up to the first that returned an error (the later ones do not run); the
//     outcomes of those that succeeded are kept in the calls' order and the error of the earliest failing
//     call returned.
//   - Failed tool calls (bad arguments, unknown tool, denials, handler failures) are not errors: their
//     text goes back to the model, which is how it recovers.
//   - Parallel is a switch on the whole run; results always keep the calls' order. It runs a turn's
//     read-only calls concurrently, and its state-changing calls one after another in the order the
//     model gave them (beside the read-only ones), since a call may depend on the one before it. It is
//     safe on one session: the dispatcher isolates the calls (each call that changes state holds its
//     session exclusively from snapshot to commit or rollback, read-only tools share it), so parallel
//     calls overlap only where they cannot undo each other's writes.
//   - A call to a tool that is not offered (Config.Tools narrower than the registry) is still dispatched:
//     the registry is the authority, and unknown names are answered by the dispatcher.
//   - OnTurn runs on Run's goroutine after each turn's calls, also for the final and the stopping turn.
//     Turn.Outcomes always has one outcome per call, Outcomes[i] that of ToolCalls[i], with Parallel
//     too: a held call's outcome has Held set, a call the run stopped before (an exceeded budget, a
//     Dispatch error) has NotRun set, and neither is sent to the model. Resume reports the turn it
//     completes (Turn.Resumed, Index 0) with the resumed calls' outcomes at their indexes, before its
//     first request.
//   - Calls a policy holds for a person's approval (policy.RequireApproval) are neither errors nor
//     failures: the turn's other calls run, the run stops with StopHeld and Result.Held (a *wink.HeldError
//     per held call, to show and to decide on with policy.Approve or policy.Deny), and Resume, given the
//     kept messages once the decisions are recorded, dispatches the held calls (on this worker or any
//     other over the same stored session; it refreshes the session first) and goes on. The held calls in
//     Result.Messages carry their hold id (wink.Call.Hold): a decision is bound to it, to the tool, to
//     the canonical arguments, the session and the run, and applies to no other call, so a later call
//     reusing the provider's id (Gemini's "gemini-0" opens every turn) is held again.
package loop
