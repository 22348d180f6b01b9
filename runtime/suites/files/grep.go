package files

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// GrepParams are the arguments of grep.
type GrepParams struct {
	// Pattern is an RE2 regular expression matched against each line; start it with (?i) to ignore case.
	Pattern string `json:"pattern" wink:"minLength=1,maxLength=1000"`
	// Path is the directory to search below, or a single file; empty or / for the workspace root.
	Path PathOrRoot `json:"path,omitempty"`
	// Glob keeps only the files whose paths, relative to path, match this glob pattern (like **/*.go).
	Glob string `json:"glob,omitempty" wink:"maxLength=1297,pattern='[ -~]+'"`
	// Offset is the number of matches to skip.
	Offset int `json:"offset" wink:"min=0,default=0"`
	// Limit is the largest number of matches to return.
	Limit int `json:"limit" wink:"min=1,max=1000,default=200"`
}

// GrepMatch is one matching line.
type GrepMatch struct {
	// Path is the file, relative to the workspace root.
	Path string `json:"path"`
	// Line is the line number, from 1.
	Line int `json:"line"`
	// Text is the line (cut when longer than the line limit).
	Text string `json:"text"`
}

// GrepResult is a page of matching lines.
type GrepResult struct {
	// Matches are the matching lines, by path, then line.
	Matches []GrepMatch `json:"matches"`
	// More reports that there are matches after this page.
	More bool `json:"more"`
	// Skipped counts the files not searched because they are not UTF-8 text, are too large, or could not
	// be read (a directory or file without permission, a link that leaves the workspace or leads nowhere).
	Skipped int `json:"skipped"`
}

// Render writes one "path:line: text" line per match.
func (r GrepResult) Render() string {
	var b strings.Builder
	for i, m := range r.Matches {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(m.Path)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(m.Line))
		b.WriteString(": ")
		b.WriteString(m.Text)
	}
	return b.String()
}

// Grep searches the lines of text files for an RE2 regular expression and returns path:line: text matches.
//
//wink:tool name=grep readonly
//wink:example desc="Find TODOs in Go files" input={"pattern":"TODO","glob":"**/*.go"} output={"matches":[{"path":"main.go","line":3,"text":"// TODO: log"}],"more":false,"skipped":0}
func Grep(tc *wink.ToolContext, p GrepParams) (wink.ToolResult[GrepResult], error) {
	fs := tc.Filesystem()
	if fs == nil {
		return noFilesystem[GrepResult]()
	}
	re, err := regexp.Compile(p.Pattern)
	if err != nil {
		return wink.Failure[GrepResult]("Invalid regular expression " + strconv.Quote(p.Pattern) + ": " + err.Error() +
			". Fix the pattern (RE2 syntax: no lookaround, no backreferences; escape literal characters such as ( [ . with \\) and call grep again."), nil
	}
	base, shownBase := clean(string(p.Path))
	st, err := fs.Stat(base)
	if err != nil {
		return failed[GrepResult](err, shownBase)
	}
	var files []string
	var unreadable int
	var firstProblem string
	truncatedWalk := false
	switch {
	case !st.IsDir:
		files = []string{base}
	case p.Glob != "":
		matches, err := vfs.Glob(fs, join(base, p.Glob))
		if err != nil {
			return failed[GrepResult](err, join(base, p.Glob))
		}
		for _, m := range matches {
			if e, err := fs.Stat(m); err == nil && !e.IsDir {
				files = append(files, m)
			}
		}
	default:
		var w walker
		if files, err = w.walk(tc, fs, base, files, true); err != nil {
			return failed[GrepResult](err, shownBase)
		}
		unreadable, firstProblem = w.unreadable, w.first
		truncatedWalk = w.truncated
	}
	res := GrepResult{Matches: []GrepMatch{}, Skipped: unreadable}
	seen, outBytes := 0, 0
search:
	for _, f := range files {
		if err := tc.Err(); err != nil {
			return wink.ToolResult[GrepResult]{}, err
		}
		data, err := fs.Read(f)
		if err != nil {
			if !errors.Is(err, vfs.ErrTooLarge) {
				unreadable++
				if firstProblem == "" {
					firstProblem = err.Error()
				}
			}
			res.Skipped++
			continue
		}
		if !utf8.Valid(data) {
			res.Skipped++
			continue
		}
		rest := string(data)
		for n := 1; rest != ""; n++ {
			line, after, _ := strings.Cut(rest, "\n")
			rest = after
			if !re.MatchString(line) {
				continue
			}
			seen++
			if seen <= p.Offset {
				continue
			}
			text, _ := cutLine(line)
			size := len(f) + len(text) + 16
			if len(res.Matches) == p.Limit || (len(res.Matches) > 0 && outBytes+size > MaxOutputBytes) {
				res.More = true
				break search
			}
			outBytes += size
			res.Matches = append(res.Matches, GrepMatch{Path: f, Line: n, Text: text})
		}
	}
	where := " in " + shownBase
	if base == "." {
		where = ""
	}
	skipped := ""
	if n := res.Skipped - unreadable; n > 0 {
		skipped = " Skipped " + plural(n, "file", "files") + " that are not UTF-8 text or are too large."
	}
	if unreadable > 0 {
		skipped += " Could not read " + plural(unreadable, "file or directory", "files or directories") + " (first: " + firstProblem + ")."
	}
	if truncatedWalk {
		skipped += " Searched only the first " + strconv.Itoa(MaxWalkEntries) + " files; narrow the path or use a glob."
	}
	if len(res.Matches) == 0 {
		if p.Offset > 0 && seen > 0 {
			return wink.Failure[GrepResult]("Offset " + strconv.Itoa(p.Offset) + " is past the end of the " + plural(seen, "match", "matches") +
				". Call grep with an offset below " + strconv.Itoa(seen) + "."), nil
		}
		return wink.Done[GrepResult]("No lines match " + strconv.Quote(p.Pattern) + where + " (" + plural(len(files), "file", "files") +
			" searched)." + skipped), nil
	}
	msg := plural(len(res.Matches), "match", "matches") + " for " + strconv.Quote(p.Pattern) + where
	if p.Offset > 0 {
		msg += " (after skipping " + strconv.Itoa(p.Offset) + ")"
	}
	msg += "."
	if res.More {
		msg += " There are more matches: call grep with offset=" + strconv.Itoa(p.Offset+len(res.Matches)) + " to see them, or narrow the pattern, path or glob."
	}
	msg += skipped
	return wink.OK(res, msg), nil
}

// MaxWalkEntries bounds the files one grep walk collects.
const MaxWalkEntries = 100_000

// walker collects the files below a directory, depth first in name order, without descending into
// linked directories (a link can point back up the tree, around a loop, or out of it), counting what it
// cannot read instead of failing, and stopping at MaxWalkEntries.
type walker struct {
	unreadable int
	first      string
	truncated  bool
}

func (w *walker) walk(tc *wink.ToolContext, fs vfs.Filesystem, dir string, files []string, top bool) ([]string, error) {
	entries, err := fs.List(dir)
	if err != nil {
		if top {
			return files, err
		}
		w.unreadable++
		if w.first == "" {
			w.first = err.Error()
		}
		return files, nil
	}
	for _, e := range entries {
		if err := tc.Err(); err != nil {
			return files, err
		}
		if len(files) >= MaxWalkEntries {
			w.truncated = true
			return files, nil
		}
		if e.IsDir {
			if e.Link {
				continue
			}
			if files, err = w.walk(tc, fs, e.Path, files, false); err != nil {
				return files, err
			}
			continue
		}
		files = append(files, e.Path)
	}
	return files, nil
}
