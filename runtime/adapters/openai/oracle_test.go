package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// The former encoding/json implementation, kept as the oracle the reflection-free readers must match.

type oldChatMessage struct {
	ToolCalls []oldChatToolCall `json:"tool_calls"`
	Message   json.RawMessage   `json:"message"`
}

type oldChatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

func oldErrorBody(m json.RawMessage) string {
	t := bytes.TrimSpace(m)
	if len(t) == 0 || string(t) == "null" {
		return ""
	}
	var e struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	if json.Unmarshal(t, &e) != nil || (e.Message == "" && e.Type == "") {
		return string(t)
	}
	if e.Type == "" {
		return e.Message
	}
	return e.Type + ": " + e.Message
}

func oldChatToolCalls(message []byte) ([]wink.Call, error) {
	var m oldChatMessage
	if err := json.Unmarshal(message, &m); err != nil {
		return nil, errors.New("openai: reading chat message: " + err.Error())
	}
	if t := bytes.TrimSpace(m.Message); len(t) != 0 && string(t) != "null" {
		if m.ToolCalls != nil {
			return nil, errors.New("openai: reading chat message: both \"message\" and \"tool_calls\" present")
		}
		return oldChatToolCalls(m.Message)
	}
	if len(m.ToolCalls) == 0 {
		return nil, nil
	}
	tcs := make([]chatToolCall, len(m.ToolCalls))
	for i, tc := range m.ToolCalls {
		tcs[i] = chatToolCall{ID: tc.ID, Type: tc.Type}
		if tc.Function != nil {
			tcs[i].Function = &chatFunction{Name: tc.Function.Name, Arguments: tc.Function.Arguments}
		}
	}
	return chatCalls(tcs)
}

func oldChatCompletion(body []byte) ([]wink.Call, error) {
	var r struct {
		Choices []json.RawMessage `json:"choices"`
		Error   json.RawMessage   `json:"error"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, errors.New("openai: reading chat completion: " + err.Error())
	}
	if msg := oldErrorBody(r.Error); msg != "" {
		return nil, errors.New("openai: chat completion error: " + msg)
	}
	if len(r.Choices) == 0 {
		return nil, errors.New("openai: chat completion has no choices")
	}
	return oldChatToolCalls(r.Choices[0])
}

type oldResponseItem struct {
	Type      string          `json:"type"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func oldResponsesToolCalls(data []byte) ([]wink.Call, error) {
	var items []oldResponseItem
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		if err := json.Unmarshal(data, &items); err != nil {
			return nil, errors.New("openai: reading response output: " + err.Error())
		}
	} else {
		var r struct {
			Output []oldResponseItem `json:"output"`
			Error  json.RawMessage   `json:"error"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, errors.New("openai: reading response: " + err.Error())
		}
		if msg := oldErrorBody(r.Error); msg != "" {
			return nil, errors.New("openai: response error: " + msg)
		}
		items = r.Output
	}
	var calls []wink.Call
	for _, it := range items {
		if it.Type != "function_call" {
			continue
		}
		args, err := arguments(it.Arguments)
		if err != nil {
			return nil, err
		}
		calls = append(calls, wink.Call{ID: it.CallID, Name: it.Name, Arguments: args, PairMaps: true})
	}
	return calls, nil
}

// The old implementation named its structs differently; map its Go type names onto the current ones.
var oldNames = []string{"oldChatMessage", "chatMessage", "oldChatToolCall", "chatToolCall", "oldResponseItem", "responseItem"}

func sameResult(t *testing.T, in string, gotC []wink.Call, gotErr error, wantC []wink.Call, wantErr error) {
	t.Helper()
	if wantErr != nil {
		w := wantErr.Error()
		for i := 0; i < len(oldNames); i += 2 {
			w = string(bytes.ReplaceAll([]byte(w), []byte(oldNames[i]), []byte(oldNames[i+1])))
		}
		if gotErr == nil || gotErr.Error() != w || gotC != nil {
			t.Fatalf("%q:\n got %v, %v\nwant error %q", in, gotC, gotErr, w)
		}
		return
	}
	if gotErr != nil || !reflect.DeepEqual(gotC, wantC) {
		t.Fatalf("%q:\n got %#v, %v\nwant %#v", in, gotC, gotErr, wantC)
	}
}

// comparable reports whether the old implementation is the oracle for in: the strict reader rejects
// invalid UTF-8 and lone surrogate escapes, which encoding/json replaced by U+FFFD.
func comparable(in []byte) bool {
	var d strictjson.Decoder
	d.Reset(in, strictjson.Limits{MaxBytes: len(in) + 1, MaxDepth: 10000})
	d.Skip()
	errs := d.Finish()
	return errs == nil || !strings.Contains(errs.Error(), "UTF-8") && !strings.Contains(errs.Error(), "surrogate")
}

var oracleSeeds = []string{
	`{"tool_calls":[{"id":"a","type":"function","function":{"name":"x","arguments":"{\"q\":1}"}}]}`,
	`{"index":0,"message":{"tool_calls":[{"id":"a","function":{"name":"x","arguments":{ "k" : 1 }}}]}}`,
	`{"choices":[{"message":{"tool_calls":[{"id":"a","function":{"name":"x","arguments":""}}]}}],"error":null}`,
	`{"ID":"x","Tool_Calls":[{"ID":"a","FUNCTION":{"Name":"x","ARGUMENTS":null}}]}`,
	`{"tool_callſ":[{"id":"a","function":{"name":"x"}}]}`,
	`{"tool_calls":[{"id":"a","type":"function","function":{"name":"x"}},{"id":"b"}],"tool_calls":[{"type":"function"}]}`,
	`{"tool_calls":[{"id":"a","function":{"name":"x"},"function":{"arguments":"1"},"id":null}]}`,
	`{"tool_calls":[{"id":5}]}`, `{"tool_calls":[{"function":true}]}`, `{"tool_calls":{}}`, `{"tool_calls":[1,{"id":[]}]}`,
	`{"tool_calls":[{"function":{"name":{}}}]}`, `{"message":null,"tool_calls":[]}`, `{"message":5}`, `[]`, `null`, `"s"`,
	`{"error":{"message":"m"}}`, `{"error":"boom"}`, `{"error":{"type":5}}`, `{"error":{"TYPE":"t","message":null}}`, `{"choices":{}}`, `{"choices":[null]}`,
	`{"choices":[1]}`, `{"choices":[],"choices":[{}]}`,
	`{"output":[{"type":"function_call","call_id":"c","name":"n","arguments":"{}"}],"error":null}`,
	`[{"type":"function_call","call_id":"c","arguments":{"a":[1,2]}},null,{"type":"message"}]`,
	`[1]`, `{"output":[{"call_id":1}]}`, `[{"name":false}]`, `{"output":"x"}`, `5`,
	``, ` `, `[`, `{`, `{"a"`, `{"a":`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `tru`, `nul`, `fx`, `-`, `1.`, `1e`, `1e+`, `01`, `"\x"`, `"\u12"`,
	"\"\x01\"", `{"a":1}x`, `[1 2]`, `{"a":1 "b":2}`, `{1:2}`, `]`, `'a'`, `{"a":[{"b":-0.5e+3}]}`, "[[[[[[]]]]]] ",
}

func FuzzChatMatchesEncodingJSON(f *testing.F) {
	for _, s := range oracleSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !comparable(in) {
			return
		}
		got, err := ParseChatToolCalls(in)
		want, werr := oldChatToolCalls(in)
		sameResult(t, string(in), got, err, want, werr)
		got, err = ParseChatCompletion(in)
		want, werr = oldChatCompletion(in)
		sameResult(t, string(in), got, err, want, werr)
		got, err = ParseResponsesToolCalls(in)
		want, werr = oldResponsesToolCalls(in)
		sameResult(t, string(in), got, err, want, werr)
	})
}
