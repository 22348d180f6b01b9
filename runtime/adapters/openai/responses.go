package openai

import (
	"errors"
	"strconv"

	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// responseItem is the part of a Responses API output item that a function call needs, filled as
// json.Unmarshal did into its former tagged version (whose Go type names the error texts keep).
type responseItem struct {
	Type      string
	CallID    string
	Name      string
	Arguments []byte // raw JSON (json.RawMessage)
}

const (
	responseItemType = "openai.responseItem"
	responseType     = `struct { Output []openai.responseItem "json:\"output\""; Error json.RawMessage "json:\"error\"" }`
)

// ParseResponsesToolCalls reads the function calls of a Responses API response: data is the response
// object (its `output` array is read; a non-null `error` is an error) or the `output` array itself.
// Every item of type "function_call" becomes a Call, in order, with ID from `call_id` (not the item's
// `id`), Name from `name` and Arguments from the `arguments` string as in ParseChatToolCalls. Other items
// (messages, reasoning, built-in tool calls) are skipped.
func ParseResponsesToolCalls(data []byte) ([]wink.Call, error) {
	var items []responseItem
	var r toolset.Reader
	r.Reset(data)
	switch toolset.FirstByte(data) {
	case '[':
		items = readResponseItems(&r, items, "", "")
		if err := r.Err(); err != "" {
			return nil, errors.New("openai: reading response output: " + err)
		}
	default:
		var errMember []byte
		if r.Object("", responseType) {
			for r.D.NextKey() {
				switch k := r.D.Key(); {
				case toolset.Match(k, "output"):
					items = readResponseItems(&r, items, ".output", "output.")
				case toolset.Match(k, "error"):
					errMember, _ = r.D.Raw()
				}
			}
			r.D.ObjectEnd()
		}
		if err := r.Err(); err != "" {
			return nil, errors.New("openai: reading response: " + err)
		}
		if msg := toolset.ErrorBody(errMember); msg != "" {
			return nil, errors.New("openai: response error: " + msg)
		}
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

// readResponseItems reads an array of output items into items as encoding/json fills a slice (see
// readChatToolCalls). field and path spell the array's place in type errors: the array's own field
// (".output", or "" at the top level) and the prefix of its items' fields ("output.").
func readResponseItems(r *toolset.Reader, items []responseItem, field, path string) []responseItem {
	var null bool
	if !r.Array(field, "[]"+responseItemType, &null) {
		if null {
			return nil
		}
		return items
	}
	items = items[:0]
	for r.D.NextElem() {
		if i := len(items); i < cap(items) {
			items = items[:i+1]
		} else {
			items = append(items, responseItem{})
		}
		it := &items[len(items)-1]
		if !r.Object(field, responseItemType) {
			continue
		}
		for r.D.NextKey() {
			switch k := r.D.Key(); {
			case toolset.Match(k, "type"):
				r.String(&it.Type, "responseItem."+path+"type")
			case toolset.Match(k, "call_id"):
				r.String(&it.CallID, "responseItem."+path+"call_id")
			case toolset.Match(k, "name"):
				r.String(&it.Name, "responseItem."+path+"name")
			case toolset.Match(k, "arguments"):
				it.Arguments, _ = r.D.Raw()
			}
		}
		r.D.ObjectEnd()
	}
	r.D.ArrayEnd()
	if len(items) == 0 {
		return []responseItem{}
	}
	return items
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
