package openai_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3/responses"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/wink"
)

func showcase(t *testing.T) wink.Outcome {
	t.Helper()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())}
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "call_1", Name: "showcase", Arguments: []byte(`{}`)})
	if err != nil || !out.Success || out.Content.Len() != 6 {
		t.Fatalf("showcase: %v %+v", err, out)
	}
	return out
}

// TestResponsesOutputContentReadBySDK: a function_call_output with content blocks carries an output
// array the SDK reads as input_text, input_image (a data URL) and input_file (the PDF) items; audio, the
// text resource and the link are input_text.
func TestResponsesOutputContentReadBySDK(t *testing.T) {
	payload := openai.ResponsesToolOutput("call_1", showcase(t))
	var item responses.ResponseInputItemUnionParam
	if err := json.Unmarshal(payload, &item); err != nil {
		t.Fatal(err)
	}
	fo := item.OfFunctionCallOutput
	if fo == nil || fo.CallID.Value != "call_1" {
		t.Fatalf("not a function_call_output: %s", payload)
	}
	again, err := json.Marshal(item)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	_ = json.Unmarshal(payload, &a)
	_ = json.Unmarshal(again, &b)
	if x, y := mustJSON(a), mustJSON(b); x != y {
		t.Errorf("the SDK did not keep every field:\nours %s\nSDK  %s", x, y)
	}
	items := fo.Output.OfResponseFunctionCallOutputItemArray
	if len(items) != 7 {
		t.Fatalf("%d items: %s", len(items), payload)
	}
	if items[0].OfInputText == nil || items[0].OfInputText.Text != "Here is everything:" || items[1].OfInputText.Text != "A caption." {
		t.Errorf("text items: %s", payload)
	}
	if im := items[2].OfInputImage; im == nil || im.ImageURL.Value != "data:image/png;base64,"+base64.StdEncoding.EncodeToString(clienttest.PNG) {
		t.Errorf("image item: %s", payload)
	}
	if it := items[3].OfInputText; it == nil || it.Text != "[audio/wav, 44 bytes: not shown, the OpenAI Responses API takes no audio in tool results]" {
		t.Errorf("audio stated: %+v", it)
	}
	if it := items[4].OfInputText; it == nil || it.Text != "[resource test://embedded]\nEmbedded text." {
		t.Errorf("text resource: %+v", it)
	}
	if f := items[5].OfInputFile; f == nil || f.Filename.Value != "doc.pdf" || f.FileData.Value != "data:application/pdf;base64,"+base64.StdEncoding.EncodeToString(clienttest.PDF) {
		t.Errorf("file item: %s", payload)
	}
	if it := items[6].OfInputText; it == nil || !strings.HasPrefix(it.Text, "[resource file:///notes/plan.md") {
		t.Errorf("link stated: %+v", it)
	}
}

// TestChatToolMessageStatesContent: Chat Completions tool messages take text only: the blocks follow
// the output as text, and what is not text is stated as not shown.
func TestChatToolMessageStatesContent(t *testing.T) {
	var m struct {
		Role, ToolCallID, Content string
	}
	payload := openai.ChatToolMessage("call_1", showcase(t))
	if err := json.Unmarshal(payload, &m); err != nil {
		t.Fatal(err)
	}
	want := "Here is everything:\n\nA caption.\n\n" +
		"[image/png, 69 bytes: not shown, OpenAI Chat Completions takes no images in tool results]\n\n" +
		"[audio/wav, 44 bytes: not shown, OpenAI Chat Completions takes no audio in tool results]\n\n" +
		"[resource test://embedded]\nEmbedded text.\n\n" +
		"[application/pdf, 15 bytes (test://doc.pdf): not shown, OpenAI Chat Completions takes no application/pdf files in tool results]\n\n" +
		"[resource file:///notes/plan.md (plan.md), text/markdown: The plan]"
	if m.Content != want {
		t.Errorf("content:\n%s\nwant:\n%s", m.Content, want)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
