package anthropic

import (
	"encoding/base64"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// surface names the Messages API in the lines that state a block it cannot take.
const surface = "the Anthropic Messages API"

// imageTypes are the image media types a tool_result's image block takes.
var imageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// appendContent appends `,"content":[...]` for an outcome with content blocks (wink.Content): a text
// block of out.Output first (when not empty), then per block:
//
//	text                               {"type":"text","text":...}
//	image (jpeg, png, gif, webp)       {"type":"image","source":{"type":"base64","media_type":...,"data":...}}
//	embedded PDF                       {"type":"document","source":{"type":"base64","media_type":"application/pdf","data":...},"title":URI}
//	embedded text resource             {"type":"document","source":{"type":"text","media_type":"text/plain","data":...},"title":URI}
//	audio, other images and binaries,  {"type":"text","text":"[audio/wav, 44 bytes: not shown, the Anthropic Messages API
//	resource links                     takes no audio in tool results]"}  (wink.ContentText)
func appendContent(b []byte, out wink.Outcome) []byte {
	b = append(b, `,"content":[`...)
	n := 0
	sep := func() {
		if n > 0 {
			b = append(b, ',')
		}
		n++
	}
	text := func(s string) {
		sep()
		b = append(b, `{"type":"text","text":`...)
		b = strictjson.AppendString(b, s)
		b = append(b, '}')
	}
	if out.Output != "" {
		text(out.Output)
	}
	for _, c := range out.Content.All() {
		switch {
		case c.Kind == wink.KindText:
			text(c.Text)
		case (c.Kind == wink.KindImage || c.IsBinary()) && imageTypes[c.MIMEType]:
			sep()
			b = append(b, `{"type":"image","source":{"type":"base64","media_type":`...)
			b = strictjson.AppendString(b, c.MIMEType)
			b = append(b, `,"data":"`...)
			b = base64.StdEncoding.AppendEncode(b, c.Data)
			b = append(b, `"}}`...)
		case c.IsBinary() && c.MIMEType == "application/pdf":
			sep()
			b = append(b, `{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"`...)
			b = base64.StdEncoding.AppendEncode(b, c.Data)
			b = append(b, `"},"title":`...)
			b = strictjson.AppendString(b, c.URI)
			b = append(b, '}')
		case c.Kind == wink.KindResource && !c.IsBinary():
			sep()
			b = append(b, `{"type":"document","source":{"type":"text","media_type":"text/plain","data":`...)
			b = strictjson.AppendString(b, c.Text)
			b = append(b, `},"title":`...)
			b = strictjson.AppendString(b, c.URI)
			b = append(b, '}')
		default:
			text(wink.ContentText(surface, c))
		}
	}
	return append(b, ']')
}
