package anthropic_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/wink"
)

// showcase dispatches clienttest's showcase tool: text, caption, image, audio, text resource, PDF, link.
func showcase(t *testing.T) wink.Outcome {
	t.Helper()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())}
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "toolu_1", Name: "showcase", Arguments: []byte(`{}`)})
	if err != nil || !out.Success || out.Content.Len() != 6 {
		t.Fatalf("showcase: %v %+v", err, out)
	}
	return out
}

// TestToolResultContentBlocksReadBySDK: a result with content blocks is a tool_result whose content the
// SDK reads as text, image and document blocks, every field understood; audio and the link are stated in
// text blocks.
func TestToolResultContentBlocksReadBySDK(t *testing.T) {
	out := showcase(t)
	payload := anthropic.ToolResult("toolu_1", out)
	var p sdk.ToolResultBlockParam
	if err := json.Unmarshal(payload, &p); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if d := jsonEqual(t, payload, again); d != "" {
		t.Errorf("the SDK did not keep every field (-ours +SDK):\n%s", d)
	}
	c := p.Content
	if len(c) != 7 {
		t.Fatalf("%d blocks: %s", len(c), payload)
	}
	if c[0].OfText == nil || c[0].OfText.Text != "Here is everything:" || c[1].OfText == nil || c[1].OfText.Text != "A caption." {
		t.Errorf("text blocks: %s", payload)
	}
	if im := c[2].OfImage; im == nil || im.Source.OfBase64 == nil || im.Source.OfBase64.MediaType != "image/png" || im.Source.OfBase64.Data != base64.StdEncoding.EncodeToString(clienttest.PNG) {
		t.Errorf("image block: %s", payload)
	}
	if c[3].OfText == nil || c[3].OfText.Text != "[audio/wav, 44 bytes: not shown, the Anthropic Messages API takes no audio in tool results]" {
		t.Errorf("audio stated: %+v", c[3].OfText)
	}
	if doc := c[4].OfDocument; doc == nil || doc.Source.OfText == nil || doc.Source.OfText.Data != "Embedded text." || doc.Title.Value != "test://embedded" {
		t.Errorf("text document: %s", payload)
	}
	if doc := c[5].OfDocument; doc == nil || doc.Source.OfBase64 == nil || doc.Source.OfBase64.Data != base64.StdEncoding.EncodeToString(clienttest.PDF) {
		t.Errorf("PDF document: %s", payload)
	}
	if c[6].OfText == nil || c[6].OfText.Text != "[resource file:///notes/plan.md (plan.md), text/markdown: The plan]" {
		t.Errorf("link stated: %+v", c[6].OfText)
	}
	// Without blocks the content stays a string.
	if got := string(anthropic.ToolResult("toolu_2", wink.Outcome{Success: true, Output: "ok"})); got != `{"type":"tool_result","tool_use_id":"toolu_2","content":"ok"}` {
		t.Errorf("plain: %s", got)
	}
}
