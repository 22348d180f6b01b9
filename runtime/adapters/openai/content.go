package openai

import (
	"encoding/base64"
	"path"
	"strings"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// The surfaces named in the lines that state a block the API cannot take.
const (
	responsesSurface = "the OpenAI Responses API"
	chatSurface      = "OpenAI Chat Completions"
)

// imageTypes are the image types input_image takes.
var imageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// appendResponsesOutput appends the output array of a function_call_output whose outcome has content
// blocks (wink.Content): an input_text of out.Output first (when not empty), then per block:
//
//	text                            {"type":"input_text","text":...}
//	image (jpeg, png, gif, webp)    {"type":"input_image","image_url":"data:<type>;base64,..."}
//	embedded PDF                    {"type":"input_file","filename":<name from the URI>,"file_data":"data:application/pdf;base64,..."}
//	embedded text resource          {"type":"input_text","text":"[resource URI]\n<text>"}
//	audio, other binaries, links    {"type":"input_text","text":"[audio/wav, 44 bytes: not shown, ...]"}  (wink.ContentText)
func appendResponsesOutput(b []byte, out wink.Outcome) []byte {
	b = append(b, '[')
	n := 0
	sep := func() {
		if n > 0 {
			b = append(b, ',')
		}
		n++
	}
	text := func(s string) {
		sep()
		b = append(b, `{"type":"input_text","text":`...)
		b = strictjson.AppendString(b, s)
		b = append(b, '}')
	}
	if out.Output != "" {
		text(out.Output)
	}
	for _, c := range out.Content.All() {
		switch {
		case (c.Kind == wink.KindImage || c.IsBinary()) && imageTypes[c.MIMEType]:
			sep()
			b = append(b, `{"type":"input_image","image_url":"data:`...)
			b = append(b, c.MIMEType...)
			b = append(b, ";base64,"...)
			b = base64.StdEncoding.AppendEncode(b, c.Data)
			b = append(b, `"}`...)
		case c.IsBinary() && c.MIMEType == "application/pdf":
			sep()
			b = append(b, `{"type":"input_file","filename":`...)
			b = strictjson.AppendString(b, fileName(c.URI, "document.pdf"))
			b = append(b, `,"file_data":"data:application/pdf;base64,`...)
			b = base64.StdEncoding.AppendEncode(b, c.Data)
			b = append(b, `"}`...)
		default:
			text(wink.ContentText(responsesSurface, c))
		}
	}
	return append(b, ']')
}

// fileName is the last path element of uri, or def.
func fileName(uri, def string) string {
	if i := strings.Index(uri, "://"); i >= 0 {
		uri = uri[i+3:]
	}
	if b := path.Base(uri); b != "." && b != "/" && b != "" {
		return b
	}
	return def
}

// chatText is the text of a chat tool message whose outcome has content blocks: Chat Completions tool
// messages take text only, so out.Output is followed by each block as text (wink.ContentText: a text
// block as is, a text resource with its URI, anything else stated as not shown), separated by blank lines.
func chatText(out wink.Outcome) string {
	parts := make([]string, 0, 1+out.Content.Len())
	if out.Output != "" {
		parts = append(parts, out.Output)
	}
	for _, c := range out.Content.All() {
		parts = append(parts, wink.ContentText(chatSurface, c))
	}
	return strings.Join(parts, "\n\n")
}
