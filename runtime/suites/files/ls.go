package files

import (
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/wink"
)

// EntryKind says whether a listed entry is a file or a directory.
type EntryKind string

// Entry kinds.
const (
	KindFile EntryKind = "file"
	KindDir  EntryKind = "dir"
)

// LsParams are the arguments of ls.
type LsParams struct {
	// Path is the directory to list, relative to the workspace root; empty or / for the root.
	Path PathOrRoot `json:"path,omitempty"`
	// Offset is the number of entries to skip.
	Offset int `json:"offset" wink:"min=0,default=0"`
	// Limit is the largest number of entries to return.
	Limit int `json:"limit" wink:"min=1,max=1000,default=200"`
}

// LsEntry is one entry of a directory.
type LsEntry struct {
	// Name is the entry's name.
	Name string `json:"name"`
	// Kind is file or dir.
	Kind EntryKind `json:"kind"`
	// Size is a file's size in bytes (0 for directories).
	Size int64 `json:"size"`
}

// LsResult is a page of a directory listing.
type LsResult struct {
	// Path is the listed directory ("/" for the root).
	Path string `json:"path"`
	// Entries are the entries shown, sorted by name.
	Entries []LsEntry `json:"entries"`
	// Total is the number of entries in the directory.
	Total int `json:"total"`
}

// Render lists one entry per line: directories with a trailing "/", files with their size.
func (r LsResult) Render() string {
	var b strings.Builder
	for i, e := range r.Entries {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Name)
		if e.Kind == KindDir {
			b.WriteByte('/')
		} else {
			b.WriteString(" (")
			b.WriteString(plural(int(e.Size), "byte", "bytes"))
			b.WriteByte(')')
		}
	}
	return b.String()
}

// Ls lists the files and directories in a directory of the workspace.
//
//wink:tool name=ls readonly
//wink:example desc="List the root" input={"path":""} output={"path":"/","entries":[{"name":"README.md","kind":"file","size":12},{"name":"src","kind":"dir","size":0}],"total":2}
func Ls(tc *wink.ToolContext, p LsParams) (wink.ToolResult[LsResult], error) {
	fs := tc.Filesystem()
	if fs == nil {
		return noFilesystem[LsResult]()
	}
	dir, shown := clean(string(p.Path))
	entries, err := fs.List(dir)
	if err != nil {
		if st, serr := fs.Stat(dir); serr == nil && !st.IsDir {
			return wink.Failure[LsResult](quote(shown) + " is a file, not a directory. Use read_file to read it."), nil
		}
		return failed[LsResult](err, shown)
	}
	total := len(entries)
	if total == 0 {
		return wink.Done[LsResult](shown + " is empty."), nil
	}
	if p.Offset >= total {
		return wink.Failure[LsResult]("Offset " + strconv.Itoa(p.Offset) + " is past the end of " + shown + ", which has " +
			plural(total, "entry", "entries") + ". Call ls with an offset below " + strconv.Itoa(total) + "."), nil
	}
	end := min(total, p.Offset+p.Limit)
	out := LsResult{Path: shown, Entries: make([]LsEntry, 0, end-p.Offset), Total: total}
	for _, e := range entries[p.Offset:end] {
		le := LsEntry{Name: e.Name, Kind: KindFile, Size: e.Size}
		if e.IsDir {
			le.Kind, le.Size = KindDir, 0
		}
		out.Entries = append(out.Entries, le)
	}
	msg := shown + " has " + plural(total, "entry", "entries") + "."
	if p.Offset > 0 || end < total {
		msg = shown + " has " + plural(total, "entry", "entries") + "; showing " + strconv.Itoa(p.Offset+1) + "-" + strconv.Itoa(end) + "."
		if end < total {
			msg += " To see more, call ls with offset=" + strconv.Itoa(end) + "."
		}
	}
	return wink.OK(out, msg), nil
}
