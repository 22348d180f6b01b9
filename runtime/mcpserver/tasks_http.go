package mcpserver

import (
	"net/http"

	"github.com/winkgen/wink/runtime/strictjson"
)

// codeHeaderMismatch is the JSON-RPC error code of a request whose routing headers disagree with its body.
const codeHeaderMismatch = -32020

// checkTaskHeaders checks the routing header of a tasks/get, tasks/update or tasks/cancel request on
// protocol 2026-07-28 and later: Mcp-Name must be present and equal params.taskId, so that a router in
// front of a fleet can send the request to where the task is without reading the body. It returns nil
// when the request may go on, else the error response (sent with HTTP 400). The SDK checks Mcp-Method
// and the Mcp-Name of tools/call, prompts/get and resources/read itself.
func checkTaskHeaders(h http.Header, body []byte) []byte {
	if v := h.Get("Mcp-Protocol-Version"); v < version20260728 {
		return nil
	}
	var taskID string
	method, id, ok := peekRequest(body, func(d *strictjson.Decoder, key string) {
		if key == "taskId" && d.Peek() == strictjson.KindString {
			taskID, _ = d.String()
			return
		}
		d.Skip()
	})
	if !ok {
		return nil // a batch (not on 2026-07-28), or what the SDK answers itself
	}
	switch method {
	case "tasks/get", "tasks/update", "tasks/cancel":
	default:
		return nil
	}
	name, have := h["Mcp-Name"]
	msg := ""
	switch {
	case !have || len(name) == 0:
		msg = "missing required Mcp-Name header for method " + method + "; send Mcp-Name: <taskId>"
	case len(name) > 1 || name[0] != taskID:
		msg = "header mismatch: the Mcp-Name header does not match params.taskId; send Mcp-Name: <taskId>"
	default:
		return nil
	}
	if id == nil {
		id = []byte("null")
	}
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	b = append(b, `,"error":{"code":`...)
	b = strictjson.AppendInt(b, codeHeaderMismatch)
	b = append(b, `,"message":`...)
	b = strictjson.AppendString(b, msg)
	return append(b, "}}"...)
}
