package everything

import (
	"strconv"
	"time"

	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// The tools the tasks extension's scenarios call (io.modelcontextprotocol/tasks): served as tasks when
// the server has mcpserver.WithTasks and the client declared the extension.

// GreetParams name who to greet.
type GreetParams struct {
	// Who to greet.
	Name string `json:"name"`
}

// Greet greets by name, in the request (never a task).
//
//wink:tool readonly
func Greet(tc *wink.ToolContext, p GreetParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("Hello, " + p.Name + "!"), nil
}

// SlowComputeParams say how long to work.
type SlowComputeParams struct {
	// Seconds to work before answering.
	Seconds int `json:"seconds" wink:"min=0,max=3600"`
	// A label echoed in the answer.
	Label string `json:"label,omitempty"`
}

// SlowCompute works for the given seconds, then answers; cancelling the task stops it.
//
//wink:tool readonly task=optional
func SlowCompute(tc *wink.ToolContext, p SlowComputeParams) (wink.ToolResult[wink.NoValue], error) {
	select {
	case <-tc.Done():
		return wink.ToolResult[wink.NoValue]{}, tc.Err()
	case <-time.After(time.Duration(p.Seconds) * time.Second):
	}
	return wink.Done[wink.NoValue]("Computed " + p.Label + " after " + strconv.Itoa(p.Seconds) + "s"), nil
}

// FailingJob works for a second, then fails as a tool (an isError result: the task completes).
//
//wink:tool readonly task=required
func FailingJob(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	select {
	case <-tc.Done():
		return wink.ToolResult[wink.NoValue]{}, tc.Err()
	case <-time.After(time.Second):
	}
	return wink.ToolResult[wink.NoValue]{}, wink.NewToolError("The job failed: the input could not be processed.")
}

// ProtocolErrorJob fails the way no tool result can say: its task fails with a JSON-RPC error.
//
//wink:tool readonly task=optional
func ProtocolErrorJob(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	return wink.ToolResult[wink.NoValue]{}, &mcpserver.ProtocolError{Code: -32603, Message: "protocol_error_job: the server could not run the job"}
}

// Confirmation is the answer to a confirmation question.
//
//wink:form
type Confirmation struct {
	// Whether to go on.
	Confirm bool `json:"confirm"`
}

// ConfirmDeleteParams name the file.
type ConfirmDeleteParams struct {
	// The file to delete.
	Filename string `json:"filename"`
}

// ConfirmDelete asks the user to confirm, then deletes (nothing: it is a fixture).
//
//wink:tool task=optional
func ConfirmDelete(tc *wink.ToolContext, p ConfirmDeleteParams) (wink.ToolResult[wink.NoValue], error) {
	c, action, err := wink.Elicit(tc, "Delete "+p.Filename+"?", WinkFormConfirmation)
	if err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	if action != wink.ElicitAccept || !c.Confirm {
		return wink.Done[wink.NoValue]("Kept " + p.Filename + "."), nil
	}
	return wink.Done[wink.NoValue]("Deleted " + p.Filename + "."), nil
}

// Answer is one answer of multi_input's questions.
//
//wink:form
type Answer struct {
	// A name.
	Name string `json:"name,omitempty"`
	// Whether to go on.
	Confirm bool `json:"confirm,omitempty"`
}

// MultiInput asks two questions at once (one round of two forms), then answers with both answers.
//
//wink:tool readonly task=optional
func MultiInput(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	r := wink.NewRound(tc)
	first := wink.AskForm(r, "first_name", "First name?", WinkFormAnswer)
	second := wink.AskForm(r, "second_name", "Second name?", WinkFormAnswer)
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	return wink.Done[wink.NoValue]("Got " + first.Value.Name + " and " + second.Value.Name + "."), nil
}

// UserName is the answer to "what is your name".
//
//wink:form
type UserName struct {
	// The user's name.
	Name string `json:"name"`
}

// TestToolWithTask asks for the user's name in the request, then goes on as a task (listed in the
// server's TaskOptions.StartInRequest) whose result greets the user.
//
//wink:tool readonly task=required
func TestToolWithTask(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	u, action, err := wink.Elicit(tc, "What is your name?", WinkFormUserName)
	if err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	if err := mcpserver.StartTask(tc); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	if action != wink.ElicitAccept {
		return wink.Done[wink.NoValue]("Hello, whoever you are!"), nil
	}
	return wink.Done[wink.NoValue]("Hello, " + u.Name + "! The task is done."), nil
}
