package wink

import "strconv"

// Content is one block of a tool result besides its text: an image, audio, an
// embedded resource, a link to a resource, or more text. A handler attaches
// blocks with WithContent; the Outcome carries them in Outcome.Content, after
// Outcome.Output, and each surface maps them to its own form:
//
//   - MCP (package mcpserver): one content block each (image, audio,
//     resource, resource_link, text), after the text block of Output.
//   - Anthropic (adapters/anthropic): tool_result content blocks; images as
//     image blocks, PDFs and text resources as document blocks; audio and
//     resource links are stated in a text block (the API takes neither).
//   - OpenAI Responses (adapters/openai): function_call_output with an
//     output array of input_text, input_image and input_file items; audio is
//     stated in text. Chat Completions tool messages take text only: every
//     block that is not text is stated in text.
//   - Gemini (adapters/gemini): inline data parts of the function response
//     (images, audio, PDFs); text resources join the output text; resource
//     links are stated in text.
//
// "Stated in text" is the one fallback everywhere: a line such as
// `[audio/wav, 4410 bytes: not shown, <surface> takes no audio in tool results]`
// so that the model knows something was there; ContentText(surface, c) gives
// that line.
//
// Build blocks with Text, Image, Audio, EmbeddedResource, EmbeddedBlob and
// ResourceLink. Data holds raw bytes (not base64); the surfaces encode it.
type Content struct {
	// Kind says which block this is.
	Kind ContentKind
	// Text is the text of a KindText block or of a KindResource block with
	// textual contents.
	Text string
	// Data is the raw bytes of an image, audio or binary resource.
	Data []byte
	// MIMEType is the media type of the data, the resource or the linked
	// resource ("image/png", "audio/wav", "text/plain", ...).
	MIMEType string
	// URI names an embedded or linked resource.
	URI string
	// Name, Title and Description describe a linked resource (Name is
	// required by MCP; Title and Description are optional).
	Name, Title, Description string
	// Size is the linked resource's size in bytes; 0 when unknown.
	Size int64
}

// ContentKind is the kind of a Content block.
type ContentKind uint8

// The kinds of Content blocks.
const (
	// KindText is text (Content.Text).
	KindText ContentKind = iota + 1
	// KindImage is an image (Content.Data, Content.MIMEType).
	KindImage
	// KindAudio is audio (Content.Data, Content.MIMEType).
	KindAudio
	// KindResource is an embedded resource: its URI, its MIME type and its
	// contents, text (Content.Text) or binary (Content.Data).
	KindResource
	// KindResourceLink is a link to a resource the client can read
	// (Content.URI, Content.Name, ...), not its contents.
	KindResourceLink
)

// String returns the kind's MCP type name: "text", "image", "audio",
// "resource" or "resource_link".
func (k ContentKind) String() string {
	switch k {
	case KindText:
		return "text"
	case KindImage:
		return "image"
	case KindAudio:
		return "audio"
	case KindResource:
		return "resource"
	case KindResourceLink:
		return "resource_link"
	}
	return "unknown"
}

// Text returns a text block.
func Text(text string) Content { return Content{Kind: KindText, Text: text} }

// Image returns an image block: data are the image's bytes, mimeType its
// type ("image/png", "image/jpeg", "image/gif", "image/webp").
func Image(mimeType string, data []byte) Content {
	return Content{Kind: KindImage, MIMEType: mimeType, Data: data}
}

// Audio returns an audio block: data are the bytes, mimeType their type
// ("audio/wav", "audio/mpeg", ...).
func Audio(mimeType string, data []byte) Content {
	return Content{Kind: KindAudio, MIMEType: mimeType, Data: data}
}

// EmbeddedResource returns a block embedding the textual resource uri
// (mimeType "text/plain", "application/json", ...) with its text.
func EmbeddedResource(uri, mimeType, text string) Content {
	return Content{Kind: KindResource, URI: uri, MIMEType: mimeType, Text: text}
}

// EmbeddedBlob returns a block embedding the binary resource uri with its
// bytes (a PDF, an image read as a resource, ...).
func EmbeddedBlob(uri, mimeType string, data []byte) Content {
	return Content{Kind: KindResource, URI: uri, MIMEType: mimeType, Data: data}
}

// ResourceLink returns a block linking to the resource uri (name is its
// short name; mimeType may be empty). Set Title, Description or Size on the
// returned value to say more.
func ResourceLink(uri, name, mimeType string) Content {
	return Content{Kind: KindResourceLink, URI: uri, Name: name, MIMEType: mimeType}
}

// IsBinary reports whether a resource block holds bytes (Data) rather than
// text.
func (c Content) IsBinary() bool { return c.Kind == KindResource && c.Data != nil }

// Blocks are the content blocks of a result (ToolResult.Content,
// Outcome.Content); the zero value holds none. It refers to the blocks
// rather than holding them so that ToolResult and Outcome stay comparable
// with ==; two Blocks are equal when they refer to the same blocks.
type Blocks struct{ p *[]Content }

// BlocksOf returns Blocks holding blocks (none for an empty list).
func BlocksOf(blocks ...Content) Blocks {
	if len(blocks) == 0 {
		return Blocks{}
	}
	return Blocks{p: &blocks}
}

// All returns the blocks, in order; nil for none. Do not modify them.
func (b Blocks) All() []Content {
	if b.p == nil {
		return nil
	}
	return *b.p
}

// Len returns the number of blocks.
func (b Blocks) Len() int { return len(b.All()) }

// Equal reports whether b and o hold equal blocks, field by field (go-cmp
// uses it; == compares identity).
func (b Blocks) Equal(o Blocks) bool {
	x, y := b.All(), o.All()
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if !x[i].Equal(y[i]) {
			return false
		}
	}
	return true
}

// Equal reports whether c and o are the same block, field by field.
func (c Content) Equal(o Content) bool {
	return c.Kind == o.Kind && c.Text == o.Text && string(c.Data) == string(o.Data) && (c.Data == nil) == (o.Data == nil) &&
		c.MIMEType == o.MIMEType && c.URI == o.URI && c.Name == o.Name && c.Title == o.Title &&
		c.Description == o.Description && c.Size == o.Size
}

// WithContent returns a copy of r carrying blocks after its text:
//
//	return wink.WithContent(wink.Done[wink.NoValue]("The chart:"), wink.Image("image/png", png)), nil
//
// The blocks are shown on success only (a failure is its text). They reach
// Outcome.Content as given; the idempotency ledger does not record them, so
// a replayed outcome carries its text alone. Like WithoutValueInContext it is
// a function, not a method.
func WithContent[R any](r ToolResult[R], blocks ...Content) ToolResult[R] {
	old := r.Content.All()
	r.Content = BlocksOf(append(old[:len(old):len(old)], blocks...)...)
	return r
}

// ContentText is the line that states a block a surface cannot show, for
// the model: `[image/png, 68 bytes: not shown, <surface> takes no images in
// tool results]`; a text block is its text; a resource with text is its URI
// and its text; a link is its URI with name and description.
func ContentText(surface string, c Content) string {
	switch c.Kind {
	case KindText:
		return c.Text
	case KindResourceLink:
		s := "[resource " + c.URI
		if c.Name != "" {
			s += " (" + c.Name + ")"
		}
		if c.MIMEType != "" {
			s += ", " + c.MIMEType
		}
		if c.Description != "" {
			s += ": " + c.Description
		}
		return s + "]"
	case KindResource:
		if !c.IsBinary() {
			return "[resource " + c.URI + "]\n" + c.Text
		}
	}
	what := "no " + c.Kind.String() + " content"
	switch c.Kind {
	case KindImage:
		what = "no images"
	case KindAudio:
		what = "no audio"
	case KindResource:
		what = "no " + c.MIMEType + " files"
	}
	s := "[" + c.MIMEType + ", " + strconv.Itoa(len(c.Data)) + " bytes"
	if c.URI != "" {
		s += " (" + c.URI + ")"
	}
	return s + ": not shown, " + surface + " takes " + what + " in tool results]"
}
