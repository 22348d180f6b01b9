package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// chatMessage is the part of an assistant message (or of a choice, which wraps one) that carries tool
// calls. Its Go type names appear in encoding/json's type errors, which the readers return as they are.
type chatMessage struct {
	ToolCalls []chatToolCall  `json:"tool_calls"`
	Message   json.RawMessage `json:"message"`
}

type chatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// The containers the readers descend into (toolset.Unmarshal's UTF-8 check names the place of a fault
// as the strict reader walking them would).
var (
	chatMessageShape = toolset.Object(toolset.Field{Name: "tool_calls", Shape: toolset.Array(
		toolset.Object(toolset.Field{Name: "function", Shape: toolset.Object()}))})
	chatCompletionShape = toolset.Object(toolset.Field{Name: "choices", Shape: toolset.Array(nil)})
)

// ParseChatToolCalls reads the tool calls of a chat completions assistant message
// (`choices[i].message`) or of a choice (an object with a `message` member), in order: id from
// `tool_calls[].id`, name from `.function.name`, arguments from `.function.arguments`.
//
// The arguments arrive as a JSON string whose content is the arguments text; its unescaped bytes become
// Call.Arguments. An empty string, a null or a missing member give empty Arguments, and an object (which
// some OpenAI-compatible servers send instead of a string) is passed through verbatim: the dispatcher
// decides what it accepts. A message without tool calls gives no calls and no error. A tool call whose
// type is neither "function" nor absent (a custom tool) or that lacks `function` is an error, since it
// cannot be dispatched.
func ParseChatToolCalls(message []byte) ([]wink.Call, error) {
	var m chatMessage
	if err := toolset.Unmarshal(message, &m, chatMessageShape); err != "" {
		return nil, errors.New("openai: reading chat message: " + err)
	}
	if !toolset.IsNull(m.Message) {
		if m.ToolCalls != nil {
			return nil, errors.New("openai: reading chat message: both \"message\" and \"tool_calls\" present")
		}
		return ParseChatToolCalls(m.Message)
	}
	return chatCalls(m.ToolCalls)
}

// ParseChatCompletion reads the tool calls of a whole chat completion response body: those of its first
// choice (ask for one choice; with n > 1, pass each `choices[i]` to ParseChatToolCalls). An error body
// (`{"error":{...}}`) or a response without choices is an error.
func ParseChatCompletion(body []byte) ([]wink.Call, error) {
	var r struct {
		Choices []json.RawMessage `json:"choices"`
		Error   json.RawMessage   `json:"error"`
	}
	if err := toolset.Unmarshal(body, &r, chatCompletionShape); err != "" {
		return nil, errors.New("openai: reading chat completion: " + err)
	}
	if msg := toolset.ErrorBody(r.Error); msg != "" {
		return nil, errors.New("openai: chat completion error: " + msg)
	}
	if len(r.Choices) == 0 {
		return nil, errors.New("openai: chat completion has no choices")
	}
	return ParseChatToolCalls(r.Choices[0])
}

func chatCalls(tcs []chatToolCall) ([]wink.Call, error) {
	if len(tcs) == 0 {
		return nil, nil
	}
	calls := make([]wink.Call, 0, len(tcs))
	for i, tc := range tcs {
		if tc.Type != "" && tc.Type != "function" {
			return nil, errors.New("openai: tool call " + strconv.Itoa(i) + " (" + strconv.Quote(tc.ID) + ") has unsupported type " + strconv.Quote(tc.Type))
		}
		if tc.Function == nil {
			return nil, errors.New("openai: tool call " + strconv.Itoa(i) + " (" + strconv.Quote(tc.ID) + ") has no \"function\"")
		}
		args, err := arguments(tc.Function.Arguments)
		if err != nil {
			return nil, errors.New("openai: tool call " + strconv.Itoa(i) + " (" + strconv.Quote(tc.ID) + "): " + err.Error())
		}
		calls = append(calls, wink.Call{ID: tc.ID, Name: tc.Function.Name, Arguments: args, PairMaps: true})
	}
	return calls, nil
}

// arguments turns the raw `arguments` member (validated JSON) into the arguments text: a string's
// content, empty for null or absent, any other JSON value verbatim (copied).
func arguments(raw []byte) ([]byte, error) {
	t := bytes.TrimSpace(raw)
	switch {
	case toolset.IsNull(t):
		return []byte{}, nil
	case t[0] == '"':
		var d strictjson.Decoder
		d.Reset(t, strictjson.Limits{MaxBytes: len(t) + 1, MaxErrors: 1})
		b, _ := d.StringBytes()
		if errs := d.Finish(); errs != nil {
			return nil, errors.New("reading arguments: " + errs.Error())
		}
		return append([]byte{}, b...), nil
	default:
		return bytes.Clone(t), nil
	}
}

// ChatToolMessage returns the chat completions message answering the tool call callID:
//
//	{"role":"tool","tool_call_id":ID,"content":OUT}
//
// where OUT is out.Output, the text the dispatcher rendered for the model (a failure's text as is: the
// chat API has no error flag for tool messages). Tool messages take text only: an outcome's content
// blocks (Outcome.Content) are appended to OUT as text, a block that is not text stated as not shown
// (chatText); use the Responses API (ResponsesToolOutput) to show images and files to the model.
func ChatToolMessage(callID string, out wink.Outcome) []byte {
	if out.Content.Len() > 0 {
		out.Output = chatText(out) // content.go
	}
	b := make([]byte, 0, 48+len(callID)+len(out.Output)+len(out.Output)/8)
	b = append(b, `{"role":"tool","tool_call_id":`...)
	b = strictjson.AppendString(b, callID)
	b = append(b, `,"content":`...)
	b = strictjson.AppendString(b, out.Output)
	return append(b, '}')
}
