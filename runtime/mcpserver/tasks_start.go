package mcpserver

import (
	"context"
	"errors"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// A tool listed in TaskOptions.StartInRequest asks its first questions in the request, as input-required
// rounds (2026-07-28), and becomes a task when its handler calls StartTask: the task starts with the
// answers gathered so far, and the handler runs again from the start in the task, where those questions
// are answered from them and StartTask returns nil.

// errStartTask is what StartTask returns in the request: the handler returns it, its call is rolled back,
// and the server answers with the task it starts.
var errStartTask = errors.New("mcpserver: the call goes on as a task (StartTask); return this error")

// startBox is how StartTask tells the tools/call middleware to start the task.
type startBox struct {
	started bool
	answers []answer // the answers of the request's rounds
}

type startKey struct{}

// StartTask marks the point from which a call of a tool listed in TaskOptions.StartInRequest runs as a
// task. In the request it returns an error the handler must return (everything the handler did is rolled
// back and done again in the task); in the task, and for every other call (other tools, other entry
// points, clients that did not declare the tasks extension), it returns nil and the handler goes on.
func StartTask(tc *wink.ToolContext) error {
	box, _ := tc.Value(startKey{}).(*startBox)
	if box == nil {
		return nil
	}
	if sc, ok := wink.ClientOf(tc).(*sessionClient); ok && sc != nil {
		box.answers = slices.Clone(sc.answers)
	}
	box.started = true
	return errStartTask
}

// startInRequest runs cr in the request until its handler calls StartTask, then starts the task.
func (tk *Tasks) startInRequest(ctx context.Context, method string, cr *mcp.CallToolRequest, next mcp.MethodHandler) (mcp.Result, error) {
	box := &startBox{}
	res, err := next(context.WithValue(ctx, startKey{}, box), method, cr)
	if !box.started {
		return res, err
	}
	var carried []byte
	if len(box.answers) > 0 {
		carried = encodeAnswers(nil, box.answers)
	}
	return tk.create(ctx, cr, carried)
}

// carriedAnswers reads a task's carried answers (encodeAnswers' form).
func carriedAnswers(b []byte) []answer {
	if len(b) == 0 {
		return nil
	}
	var d strictjson.Decoder
	d.Reset(b, strictjson.Limits{MaxBytes: len(b) + 1, MaxDepth: 16, MaxErrors: 1})
	as, err := decodeAnswers(&d)
	if err != nil || (d.Finish() != nil && d.Finish().Len() > 0) {
		return nil
	}
	return as
}
