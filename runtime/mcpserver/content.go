package mcpserver

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/wink"
)

// appendContent appends the MCP form of blocks (wink.Content) to dst: text,
// image, audio, resource (embedded, text or blob) and resource_link blocks.
// A block of no known kind is stated as text (wink.ContentText).
func appendContent(dst []mcp.Content, blocks []wink.Content) []mcp.Content {
	for _, c := range blocks {
		dst = append(dst, mcpContent(c))
	}
	return dst
}

// mcpContent is the MCP content block of c.
func mcpContent(c wink.Content) mcp.Content {
	switch c.Kind {
	case wink.KindText:
		return &mcp.TextContent{Text: c.Text}
	case wink.KindImage:
		return &mcp.ImageContent{MIMEType: c.MIMEType, Data: c.Data}
	case wink.KindAudio:
		return &mcp.AudioContent{MIMEType: c.MIMEType, Data: c.Data}
	case wink.KindResource:
		return &mcp.EmbeddedResource{Resource: resourceContents(c)}
	case wink.KindResourceLink:
		l := &mcp.ResourceLink{URI: c.URI, Name: c.Name, Title: c.Title, Description: c.Description, MIMEType: c.MIMEType}
		if c.Size > 0 {
			n := c.Size
			l.Size = &n
		}
		return l
	}
	return &mcp.TextContent{Text: wink.ContentText("this server", c)}
}

// resourceContents are the contents of the embedded resource c.
func resourceContents(c wink.Content) *mcp.ResourceContents {
	rc := &mcp.ResourceContents{URI: c.URI, MIMEType: c.MIMEType}
	if c.IsBinary() {
		rc.Blob = c.Data
	} else {
		rc.Text = c.Text
	}
	return rc
}

// winkContent is the wink form of an MCP content block (sampling answers);
// false for a kind wink has no block for (tool use and tool results).
func winkContent(c mcp.Content) (wink.Content, bool) {
	switch c := c.(type) {
	case *mcp.TextContent:
		return wink.Text(c.Text), true
	case *mcp.ImageContent:
		return wink.Image(c.MIMEType, c.Data), true
	case *mcp.AudioContent:
		return wink.Audio(c.MIMEType, c.Data), true
	case *mcp.EmbeddedResource:
		if c.Resource == nil {
			return wink.Content{}, false
		}
		if c.Resource.Blob != nil {
			return wink.EmbeddedBlob(c.Resource.URI, c.Resource.MIMEType, c.Resource.Blob), true
		}
		return wink.EmbeddedResource(c.Resource.URI, c.Resource.MIMEType, c.Resource.Text), true
	case *mcp.ResourceLink:
		l := wink.ResourceLink(c.URI, c.Name, c.MIMEType)
		l.Title, l.Description = c.Title, c.Description
		if c.Size != nil {
			l.Size = *c.Size
		}
		return l, true
	}
	return wink.Content{}, false
}
