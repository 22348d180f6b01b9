package gemini_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/winkgen/wink/runtime/adapters/gemini"
	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/wink"
	"google.golang.org/genai"
)

// TestFunctionResponseContentReadBySDK: the image and the PDF are inline parts of the function response
// (genai.FunctionResponsePart, bytes intact); the caption, the text resource, the audio (stated) and the
// link (stated) follow the output text.
func TestFunctionResponseContentReadBySDK(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())}
	call := wink.Call{ID: "fc_1", Name: "showcase", Arguments: []byte(`{}`)}
	out, err := d.Dispatch(context.Background(), call)
	if err != nil || out.Content.Len() != 6 {
		t.Fatalf("showcase: %v %+v", err, out)
	}
	payload := gemini.FunctionResponse(call, out)
	var p genai.Part
	if err := json.Unmarshal(payload, &p); err != nil {
		t.Fatal(err)
	}
	fr := p.FunctionResponse
	if fr == nil || fr.ID != "fc_1" || fr.Name != "showcase" || len(fr.Parts) != 2 {
		t.Fatalf("function response: %s", payload)
	}
	if in := fr.Parts[0].InlineData; in == nil || in.MIMEType != "image/png" || !bytes.Equal(in.Data, clienttest.PNG) {
		t.Errorf("image part: %s", payload)
	}
	if in := fr.Parts[1].InlineData; in == nil || in.MIMEType != "application/pdf" || !bytes.Equal(in.Data, clienttest.PDF) || in.DisplayName != "test://doc.pdf" {
		t.Errorf("PDF part: %s", payload)
	}
	want := "Here is everything:\n\nA caption.\n\n" +
		"[audio/wav, 44 bytes: not shown, the Gemini API takes no audio in tool results]\n\n" +
		"[resource test://embedded]\nEmbedded text.\n\n" +
		"[resource file:///notes/plan.md (plan.md), text/markdown: The plan]"
	if fr.Response["output"] != want {
		t.Errorf("output:\n%v\nwant:\n%s", fr.Response["output"], want)
	}
	again, _ := json.Marshal(p)
	var a, b any
	_ = json.Unmarshal(payload, &a)
	_ = json.Unmarshal(again, &b)
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	if string(x) != string(y) {
		t.Errorf("the SDK did not keep every field:\nours %s\nSDK  %s", x, y)
	}
}
