package vfs

import (
	"errors"
	"sync"
	"time"
)

// Memory is an in-memory Filesystem with O(1) snapshots. It is safe for concurrent use: readers take the
// current root pointer and work on an immutable tree; writers are serialized by a mutex.
type Memory struct {
	mu      sync.Mutex
	root    *tnode
	maxSize int64
	now     func() time.Time
}

var _ Filesystem = (*Memory)(nil)

// NewMemory returns an empty in-memory filesystem. Only MaxFileSize applies to it.
func NewMemory(opts ...Option) *Memory {
	o := buildOptions(opts)
	return &Memory{maxSize: o.maxFileSize, now: time.Now}
}

func (m *Memory) load() *tnode {
	m.mu.Lock()
	r := m.root
	m.mu.Unlock()
	return r
}

// lookup returns the record at a cleaned path; the root is always a directory.
func lookup(root *tnode, p string) *mfile {
	if p == "." {
		return &mfile{dir: true}
	}
	return tget(root, p)
}

// Read returns a copy of the file's content.
func (m *Memory) Read(p string) ([]byte, error) {
	c, err := Clean(p)
	if err != nil {
		return nil, pathErr("read", p, err)
	}
	f := lookup(m.load(), c)
	switch {
	case f == nil:
		return nil, pathErr("read", p, ErrNotFound)
	case f.dir:
		return nil, pathErr("read", p, ErrIsDir)
	}
	return append([]byte(nil), f.data...), nil
}

// Write creates or replaces the file, creating missing parent directories. data is copied.
func (m *Memory) Write(p string, data []byte) error {
	c, err := Clean(p)
	if err != nil {
		return pathErr("write", p, err)
	}
	if int64(len(data)) > m.maxSize {
		return pathErr("write", p, tooLarge(int64(len(data)), m.maxSize))
	}
	stored := append([]byte(nil), data...)
	m.mu.Lock()
	defer m.mu.Unlock()
	root, err := m.putFile(m.root, c, stored)
	if err != nil {
		return pathErr("write", p, err)
	}
	m.root = root
	return nil
}

// putFile stores a file record at c, creating parents. Callers hold m.mu.
func (m *Memory) putFile(root *tnode, c string, data []byte) (*tnode, error) {
	if c == "." {
		return nil, ErrIsDir
	}
	if f := tget(root, c); f != nil && f.dir {
		return nil, ErrIsDir
	}
	now := m.now().UnixNano()
	root, err := m.mkdirs(root, parentOf(c), now)
	if err != nil {
		return nil, err
	}
	return tput(root, c, &mfile{data: data, mtime: now}), nil
}

// mkdirs creates directory c and its parents. Callers hold m.mu.
func (m *Memory) mkdirs(root *tnode, c string, now int64) (*tnode, error) {
	if c == "." {
		return root, nil
	}
	if f := tget(root, c); f != nil {
		if !f.dir {
			return nil, ErrNotDir
		}
		return root, nil // a directory's parents exist by construction
	}
	root, err := m.mkdirs(root, parentOf(c), now)
	if err != nil {
		return nil, err
	}
	return tput(root, c, &mfile{dir: true, mtime: now}), nil
}

// Edit replaces old with new in the file; see Filesystem.Edit.
func (m *Memory) Edit(p, old, new string, replaceAll bool) (int, error) {
	c, err := Clean(p)
	if err != nil {
		return 0, pathErr("edit", p, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	f := lookup(m.root, c)
	switch {
	case f == nil:
		return 0, pathErr("edit", p, ErrNotFound)
	case f.dir:
		return 0, pathErr("edit", p, ErrIsDir)
	}
	data, n, err := editContent(f.data, old, new, replaceAll)
	if err != nil {
		return 0, pathErr("edit", p, err)
	}
	if int64(len(data)) > m.maxSize {
		return 0, pathErr("edit", p, tooLarge(int64(len(data)), m.maxSize))
	}
	m.root = tput(m.root, c, &mfile{data: data, mtime: m.now().UnixNano()})
	return n, nil
}

func entryOf(p string, f *mfile) Entry {
	return Entry{Path: p, Name: baseName(p), IsDir: f.dir, Size: int64(len(f.data)), ModTime: time.Unix(0, f.mtime)}
}

// List returns the directory's entries sorted by name, in O(children * log n).
func (m *Memory) List(dir string) ([]Entry, error) {
	c, err := Clean(dir)
	if err != nil {
		return nil, pathErr("ls", dir, err)
	}
	root := m.load()
	f := lookup(root, c)
	switch {
	case f == nil:
		return nil, pathErr("ls", dir, errNoDir)
	case !f.dir:
		return nil, pathErr("ls", dir, ErrNotDir)
	}
	prefix := ""
	if c != "." {
		prefix = c + "/"
	}
	// Children come out in name order. Keys of grandchildren interleave with children ("a/b" < "a/b.txt" <
	// "a/b/c"), so a key with a further "/" means "skip the subtree of the child it belongs to", which was
	// emitted already (a key sorts before its descendants). At most two seeks per child.
	var out []Entry
	key := prefix
	for {
		k, v, ok := tseek(root, key)
		if !ok || len(k) < len(prefix) || k[:len(prefix)] != prefix {
			break
		}
		if i := indexSlash(k[len(prefix):]); i >= 0 {
			key = k[:len(prefix)+i] + "0"
			continue
		}
		out = append(out, entryOf(k, v))
		key = k + "\x00"
	}
	return out, nil
}

// Glob returns the sorted paths of entries matching pattern; see Filesystem.Glob.
func (m *Memory) Glob(pattern string) ([]string, error) {
	g, err := compileGlob(pattern)
	if err != nil {
		return nil, pathErr("glob", pattern, err)
	}
	root := m.load()
	var out []string
	lo, hi := "", ""
	if g.base != "." {
		if f := tget(root, g.base); f != nil && g.match(g.base) {
			out = append(out, g.base)
		}
		lo, hi = g.base+"/", g.base+"0"
	}
	tascend(root, lo, hi, func(k string, _ *mfile) bool {
		if g.match(k) {
			out = append(out, k)
		}
		return true
	})
	sortStrings(out)
	return out, nil
}

// Stat describes one file or directory.
func (m *Memory) Stat(p string) (Entry, error) {
	c, err := Clean(p)
	if err != nil {
		return Entry{}, pathErr("stat", p, err)
	}
	f := lookup(m.load(), c)
	if f == nil {
		return Entry{}, pathErr("stat", p, ErrNotFound)
	}
	return entryOf(c, f), nil
}

// Remove deletes a file, or a directory and everything below it, in O(log n).
func (m *Memory) Remove(p string) error {
	c, err := Clean(p)
	if err != nil {
		return pathErr("rm", p, err)
	}
	if c == "." {
		return pathErr("rm", p, errRemoveRoot)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	f := tget(m.root, c)
	if f == nil {
		return pathErr("rm", p, ErrNotFound)
	}
	root := m.root
	if f.dir {
		root = tdeleteRange(root, c+"/", c+"0")
	}
	m.root = tdeleteRange(root, c, c+"\x00")
	return nil
}

// MkdirAll creates a directory and any missing parents.
func (m *Memory) MkdirAll(p string) error {
	c, err := Clean(p)
	if err != nil {
		return pathErr("mkdir", p, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if f := tget(m.root, c); f != nil && !f.dir {
		return pathErr("mkdir", p, ErrExists)
	}
	root, err := m.mkdirs(m.root, c, m.now().UnixNano())
	if err != nil {
		return pathErr("mkdir", p, err)
	}
	m.root = root
	return nil
}

// memSnapshot is what Memory.Snapshot returns: the owner and a root pointer.
type memSnapshot struct {
	owner *Memory
	root  *tnode
}

var errForeignSnapshot = errors.New("snapshot was not taken from this filesystem")

// Snapshot captures the current tree in O(1): it returns the root pointer. The snapshot holds the tree's
// memory until it is unreachable; there is nothing to release.
func (m *Memory) Snapshot() (any, error) {
	return &memSnapshot{owner: m, root: m.load()}, nil
}

// Restore makes the tree the one captured by snap, in O(1). A snapshot from another filesystem is an error.
func (m *Memory) Restore(snap any) error {
	s, ok := snap.(*memSnapshot)
	if !ok || s == nil || s.owner != m {
		return pathErr("restore", ".", errForeignSnapshot)
	}
	m.mu.Lock()
	m.root = s.root
	m.mu.Unlock()
	return nil
}

// Release exists for symmetry with Host; a Memory snapshot needs no release (the garbage collector
// reclaims it).
func (m *Memory) Release(snap any) {}
