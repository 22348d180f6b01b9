// Package tasks keeps the tasks of MCP's tasks extension (io.modelcontextprotocol/tasks) for
// runtime/mcpserver: a task is one tool call that runs apart from the request that started it, so that a
// tool that works for minutes or days answers its client at once with a task id and the client polls
// for the outcome (tasks/get), answers the tool's questions (tasks/update) or cancels it (tasks/cancel).
//
// Declare a tool as a task with its directive, and serve tasks with the MCP server:
//
//	// Reindex rebuilds the search index; it takes a while.
//	//
//	//wink:tool task=optional
//	func Reindex(tc *wink.ToolContext, p ReindexParams) (wink.ToolResult[Report], error)
//
//	tk, err := mcpserver.NewTasks(mcpserver.TaskOptions{Store: tasks.NewMemoryStore()}) // or pgtasks.New(ctx, pool)
//	h, err := mcpserver.HTTPHandler(d, mcpserver.WithTasks(tk))
//	go tk.Work(ctx) // on every worker: takes over the tasks of workers that died
//
// task=optional: a client that declared the extension (capabilities.extensions, or the request's _meta
// on protocol 2026-07-28) gets a task; any other client gets the result in its request, as from any tool.
// task=required: only clients that declared the extension may call the tool; others are refused with
// -32021 (missing required client capability) naming the extension. Tools without task= are never tasks.
//
// # What is guaranteed
//
//   - Durable before the reply: the server answers a call with its task id (CreateTaskResult) only
//     after Store.Create returned, so a tasks/get sent right after it, to any worker sharing the store,
//     finds the task. MemoryStore holds tasks for one process; pgtasks.Store (PostgreSQL, beside the
//     durable runs and the ledger) for a fleet.
//   - One worker at a time, and a dead worker replaced: the worker that creates a task runs it under a
//     lease (TaskOptions.Lease, default 30 s), renewed every third of it. A worker that dies (kill -9, a
//     lost machine) stops renewing; once the lease has run out, Work on another worker claims the task
//     and runs the handler again from the start. Every write of a worker is fenced by its claim's token,
//     so a worker whose lease was taken over can no longer store an outcome. As with durable runs,
//     effects outside the session are at least once: a handler interrupted after its effect runs again.
//   - Statuses as the extension says them: working, input_required (the handler waits for answers),
//     completed (the tool returned a result, isError results included: the model-facing failure of a
//     tool is a completed task whose result has isError), failed (the call was answered with a protocol
//     error: mcpserver.ProtocolError, or the dispatcher's own errors), cancelled. A terminal task never
//     changes again: an outcome arriving after a cancellation is dropped.
//   - Cancellation reaches the handler: tasks/cancel marks the task cancelled and cancels the handler's
//     context at once on the worker running it, and within the poll interval on any other.
//   - Questions become input requests: wink.Elicit inside a task adds an input request
//     (elicitation/create) under a key the task never reuses (wink.input.N); tasks/get shows the
//     pending ones, tasks/update answers any of them (unknown keys are ignored), and the handler goes on
//     once its question is answered. Answers are stored, so a worker that takes the task over replays
//     them to the same questions.
//   - Sampling becomes an input request too: ToolContext.Sample inside a task adds one
//     (sampling/createMessage) under the next wink.input.N key, answered with a sampling result.
//   - A call a policy holds for a person's approval (policy.RequireApproval) becomes an input request:
//     an elicitation asking to approve the call, under the key wink.approval.M.H (M counts the task's
//     holds, H names the held call: its tool and canonical arguments). tasks/update with
//     {"action":"accept"} approves it and the call runs; "decline" (with content.reason, which the model
//     reads) or "cancel" denies it and the task completes with the denial as an isError result. The
//     decision is recorded in the dispatcher's session bound to the held call (wink.Binding), so an
//     approval authorizes that call only: not another task's, not another call of the same task (its
//     key differs), not a later one. A worker that takes the task over replays the stored decision to
//     the same held call only. Approvals need a session on the dispatcher (mcpserver.WithSessions).
//   - Who the task acts for: the caller's principal when the task was created (Task.Principal:
//     subject, issuer, client id, scopes, expiry; never the token, never its claims) is stored with the
//     task and put back on every worker that runs it, after a takeover too, so the scopes its tool
//     declares are checked inside the task and the handler reads ToolContext.Principal. The task's
//     call is not dispatched at or after the principal's expiry (a takeover or an approval that came
//     late): the task fails, and the client calls the tool again with a fresh token.
//     A tool listed in TaskOptions.StartInRequest whose call was approved in the request is asked
//     again inside the task (the approval in the request was bound to that request's hold).
//   - Status notifications are not sent; clients poll tasks/get every pollIntervalMs. The extension
//     makes them optional and delivers them as notifications/tasks on the subscriptions/listen stream;
//     the Go SDK the server is built on serves that stream for its own notification kinds only and
//     sends no notification method it does not know.
//   - Kept for TaskOptions.TTL (ttlMs, default 24 h) from creation, then pruned by Work; tasks/get of an
//     unknown or expired task is -32602.
package tasks
