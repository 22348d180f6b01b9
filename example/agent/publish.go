package agent

//go:generate go tool winkgen

import (
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// PublishParams are the arguments of publish_docs.
type PublishParams struct {
	// Paths are the workspace documents to publish, in order.
	Paths []string `json:"paths" wink:"minItems=1,maxItems=20,uniqueItems"`
}

// Published reports a publication.
type Published struct {
	// Index is the path of the index page written.
	Index string `json:"index"`
	// Pages counts the pages published.
	Pages int `json:"pages"`
}

// IndexPath is where publish_docs writes the site's index.
const IndexPath = "site/index.md"

// PublishDocs publishes workspace documents to the site: it writes the site index, then checks every page.
// A page that still contains "TODO" fails the call, and the index write is rolled back with it.
//
//wink:tool
func PublishDocs(tc *wink.ToolContext, p PublishParams) (wink.ToolResult[Published], error) {
	fs := tc.Filesystem()
	if fs == nil {
		return wink.Failure[Published]("No workspace is attached."), nil
	}
	var index strings.Builder
	index.WriteString("# Site index\n\n")
	for _, path := range p.Paths {
		index.WriteString("- " + path + "\n")
	}
	// Written first, checked after: a failing check must not leave a half-published site behind. The
	// dispatcher's transaction undoes this write when the call fails.
	if err := vfs.Write(fs, IndexPath, []byte(index.String())); err != nil {
		return wink.ToolResult[Published]{}, err
	}
	for _, path := range p.Paths {
		data, err := fs.Read(path)
		if err != nil {
			return wink.ToolResult[Published]{}, wink.NewToolError("Cannot publish " + path + ": " + err.Error())
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "TODO") {
				return wink.Failure[Published](path + " still has a TODO on line " + strconv.Itoa(i+1) + "; resolve it, then publish again."), nil
			}
		}
	}
	return wink.OK(Published{Index: IndexPath, Pages: len(p.Paths)}, "Published "+strconv.Itoa(len(p.Paths))+" pages."), nil
}
