package openai

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// responseItem is the part of a Responses API output item that a function call needs. Its Go type name
// appears in encoding/json's type errors, which the reader returns as they are.
type responseItem struct {
	Type      string          `json:"type"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// The containers the reader descends into (see chatMessageShape): the output array, or the response
// holding it.
var (
	responseItemsShape = toolset.Array(toolset.Object())
	responseShape      = toolset.Object(toolset.Field{Name: "output", Shape: responseItemsShape})
)

// ParseResponsesToolCalls reads the function calls of a Responses API response: data is the response
// object (its `output` array is read; a non-null `error` is an error) or the `output` array itself.
// Every item of type "function_call" becomes a Call, in order, with ID from `call_id` (not the item's
// `id`), Name from `name` and Arguments from the `arguments` string as in ParseChatToolCalls. Other items
// (messages, reasoning, built-in tool calls) are skipped.
func ParseResponsesToolCalls(data []byte) ([]wink.Call, error) {
	var items []responseItem
	switch toolset.FirstByte(data) {
	case '[':
		if err := toolset.Unmarshal(data, &items, responseItemsShape); err != "" {
			return nil, errors.New("openai: reading response output: " + err)
		}
	default:
		var r struct {
			Output []responseItem  `json:"output"`
			Error  json.RawMessage `json:"error"`
		}
		if err := toolset.Unmarshal(data, &r, responseShape); err != "" {
			return nil, errors.New("openai: reading response: " + err)
		}
		if msg := toolset.ErrorBody(r.Error); msg != "" {
			return nil, errors.New("openai: response error: " + msg)
		}
		items = r.Output
	}
	var calls []wink.Call
	for i, it := range items {
		if it.Type != "function_call" {
			continue
		}
		args, err := arguments(it.Arguments)
		if err != nil {
			return nil, errors.New("openai: output item " + strconv.Itoa(i) + " (" + strconv.Quote(it.CallID) + "): " + err.Error())
		}
		calls = append(calls, wink.Call{ID: it.CallID, Name: it.Name, Arguments: args, PairMaps: true})
	}
	return calls, nil
}

// ResponsesToolOutput returns the Responses API input item answering the function call callID:
//
//	{"type":"function_call_output","call_id":ID,"output":OUT}
//
// where OUT is out.Output (a failure's text as is: the item has no error flag). An outcome with content
// blocks (Outcome.Content) has an array of input_text, input_image and input_file items as its output
// instead (appendResponsesOutput says how each kind is sent, and stated in text where it cannot be).
func ResponsesToolOutput(callID string, out wink.Outcome) []byte {
	b := make([]byte, 0, 56+len(callID)+len(out.Output)+len(out.Output)/8)
	b = append(b, `{"type":"function_call_output","call_id":`...)
	b = strictjson.AppendString(b, callID)
	b = append(b, `,"output":`...)
	if out.Content.Len() > 0 {
		return append(appendResponsesOutput(b, out), '}') // content.go
	}
	b = strictjson.AppendString(b, out.Output)
	return append(b, '}')
}
