// Package mcpserver serves the tools of a [wink.Dispatcher] to Model Context Protocol clients with the
// official Go SDK (github.com/modelcontextprotocol/go-sdk), using winkgen's schemas, strict decoders and
// dispatcher rather than the SDK's reflection and validation.
//
// # Serving
//
// Over standard input and output (what desktop clients and IDEs launch):
//
//	reg := wink.MustRegistry(tools.WinkTools())
//	err := mcpserver.ServeStdio(ctx, &wink.Dispatcher{Registry: reg})
//
// Over streamable HTTP:
//
//	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: reg})
//	...
//	http.Handle("/mcp", h)
//
// [ServeStdio] reads its input with [LineTransport]: a line that is not a JSON-RPC 2.0 message (invalid
// JSON, binary bytes, a batch, "jsonrpc":"1.0", an object id, nesting deeper than 128 levels, a member
// given twice, a line over the size limit) is answered with -32700 Parse error or -32600 Invalid
// Request (id null when the line's id cannot be read) and the session goes on, where the SDK's own
// stdio transport ends the connection. At the end of its input it answers every request already read (their answers are
// written before the connection closes), so a client that pipes its requests and closes its end gets
// every answer; a request the server sent the client (sampling, elicitation) fails with the end of
// input, so the handler waiting for it goes on.
//
// For any other transport, or to add prompts and resources, [New] returns the *mcp.Server itself.
// example/cmd/mcpserver is a complete server of the example tools (example/tools) and of tools of every
// result shape, over stdio or (-http) streamable HTTP; example/cmd/conformance is the server the official
// conformance suite is run against (docs/mcp-server.md lists its results).
//
// # One message, one reading; browsers of other sites kept out
//
// A message is read the same way by everyone who reads it: one whose objects give a member twice, at
// any depth and however the key is spelled ("method" twice, "name" twice in params with the second
// written "na\u006de", "arguments" twice, a member of _meta or of inputResponses twice) is refused
// with -32600 Invalid Request, naming the member, and nothing of it runs, on every transport (stdio
// lines; HTTP bodies, each message of a batch, with HTTP 400), for every method. The SDK would have
// run the last spelling while a gateway, a policy or a log reading the first saw another call. Inside
// a tools/call's arguments a member given twice reaches the tool's strict decoder, which refuses it
// and tells the model which field to fix.
//
// HTTPHandler refuses (HTTP 403, before reading anything) a request whose Origin header names a web
// page of another site: served are requests without Origin (every non-browser client), pages of the
// server's own origin (the request's Host), loopback pages (localhost, 127.0.0.0/8, [::1]: a tool the
// user runs, such as the MCP Inspector) and origins given with WithAllowedOrigins ("*" allows all).
// The SDK's Host check refuses DNS rebinding on a loopback address. A handler built with New and the
// SDK's own mcp.NewStreamableHTTPHandler has neither check.
//
// # Who may call what
//
// WithAuth(auth.Config{Issuer: ..., Resource: ...}) makes HTTPHandler an OAuth 2.1 resource server
// (package auth: RFC 9728 metadata, 401 and 403 challenges, JWT access tokens checked with the issuer's
// JWKS, or RFC 7662 introspection). A tools/call of a tool whose //wink:tool scopes the token lacks is
// refused with 403 and one step-up challenge naming every scope the tool needs; the dispatcher checks the
// same scopes again (a tool error where no status can be carried). tools/list shows each caller only the
// tools its token permits, marked cacheScope "private". A handler reads the caller with
// ToolContext.Principal(); the token itself is never handed on. Stdio and New serve without tokens.
// Prompts, resources, resource templates and a workspace declaring scopes (their Scopes fields,
// WorkspaceOptions.Scopes, and WithScopes for package prompt's prompts and sections) are listed, got,
// read, completed and subscribed to likewise (auth_items.go, auth_subs.go): a caller whose token lacks
// them neither sees them nor learns of them through a completion or a resources/updated notification.
//
// # A tool list the client can pin
//
// The initialize result and every tools/list result carry, under _meta FingerprintMeta, the
// fingerprint of the tool definitions the caller may call (wink.Fingerprint: SHA-256 of the RFC 8785
// canonical definitions, names, descriptions, schemas, examples, annotations and scopes), deferred
// tools and WithToolSearch's search tool included although tools/list shows the one and not the
// others. It changes only when a definition changes (or, with WithAuth, when the caller's scopes show
// it other tools), so a host that pinned it, computed offline with wink.Fingerprint(registry.Tools())
// (with tool search, of append(registry.Tools(), SearchTool())) or read once, sees a definition
// changed after approval. fingerprint.go says why it is there and not in the metadata.
//
// # One session per client
//
// A client is one MCP session of the SDK: the stdio connection, one Mcp-Session-Id of the streamable
// HTTP transport, or one request of a stateless HTTP server (StreamableHTTPOptions.Stateless). Each
// client gets its own dispatcher, and so its own session, from the factory given with WithSessions:
//
//	h, err := mcpserver.HTTPHandler(template, mcpserver.WithSessions(
//		func(ctx context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
//			d := *template // a Dispatcher is a small value: copy the template
//			d.Session = session.New()
//			return &d, nil, nil
//		}))
//
// The factory is called on the client's first tools/call (lazily: a client that only lists tools
// costs nothing) and its release function, if any, when the client's MCP session ends (the client
// closes it, it times out, or the stateless request is answered), after the client's last call.
// Client carries the MCP session id and the HTTP header, so the factory can map a client to a
// stored session: a stateless request carrying, say, an X-Session header can reopen the session an
// earlier request (on any worker) left in a session store. A stateless request the factory does
// not map gets a fresh session and loses it when answered. Two clients share state only when the
// factory gives them the same session.
//
// Without WithSessions, the dispatcher given to New serves every client. That is right for
// ServeStdio (one connection, one client) and for dispatchers without per-client state; New and
// HTTPHandler refuse a dispatcher holding a Session, Resources or Filesystem, which every client
// would otherwise share (a factory returning that dispatcher shares it on purpose).
//
// # Both revisions on one HTTP server
//
// Revision 2026-07-28 has no sessions: each request carries its protocol version (the
// Mcp-Protocol-Version header and _meta) and stands alone, and a question to the client is an
// input-required round. The specification lets one server speak it beside the session-based revisions;
// the Go SDK's streamable handler does not (it refuses 2026-07-28 with -32022 unless
// StreamableHTTPOptions.Stateless is set, a rule of its code). The choice is the user's:
//
//   - stateful (the default): 2026-07-28 requests are refused with -32022; clients that speak both
//     (the Go SDK's) fall back to 2025-11-25 and get a session, so a WithSessions factory keeps one
//     dispatcher per client, and server-to-client requests and subscriptions work;
//   - stateful with WithBothRevisions: a request without Mcp-Session-Id whose Mcp-Protocol-Version is
//     2026-07-28 or later is served exactly as a stateless server serves it (no session: the factory
//     sees a Stateless client, questions travel as input-required rounds), and every other request
//     (initialize, the requests of a session) by the sessions as before;
//   - StreamableHTTPOptions.Stateless: 2026-07-28 fully, older clients without anything that needs a
//     session (sampling, elicitation and resources/subscribe fail for them); suits a fleet behind a
//     load balancer.
//
// # A capability the client did not declare
//
// A handler states what it needs of its client with wink.ToolContext.RequireClient(wink.CapSampling,
// ...); Sample and Elicit need sampling and elicitation. When the client did not declare the
// capability, a 2026-07-28 request is answered with the protocol error -32021 (HTTP 400), its data
// {"requiredCapabilities":{"sampling":{}}} naming what was missing, not with a tool result; on earlier
// revisions the call is a tool error saying which capability the client lacks.
//
// # A server that runs for weeks
//
// What a client costs is given back when it leaves. A streamable HTTP session that receives no
// request for DefaultSessionTimeout (30 minutes; WithSessionTimeout) is closed, as one the client
// deletes is, and its client's release function runs: a client that leaves without DELETE holds
// nothing after that. A stateless server keeps nothing between requests. In a session, the
// dispatcher's logs (wink.ToolLog, wink.PolicyLog) keep the newest calls within
// wink.Dispatcher.LogLimits. A request larger than DefaultMaxRequestBytes (4 MiB; WithMaxRequestBytes)
// is refused after reading at most that much, with HTTP 413 or, over stdio, a -32600 error, and the
// session goes on.
//
// # What the client sees
//
// tools/list: every tool of the registry in the registry's order with its name; its description followed
// by its examples (//wink:example), one line each, "- <description>: `name(<input>)` returns `<output>`",
// the form the prompt package's tools block uses, since the description is what every host shows the
// model; inputSchema = Spec.ParamsSchema with the examples' inputs as its JSON Schema "examples" keyword;
// the examples again in _meta["io.winkgen/examples"] (ExamplesMetaKey: description, input and output of
// each, for programs); the annotations below; and an outputSchema stated as the client's protocol
// version requires (the version the server answered the client's initialize with, per request for
// stateless servers; a client asking for 2026-07-28 or an unknown version in initialize is answered
// 2025-11-25 and served as 2025-11-25; a 2026-07-28 request states its version in _meta):
//
//   - 2025-06-18 and later: outputSchema =
//     {"type":"object","properties":{"result":<Spec.ResultSchema>},"additionalProperties":false} (its
//     "$schema" and "$defs" moved to the envelope's root, and references into the result schema's root,
//     such as a recursive type's "$ref":"#", rebased onto "#/properties/result"), and every successful
//     result carries structuredContent = {"result":<value>}, or {} when the call returned no value
//     (wink.Done) or kept it out of the context (wink.WithoutValueInContext). "result" (ResultProperty)
//     is optional for that reason. A server that lists an outputSchema must send structuredContent that
//     matches it with every success, and any handler may answer wink.Done, which no result type's own
//     schema admits: hence the envelope, for every result type, objects included. 2025-06-18 and
//     2025-11-25 also require an object (the TypeScript SDK's client rejects the whole tools/list
//     otherwise, and any success of a tool with an outputSchema that has no structuredContent).
//     2026-07-28 would accept the bare value, but a bare value cannot say "no value" (null is the
//     value of a nullable result, and the Go and TypeScript clients read a null, false, 0 or ""
//     structuredContent as none), so 2026-07-28 gets the same envelope.
//   - Versions before 2025-06-18 have no outputSchema and no structuredContent: neither is sent.
//
// A wink.NoValue result (schema {"type":"null"}) has no outputSchema and no structuredContent on any
// version.
//
// In the envelope the result schema S is stated as what the generated encoder guarantees of every value: its
// types, properties, required members, items, nullability and references, without the rules of values
// that a result type's wink:"..." tags and enum constants add (enum, const, lengths, pattern, bounds,
// multipleOf, item and property counts, formats other than "date-time"). Only arguments are decoded
// strictly; a handler may return an enum-typed field at its zero value or a string outside a pattern, and
// MCP clients that validate structuredContent (the TypeScript SDK's does) would refuse the whole call.
// The descriptions stay, so the rules still reach whoever reads them.
//
// ListedTools returns the tools array of tools/list for a registry at a revision, built by the code the
// server lists with; `winkgen schema -format mcp -revision R` prints it from a package's source.
//
// tools/call: the raw arguments go to Dispatcher.Dispatch untouched (absent arguments are sent as {}), so
// the strict decoder is the only validator and its messages reach the model. Then:
//
//   - success: one text block holding Outcome.Output (the message, a blank line and the rendered value,
//     exactly what other adapters send the model) and, for a tool with an outputSchema, structuredContent
//     as above: the value written by the generated JSON encoder (never Render), so it matches
//     outputSchema. An empty Output gives no text block.
//   - failure (unknown arguments, bad values, policy denial, failure result, handler error or panic,
//     invalid result): isError true and one text block holding Outcome.Output, the same product text the
//     model sees through any adapter, for example `Tool "compute_stats" failed: sample overflow in the
//     accumulator`. A failure never carries structuredContent, even when its result had a value (the value
//     is in the text).
//   - a call the dispatcher does not answer as a result (deadline expired or call cancelled before the
//     handler ran, a failed transaction begin or rollback): a JSON-RPC internal error whose message is
//     `tool "<name>" was not answered: <error>`, also logged (WithLogger).
//   - a call held for a person's approval (policy.RequireApproval; the dispatcher needs a session, see
//     WithSessions): an input-required result (MCP 2026-07-28 multi round-trip requests) asking the
//     client to elicit the decision from its user (the question shows the tool and its arguments in
//     canonical form, bounded: wink.HeldError.Question), with a signed requestState carrying the held
//     call's binding (its hold id and the digest of its canonical arguments). The client answers by
//     calling the tool again with the elicitation's result: "accept" records an approval bound to the
//     held call (hold id, tool, arguments, session, run) and the call runs under its hold id; "decline"
//     or "cancel" records a denial (with the form's reason) and the model reads it. The SDK asks clients on older protocol
//     versions by elicitation/create itself. A requestState that does not match the retried call's tool,
//     arguments (in canonical form: any spelling of the same ones matches) or session, or a retry of a
//     call already decided (a replay), is refused with a JSON-RPC
//     invalid-params error and runs nothing. Servers sharing sessions share the
//     signing key (WithRequestStateKey). An approved call whose handler then asks the client questions
//     (wink.Elicit, ToolContext.Sample: input requests of their own on 2026-07-28) goes on in the same
//     tools/call: each round's one requestState carries the approval and every earlier answer, so the
//     person is asked once and the call completes after its last question. Each round's state is
//     accepted once: a replayed round of an approved call, the last included, is refused (invalid
//     params, "already decided") and runs nothing, so an approved call's effects happen once.
//   - an unknown tool name never reaches the dispatcher: the SDK answers it with its own JSON-RPC error
//     (`unknown tool "x"`), since only registered tools are routed.
//
// How the server recovers panics, numbers calls, carries structured values and
// stays free of reflection is in DESIGN.md beside this file.
//
// # Tasks
//
// A tool declared with //wink:tool task=optional or task=required runs as a task of MCP's tasks
// extension (io.modelcontextprotocol/tasks) for clients that declared the extension, when the server
// has WithTasks(NewTasks(TaskOptions{Store: ...})): the tools/call is answered at once with a
// CreateTaskResult (resultType "task", taskId, status, createdAt, lastUpdatedAt, ttlMs,
// pollIntervalMs), created in the store before the reply; tasks/get answers the task's status, its
// pending inputRequests, and once it is over its result (completed) or JSON-RPC error (failed) inlined;
// tasks/update answers input requests and tasks/cancel cancels, each with an empty {"resultType":
// "complete"} ack. A client that did not declare the extension gets a plain result from a task=optional
// tool, and -32021 (CodeMissingCapability, data.requiredCapabilities naming the extension) from a
// task=required tool and from the tasks methods. On 2026-07-28 a tasks method must carry Mcp-Name equal
// to its taskId (HTTP 400, -32020 otherwise), so a router can send it to where the task is. Package
// runtime/tasks says what is guaranteed (durability, takeover of a dead worker's tasks by Work,
// cancellation reaching the handler, questions as input requests); a tool listed in
// TaskOptions.StartInRequest asks its first questions in the request and becomes a task at StartTask.
// A task acts for the caller's principal (subject, issuer, client id, scopes and expiry, stored with the
// task, never the token), on every worker, after a takeover too: the dispatcher checks the scopes its
// tool declares inside the task, and a task taken over after its principal's expiry fails. Questions
// (wink.Elicit), sampling (ToolContext.Sample) and approvals of held calls (policy.RequireApproval) become
// the task's input requests (tasks_ask.go says their keys and shapes). With WithSessions a task runs on
// the dispatcher of the client that created it, released only after the task's run; a worker that takes
// a task over asks the factory for it with Client.Task set. Status notifications are not sent (clients
// poll tasks/get; the SDK sends no notification method it does not know, and serves subscriptions/listen
// for its own notification kinds only).
//
// # Resumable streams
//
// A stateful HTTPHandler keeps the events of its streams in an event store (WithHTTPOptions's
// EventStore, else a bounded in-memory one): a client on 2025-11-25 gets a priming event (an id, empty
// data) first on every POST stream, and one that lost a stream reconnects with GET and Last-Event-ID
// and receives what it missed. Every SSE response starts with a "retry:" field (DefaultSSERetry,
// WithSSERetry). A handler can close its call's stream and let the client come back for the answer
// (CloseSSEStream), but only a stream the client can resume: one that began with a priming event. For
// any other (a request at 2025-06-18 or earlier, a stateless server, JSON responses, 2026-07-28, a
// server made with New) CloseSSEStream closes nothing and reports false, and the answer goes on the
// open stream. What the SDK does not do: it decides by the request's Mcp-Protocol-Version
// header, so a request naming a version before 2025-11-25 gets no priming event even on a session that
// negotiated 2025-11-25; 2026-07-28 has no resumable streams; a stateless server keeps no events; the
// in-memory store is one process's, so a fleet needs an mcp.EventStore its workers share.
//
// # Annotations, progress and cancellation
//
// tools/list carries each tool's annotations: readOnlyHint from //wink:tool readonly, idempotentHint from
// //wink:idempotent, and title, destructiveHint and openWorldHint from //wink:tool's title, destructive and
// openworld keys; all four hints are always sent. Icons (an https URL or a data URI of an image, checked
// when the server is made) are given with WithIcons for the server, WithToolIcons for tools by name, and
// the Icons field of a Prompt, Resource or ResourceTemplate; clients of 2025-11-25 and later show them. A
// client that sends a progress token receives notifications/progress for every
// ToolContext.Progress its call's handler reports; a client that cancels a call (notifications/cancelled)
// cancels the handler's context.
//
// # Content, the client, prompts and resources
//
// A result's content blocks (wink.WithContent: images, audio, embedded resources, resource links, more
// text) follow its text block as MCP content of the same kinds. During a call, ToolContext.Log sends
// notifications/message at the level the client set, and ToolContext.Sample and wink.Elicit ask the
// client's model and user one question at a time (wink.Round asks several, named, at once: see above):
// sampling/createMessage and elicitation/create up to protocol 2025-11-25, input-required results on
// 2026-07-28 (the handler runs again with the answers so far, carried in a signed requestState). The
// handler's goroutines may ask too, concurrently; once the handler has returned (Dispatch, a prompt's
// Get, a resource's Read), asking through its context fails with an error matching wink.ErrNotAvailable
// and changes nothing of the answered request, and a question still in flight on 2025-11-25 ends with
// the request's context. WithPrompt, WithPrompts and WithPromptSections serve prompts; WithResource,
// WithResourceTemplate and WithWorkspace serve resources (a workspace's subscribers are notified when a
// file changes); completion/complete completes prompt arguments and template variables.
//
// # Asking the client: named questions, several at once, from tools, prompts and resources
//
// A tool's handler, a Prompt's Get and a Resource's (or ResourceTemplate's) Read ask the client with
// wink.Round (wink.NewRound(ctx)): forms (wink.AskForm), questions for the client's model (Sample) and
// the client's roots (Roots), each under a key the handler chooses, waited for together (Wait). The
// author writes one code path; what the client is sent depends on the revision the request is answered
// at:
//
//   - 2026-07-28 (stateless, or WithBothRevisions): Wait returns an error the handler returns as it is;
//     the server answers tools/call, prompts/get or resources/read with
//     {"resultType":"input_required","inputRequests":{"<key>":{"method":"elicitation/create" |
//     "sampling/createMessage" | "roots/list","params":...},...},"requestState":"wink-call...."}, every
//     unanswered question of the round at once. The client sends the same request again with
//     "inputResponses" (answers by key) and the requestState; the handler runs again from the start, and
//     Wait returns the answers. A handler with k rounds runs k+1 times (a tool's earlier runs are rolled
//     back). The requestState is signed (HMAC-SHA256, WithRequestStateKey) over the tool's name and its
//     arguments in canonical form (the prompt's name and arguments, the resource's URI) and carries every
//     answer given so far: a changed or foreign state is refused with -32602 before anything runs.
//   - 2025-11-25 and earlier, on a session: each question is a request to the client
//     (elicitation/create, sampling/createMessage, roots/list), one after the other, and the handler runs
//     once. A stateless server cannot ask at these revisions (wink.ErrNotAvailable).
//   - a task (WithTasks): the questions are the task's input requests under their keys; tasks/get shows
//     them and tasks/update answers them.
//
// Keys: a key names one question for the whole request (every round, every run of the handler, a task's
// whole life): its answer, once given, stays its answer, and a question of another kind under a key
// already used is refused. Keys starting "wink." are the runtime's (wink.input.N for the one-at-a-time
// ToolContext.Sample and wink.Elicit, wink.approval for a held call's approval). Answers are read
// strictly: an answer of the wrong kind (a sampling result for a form) or content a tool cannot take
// fails the request with -32602 naming each key; a form's answer is decoded by its generated decoder,
// and Wait reports every problem of every answer, each under its key. Keys a retry answers that the
// handler does not ask are ignored; a question the retry leaves unanswered is asked again. A question
// whose capability the client did not declare makes the request fail with -32021 on 2026-07-28 (a tool
// error before); wink.Declared tells a handler what the client declared, to leave such a question out.
//
// # Resources: what is guaranteed
//
// A template's simple variable ({id}) reaches its Read percent-decoded and as one segment's text: a URI
// whose value decodes to "", "." or "..", or to text holding "/", a backslash, "?", "#", "[", "]", "%"
// (a second encoding) or a control character does not match ("Resource not found"), so "..%2Fsecret"
// never reaches a handler as "../secret". A reserved variable ({+path}) may hold "/" and dot segments
// (RFC 6570); its Read must confine it (the workspace does, with vfs.Clean).
//
// A workspace file has one URI (its cleaned path, segments escaped), and subscriptions are keyed by it:
// every spelling ("./", "%52", "a/../", "//") is the same subscription, and notifications use the one
// URI. Every subscription (to any URI) belongs to the MCP session that made it: unsubscribing ends only
// that session's, and the end of the session (close, timeout, disconnect) releases all of them. They are
// bounded: DefaultMaxSubscriptionsPerSession (256) per session and DefaultMaxSubscriptions (4096) for the
// server (WithSubscriptionLimits); over a bound resources/subscribe fails with an error saying which. A
// stateless HTTP request (before 2026-07-28) cannot subscribe: it has no session to hold a subscription;
// on 2026-07-28 a subscription lasts as long as its subscriptions/listen request. Changes are found by a
// background watcher, never on a client's request and never under a lock a request needs: it stats each
// watched file every WorkspaceOptions.Poll (and soon after a tools/call, which only wakes it) and reads a
// file only when its size or modification time changed, at most WorkspaceOptions.MaxHashBytes per round.
// The watcher stops when nothing is subscribed. vfs never blocks on a fifo or device in the workspace.
package mcpserver
