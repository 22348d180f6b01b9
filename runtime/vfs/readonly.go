package vfs

// ErrReadOnly: a write through a read-only view (ReadOnly).
var ErrReadOnly = &reason{ErrInvalid, "the workspace is read-only in this call (the tool is declared read-only); " +
	"use a tool that may change files"}

// ReadOnly returns a view of fs that reads through to fs and refuses every change (Write, Edit, Remove,
// MkdirAll) with a *PathError wrapping ErrReadOnly, changing nothing. The tool dispatcher hands it to
// tools declared //wink:tool readonly, which run without a snapshot and in parallel with each other.
// ReadOnly of a read-only view, or of nil, returns it unchanged.
func ReadOnly(fs Filesystem) Filesystem {
	if fs == nil {
		return nil
	}
	if r, ok := fs.(readOnly); ok {
		return r
	}
	return readOnly{fs}
}

// IsReadOnly reports whether fs is a read-only view made by ReadOnly.
func IsReadOnly(fs Filesystem) bool {
	_, ok := fs.(readOnly)
	return ok
}

type readOnly struct{ fs Filesystem }

func (r readOnly) Read(p string) ([]byte, error)         { return r.fs.Read(p) }
func (r readOnly) List(dir string) ([]Entry, error)      { return r.fs.List(dir) }
func (r readOnly) Glob(pattern string) ([]string, error) { return r.fs.Glob(pattern) }
func (r readOnly) Stat(p string) (Entry, error)          { return r.fs.Stat(p) }
func (r readOnly) Write(p string, _ []byte) error        { return pathErr("write", p, ErrReadOnly) }
func (r readOnly) Remove(p string) error                 { return pathErr("rm", p, ErrReadOnly) }
func (r readOnly) MkdirAll(p string) error               { return pathErr("mkdir", p, ErrReadOnly) }
func (r readOnly) Edit(p, _, _ string, _ bool) (int, error) {
	return 0, pathErr("edit", p, ErrReadOnly)
}
