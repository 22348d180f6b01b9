package vfs

// errReadOnlyView is the refusal of a change through a ReadOnly view: the dispatcher hands these views to
// the tools declared read-only, so the text says so to the model that called one.
var errReadOnlyView = &reason{ErrReadOnly, "the workspace is read-only in this call (the tool is declared read-only); " +
	"use a tool that may change files"}

// ReadOnly returns a view of fs that reads through to fs and is not a WriteFS, so [Write], [Remove] and
// [MkdirAll] refuse with a *PathError wrapping ErrReadOnly, changing nothing. It is a [GlobFS] when fs
// is. The tool dispatcher hands it to tools declared //wink:tool readonly, which run without a snapshot
// and in parallel with each other. ReadOnly of a read-only view, or of nil, returns it unchanged.
func ReadOnly(fs Filesystem) Filesystem {
	if fs == nil {
		return nil
	}
	if r, ok := fs.(readOnly); ok {
		return r
	}
	return readOnly{fs}
}

type readOnly struct{ fs Filesystem }

func (r readOnly) Read(p string) ([]byte, error)         { return r.fs.Read(p) }
func (r readOnly) List(dir string) ([]Entry, error)      { return r.fs.List(dir) }
func (r readOnly) Stat(p string) (Entry, error)          { return r.fs.Stat(p) }
func (r readOnly) Glob(pattern string) ([]string, error) { return Glob(r.fs, pattern) }
