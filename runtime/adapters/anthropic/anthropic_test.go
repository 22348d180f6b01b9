package anthropic_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
	"github.com/winkgen/wink/runtime/adapters/internal/wiretest"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

var (
	search = adapterstest.WinkSearch
	label  = adapterstest.WinkLabelIssue
)

func dispatcher() *wink.Dispatcher {
	return &wink.Dispatcher{Registry: wink.MustRegistry(adapterstest.WinkTools())}
}

// snake maps a recorded camelCase tool name to the winkgen name of the equivalent tool
// (updateIssueList → update_issue_list): winkgen names are ^[a-z0-9_-]{1,64}$.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func TestToolsWritesPlainSchemasExactly(t *testing.T) {
	got, err := anthropic.Tools([]*wink.Tool{search, label})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"search","description":"Searches by the web search engine.","input_schema":` + string(search.Spec().ParamsSchema) + `},` +
		`{"name":"label_issue","description":"Sets labels on an issue & shows them as <key>=<value>.","input_schema":` + string(label.Spec().ParamsSchema) + `}]`
	if string(got) != want {
		t.Errorf("Tools:\n got %s\nwant %s", got, want)
	}
	if bytes.Contains(got, strictOf(t, search)) && !bytes.Equal(search.Spec().ParamsSchema, strictOf(t, search)) {
		t.Error("Tools sent the OpenAI strict schema")
	}
}

func TestToolsReportEveryProblemAtOnce(t *testing.T) {
	bad := wink.NewTool(wink.Spec{Name: "bad", Description: "Bad.", ParamsSchema: []byte(`"object"`)},
		&wink.Funcs[wink.NoParams, wink.NoValue]{
			Decode:       wink.DecodeNoParams,
			EncodeResult: wink.EncodeNoValue,
			Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
				return wink.Done[wink.NoValue]("ok"), nil
			},
		})
	got, err := anthropic.Tools([]*wink.Tool{nil, label, bad, label})
	const want = "anthropic: tool 0 is nil\n" +
		"anthropic: tool \"bad\": parameters schema is not a JSON object\n" +
		"anthropic: duplicate tool name \"label_issue\" (tools 1 and 3)"
	if err == nil || err.Error() != want || got != nil {
		t.Errorf("got %q, %v\nwant error %q", got, err, want)
	}
}

// TestRecordedToolUseDispatches reads the recorded Messages response (a text block, then a tool_use
// whose input is {}), dispatches its call and writes the tool_result.
func TestRecordedToolUseDispatches(t *testing.T) {
	body, err := wiretest.ReadFile("anthropic_tool-no-args.json")
	if err != nil {
		t.Fatal(err)
	}
	calls, err := anthropic.ParseToolUses(body)
	if err != nil {
		t.Fatal(err)
	}
	want := []wink.Call{{ID: "toolu_01LRmxn9vGM1d2DZSDBowdZ1", Name: "updateIssueList", Arguments: []byte(`{}`)}}
	if d := cmp.Diff(want, calls); d != "" {
		t.Fatalf("calls (-want +got):\n%s", d)
	}
	d := dispatcher()
	out, err := d.Dispatch(context.Background(), calls[0])
	const unknown = `Unknown tool "updateIssueList". Available tools: get_current_weather, search, update_issue_list, label_issue.`
	if err != nil || out.Success || out.Output != unknown {
		t.Errorf("recorded name: got %+v, %v; want failure %q", out, err, unknown)
	}
	if got, want := string(anthropic.ToolResult(calls[0].ID, out)), `{"type":"tool_result","tool_use_id":"toolu_01LRmxn9vGM1d2DZSDBowdZ1","content":"Unknown tool \"updateIssueList\". Available tools: get_current_weather, search, update_issue_list, label_issue.","is_error":true}`; got != want {
		t.Errorf("failure tool_result:\n got %s\nwant %s", got, want)
	}
	call := calls[0]
	call.Name = snake(call.Name)
	out, err = d.Dispatch(context.Background(), call)
	if err != nil || !out.Success {
		t.Fatalf("dispatch: %+v, %v", out, err)
	}
	if got, want := string(anthropic.ToolResult(call.ID, out)), `{"type":"tool_result","tool_use_id":"toolu_01LRmxn9vGM1d2DZSDBowdZ1","content":"Issue list updated.\n\n{\"open\":3}"}`; got != want {
		t.Errorf("tool_result:\n got %s\nwant %s", got, want)
	}
}

func TestParseToolUsesPassesInputBytesVerbatim(t *testing.T) {
	const msg = `{"type":"message","role":"assistant","content":[
	  {"type":"thinking","thinking":"…","signature":"s"},
	  {"type":"text","text":"Let me check."},
	  {"type":"tool_use","id":"toolu_1","name":"get_current_weather","input":{ "location" : "Boston",
	     "unit":"celsius" }},
	  {"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"x"}},
	  {"type":"tool_use","id":"toolu_2","name":"search","input":{"search_query":"caf\u00e9","search_engine":"bing"}},
	  {"type":"tool_use","id":"toolu_3","name":"update_issue_list"}
	],"stop_reason":"tool_use"}`
	want := []wink.Call{
		{ID: "toolu_1", Name: "get_current_weather", Arguments: []byte("{ \"location\" : \"Boston\",\n\t     \"unit\":\"celsius\" }")},
		{ID: "toolu_2", Name: "search", Arguments: []byte(`{"search_query":"caf\u00e9","search_engine":"bing"}`)},
		{ID: "toolu_3", Name: "update_issue_list", Arguments: []byte{}},
	}
	got, err := anthropic.ParseToolUses([]byte(msg))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("message (-want +got):\n%s", d)
	}
	content, err := wiretest.Field([]byte(msg), "content")
	if err != nil {
		t.Fatal(err)
	}
	got, err = anthropic.ParseToolUses(content)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("content array (-want +got):\n%s", d)
	}
	// The verbatim input dispatches.
	d := dispatcher()
	for i, c := range got {
		out, err := d.Dispatch(context.Background(), c)
		if err != nil || !out.Success {
			t.Errorf("call %d: %+v, %v", i, out, err)
		}
	}
}

func TestParseToolUsesWithoutToolUseIsEmpty(t *testing.T) {
	got, err := anthropic.ParseToolUses([]byte(`{"content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"}`))
	if err != nil || got != nil {
		t.Errorf("got %v, %v; want nil, nil", got, err)
	}
}

func TestParseToolUsesErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"error body", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "anthropic: message error: overloaded_error: Overloaded"},
		{"not JSON", `{"content":[`, "anthropic: reading message: unexpected end of JSON input"},
		{"bad content array", `["x"]`, "anthropic: reading content: json: cannot unmarshal string into Go value of type anthropic.block"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := anthropic.ParseToolUses([]byte(tc.in))
			if err == nil || err.Error() != tc.want || got != nil {
				t.Errorf("got %v, %v; want error %q", got, err, tc.want)
			}
		})
	}
}

func TestToolResultWritesIsErrorOnlyForFailures(t *testing.T) {
	for _, tc := range []struct {
		name string
		id   string
		out  wink.Outcome
		want string
	}{
		{"success", "toolu_1", wink.Outcome{Success: true, Output: "Done."},
			`{"type":"tool_result","tool_use_id":"toolu_1","content":"Done."}`},
		{"failure", "toolu_2", wink.Outcome{Output: "Invalid arguments for tool \"search\":\n- search_query: missing required field\nFix the arguments and call search again."},
			`{"type":"tool_result","tool_use_id":"toolu_2","content":"Invalid arguments for tool \"search\":\n- search_query: missing required field\nFix the arguments and call search again.","is_error":true}`},
		{"escapes, no HTML escaping", "t\"3", wink.Outcome{Success: true, Output: "<a> & \"b\"\t\u2029"},
			`{"type":"tool_result","tool_use_id":"t\"3","content":"<a> & \"b\"\t\u2029"}`},
		{"empty output leaves content out", "toolu_4", wink.Outcome{Success: true},
			`{"type":"tool_result","tool_use_id":"toolu_4"}`},
		{"empty failure", "toolu_5", wink.Outcome{},
			`{"type":"tool_result","tool_use_id":"toolu_5","is_error":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(anthropic.ToolResult(tc.id, tc.out)); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestToolResultsAnswersEachOutcomeInOrder(t *testing.T) {
	got := string(anthropic.ToolResults([]wink.Outcome{
		{CallID: "toolu_1", Success: true, Output: "A."},
		{CallID: "toolu_2", Output: "B failed."},
	}))
	const want = `[{"type":"tool_result","tool_use_id":"toolu_1","content":"A."},{"type":"tool_result","tool_use_id":"toolu_2","content":"B failed.","is_error":true}]`
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	if got := string(anthropic.ToolResults(nil)); got != "[]" {
		t.Errorf("no outcomes: got %s, want []", got)
	}
}

// strictOf is the OpenAI strict form of tool's params.
func strictOf(t *testing.T, tool *wink.Tool) []byte {
	t.Helper()
	b, err := openai.StrictSchema(tool.Spec().ParamsSchema)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
