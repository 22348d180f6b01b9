package mcpserver

import (
	"context"
	"errors"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/tasks"
	"github.com/winkgen/wink/runtime/wink"
)

// TasksExtension is the id of MCP's tasks extension, under which clients declare it
// (capabilities.extensions) and the server advertises it.
const TasksExtension = "io.modelcontextprotocol/tasks"

// CodeMissingCapability is the JSON-RPC error code of a request the server cannot serve because the
// client did not declare a capability (here: the tasks extension).
const CodeMissingCapability = -32021

// Defaults of TaskOptions.
const (
	DefaultTaskLease        = 30 * time.Second
	DefaultTaskTTL          = 24 * time.Hour
	DefaultTaskPollInterval = time.Second
)

// TaskOptions configures the tasks of a server (NewTasks).
type TaskOptions struct {
	// Store keeps the tasks: tasks.NewMemoryStore() for one process, pgtasks.New for a fleet (every
	// worker answers tasks/get for every task and takes over the tasks of a worker that died).
	Store tasks.Store
	// Worker names this process in the store's claims; default host name and process id.
	Worker string
	// Lease is how long a worker's claim on a task lasts without renewal (renewed every third of it):
	// a task whose worker died is taken over by another worker's Work that much later. Default
	// DefaultTaskLease.
	Lease time.Duration
	// TTL is how long a task is kept from its creation (ttlMs on the wire); default DefaultTaskTTL.
	TTL time.Duration
	// PollInterval is how often clients are told to poll (pollIntervalMs), and how often a waiting task
	// looks for answers and for its cancellation in the store; default DefaultTaskPollInterval.
	PollInterval time.Duration
	// StartInRequest names task-supporting tools whose calls start in the request: they may ask their
	// first questions as input-required rounds, and become a task when the handler calls StartTask.
	StartInRequest []string
}

// Tasks runs the task-supporting tools (//wink:tool task=optional|required) of one server as tasks of
// MCP's tasks extension. Make it with NewTasks, give it to the server with WithTasks, and run Work on
// every worker of a fleet.
type Tasks struct {
	o    TaskOptions
	srv  *server
	base context.Context // what running tasks live under: Work's context, else Background

	mu      sync.Mutex
	running map[string]context.CancelFunc
	wake    chan struct{} // Work's wakeup when a local task changed
}

// NewTasks returns the tasks of a server; o.Store is required.
func NewTasks(o TaskOptions) (*Tasks, error) {
	if o.Store == nil {
		return nil, errors.New("mcpserver: TaskOptions.Store is required (tasks.NewMemoryStore() in one process)")
	}
	if o.Worker == "" {
		h, _ := os.Hostname()
		o.Worker = h + "-" + strconv.Itoa(os.Getpid())
	}
	if o.Lease <= 0 {
		o.Lease = DefaultTaskLease
	}
	if o.TTL <= 0 {
		o.TTL = DefaultTaskTTL
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultTaskPollInterval
	}
	return &Tasks{o: o, base: context.Background(), running: map[string]context.CancelFunc{}, wake: make(chan struct{}, 1)}, nil
}

// WithTasks serves tk's tasks: the server advertises the tasks extension, answers a task-supporting
// tool's call from a client that declared the extension with a task (CreateTaskResult), and serves
// tasks/get, tasks/update and tasks/cancel. A Tasks serves one server.
func WithTasks(tk *Tasks) Option {
	return func(c *config) { c.tasks = tk }
}

// Work takes over the tasks whose worker died (their lease ran out) and runs them, until ctx is done;
// tasks this worker starts live under ctx too. Run it on every worker. When ctx is done the tasks this
// worker runs stop without an outcome, and another worker takes them over once their lease runs out.
func (tk *Tasks) Work(ctx context.Context) error {
	tk.mu.Lock()
	tk.base = ctx
	tk.mu.Unlock()
	t := time.NewTicker(min(tk.o.Lease/3, tk.o.PollInterval))
	defer t.Stop()
	for {
		for {
			task, ok, err := tk.o.Store.Claim(ctx, tk.o.Worker, tk.o.Lease)
			if err != nil || !ok {
				break
			}
			go tk.run(task, task.Token, nil, nil)
		}
		if _, err := tk.o.Store.Prune(ctx); err != nil && ctx.Err() == nil && tk.srv != nil && tk.srv.logger != nil {
			tk.srv.logger.WarnContext(ctx, "mcpserver: pruning tasks", "error", err.Error())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// baseContext is the context tasks run under.
func (tk *Tasks) baseContext() context.Context {
	tk.mu.Lock()
	defer tk.mu.Unlock()
	return tk.base
}

// declaresTasks reports whether the client declared the tasks extension: in the request's _meta
// (2026-07-28) or, for a session, at initialize.
func declaresTasks(caps *mcp.ClientCapabilities) bool {
	if caps == nil || caps.Extensions == nil {
		return false
	}
	_, ok := caps.Extensions[TasksExtension]
	return ok
}

// missingTasks is the error a client that did not declare the tasks extension gets.
func missingTasks(what string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: CodeMissingCapability,
		Message: what + " needs the " + TasksExtension + " extension; declare it in the client's capabilities (capabilities.extensions) and call again",
		Data:    []byte(`{"requiredCapabilities":{"extensions":{"` + TasksExtension + `":{}}}}`)}
}

// taskResult is a result the server writes itself (CreateTaskResult, tasks/get, acks): JSON text.
type taskResult struct {
	mcp.ResultBase
	body []byte
}

// MarshalJSON returns the text.
func (r *taskResult) MarshalJSON() ([]byte, error) { return r.body, nil }

var ackResult = []byte(`{"resultType":"complete"}`)

// taskParams are the params of tasks/get, tasks/update and tasks/cancel.
type taskParams struct {
	mcp.ParamsBase
	TaskID         string    `json:"taskId"`
	InputResponses rawParams `json:"inputResponses,omitempty"`
}

// rawParams keeps a params member as its JSON text.
type rawParams []byte

// UnmarshalJSON keeps b.
func (r *rawParams) UnmarshalJSON(b []byte) error {
	*r = append((*r)[:0], b...)
	return nil
}

// metaDeclaresTasks reports whether a request's _meta declares the tasks extension
// (io.modelcontextprotocol/clientCapabilities.extensions).
func metaDeclaresTasks(meta map[string]any) bool {
	cc, _ := meta[mcp.MetaKeyClientCapabilities].(map[string]any)
	ext, _ := cc["extensions"].(map[string]any)
	_, ok := ext[TasksExtension]
	return ok
}

// install adds the tasks methods and the tools/call middleware to ms.
func (tk *Tasks) install(ms *mcp.Server, s *server) error {
	tk.srv = s
	declared := func(ss *mcp.ServerSession, p *taskParams) bool {
		if p != nil && metaDeclaresTasks(p.Meta) {
			return true
		}
		if ss != nil {
			if ip := ss.InitializeParams(); ip != nil && (p == nil || p.Meta[mcp.MetaKeyProtocolVersion] == nil) {
				return declaresTasks(ip.Capabilities)
			}
		}
		return false
	}
	method := func(name string, f func(ctx context.Context, p *taskParams) ([]byte, error)) error {
		return mcp.AddReceivingCustomMethod(ms, name, func(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*taskResult, error) {
			if !declared(ss, p) {
				return nil, missingTasks(name)
			}
			if p == nil || p.TaskID == "" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: name + " needs params.taskId, the id the tools/call's CreateTaskResult gave"}
			}
			body, err := f(ctx, p)
			if err != nil {
				if errors.Is(err, tasks.ErrNotFound) {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no task " + strconv.Quote(p.TaskID) + " (unknown, or expired after its ttlMs)"}
				}
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: name + ": " + err.Error()}
			}
			return &taskResult{body: body}, nil
		})
	}
	err := errors.Join(
		method("tasks/get", func(ctx context.Context, p *taskParams) ([]byte, error) {
			t, err := tk.o.Store.Get(ctx, p.TaskID)
			if err != nil {
				return nil, err
			}
			return tk.appendTask(append([]byte(nil), `{"resultType":"complete",`...), &t, true), nil
		}),
		method("tasks/update", func(ctx context.Context, p *taskParams) ([]byte, error) {
			answers, err := readInputResponses(p.InputResponses)
			if err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tasks/update: inputResponses: " + err.Error()}
			}
			if err := tk.o.Store.Answer(ctx, p.TaskID, answers); err != nil {
				return nil, err
			}
			tk.poke(p.TaskID)
			return ackResult, nil
		}),
		method("tasks/cancel", func(ctx context.Context, p *taskParams) ([]byte, error) {
			if err := tk.o.Store.Cancel(ctx, p.TaskID); err != nil {
				return nil, err
			}
			tk.mu.Lock()
			cancel := tk.running[p.TaskID]
			tk.mu.Unlock()
			if cancel != nil {
				cancel() // the handler's context, at once on this worker; others see it when they renew
			}
			return ackResult, nil
		}),
	)
	if err != nil {
		return err
	}
	ms.AddReceivingMiddleware(tk.middleware())
	return nil
}

// poke wakes the local waiters of task id (an answer arrived).
func (tk *Tasks) poke(string) {
	select {
	case tk.wake <- struct{}{}:
	default:
	}
}

// readInputResponses reads tasks/update's inputResponses: an object of answers by key.
func readInputResponses(raw []byte) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(raw) == 0 {
		return out, nil
	}
	var d strictjson.Decoder
	d.Reset(raw, strictjson.Limits{MaxBytes: len(raw) + 1, MaxDepth: 128, MaxErrors: 1})
	if d.Peek() != strictjson.KindObject {
		return nil, errors.New("must be an object of answers by input request key")
	}
	if d.ObjectStart() {
		for d.NextKey() {
			k := d.KeyString()
			v, ok := d.Raw()
			if !ok {
				break
			}
			out[k] = append([]byte(nil), v...)
		}
		d.ObjectEnd()
	}
	if errs := d.Finish(); errs != nil && errs.Len() > 0 {
		return nil, errs
	}
	return out, nil
}

// middleware answers a task-supporting tool's tools/call: a task for a client that declared the
// extension, -32021 for a task=required tool called by one that did not; every other call goes on.
func (tk *Tasks) middleware() mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			cr, ok := req.(*mcp.CallToolRequest)
			if !ok || cr.Params == nil {
				return next(ctx, method, req)
			}
			var t *wink.Tool
			if tk.srv.disp.Registry != nil {
				t, _ = tk.srv.disp.Registry.Lookup(cr.Params.Name)
			}
			if t == nil || t.Spec().Task == wink.TaskNever {
				return next(ctx, method, req)
			}
			if !declaresTasks(cr.ClientCapabilities()) {
				if t.Spec().Task == wink.TaskRequired {
					return nil, missingTasks("tool " + strconv.Quote(cr.Params.Name))
				}
				return next(ctx, method, req)
			}
			if slices.Contains(tk.o.StartInRequest, cr.Params.Name) {
				return tk.startInRequest(ctx, method, cr, next) // tasks_start.go
			}
			return tk.create(ctx, cr, nil)
		}
	}
}

// create records the call as a task, durably, starts running it on this worker, and answers with the
// CreateTaskResult.
func (tk *Tasks) create(ctx context.Context, cr *mcp.CallToolRequest, carried []byte) (mcp.Result, error) {
	args := []byte(cr.Params.Arguments)
	if len(args) == 0 {
		args = emptyArgs
	}
	t := tasks.Task{ID: tasks.NewID(), Tool: cr.Params.Name, Arguments: append([]byte(nil), args...), TTL: tk.o.TTL, Carried: carried,
		Principal: wink.PrincipalFrom(tk.srv.callerContext(ctx, cr))} // who the task acts for, on every worker
	if cr.Session != nil {
		t.Session = cr.Session.ID()
	}
	notStarted := func(err error) error {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tool " + strconv.Quote(t.Tool) + " was not started as a task: " + err.Error()}
	}
	var disp *wink.Dispatcher
	release := func() {}
	if tk.srv.clients != nil {
		// The task runs on the dispatcher of the caller's session, kept until the task's run ends.
		d, rel, err := tk.srv.clients.forTask(ctx, cr)
		if err != nil {
			return nil, notStarted(errors.New("no session for this client: " + err.Error()))
		}
		disp, release = d, rel
	}
	token, err := tk.o.Store.Create(ctx, t, tk.o.Worker, tk.o.Lease)
	if err != nil {
		release()
		return nil, notStarted(err)
	}
	stored, err := tk.o.Store.Get(ctx, t.ID)
	if err != nil {
		release()
		return nil, notStarted(err)
	}
	go tk.run(stored, token, disp, release)
	return &taskResult{body: tk.appendTask(append([]byte(nil), `{"resultType":"task",`...), &stored, false)}, nil
}

// appendTask appends the members of t's wire form (after an opening brace and the resultType member),
// closing the object; detailed adds what tasks/get shows (input requests, the result or the error).
func (tk *Tasks) appendTask(b []byte, t *tasks.Task, detailed bool) []byte {
	b = append(b, `"taskId":`...)
	b = strictjson.AppendString(b, t.ID)
	b = append(b, `,"status":`...)
	b = strictjson.AppendString(b, string(t.Status))
	b = append(b, `,"createdAt":`...)
	b = strictjson.AppendString(b, t.Created.UTC().Format(time.RFC3339Nano))
	b = append(b, `,"lastUpdatedAt":`...)
	b = strictjson.AppendString(b, t.Updated.UTC().Format(time.RFC3339Nano))
	b = append(b, `,"ttlMs":`...)
	b = strictjson.AppendInt(b, max(t.TTL.Milliseconds(), 1))
	if !t.Status.Terminal() {
		b = append(b, `,"pollIntervalMs":`...)
		b = strictjson.AppendInt(b, max(tk.o.PollInterval.Milliseconds(), 1))
	}
	if detailed {
		switch {
		case t.Status == tasks.InputRequired && len(t.Pending) > 0:
			b = append(b, `,"inputRequests":{`...)
			first := true
			for _, k := range sortedKeys(t.Pending) {
				if !first {
					b = append(b, ',')
				}
				first = false
				b = strictjson.AppendString(b, k)
				b = append(b, ':')
				b = append(b, t.Pending[k]...)
			}
			b = append(b, '}')
		case t.Status == tasks.Completed && len(t.Result) > 0:
			b = append(b, `,"result":`...)
			b = append(b, t.Result...)
		case t.Status == tasks.Failed && len(t.Result) > 0:
			b = append(b, `,"error":`...)
			b = append(b, t.Result...)
		}
	}
	return append(b, '}')
}

// serverOptions adds the tasks extension to the capabilities the server advertises (nil tk: opts).
func (tk *Tasks) serverOptions(opts *mcp.ServerOptions) *mcp.ServerOptions {
	if tk == nil {
		return opts
	}
	o := mcp.ServerOptions{}
	if opts != nil {
		o = *opts
	}
	caps := &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}}
	if o.Capabilities != nil {
		c := *o.Capabilities
		caps = &c
	}
	ext := map[string]any{}
	for k, v := range caps.Extensions {
		ext[k] = v
	}
	ext[TasksExtension] = map[string]any{}
	caps.Extensions = ext
	o.Capabilities = caps
	return &o
}
