package mcpserver

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/tasks"
	"github.com/winkgen/wink/runtime/wink"
)

// How a task runs on a worker (Tasks.run): the handler is dispatched as a tools/call would be, under a
// context of its own that is cancelled when the task is cancelled (tasks/cancel on this worker at once;
// on another worker when this one renews its claim, every third of the lease or poll interval) or when
// the worker loses its claim. Its questions (a wink.Round's, under the keys the handler chose; Elicit's
// and Sample's under wink.input.N, N counting the handler's one-at-a-time questions) become the task's
// input requests, stored under keys the task never reuses (tasks_ask.go); a worker that takes the task
// over runs the handler from the start and gets the stored answers to the questions already answered. The outcome is stored fenced by the claim: a tool result (isError or not) completes
// the task, a call the dispatcher answers with an error fails it with that JSON-RPC error.

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// run runs task t with the claim token on disp, the dispatcher of the client that created it (nil: the
// server's, or for a server with a session factory the factory's for the task, on a takeover); release,
// when not nil, is called once the run ends.
func (tk *Tasks) run(t tasks.Task, token int64, disp *wink.Dispatcher, release func()) {
	base := tk.baseContext()
	ctx, cancel := context.WithCancel(base)
	defer cancel()
	tk.mu.Lock()
	tk.running[t.ID] = cancel
	tk.mu.Unlock()
	defer func() {
		tk.mu.Lock()
		delete(tk.running, t.ID)
		tk.mu.Unlock()
	}()
	if release != nil {
		defer release()
	}
	lost := make(chan struct{})
	go tk.keep(ctx, t.ID, token, cancel, lost)

	res, err := tk.dispatch(ctx, t, token, disp)
	select {
	case <-lost:
		return // another worker has the task, or it was cancelled: its outcome is not ours to write
	default:
	}
	if base.Err() != nil {
		return // this worker stops; the task is taken over when its lease runs out
	}
	var status tasks.Status
	var payload []byte
	if err != nil {
		status, payload = tasks.Failed, appendRPCError(nil, err)
	} else {
		b, merr := res.MarshalJSON()
		if merr != nil {
			status, payload = tasks.Failed, appendRPCError(nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the result could not be written: " + merr.Error()})
		} else {
			status, payload = tasks.Completed, b
		}
	}
	if _, ferr := tk.o.Store.Finish(context.WithoutCancel(ctx), t.ID, token, status, payload); ferr != nil && tk.srv.logger != nil {
		tk.srv.logger.ErrorContext(ctx, "mcpserver: a task's outcome was not stored", "task", t.ID, "tool", t.Tool, "error", ferr.Error())
	}
}

// dispatch runs the task's call on disp for the task's principal, asking for a person's decision
// through an input request each time a policy holds it, and returns what the call is answered with.
func (tk *Tasks) dispatch(ctx context.Context, t tasks.Task, token int64, disp *wink.Dispatcher) (*mcp.CallToolResult, error) {
	if disp == nil {
		disp = &tk.srv.disp
		if tk.srv.clients != nil { // a task taken over from a worker that died (clients.go)
			d, release, err := tk.srv.clients.takeOver(ctx, Client{SessionID: t.Session, Stateless: t.Session == "", Task: t.ID, Principal: t.Principal})
			if err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tool " + strconv.Quote(t.Tool) + " was not answered: no session for the task's client: " + err.Error()}
			}
			defer release()
			disp = d
		}
	}
	tc := &taskClient{tk: tk, id: t.ID, token: token, carried: carriedAnswers(t.Carried)}
	tr := &taskRun{disp: disp}
	ctx = wink.WithClient(ctx, tc)
	ctx = context.WithValue(ctx, taskRunKey{}, tr)
	ctx = wink.WithPrincipal(ctx, t.Principal) // who the task acts for, on every worker (tasks.Task.Principal)
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: t.Tool, Arguments: t.Arguments}}
	for {
		if p := t.Principal; p != nil && !p.Expires.IsZero() && !time.Now().Before(p.Expires) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tool " + strconv.Quote(t.Tool) +
				" was not answered: the task acts for " + p.Subject + ", whose token expired at " + p.Expires.UTC().Format(time.RFC3339) +
				"; call the tool again with a fresh token"}
		}
		res, err := tk.srv.handle(ctx, req)
		held := tr.held
		tr.held = nil
		if err != nil || held == nil {
			return res, err
		}
		// A policy held the call for a person's decision: the task asks for it (tasks_ask.go), records it
		// bound to the held call, and dispatches the call again under its hold id.
		action, reason, err := tc.decision(ctx, held)
		if err != nil {
			return nil, err
		}
		if err := decideAs(ctx, disp, held.Binding, string(action), reason); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tool " + strconv.Quote(t.Tool) + " was not answered: the decision was not recorded: " + err.Error()}
		}
		tr.hold = held.Binding.Hold
	}
}

// taskRun is what a task's run tells the server's call path (server.handle): the dispatcher to call and
// the hold id a decision was recorded for; the call path reports a hold in held.
type taskRun struct {
	disp *wink.Dispatcher
	hold string
	held *wink.HeldError
}

type taskRunKey struct{}

// taskRunOf returns the task run ctx belongs to, nil outside a task.
func taskRunOf(ctx context.Context) *taskRun {
	tr, _ := ctx.Value(taskRunKey{}).(*taskRun)
	return tr
}

// keep renews the claim until ctx is done; it cancels the handler (and closes lost) when the task was
// cancelled or the claim lost.
func (tk *Tasks) keep(ctx context.Context, id string, token int64, cancel context.CancelFunc, lost chan struct{}) {
	t := time.NewTicker(min(tk.o.Lease/3, tk.o.PollInterval))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		st, err := tk.o.Store.Renew(ctx, id, token, tk.o.Lease)
		if errors.Is(err, tasks.ErrLost) || errors.Is(err, tasks.ErrNotFound) || st == tasks.Cancelled {
			close(lost)
			cancel()
			return
		}
	}
}

// appendRPCError appends err as a JSON-RPC error object.
func appendRPCError(b []byte, err error) []byte {
	code, msg := int64(jsonrpc.CodeInternalError), err.Error()
	if je, ok := errors.AsType[*jsonrpc.Error](err); ok {
		code, msg = je.Code, je.Message
	}
	b = append(b, `{"code":`...)
	b = strictjson.AppendInt(b, code)
	b = append(b, `,"message":`...)
	b = strictjson.AppendString(b, msg)
	return append(b, '}')
}
