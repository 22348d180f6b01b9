package tools

import (
	"strconv"

	"github.com/winkgen/wink/runtime/wink"
)

// Node is an outline entry with nested children.
type Node struct {
	// Title of the entry.
	Title string `json:"title" wink:"minLength=1"`
	// Children are nested entries.
	Children []Node `json:"children,omitempty" wink:"maxItems=20"`
}

// OutlineParams are the arguments of count_outline.
type OutlineParams struct {
	// Root is the outline's top entry.
	Root Node `json:"root"`
}

// OutlineCount is the size of an outline.
type OutlineCount struct {
	// Entries counts every node.
	Entries int `json:"entries"`
	// Depth is the longest path from the root.
	Depth int `json:"depth"`
}

// CountOutline counts the entries and depth of a nested outline.
//
//wink:tool
//wink:example desc="Two levels" input={"root":{"title":"Plan","children":[{"title":"Build"},{"title":"Test"}]}} output={"entries":3,"depth":2}
func CountOutline(tc *wink.ToolContext, p OutlineParams) (wink.ToolResult[OutlineCount], error) {
	n, d := count(p.Root)
	res := OutlineCount{Entries: n, Depth: d}
	return wink.WithoutValueInContext(wink.OK(res, "The outline has "+strconv.Itoa(n)+" entries.")), nil
}

func count(n Node) (int, int) {
	total, depth := 1, 0
	for _, c := range n.Children {
		t, d := count(c)
		total += t
		depth = max(depth, d)
	}
	return total, depth + 1
}

// ArchiveParams are the arguments of archive_docs.
type ArchiveParams struct {
	// Paths to archive.
	Paths []string `json:"paths" wink:"minItems=1"`
}

// ArchiveDocs archives documents; it has no result value.
//
//wink:tool
func ArchiveDocs(tc *wink.ToolContext, p ArchiveParams) (wink.ToolResult[wink.NoValue], error) {
	for _, path := range p.Paths {
		if path == "/docs/locked.md" {
			return wink.Failure[wink.NoValue]("/docs/locked.md is locked; archive the other paths"), nil
		}
	}
	return wink.Done[wink.NoValue]("Archived " + strconv.Itoa(len(p.Paths)) + " documents."), nil
}
