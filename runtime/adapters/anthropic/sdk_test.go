package anthropic_test

// Tests against the official SDK's types (github.com/anthropics/anthropic-sdk-go, a test-only
// dependency): our payloads unmarshal into its request param types with every field understood, and its
// response and param types, marshaled, feed our reader.

import (
	"encoding/json"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"
	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
	"github.com/winkgen/wink/runtime/adapters/internal/wiretest"
	"github.com/winkgen/wink/runtime/wink"
)

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

func TestSDKMessageNewParamsAcceptsTools(t *testing.T) {
	tools := adapterstest.WinkTools()
	payload, err := anthropic.Tools(tools)
	if err != nil {
		t.Fatal(err)
	}
	var p sdk.MessageNewParams
	body := `{"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":"Hi"}],"tools":` + string(payload) + `}`
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Tools) != len(tools) {
		t.Fatalf("SDK read %d tools, want %d", len(p.Tools), len(tools))
	}
	for i, tool := range tools {
		tp := p.Tools[i].OfTool
		if tp == nil {
			t.Fatalf("tool %d: SDK did not read a custom tool", i)
		}
		if tp.Name != tool.Name() || tp.Description.Value != tool.Description() {
			t.Errorf("tool %d: SDK read name=%q description=%q", i, tp.Name, tp.Description.Value)
		}
		is, err := json.Marshal(tp.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		if d := jsonEqual(t, tool.Spec().ParamsSchema, is); d != "" {
			t.Errorf("tool %d input_schema (-ours +SDK):\n%s", i, d)
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

// TestToolsHaveTheShapeTheSDKWrites compares our payload's keys and nesting with the SDK's own
// ToolParam encoding of the same tool (there is no recorded Anthropic request).
func TestToolsHaveTheShapeTheSDKWrites(t *testing.T) {
	ours, err := anthropic.Tools([]*wink.Tool{search})
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := json.Marshal([]sdk.ToolUnionParam{{OfTool: &sdk.ToolParam{
		Name:        "search",
		Description: param.NewOpt("Searches by the web search engine."),
		InputSchema: sdk.ToolInputSchemaParam{Properties: map[string]any{"search_query": map[string]any{"type": "string"}}, Required: []string{"search_query"}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	o, err := wiretest.Shape(ours, "input_schema")
	if err != nil {
		t.Fatal(err)
	}
	s, err := wiretest.Shape(theirs, "input_schema")
	if err != nil {
		t.Fatal(err)
	}
	if o != s {
		t.Errorf("shape:\n ours %s\n SDK  %s", o, s)
	}
}

func TestSDKMessageFeedsParseToolUses(t *testing.T) {
	m := sdk.Message{
		ID:   "msg_1",
		Role: "assistant",
		Content: []sdk.ContentBlockUnion{
			{Type: "text", Text: "Checking."},
			{Type: "tool_use", ID: "toolu_1", Name: "search", Input: json.RawMessage(`{"search_engine":"bing","search_query":"x"}`)},
			{Type: "tool_use", ID: "toolu_2", Name: "update_issue_list", Input: json.RawMessage(`{}`)},
		},
		StopReason: sdk.StopReasonToolUse,
	}
	want := []wink.Call{
		{ID: "toolu_1", Name: "search", Arguments: []byte(`{"search_engine":"bing","search_query":"x"}`)},
		{ID: "toolu_2", Name: "update_issue_list", Arguments: []byte(`{}`)},
	}
	body, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := anthropic.ParseToolUses(body)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("response Message (-want +got):\n%s", d)
	}

	// The assistant turn a client replays in the conversation, as the SDK's param types write it.
	replay, err := json.Marshal(sdk.NewAssistantMessage(
		sdk.NewTextBlock("Checking."),
		sdk.NewToolUseBlock("toolu_1", map[string]any{"search_engine": "bing", "search_query": "x"}, "search"),
		sdk.NewToolUseBlock("toolu_2", map[string]any{}, "update_issue_list"),
	))
	if err != nil {
		t.Fatal(err)
	}
	got, err = anthropic.ParseToolUses(replay)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("MessageParam (-want +got):\n%s", d)
	}
}

func TestSDKReadsOurToolResults(t *testing.T) {
	outs := []wink.Outcome{
		{CallID: "toolu_1", Success: true, Output: "1 hit."},
		{CallID: "toolu_2", Output: "Search engine bing is unavailable."},
	}
	var msg sdk.MessageParam
	if err := json.Unmarshal([]byte(`{"role":"user","content":`+string(anthropic.ToolResults(outs))+`}`), &msg); err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 2 {
		t.Fatalf("SDK read %d blocks, want 2", len(msg.Content))
	}
	for i, o := range outs {
		tr := msg.Content[i].OfToolResult
		if tr == nil {
			t.Fatalf("block %d is not a tool_result", i)
		}
		if tr.ToolUseID != o.CallID || tr.IsError.Value != !o.Success || tr.IsError.Valid() == o.Success {
			t.Errorf("block %d: tool_use_id=%q is_error=%v", i, tr.ToolUseID, tr.IsError)
		}
		if len(tr.Content) != 1 || tr.Content[0].OfText == nil || tr.Content[0].OfText.Text != o.Output {
			t.Errorf("block %d content: %+v", i, tr.Content)
		}
	}
}
