package benchmarks

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import "github.com/winkgen/wink/runtime/wink"

// SearchMode selects how a query matches documents.
type SearchMode string

// The search modes: the enum every implementation checks.
const (
	// SearchFuzzy matches approximately.
	SearchFuzzy SearchMode = "fuzzy"
	// SearchExact matches the query literally.
	SearchExact SearchMode = "exact"
)

// SearchArgs are the arguments of search_docs, the benchmark's type: no wink
// constraints beyond what the Go types imply, so every implementation checks the same things.
type SearchArgs struct {
	// Query is the text to search for.
	Query string `json:"query"`
	// Limit caps the number of matches.
	Limit int `json:"limit"`
	// CaseSensitive makes matching case-sensitive.
	CaseSensitive bool `json:"case_sensitive"`
	// FileTypes restricts matches to these extensions.
	FileTypes []string `json:"file_types"`
	// Filters narrows the search.
	Filters struct {
		// PathPrefix keeps only documents under this path.
		PathPrefix string `json:"path_prefix"`
		// MaxSize skips documents larger than this many bytes.
		MaxSize int64 `json:"max_size"`
	} `json:"filters"`
	// Mode is the matching mode.
	Mode SearchMode `json:"mode"`
}

// SearchResult is the (empty) result of the no-op search_docs handler.
type SearchResult struct {
	// Total is the number of matches.
	Total int `json:"total"`
}

// SearchDocs searches the documentation index; here it does nothing, so that a benchmark of the dispatch
// measures the pipeline and not the handler.
//
//wink:tool
func SearchDocs(tc *wink.ToolContext, p SearchArgs) (wink.ToolResult[SearchResult], error) {
	return wink.OK(SearchResult{}, "Found 0 matches."), nil
}
