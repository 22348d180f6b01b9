package gemini

import (
	"encoding/base64"
	"strings"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// surface names the Gemini API in the lines that state a block it cannot take.
const surface = "the Gemini API"

// inlineTypes are the media types a function response's inline parts take (multimodal function
// responses: images and PDF documents).
var inlineTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/webp": true, "application/pdf": true}

// contentText is the response's text for an outcome with content blocks: out.Output, then every block
// that is not sent as a part, as text (a text block as is, a text resource with its URI, anything else
// stated as not shown: audio, other binaries, resource links), separated by blank lines.
func contentText(out wink.Outcome) string {
	parts := []string{}
	if out.Output != "" {
		parts = append(parts, out.Output)
	}
	for _, c := range out.Content.All() {
		if !inlinePart(c) {
			parts = append(parts, wink.ContentText(surface, c))
		}
	}
	return strings.Join(parts, "\n\n")
}

// inlinePart reports whether c is sent as an inline data part.
func inlinePart(c wink.Content) bool {
	return (c.Kind == wink.KindImage || c.IsBinary()) && inlineTypes[c.MIMEType]
}

// appendParts appends `,"parts":[{"inlineData":{"mimeType":...,"data":...}},...]` for the blocks sent
// as parts (images and PDFs; "displayName" is the URI of an embedded one); nothing when there is none.
func appendParts(b []byte, out wink.Outcome) []byte {
	n := 0
	for _, c := range out.Content.All() {
		if !inlinePart(c) {
			continue
		}
		if n == 0 {
			b = append(b, `,"parts":[`...)
		} else {
			b = append(b, ',')
		}
		n++
		b = append(b, `{"inlineData":{"mimeType":`...)
		b = strictjson.AppendString(b, c.MIMEType)
		b = append(b, `,"data":"`...)
		b = base64.StdEncoding.AppendEncode(b, c.Data)
		b = append(b, '"')
		if c.URI != "" {
			b = append(b, `,"displayName":`...)
			b = strictjson.AppendString(b, c.URI)
		}
		b = append(b, "}}"...)
	}
	if n > 0 {
		b = append(b, ']')
	}
	return b
}
