package wink

// TaskSupport says whether a tool's calls run as tasks of MCP's io.modelcontextprotocol/tasks extension
// (//wink:tool task=optional|required; Spec.Task).
type TaskSupport uint8

// The task support values.
const (
	// TaskNever: every call is answered in its request (the default).
	TaskNever TaskSupport = iota
	// TaskOptional: a call from a client that declared the tasks extension runs as a task (the client
	// gets a task id at once and polls for the result); other clients get the result in the request.
	TaskOptional
	// TaskRequired: only clients that declared the tasks extension may call the tool; others are refused
	// with the protocol's missing-capability error (-32021).
	TaskRequired
)

// String returns "never", "optional" or "required".
func (t TaskSupport) String() string {
	switch t {
	case TaskOptional:
		return "optional"
	case TaskRequired:
		return "required"
	}
	return "never"
}
