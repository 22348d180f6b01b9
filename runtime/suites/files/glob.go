package files

import (
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// GlobParams are the arguments of glob.
type GlobParams struct {
	// Pattern is matched against paths below path, segment by segment: * and ? match within a segment, [abc] a character class, ** any number of segments.
	Pattern string `json:"pattern" wink:"minLength=1,maxLength=1297,pattern='[ -~]+'"`
	// Path is the directory the pattern is relative to; empty or / for the workspace root.
	Path PathOrRoot `json:"path,omitempty"`
	// Offset is the number of matches to skip.
	Offset int `json:"offset" wink:"min=0,default=0"`
	// Limit is the largest number of matches to return.
	Limit int `json:"limit" wink:"min=1,max=1000,default=200"`
}

// GlobResult is a page of the paths matching a pattern.
type GlobResult struct {
	// Matches are the matching paths, relative to the workspace root, sorted; directories end with "/".
	Matches []string `json:"matches"`
	// Total is the number of matching paths.
	Total int `json:"total"`
}

// Render lists one path per line.
func (r GlobResult) Render() string { return strings.Join(r.Matches, "\n") }

// Glob finds files and directories whose paths match a pattern such as **/*.go.
//
//wink:tool name=glob readonly
//wink:example desc="Go files anywhere" input={"pattern":"**/*.go"} output={"matches":["cmd/main.go","lib/lib.go"],"total":2}
func Glob(tc *wink.ToolContext, p GlobParams) (wink.ToolResult[GlobResult], error) {
	fs := tc.Filesystem()
	if fs == nil {
		return noFilesystem[GlobResult]()
	}
	base, shownBase := clean(string(p.Path))
	full := join(base, p.Pattern)
	paths, err := vfs.Glob(fs, full)
	if err != nil {
		return failed[GlobResult](err, full)
	}
	total := len(paths)
	where := ""
	if base != "." {
		where = " in " + shownBase
	}
	if total == 0 {
		return wink.Done[GlobResult]("No paths match " + quote(p.Pattern) + where + ". " +
			"* matches within one path segment and ** across segments; try a broader pattern, or ls to see what exists."), nil
	}
	if p.Offset >= total {
		return wink.Failure[GlobResult]("Offset " + strconv.Itoa(p.Offset) + " is past the end of the " + plural(total, "match", "matches") +
			". Call glob with an offset below " + strconv.Itoa(total) + "."), nil
	}
	end := min(total, p.Offset+p.Limit)
	res := GlobResult{Matches: make([]string, 0, end-p.Offset), Total: total}
	for _, m := range paths[p.Offset:end] {
		if st, err := fs.Stat(m); err == nil && st.IsDir {
			m += "/"
		}
		res.Matches = append(res.Matches, m)
	}
	msg := plural(total, "path matches", "paths match") + " " + quote(p.Pattern) + where + "."
	if p.Offset > 0 || end < total {
		msg += " Showing " + strconv.Itoa(p.Offset+1) + "-" + strconv.Itoa(end) + "."
		if end < total {
			msg += " To see more, call glob with offset=" + strconv.Itoa(end) + ", or narrow the pattern."
		}
	}
	return wink.OK(res, msg), nil
}
