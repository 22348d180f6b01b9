package mcpserver

import (
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// ProtocolError is an error a handler returns (or wraps) to answer its tools/call with a JSON-RPC error
// instead of a tool result: the call could not be served at all (a missing capability, an internal
// failure the model cannot act on), as opposed to a tool that ran and failed, which is an isError result
// the model reads. In a task (WithTasks) it makes the task failed, with this error. The call is rolled
// back like any failed call. Other entry points (the loop, durable runs) see an ordinary tool failure
// whose text is Message.
type ProtocolError struct {
	Code    int64  // the JSON-RPC error code; 0: -32603 (internal error)
	Message string // the error's message
	Data    []byte // the error's data, JSON; nil: none
}

// Error returns the message.
func (e *ProtocolError) Error() string { return e.Message }

func (e *ProtocolError) rpc() *jsonrpc.Error {
	code := e.Code
	if code == 0 {
		code = jsonrpc.CodeInternalError
	}
	return &jsonrpc.Error{Code: code, Message: e.Message, Data: e.Data}
}
