package mcpserver

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/ratelimit"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// DefaultName and DefaultVersion identify the server to clients (the
// serverInfo of the initialize response) unless WithImplementation says
// otherwise.
const (
	DefaultName    = "wink"
	DefaultVersion = "dev"
)

// Option configures New, ServeStdio and HTTPHandler.
type Option func(*config)

type config struct {
	impl     mcp.Implementation
	sseRetry time.Duration // WithSSERetry (resume.go)
	// resumableStreams: HTTPHandler serves the server with resumable streams (resume.go).
	resumableStreams bool
	bothRevisions    bool // WithBothRevisions (revisions.go)
	serverOpts       *mcp.ServerOptions
	httpOpts         *mcp.StreamableHTTPOptions
	logger           *slog.Logger
	sessions         SessionFunc
	callCtx          func(ctx context.Context, meta map[string]any) context.Context
	stateKey         []byte   // WithRequestStateKey
	lifetime         lifetime // WithSessionTimeout, WithMaxRequestBytes (lifetime.go)
	ext              *extras  // WithPrompt(s), WithResource(Template), WithWorkspace (completion.go)
	origins          []string // WithAllowedOrigins (httpcheck.go)

	auth      *auth.Config       // WithAuth (auth.go)
	rateLimit *ratelimit.Limiter // WithRateLimit (ratelimit.go)

	tasks  *Tasks                // WithTasks (tasks.go)
	search []*toolsearch.Catalog // WithToolSearch (toolsearch.go)

	icons     []Icon            // WithIcons (icons.go)
	toolIcons map[string][]Icon // WithToolIcons (icons.go)
}

// WithImplementation sets the name and version the server reports to
// clients; the defaults are DefaultName and DefaultVersion.
func WithImplementation(name, version string) Option {
	return func(c *config) { c.impl.Name, c.impl.Version = name, version }
}

// WithServerOptions passes opts to mcp.NewServer (instructions, logging,
// paging, ...). Their Logger is used when WithLogger is not given.
func WithServerOptions(opts *mcp.ServerOptions) Option {
	return func(c *config) { c.serverOpts = opts }
}

// WithHTTPOptions passes opts to mcp.NewStreamableHTTPHandler (HTTPHandler
// only).
func WithHTTPOptions(opts *mcp.StreamableHTTPOptions) Option {
	return func(c *config) { c.httpOpts = opts }
}

// WithLogger sets where the server reports what the client is not told in
// full: a call the dispatcher answered with an error instead of a result,
// and a panic outside the dispatcher (with its stack). nil (the default)
// discards those reports. Handler panics themselves are recorded by the
// dispatcher, in the ToolInvoked event its Events sink receives.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// WithCallContext sets a function that derives each tools/call's context
// from the request's params._meta before the call is dispatched: a trace
// continued from its traceparent (otelwink.MCPCallContext), a request id
// for logs. It is called with a nil meta when the request has none.
func WithCallContext(f func(ctx context.Context, meta map[string]any) context.Context) Option {
	return func(c *config) { c.callCtx = f }
}

// New returns an MCP server exposing every tool of d.Registry. Each tool is
// registered with mcp.Server.AddTool (the SDK's raw, non-validating path):
// inputSchema is Spec.ParamsSchema with the tool's examples, and outputSchema
// states Spec.ResultSchema as each client's protocol version requires (the
// schema itself on 2026-07-28, an object envelope on 2025-06-18 and
// 2025-11-25, none before), omitted for tools returning wink.NoValue. A
// tools/call passes the raw arguments to d.Dispatch; see the package
// documentation for what the client sees.
//
// New uses a shallow copy of d whose Events sink also records result values
// for structuredContent (d's own sink still receives every event); d must
// not be modified afterwards. New fails when d is nil or a tool's schemas
// are not what MCP accepts (a params schema that is not a JSON object of type
// "object"); winkgen never generates such tools.
func New(d *wink.Dispatcher, opts ...Option) (*mcp.Server, error) {
	return newMCPServer(d, false, opts)
}

// newMCPServer is New; oneClient says the server will have one client (the
// stdio connection), which may use d's own state without a session factory.
func newMCPServer(d *wink.Dispatcher, oneClient bool, opts []Option) (*mcp.Server, error) {
	s, c, err := newServer(d, oneClient, opts)
	if err != nil {
		return nil, err
	}
	ms := mcp.NewServer(&c.impl, c.tasks.serverOptions(c.ext.serverOptions(c.serverOpts)))
	if err := c.ext.install(ms); err != nil { // prompts, resources, completion (completion.go)
		return nil, err
	}
	if c.tasks != nil { // tasks/get, tasks/update, tasks/cancel; task-supporting tools' calls (tasks.go)
		if err := c.tasks.install(ms, s); err != nil {
			return nil, err
		}
	}
	order := make(map[string]int, len(s.tools))
	for i, t := range s.tools {
		ms.AddTool(t, s.handle)
		order[t.Name] = i
	}
	// Tools are listed in the registry's order (the order the prompt offers them), not the SDK's
	// alphabetical one, and as the request's protocol version states them (protocol.go). The SDK pages
	// tools/list by name: when the list spans several pages, each page is put in registry order, and
	// the pages keep the SDK's cursor.
	ms.AddReceivingMiddleware(s.listForVersion(order), initializeAtNegotiated(s.versions))
	ms.AddReceivingMiddleware(s.listByScopes(c.auth))     // each caller sees the tools its token permits (auth.go)
	if err := s.installSearch(ms, c.search); err != nil { // toolsearch.go
		return nil, err
	}
	items, err := itemScopesOf(c.ext)
	if err != nil {
		return nil, err
	}
	ms.AddReceivingMiddleware(itemsByScopes(c.auth, items)) // and the prompts and resources (auth_items.go)
	if items != nil {
		ms.AddSendingMiddleware(items.dropMuted) // hidden subscriptions are never notified (auth_subs.go)
	}
	var tools, extra []*wink.Tool
	if d.Registry != nil {
		tools = d.Registry.Tools() // deferred ones included: callable, so covered (fingerprint.go)
		if c.search != nil {
			extra = append(extra, searchTool)
		}
	}
	ms.AddReceivingMiddleware(withFingerprint(tools, extra)) // the tool list a client can pin (fingerprint.go)
	ms.AddSendingMiddleware(keepAnswer)                      // a form's answer is judged by its decoder (keepanswer.go)
	ms.AddReceivingMiddleware(s.askingItems)                 // prompts and resources ask the client (asking_items.go)
	return ms, nil
}

// ServeStdio serves d's tools over standard input and output until the
// client disconnects or ctx is done. It returns the error that ended the
// session. The connection is read with LineTransport: a malformed line is
// answered with a JSON-RPC error and the session goes on.
func ServeStdio(ctx context.Context, d *wink.Dispatcher, opts ...Option) error {
	ms, err := newMCPServer(d, true, opts)
	if err != nil {
		return err
	}
	c := config{}
	for _, o := range opts {
		o(&c)
	}
	if c.logger == nil && c.serverOpts != nil {
		c.logger = c.serverOpts.Logger
	}
	return ms.Run(ctx, &LineTransport{Logger: c.logger, MaxLineBytes: c.maxLineBytes()})
}

// HTTPHandler returns an http.Handler serving d's tools over the streamable
// HTTP transport. Each MCP session is a client (a stateless request too):
// with WithSessions, each gets its own dispatcher; without it, d serves
// every client, which New allows only when d holds no per-client state.
// Before the SDK reads a request, the handler refuses (HTTP 403) a browser
// page of another origin (the Origin header: the server's own origin and
// loopback origins are served, others only with WithAllowedOrigins; requests
// without Origin are served), and answers a body that is not one reading of
// JSON-RPC 2.0 messages (a member given twice in any object included) with
// HTTP 400 and the JSON-RPC error, running nothing of it.
func HTTPHandler(d *wink.Dispatcher, opts ...Option) (http.Handler, error) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	// Streams are resumable, and start with a retry field (resume.go).
	ho := resumable(c.httpOptions())
	streams := resumableStreams(ho)
	ms, err := newMCPServer(d, false, append(opts[:len(opts):len(opts)], func(c *config) { c.resumableStreams = streams }))
	if err != nil {
		return nil, err
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ms }, ho)
	if c.bothRevisions {
		h = withStatelessRevisions(ms, ho, h) // revisions.go
	}
	// Origin, and one reading of every message, before the SDK sees the request (httpcheck.go); the
	// resource server before them, so that only an authorized request is read (auth.go).
	g := newGuard(withServerBound(withRetry(h, c.sseRetry), c.rateLimit), ho.MaxRequestBodyBytes, c.origins)
	g.headers = headersByTool(d)
	return withAuth(g, &c, d)
}

// server answers tools/call for one mcp.Server.
type server struct {
	disp     wink.Dispatcher // the caller's dispatcher with Events wrapped
	clients  *clients        // per-client dispatchers (WithSessions); nil: disp serves everyone
	logger   *slog.Logger
	callCtx  func(ctx context.Context, meta map[string]any) context.Context // WithCallContext
	tools    []*mcp.Tool
	listed   map[string]*listedTool // each tool as each protocol version lists it
	versions []string               // the protocol versions the server speaks, newest first
	seq      atomic.Uint64
	pending  sync.Map // call id -> *pendingCall
	stateKey []byte   // signs the requestState of held calls (approval.go)
	// resumableStreams: the server's calls may close their streams (CloseSSEStream, resume.go).
	resumableStreams bool
}

// pendingCall receives the result value of one call from the event sink.
type pendingCall struct {
	tool  *wink.Tool
	value any
	err   error // a failed call's error (a *ProtocolError answers the call with a JSON-RPC error)
}

// rawJSON is JSON text that marshals as itself (json.RawMessage without
// encoding/json).
type rawJSON []byte

// MarshalJSON returns r.
func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

// emptyArgs stands for absent arguments.
var emptyArgs = []byte("{}")

// errSharedState is New's error when several clients would share d's state.
// errNotObject is the error of a schema that is not a JSON object.
var errNotObject = errors.New("not a JSON object")

var errSharedState = errors.New("mcpserver: the dispatcher has a Session, Resources or Filesystem that every client would share; give each client its own with WithSessions (return this dispatcher from the factory to share them on purpose)")

func newServer(d *wink.Dispatcher, oneClient bool, opts []Option) (*server, *config, error) {
	if d == nil {
		return nil, nil, errors.New("mcpserver: nil dispatcher")
	}
	c := &config{impl: mcp.Implementation{Name: DefaultName, Version: DefaultVersion}}
	for _, o := range opts {
		o(c)
	}
	if c.logger == nil && c.serverOpts != nil {
		c.logger = c.serverOpts.Logger
	}
	if c.sessions == nil && !oneClient && (d.Session != nil || d.Resources != nil || d.Filesystem != nil) {
		return nil, nil, errSharedState
	}
	key, err := stateKey(c)
	if err != nil {
		return nil, nil, err
	}
	s := &server{disp: *d, logger: c.logger, callCtx: c.callCtx, stateKey: key, versions: serverVersions(c.serverOpts),
		resumableStreams: c.resumableStreams}
	s.disp.Events = s.eventSink(d.Events)
	if c.rateLimit != nil {
		s.disp.RateLimit = c.rateLimit
	}
	if c.sessions != nil {
		s.clients = &clients{s: s, make: c.sessions}
	}
	var errs []error
	if icons, err := mcpIcons("server", c.icons); err != nil {
		errs = append(errs, err)
	} else {
		c.impl.Icons = icons
	}
	for _, name := range slices.Sorted(maps.Keys(c.toolIcons)) {
		var ok bool
		if d.Registry != nil {
			_, ok = d.Registry.Lookup(name)
		}
		if !ok {
			errs = append(errs, errors.New("mcpserver: WithToolIcons names "+strconv.Quote(name)+", which is not a tool of the dispatcher's registry"))
		}
	}
	s.listed = map[string]*listedTool{}
	if d.Registry != nil {
		for _, t := range d.Registry.Tools() {
			mt, err := mcpTool(t)
			if err == nil {
				mt.Icons, err = mcpIcons("tool "+strconv.Quote(mt.Name), c.toolIcons[mt.Name])
			}
			if err == nil {
				var lt *listedTool
				if lt, err = listedTools(t, mt); err == nil {
					s.listed[mt.Name] = lt
				}
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			s.tools = append(s.tools, mt)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	return s, c, nil
}

// mcpTool describes t for tools/list.
func mcpTool(t *wink.Tool) (*mcp.Tool, error) {
	sp := t.Spec()
	typ, err := rootType(sp.ParamsSchema)
	if err != nil {
		return nil, errors.New("mcpserver: tool " + strconv.Quote(sp.Name) + ": params schema: " + err.Error())
	}
	if typ != "object" {
		return nil, errors.New("mcpserver: tool " + strconv.Quote(sp.Name) + `: params schema must have type "object", not ` + strconv.Quote(typ))
	}
	in, err := withHeaders(sp.ParamsSchema, sp.Headers)
	if err != nil {
		return nil, errors.New("mcpserver: tool " + strconv.Quote(sp.Name) + ": " + err.Error())
	}
	mt := &mcp.Tool{Name: sp.Name, Title: sp.Title, Description: sp.Description, InputSchema: rawJSON(in)}
	if len(sp.ResultSchema) > 0 {
		typ, err := rootType(sp.ResultSchema)
		if err != nil {
			return nil, errors.New("mcpserver: tool " + strconv.Quote(sp.Name) + ": result schema: " + err.Error())
		}
		// MCP 2026-07-28 takes any JSON Schema as outputSchema (an array, a string, a nullable object);
		// a tool returning wink.NoValue ({"type":"null"}) has no structured content to describe.
		if typ != "null" {
			mt.OutputSchema = rawJSON(sp.ResultSchema)
		}
	}
	mt.Annotations = annotations(sp)
	return mt, nil
}

// annotations are the tool's MCP hints, all four always stated (a client never has to know the
// protocol's defaults): readOnlyHint from //wink:tool readonly; idempotentHint from //wink:idempotent
// (or readonly: a call that changes nothing can be repeated); destructiveHint and openWorldHint from
// //wink:tool's destructive and openworld keys, else the protocol's defaults (destructive unless read-only,
// open world); and the title from //wink:tool title.
func annotations(sp *wink.Spec) *mcp.ToolAnnotations {
	a := &mcp.ToolAnnotations{
		Title:          sp.Title,
		ReadOnlyHint:   sp.ReadOnly,
		IdempotentHint: sp.ReadOnly || sp.Idempotency.Strategy != wink.IdemNone,
	}
	hint := func(h wink.Hint, def bool) *bool {
		b := def
		if h != wink.HintUnset {
			b = h == wink.HintYes
		}
		return &b
	}
	a.DestructiveHint, a.OpenWorldHint = hint(sp.Destructive, !sp.ReadOnly), hint(sp.OpenWorld, true)
	return a
}

// schemaLimits bounds the reading of a schema's root (schemas are trusted,
// generated constants; the limits only keep a broken one from being read
// without end).
var schemaLimits = strictjson.Limits{MaxBytes: 64 << 20, MaxDepth: 10000, MaxErrors: 1}

// rootType returns the "type" keyword of the schema object in schema: ""
// when it has none, and an error when schema is not a JSON object or its
// type is not a string.
func rootType(schema []byte) (string, error) {
	var d strictjson.Decoder
	d.Reset(schema, schemaLimits)
	typ := ""
	if d.Peek() != strictjson.KindObject {
		return "", errors.New("not a JSON object")
	}
	if d.ObjectStart() {
		for d.NextKey() {
			if string(d.Key()) != "type" {
				d.Skip()
				continue
			}
			if d.Peek() != strictjson.KindString {
				d.Skip()
				typ = "(not a string)"
				continue
			}
			typ, _ = d.String()
		}
		d.ObjectEnd()
	}
	if errs := d.Finish(); errs != nil && errs.Len() > 0 {
		return "", errs
	}
	return typ, nil
}

// eventSink returns an Events sink that records a successful call's result
// value for handle, then forwards the event to sink, if any.
func (s *server) eventSink(sink func(*wink.ToolInvoked)) func(*wink.ToolInvoked) {
	return func(ev *wink.ToolInvoked) {
		if ev.Success && ev.HasValue && ev.Value != nil && ev.Tool != nil {
			if p, ok := s.pending.Load(ev.CallID); ok {
				pc := p.(*pendingCall)
				pc.tool, pc.value = ev.Tool, ev.Value
			}
		}
		if !ev.Success && ev.Err != nil {
			if p, ok := s.pending.Load(ev.CallID); ok {
				p.(*pendingCall).err = ev.Err
			}
		}
		if sink != nil {
			sink(ev)
		}
	}
}

// handle answers one tools/call through the dispatcher. Nothing in it can
// panic out: a panic becomes an isError result.
func (s *server) handle(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
	name := ""
	var args []byte
	if req != nil && req.Params != nil {
		name, args = req.Params.Name, req.Params.Arguments
	}
	if len(args) == 0 {
		args = emptyArgs
	}
	id := "mcp-" + strconv.FormatUint(s.seq.Add(1), 10)
	defer func() {
		if pv := recover(); pv != nil {
			text := wink.FailureText(name, wink.PanicText(pv))
			if s.logger != nil {
				s.logger.ErrorContext(ctx, "mcpserver: panic outside the tool handler", "tool", name, "call_id", id, "panic", text, "stack", string(debug.Stack()))
			}
			res, err = errorResult(text), nil
		}
	}()

	disp := &s.disp
	tr := taskRunOf(ctx) // a task's run: its dispatcher and the hold it was decided under (tasks_run.go)
	if tr != nil && tr.disp != nil {
		disp = tr.disp
	} else if s.clients != nil {
		cd, cerr := s.clients.dispatcher(ctx, req)
		if cerr != nil {
			if s.logger != nil {
				s.logger.ErrorContext(ctx, "mcpserver: no session for the client", "tool", name, "call_id", id, "error", cerr.Error())
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tool " + strconv.Quote(name) + " was not answered: no session for this client: " + cerr.Error()}
		}
		disp = cd
	}
	ctx = s.callerContext(ctx, req)
	var st callState // what the call's earlier rounds gathered (callstate.go)
	hold := ""       // the held call's hold id (or its round's) once decided: the decision is bound to it
	if req != nil && req.Params != nil && req.Params.RequestState != "" {
		// The retry of a call that needed input: a person's decision, or an answer of the client.
		rid, rst, rerr := s.resume(ctx, disp, req.Params, args)
		if rerr != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tool " + strconv.Quote(name) + ": " + rerr.Error()}
		}
		st = rst
		hold = rid
	}
	if tr != nil {
		hold = tr.hold
	}
	var sc *sessionClient
	if req != nil && req.Session != nil {
		// Logging, sampling, elicitation (clientcalls.go), with the answers of earlier rounds.
		var responses mcp.InputResponseMap
		if req.Params != nil {
			responses = req.Params.InputResponses
		}
		sc = s.clientFor(req, req.Session, st.answers, responses)
		ctx = wink.WithClient(ctx, sc)
	}
	if req != nil && req.Params != nil && req.Session != nil {
		if tok := req.Params.GetProgressToken(); tok != nil {
			ss := req.Session
			ctx = wink.WithProgress(ctx, func(progress, total float64, message string) {
				_ = ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: progress, Total: total, Message: message})
			})
		}
	}
	ctx = s.withCloseStream(ctx, req) // CloseSSEStream (resume.go)
	pc := &pendingCall{}
	s.pending.Store(id, pc)
	defer s.pending.Delete(id)
	out, derr := disp.Dispatch(ctx, wink.Call{ID: id, Name: name, Arguments: args, Hold: hold})
	sc.end() // a goroutine of the handler asks nothing more: the server reads what was asked
	if merr := missingCapability(sc, out, derr); merr != nil {
		return nil, merr // -32021 on 2026-07-28 (capability.go)
	}
	if berr := sc.badAnswers("tool " + strconv.Quote(name)); berr != nil {
		return nil, berr // answers the server cannot read (inputrequired.go)
	}
	if ir := s.inputRequired(ctx, out, derr, name, args, st); ir != nil {
		return ir, nil // the handler waits for the client's answer (inputrequired.go)
	}
	if held, ok := errors.AsType[*wink.HeldError](derr); ok {
		if tr != nil {
			tr.held = held // the task asks for the decision as an input request (tasks_run.go)
		}
		answers := st.answers
		if sc != nil {
			answers = sc.answers
		}
		return s.heldResult(held, answers), nil
	}
	if derr != nil {
		if s.logger != nil {
			s.logger.ErrorContext(ctx, "mcpserver: call not answered", "tool", name, "call_id", id, "error", derr.Error())
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tool " + strconv.Quote(name) + " was not answered: " + derr.Error()}
	}
	if !out.Success {
		if out.RetryAfter > 0 {
			return retryResult(out), nil // a rate limit refused the call (ratelimit.go)
		}
		if pe, ok := errors.AsType[*ProtocolError](pc.err); ok {
			return nil, pe.rpc() // protocolerror.go
		}
		return errorResult(out.Output), nil
	}
	res = &mcp.CallToolResult{Content: appendContent(textContent(out.Output), out.Content.All())} // content.go
	if lt := s.listed[name]; lt != nil && lt.byShape[shapeEnvelope].OutputSchema != nil {
		var value []byte
		ok := false
		if pc.tool != nil {
			value, ok = pc.tool.AppendValueJSON(nil, pc.value)
		}
		sh := shapeOf("")
		if req != nil {
			sh = s.requestShape(req)
		}
		if sc, ok := structured(sh, value, ok); ok {
			res.StructuredContent = sc
		}
	}
	return res, nil
}

// callerContext returns ctx carrying what req says of its caller: the principal of its verified token
// (auth.go), then what WithCallContext adds.
func (s *server) callerContext(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	ctx = withPrincipal(ctx, req)
	if s.callCtx != nil {
		var meta map[string]any
		if req != nil && req.Params != nil {
			meta = req.Params.Meta
		}
		if c := s.callCtx(ctx, meta); c != nil {
			ctx = c
		}
	}
	return ctx
}

// errorResult is an isError result showing text.
func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: textContent(text)}
}

// textContent is one text block holding text, or none for an empty text.
func textContent(text string) []mcp.Content {
	if text == "" {
		return []mcp.Content{}
	}
	return []mcp.Content{&mcp.TextContent{Text: text}}
}
