// Package typecons declares constraints once on named types and uses patternDesc for readable messages.
package typecons

import "github.com/winkgen/wink/runtime/wink"

// Path is a workspace-relative path.
//
//wink:constraints maxLength=200,pattern='[a-z0-9_./-]+',patternDesc='a relative path of lowercase letters, digits, _ . / and -'
type Path string

// Slug is a short identifier.
//
//wink:constraints minLength=2,maxLength=8
type Slug string

// CopyParams copies files.
type CopyParams struct {
	// From is the source.
	From Path `json:"from"`
	// To is the destination; a field tag adds to and overrides the type's constraints.
	To *Path `json:"to,omitempty" wink:"maxLength=50"`
	// Also lists more sources.
	Also []Path `json:"also,omitempty" wink:"maxItems=3"`
	// Tag names the copy.
	Tag Slug `json:"tag,omitempty"`
}

// Copied is the result.
type Copied struct {
	N int `json:"n"`
}

// Copy copies a file.
//
//wink:tool
//wink:example desc="One file" input={"from":"a/b.txt","also":["c"]} output={"n":2}
func Copy(tc *wink.ToolContext, p CopyParams) (wink.ToolResult[Copied], error) {
	return wink.OK(Copied{N: 1 + len(p.Also)}, "copied"), nil
}
