package openai_test

// Tests against the official SDK's types (github.com/openai/openai-go/v3, a test-only dependency): our
// payloads unmarshal into its request param types with every field understood, and its response and
// param types, marshaled, feed our readers.

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

// jsonEqual reports the difference between two JSON documents as values (key order ignored).
func jsonEqual(t *testing.T, want, got []byte) string {
	t.Helper()
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	return cmp.Diff(w, g)
}

func schemaMap(t *testing.T, schema []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(schema, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSDKChatCompletionNewParamsAcceptsChatTools(t *testing.T) {
	tools := adapterstest.WinkTools()
	payload, err := openai.ChatTools(tools)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"model":"gpt-4o","messages":[{"role":"user","content":"Hi"}],"tools":` + string(payload) + `}`)
	var p sdk.ChatCompletionNewParams
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Tools) != len(tools) {
		t.Fatalf("SDK read %d tools, want %d", len(p.Tools), len(tools))
	}
	for i, tool := range tools {
		fn := p.Tools[i].GetFunction()
		if fn == nil {
			t.Fatalf("tool %d: SDK did not read a function tool", i)
		}
		schema, strict := openai.Schema(tool.Spec())
		if fn.Name != tool.Name() || fn.Description.Value != tool.Description() || fn.Strict.Value != strict || !fn.Strict.Valid() {
			t.Errorf("tool %d: SDK read name=%q description=%q strict=%v", i, fn.Name, fn.Description.Value, fn.Strict)
		}
		if d := cmp.Diff(schemaMap(t, schema), map[string]any(fn.Parameters)); d != "" {
			t.Errorf("tool %d parameters (-ours +SDK):\n%s", i, d)
		}
	}
	// The SDK writes back what we wrote: no field was dropped or misread.
	again, err := json.Marshal(p.Tools)
	if err != nil {
		t.Fatal(err)
	}
	if d := jsonEqual(t, payload, again); d != "" {
		t.Errorf("SDK re-marshal (-ours +SDK):\n%s", d)
	}
}

func TestSDKResponsesToolParamsAcceptResponsesTools(t *testing.T) {
	tools := adapterstest.WinkTools()
	payload, err := openai.ResponsesTools(tools)
	if err != nil {
		t.Fatal(err)
	}
	var p responses.ResponseNewParams
	if err := json.Unmarshal([]byte(`{"model":"gpt-4o","input":"Hi","tools":`+string(payload)+`}`), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Tools) != len(tools) {
		t.Fatalf("SDK read %d tools, want %d", len(p.Tools), len(tools))
	}
	for i, tool := range tools {
		fn := p.Tools[i].OfFunction
		if fn == nil {
			t.Fatalf("tool %d: SDK did not read a function tool", i)
		}
		schema, strict := openai.Schema(tool.Spec())
		if fn.Name != tool.Name() || fn.Description.Value != tool.Description() || fn.Strict.Value != strict {
			t.Errorf("tool %d: SDK read name=%q description=%q strict=%v", i, fn.Name, fn.Description.Value, fn.Strict)
		}
		if d := cmp.Diff(schemaMap(t, schema), fn.Parameters); d != "" {
			t.Errorf("tool %d parameters (-ours +SDK):\n%s", i, d)
		}
	}
	again, err := json.Marshal(p.Tools)
	if err != nil {
		t.Fatal(err)
	}
	if d := jsonEqual(t, payload, again); d != "" {
		t.Errorf("SDK re-marshal (-ours +SDK):\n%s", d)
	}
}

func TestSDKChatCompletionFeedsParseChatCompletion(t *testing.T) {
	c := sdk.ChatCompletion{
		ID: "chatcmpl-1",
		Choices: []sdk.ChatCompletionChoice{{
			FinishReason: "tool_calls",
			Message: sdk.ChatCompletionMessage{ToolCalls: []sdk.ChatCompletionMessageToolCallUnion{
				{ID: "call_1", Type: "function", Function: sdk.ChatCompletionMessageFunctionToolCallFunction{Name: "search", Arguments: `{"search_engine":"bing","search_query":"x"}`}},
				{ID: "call_2", Type: "function", Function: sdk.ChatCompletionMessageFunctionToolCallFunction{Name: "update_issue_list", Arguments: ""}},
			}},
		}},
	}
	body, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := openai.ParseChatCompletion(body)
	if err != nil {
		t.Fatal(err)
	}
	want := []wink.Call{
		{ID: "call_1", Name: "search", Arguments: []byte(`{"search_engine":"bing","search_query":"x"}`)},
		{ID: "call_2", Name: "update_issue_list", Arguments: []byte{}},
	}
	if d := cmp.Diff(want, got, ignorePairMaps); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestSDKAssistantMessageParamFeedsParseChatToolCalls(t *testing.T) {
	// The assistant message a client replays in the conversation, as the SDK writes it.
	msg := sdk.ChatCompletionMessageParamUnion{OfAssistant: &sdk.ChatCompletionAssistantMessageParam{
		ToolCalls: []sdk.ChatCompletionMessageToolCallUnionParam{{OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
			ID:       "call_7",
			Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "get_current_weather", Arguments: `{"location":"Oslo"}`},
		}}},
	}}
	body, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	got, err := openai.ParseChatToolCalls(body)
	if err != nil {
		t.Fatal(err)
	}
	want := []wink.Call{{ID: "call_7", Name: "get_current_weather", Arguments: []byte(`{"location":"Oslo"}`)}}
	if d := cmp.Diff(want, got, ignorePairMaps); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestSDKResponseItemsFeedParseResponsesToolCalls(t *testing.T) {
	// A response's function_call output item, as the SDK's response type marshals it ...
	item, err := json.Marshal(responses.ResponseFunctionToolCall{ID: "fc_1", CallID: "call_1", Name: "search", Arguments: `{"search_engine":"google","search_query":"q"}`, Type: "function_call", Status: "completed"})
	if err != nil {
		t.Fatal(err)
	}
	// ... and the same call replayed as input items, as the SDK's param types write them.
	input, err := json.Marshal([]responses.ResponseInputItemUnionParam{
		responses.ResponseInputItemParamOfMessage("Hi", responses.EasyInputMessageRoleUser),
		{OfFunctionCall: &responses.ResponseFunctionToolCallParam{CallID: "call_2", Name: "update_issue_list", Arguments: "", ID: param.NewOpt("fc_2")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		data []byte
		want []wink.Call
	}{
		"response output": {[]byte(`{"id":"resp_1","output":[` + string(item) + `]}`), []wink.Call{{ID: "call_1", Name: "search", Arguments: []byte(`{"search_engine":"google","search_query":"q"}`)}}},
		"input items":     {input, []wink.Call{{ID: "call_2", Name: "update_issue_list", Arguments: []byte{}}}},
	} {
		got, err := openai.ParseResponsesToolCalls(tc.data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d := cmp.Diff(tc.want, got, ignorePairMaps); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
	}
}

func TestSDKParamTypesAcceptOurToolResults(t *testing.T) {
	out := wink.Outcome{CallID: "call_1", Output: "Search engine bing is unavailable."}
	var msg sdk.ChatCompletionMessageParamUnion
	if err := json.Unmarshal(openai.ChatToolMessage("call_1", out), &msg); err != nil {
		t.Fatal(err)
	}
	if msg.OfTool == nil || msg.OfTool.ToolCallID != "call_1" || msg.OfTool.Content.OfString.Value != out.Output {
		t.Errorf("SDK read tool message %+v", msg.OfTool)
	}
	var item responses.ResponseInputItemUnionParam
	if err := json.Unmarshal(openai.ResponsesToolOutput("call_1", out), &item); err != nil {
		t.Fatal(err)
	}
	fco := item.OfFunctionCallOutput
	if fco == nil || fco.CallID.Value != "call_1" || fco.Output.OfString.Value != out.Output {
		t.Errorf("SDK read function_call_output %+v", fco)
	}
}
