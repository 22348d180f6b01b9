package wink

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/strictjson"
)

// ToolError is an error a handler returns when its text is meant for the
// model: the dispatcher turns it into a failure result whose message is
// Message verbatim (no "Tool ... failed:" prefix) and rolls the call back.
//
// The dispatcher finds a ToolError anywhere in the returned error's chain
// (errors.As), so wrapping it with context for logs keeps the model's text.
type ToolError struct {
	// Message is the text the model sees.
	Message string
	// cause is what Errorf built; it keeps %w-wrapped errors reachable.
	cause error
}

// Error returns the model-facing message.
func (e *ToolError) Error() string { return e.Message }

// Unwrap returns the errors wrapped with %w by Errorf, if any.
func (e *ToolError) Unwrap() error { return e.cause }

// Errorf formats a model-facing error (a *ToolError) according to format, as
// fmt.Errorf does; errors wrapped with %w stay reachable through errors.Is and
// errors.As.
func Errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	te := &ToolError{Message: err.Error()}
	switch err.(type) {
	case interface{ Unwrap() error }, interface{ Unwrap() []error }:
		te.cause = err
	}
	return te
}

// NewToolError returns a model-facing error (a *ToolError) whose text is msg.
func NewToolError(msg string) error {
	return &ToolError{Message: msg}
}

// ArgumentsError reports arguments that failed strict decoding or the params
// type's Validate method. Its text is what the model sees.
type ArgumentsError struct {
	// Tool is the name of the tool whose arguments were rejected.
	Tool string
	// Errors lists every problem found, in input order.
	Errors *strictjson.Errors
}

// Error returns the model-facing text, for example:
//
//	Invalid arguments for tool "search_docs":
//	- limit: expected integer, got string "10"
//	- unknown field "querry"; did you mean "query"? (allowed: query, limit, mode)
//	Fix the arguments and call search_docs again.
func (e *ArgumentsError) Error() string {
	var b strings.Builder
	b.WriteString("Invalid arguments for tool ")
	b.WriteString(strconv.Quote(e.Tool))
	b.WriteString(":\n")
	if e.Errors != nil {
		for _, line := range e.Errors.Lines() {
			b.WriteString("- ")
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	b.WriteString("Fix the arguments and call ")
	b.WriteString(e.Tool)
	b.WriteString(" again.")
	return b.String()
}

// Unwrap returns the underlying *strictjson.Errors.
func (e *ArgumentsError) Unwrap() error {
	if e.Errors == nil {
		return nil
	}
	return e.Errors
}

// FieldErrorer is implemented by errors that a params type's Validate method
// returns to report problems at JSON paths. Each entry becomes one line of the
// ArgumentsError, exactly like a decoding error.
type FieldErrorer interface {
	FieldErrors() []strictjson.FieldError
}

// Denial is a policy's refusal of a call (Hooks.Check). The model sees a
// failure result whose text is Reason followed by one "- suggestion" line per
// suggestion; an empty Reason reads `Policy denied the call to tool "<name>".`.
type Denial struct {
	// Policy is the Name of the denying policy; empty for Hooks.Check.
	Policy string
	// Reason says why the call was refused, in words the model can act on.
	Reason string
	// Suggestions lists what the model can do instead.
	Suggestions []string

	held bool // Decision.Hold: Dispatch returns a *HeldError instead
}

// HeldError is Dispatch's error for a call a policy held for a person's
// approval (Decision.Hold) or that waits for the user's answer to Elicit:
// nothing ran and the model has not been answered. Show the person
// Question (or Call.Name and Arguments), record the decision with
// policy.Approve or policy.Deny (AnswerElicitation for Elicit), then
// dispatch Call again: it carries Binding.Hold in Call.Hold, which is how
// the decision finds it. A decision applies only to a call with this exact
// Binding (see Binding): never to another call that reuses the provider's
// call id, names another tool, passes other arguments, or runs in another
// session or run.
type HeldError struct {
	// Call is the held call, with Call.Hold set to Binding.Hold.
	Call Call
	// Policy is the Name of the holding policy.
	Policy string
	// Reason is the policy's reason.
	Reason string
	// Binding is what a decision on this call is bound to.
	Binding Binding
	// Arguments are the call's arguments as a person is shown them
	// (ShowArguments of the canonical arguments): bounded, and the same for
	// every spelling of the same arguments.
	Arguments string
	// Elicitation, for a call held by Elicit (Policy "elicitation"), is
	// what the handler asks the user: record the answer with
	// AnswerElicitation. Nil for a call a policy held.
	Elicitation *ElicitationRequest
}

// Error returns `tool "pay" (call c1, hold hold-…) is held for approval: <reason>`.
func (e *HeldError) Error() string {
	return "tool " + strconv.Quote(e.Call.Name) + " (call " + e.Call.ID + ", hold " + e.Binding.Hold + ") is held for approval: " + e.Reason
}

// Error returns the denial's reason.
func (d *Denial) Error() string { return d.Reason }

// message returns the failure text the model sees for a denial of tool.
func (d *Denial) message(tool string) string {
	msg := d.Reason
	if msg == "" {
		msg = "Policy denied the call to tool " + strconv.Quote(tool) + "."
	}
	if len(d.Suggestions) == 0 {
		return msg
	}
	var b strings.Builder
	b.WriteString(msg)
	for _, s := range d.Suggestions {
		b.WriteString("\n- ")
		b.WriteString(s)
	}
	return b.String()
}

// ErrDeadlineExpired is matched (errors.Is) by the error Dispatch returns when
// the call's deadline had passed before the handler could run. That error also
// wraps context.DeadlineExceeded.
var ErrDeadlineExpired = errors.New("deadline expired")

// ErrBudgetExceeded is matched (errors.Is) by *BudgetExceededError.
var ErrBudgetExceeded = errors.New("token budget exceeded")

// InvalidArguments returns the error a handler returns when it finds its
// arguments invalid after decoding (a validation error raised inside the
// handler): an *ArgumentsError with one entry per problem at its JSON path
// ("" for the whole arguments). The dispatcher renders it exactly like a
// decoding error (`Invalid arguments for tool "x": ...`), filling in the
// tool's name, and rolls the call back.
func InvalidArguments(errs ...strictjson.FieldError) error {
	e := &strictjson.Errors{}
	for _, fe := range errs {
		e.Add(fe.Path, fe.Message)
	}
	return &ArgumentsError{Errors: e}
}

// TransactionError is the error Dispatch returns (and ToolInvoked.Err
// carries) when a call's transaction could not be started or rolled back:
// the state cannot be trusted, so the call is not answered as a result.
type TransactionError struct {
	// Tool is the called tool's name.
	Tool string
	// Op is "starting the transaction for" or "rolling back".
	Op string
	// Err is the snapshot's, the Begin hook's or the rollback's error.
	Err error
}

// Error returns `wink: starting the transaction for tool "x": <err>` or
// `wink: rolling back tool "x" failed: <err>`.
func (e *TransactionError) Error() string {
	if e.Op == "rolling back" {
		return "wink: rolling back tool " + strconv.Quote(e.Tool) + " failed: " + e.Err.Error()
	}
	return "wink: " + e.Op + " tool " + strconv.Quote(e.Tool) + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *TransactionError) Unwrap() error { return e.Err }

// InvalidResultError is ToolInvoked.Err for a successful result whose value's
// Validate method failed: the call became a failure and was rolled back.
type InvalidResultError struct {
	// Tool is the called tool's name.
	Tool string
	// Err is what Validate returned.
	Err error
}

// Error returns `tool "x" returned an invalid result: <err>`.
func (e *InvalidResultError) Error() string {
	return "tool " + strconv.Quote(e.Tool) + " returned an invalid result: " + e.Err.Error()
}

// Unwrap returns Err.
func (e *InvalidResultError) Unwrap() error { return e.Err }

// ErrUnknownTool is ToolInvoked.Err for calls naming a tool the registry does
// not hold.
var ErrUnknownTool = errors.New("unknown tool")

// deadlineError is returned by Dispatch when the deadline passed before the
// handler ran.
type deadlineError struct {
	tool  string
	cause error
}

func (e *deadlineError) Error() string {
	return "deadline expired before executing tool " + strconv.Quote(e.tool)
}

func (e *deadlineError) Is(target error) bool { return target == ErrDeadlineExpired }

func (e *deadlineError) Unwrap() error { return e.cause }
