// Package tools holds the example agent's tools: ordinary Go handlers annotated with //wink:tool, turned by
// winkgen into the registry, schemas, strict decoders and dispatch entries in wink_gen.go.
package tools

//go:generate go tool winkgen

import (
	"strings"

	"github.com/winkgen/wink/runtime/wink"
)

// Mode selects how queries match documents.
type Mode string

// Search modes.
const (
	ModeFuzzy Mode = "fuzzy"
	ModeExact Mode = "exact"
)

// SearchParams are the arguments of search_docs.
type SearchParams struct {
	// Query is the text to search for.
	Query string `json:"query" wink:"minLength=1,maxLength=200"`
	// Limit caps the number of matches returned.
	Limit int `json:"limit" wink:"min=1,max=100,default=10"`
	// CaseSensitive makes matching case-sensitive.
	CaseSensitive bool `json:"case_sensitive,omitempty"`
	// FileTypes restricts matches to these extensions.
	FileTypes []string `json:"file_types,omitempty" wink:"maxItems=10,uniqueItems,pattern='[a-z0-9]{1,8}'"`
	// Filters narrows the search.
	Filters struct {
		// PathPrefix keeps only documents under this path.
		PathPrefix string `json:"path_prefix" wink:"pattern='/[A-Za-z0-9_./-]*'"`
		// MaxSize skips documents larger than this many bytes.
		MaxSize int64 `json:"max_size" wink:"min=0"`
	} `json:"filters"`
	// Mode is the matching mode.
	Mode Mode `json:"mode" wink:"default=fuzzy"`
}

// SearchResult lists matching documents.
type SearchResult struct {
	// Matches are the matching document paths.
	Matches []string `json:"matches"`
	// TotalCount is the number of matches before the limit.
	TotalCount int `json:"total_count"`
}

// SearchDocs searches the documentation index for relevant content.
//
//wink:tool scopes=docs:read
//wink:example desc="Basic search" input={"query":"filesystem","limit":10,"filters":{"path_prefix":"/docs","max_size":1000}} output={"matches":["fs.md"],"total_count":1}
func SearchDocs(tc *wink.ToolContext, p SearchParams) (wink.ToolResult[SearchResult], error) {
	var matches []string
	for _, doc := range corpus {
		if strings.HasPrefix(doc, p.Filters.PathPrefix) && strings.Contains(doc, p.Query) {
			matches = append(matches, doc)
		}
	}
	total := len(matches)
	if len(matches) > p.Limit {
		matches = matches[:p.Limit]
	}
	return wink.OK(SearchResult{Matches: matches, TotalCount: total}, "Found matches."), nil
}

var corpus = []string{"/docs/filesystem.md", "/docs/snapshots.md", "/docs/policies.md"}
