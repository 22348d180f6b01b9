package openai_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

// responseWithCalls is a Responses API response in the documented shape: reasoning, a message and two
// function calls, whose item ids (fc_...) differ from their call ids.
const responseWithCalls = `{
  "id": "resp_1", "object": "response", "status": "completed", "error": null,
  "output": [
    {"type": "reasoning", "id": "rs_1", "summary": []},
    {"type": "message", "id": "msg_1", "role": "assistant", "content": [{"type": "output_text", "text": "Checking."}]},
    {"type": "function_call", "id": "fc_1", "call_id": "call_A", "name": "search", "arguments": "{\"search_engine\":\"bing\",\"search_query\":\"go\"}", "status": "completed"},
    {"type": "function_call", "id": "fc_2", "call_id": "call_B", "name": "update_issue_list", "arguments": "", "status": "completed"}
  ]
}`

func TestParseResponsesToolCallsReadsFunctionCallItemsByCallID(t *testing.T) {
	want := []wink.Call{
		{ID: "call_A", Name: "search", Arguments: []byte(`{"search_engine":"bing","search_query":"go"}`)},
		{ID: "call_B", Name: "update_issue_list", Arguments: []byte{}},
	}
	got, err := openai.ParseResponsesToolCalls([]byte(responseWithCalls))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, ignorePairMaps); d != "" {
		t.Errorf("response object (-want +got):\n%s", d)
	}
	output, err := fieldOf([]byte(responseWithCalls), "output")
	if err != nil {
		t.Fatal(err)
	}
	got, err = openai.ParseResponsesToolCalls(output)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, ignorePairMaps); d != "" {
		t.Errorf("output array (-want +got):\n%s", d)
	}
}

func TestParseResponsesToolCallsWithoutCallsIsEmpty(t *testing.T) {
	got, err := openai.ParseResponsesToolCalls([]byte(`{"output":[{"type":"message","content":[]}],"error":null}`))
	if err != nil || got != nil {
		t.Errorf("got %v, %v; want nil, nil", got, err)
	}
}

func TestParseResponsesToolCallsErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"response error", `{"status":"failed","error":{"code":"server_error","message":"Something broke."},"output":[]}`,
			"openai: response error: Something broke."},
		{"not JSON", `{"output":`, "openai: reading response: unexpected end of JSON input"},
		{"bad array", `[1]`, "openai: reading response output: json: cannot unmarshal number into Go value of type openai.responseItem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := openai.ParseResponsesToolCalls([]byte(tc.in))
			if err == nil || err.Error() != tc.want || got != nil {
				t.Errorf("got %v, %v; want error %q", got, err, tc.want)
			}
		})
	}
}

func TestResponsesRoundTripDispatchesAndWritesFunctionCallOutputs(t *testing.T) {
	calls, err := openai.ParseResponsesToolCalls([]byte(responseWithCalls))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"type":"function_call_output","call_id":"call_A","output":"1 hit.\n\n{\"hits\":[\"bing: go\"]}"}`,
		`{"type":"function_call_output","call_id":"call_B","output":"Issue list updated.\n\n{\"open\":3}"}`,
	}
	d := dispatcher()
	for i, c := range calls {
		out, err := d.Dispatch(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(openai.ResponsesToolOutput(c.ID, out)); got != want[i] {
			t.Errorf("call %s:\n got %s\nwant %s", c.ID, got, want[i])
		}
	}
}

func TestResponsesToolOutputWritesFailureTextAsIs(t *testing.T) {
	got := string(openai.ResponsesToolOutput("call_9", wink.Outcome{Output: "Search engine bing is unavailable.\n<retry>"}))
	const want = `{"type":"function_call_output","call_id":"call_9","output":"Search engine bing is unavailable.\n<retry>"}`
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}
