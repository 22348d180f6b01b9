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
// the worker loses its claim. Its questions (wink.Elicit) become the task's input requests, stored
// under keys the task never reuses (wink.input.N, N counting the handler's questions); a worker that
// takes the task over runs the handler from the start and gets the stored answers to the questions
// already answered. The outcome is stored fenced by the claim: a tool result (isError or not) completes
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

// run runs task t with the claim token.
func (tk *Tasks) run(t tasks.Task, token int64) {
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
	lost := make(chan struct{})
	go tk.keep(ctx, t.ID, token, cancel, lost)

	tc := &taskClient{tk: tk, id: t.ID, token: token, carried: carriedAnswers(t.Carried)}
	ctx = wink.WithClient(ctx, tc)
	ctx = withTaskCall(ctx)
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: t.Tool, Arguments: t.Arguments}}
	res, err := tk.srv.handle(ctx, req)
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
	if err == nil && res != nil && res.InputRequests != nil {
		// A policy held the call for a person's approval: inside a task the hold is not turned into an
		// input request, so the task ends with the reason instead of waiting where nobody is asked.
		err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tool " + strconv.Quote(t.Tool) +
			" was held for approval, which a task cannot ask for; call the tool without the tasks extension to be asked"}
	}
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

type taskCallKey struct{}

// withTaskCall marks ctx as a task's call.
func withTaskCall(ctx context.Context) context.Context {
	return context.WithValue(ctx, taskCallKey{}, true)
}

// taskInputKey is the key of a task's input request n.
func taskInputKey(n int) string { return "wink.input." + strconv.Itoa(n) }

// taskClient is the wink.Client of a task's handler: its questions are the task's input requests.
type taskClient struct {
	tk    *Tasks
	id    string
	token int64
	// carried are the answers given in the request before the task started (StartTask): the handler's
	// first questions are answered from them, in order.
	carried []answer
	next    int
}

func (c *taskClient) Log(context.Context, wink.LogLevel, string, string) error { return nil }

func (c *taskClient) Sample(context.Context, wink.SampleRequest) (wink.SampleResult, error) {
	return wink.SampleResult{}, wink.NotAvailable("sampling", "a task asks its client through input requests, and sampling is not one of them yet; ask with wink.Elicit")
}

// key returns the number of the handler's next question.
func (c *taskClient) key() int {
	c.tk.mu.Lock()
	defer c.tk.mu.Unlock()
	c.next++
	return c.next - 1
}

func (c *taskClient) Elicit(ctx context.Context, message string, schema []byte) (wink.ElicitAction, []byte, error) {
	n := c.key()
	if n < len(c.carried) {
		if a := c.carried[n]; a.elicit {
			return a.action, a.content, nil
		}
		return "", nil, errors.New("mcpserver: the answer given in the request to this question is not an elicitation result")
	}
	key := taskInputKey(n)
	req := append([]byte(nil), `{"method":"elicitation/create","params":{"mode":"form","message":`...)
	req = strictjson.AppendString(req, message)
	req = append(req, `,"requestedSchema":`...)
	req = append(req, schema...)
	req = append(req, `}}`...)
	ans, ok, err := c.tk.o.Store.Ask(ctx, c.id, c.token, key, req)
	for err == nil && !ok {
		select {
		case <-ctx.Done():
			return "", nil, ctx.Err()
		case <-time.After(min(c.tk.o.PollInterval, 200*time.Millisecond)):
		}
		var t tasks.Task
		t, err = c.tk.o.Store.Get(ctx, c.id)
		if err == nil {
			ans, ok = t.Answers[key]
		}
	}
	if err != nil {
		return "", nil, err
	}
	return readElicitAnswer(ans)
}

// readElicitAnswer reads an elicitation result: {"action":..., "content":{...}}.
func readElicitAnswer(raw []byte) (wink.ElicitAction, []byte, error) {
	var d strictjson.Decoder
	d.Reset(raw, strictjson.Limits{MaxBytes: len(raw) + 1, MaxDepth: 128, MaxErrors: 1})
	var action string
	var content []byte
	if d.ObjectStart() {
		for d.NextKey() {
			switch string(d.Key()) {
			case "action":
				action, _ = d.String()
			case "content":
				if v, ok := d.Raw(); ok {
					content = append([]byte(nil), v...)
				}
			default:
				d.Skip()
			}
		}
		d.ObjectEnd()
	}
	if errs := d.Finish(); errs != nil && errs.Len() > 0 {
		return "", nil, errors.New("the client's answer is not an elicitation result: " + errs.Error())
	}
	switch a := wink.ElicitAction(action); a {
	case wink.ElicitAccept, wink.ElicitDecline, wink.ElicitCancel:
		if a != wink.ElicitAccept {
			content = nil
		}
		return a, content, nil
	}
	return "", nil, errors.New("the client's answer has action " + strconv.Quote(action) + "; expected accept, decline or cancel")
}
