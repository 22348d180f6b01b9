package vfs

import (
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Filesystem is the core every filesystem implements: reading. Paths are slash-separated, relative to the
// root ("a/b.txt"); a leading "/" means the root; "." and "" mean the root; they are cleaned (path.Clean)
// and a path that escapes the root ("..", "../x", "a/../../x") is refused with
// *PathError{Op, Path, Err: ErrEscapesRoot}.
//
// Every error returned by an implementation is a *PathError whose Err wraps one of the sentinels below
// (or, for host I/O failures with no sentinel, the underlying error).
//
// What more a filesystem can do it says with optional interfaces, which the functions of the same name
// use: [WriteFS] ([Write], [Remove], [MkdirAll]) and [GlobFS] ([Glob]).
type Filesystem interface {
	// Read returns a copy of the file's content.
	Read(path string) ([]byte, error)
	// Stat describes one file or directory; the root is Entry{Path: ".", Name: ".", IsDir: true}.
	Stat(path string) (Entry, error)
	// List returns the entries of a directory sorted by name.
	List(dir string) ([]Entry, error)
}

// WriteFS is a Filesystem that can be changed. A Filesystem that is not a WriteFS is read-only: [Write],
// [Remove] and [MkdirAll] refuse with ErrReadOnly.
type WriteFS interface {
	Filesystem
	// Write creates or replaces the file, creating missing parent directories.
	Write(path string, data []byte) error
	// Remove deletes a file, or a directory with everything below it. Removing the root is refused.
	Remove(path string) error
	// MkdirAll creates a directory and any missing parents; an existing directory is not an error.
	MkdirAll(path string) error
}

// GlobFS is a Filesystem with its own implementation of [Glob].
type GlobFS interface {
	Filesystem
	// Glob returns the paths matching pattern, as the Glob function describes.
	Glob(pattern string) ([]string, error)
}

// Write creates or replaces the file at path with data, creating missing parent directories. It refuses
// with a *PathError wrapping ErrReadOnly, changing nothing, when fsys is not a [WriteFS].
func Write(fsys Filesystem, path string, data []byte) error {
	w, err := writable(fsys, "write", path)
	if err != nil {
		return err
	}
	return w.Write(path, data)
}

// Remove deletes a file, or a directory with everything below it. Removing the root is refused. It refuses
// with ErrReadOnly when fsys is not a [WriteFS].
func Remove(fsys Filesystem, path string) error {
	w, err := writable(fsys, "rm", path)
	if err != nil {
		return err
	}
	return w.Remove(path)
}

// MkdirAll creates a directory and any missing parents; an existing directory is not an error, a file
// there is ErrExists. It refuses with ErrReadOnly when fsys is not a [WriteFS].
func MkdirAll(fsys Filesystem, path string) error {
	w, err := writable(fsys, "mkdir", path)
	if err != nil {
		return err
	}
	return w.MkdirAll(path)
}

// writable returns fsys as a WriteFS, or the refusal of op on p.
func writable(fsys Filesystem, op, p string) (WriteFS, error) {
	if w, ok := fsys.(WriteFS); ok {
		return w, nil
	}
	if _, ok := fsys.(readOnly); ok {
		return nil, pathErr(op, p, errReadOnlyView)
	}
	return nil, pathErr(op, p, ErrReadOnly)
}

// Glob returns the sorted paths of the files and directories of fsys matching pattern. Each "/"-separated
// segment is matched with path.Match ("*" matches dot files too); a segment that is exactly "**" matches
// zero or more segments, so "src/**" includes "src" itself. A bad pattern is ErrInvalid. Glob calls
// fsys's own Glob when it is a [GlobFS]; otherwise it walks fsys with List from the pattern's literal
// prefix, skipping directories it cannot list and not descending into symbolic links (Entry.Link).
func Glob(fsys Filesystem, pattern string) ([]string, error) {
	if g, ok := fsys.(GlobFS); ok {
		return g.Glob(pattern)
	}
	g, err := compileGlob(pattern)
	if err != nil {
		return nil, pathErr("glob", pattern, err)
	}
	base, err := fsys.Stat(g.base)
	if err != nil {
		if errors.Is(err, ErrNotFound) || errors.Is(err, ErrNotDir) {
			return nil, nil
		}
		return nil, err
	}
	var out []string
	if g.base != "." && g.match(g.base) {
		out = append(out, g.base)
	}
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := fsys.List(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			p := joinPath(dir, e.Name)
			if g.match(p) {
				out = append(out, p)
			}
			if e.IsDir && !e.Link {
				walk(p)
			}
		}
	}
	if base.IsDir && !base.Link {
		walk(g.base)
	}
	sortStrings(out)
	return out, nil
}

// Entry describes one file or directory.
type Entry struct {
	// Path is the cleaned path relative to the root ("." for the root itself).
	Path string
	// Name is the last element of Path.
	Name string
	// IsDir reports whether the entry is a directory.
	IsDir bool
	// Link reports that the entry is a symbolic link (Host), described by what it points to when that
	// resolves inside the root. Walks do not descend into linked directories: a link may point back up
	// the tree, around a loop.
	Link bool
	// Size is the content length in bytes of a file (0 for directories in Memory; the host's value on Host).
	Size int64
	// ModTime is the last modification time.
	ModTime time.Time
}

// The sentinel errors. Their texts describe what is wrong; the words a model reads (what to do next) are
// the callers' to choose: the files suite (runtime/suites/files) turns each into a sentence for the model.
var (
	// ErrNotFound: the path does not exist.
	ErrNotFound = errors.New("no such file or directory")
	// ErrExists: the path exists and the operation needs it not to (MkdirAll over a file).
	ErrExists = errors.New("already exists as a file")
	// ErrIsDir: a file operation was given a directory.
	ErrIsDir = errors.New("is a directory, not a file")
	// ErrNotDir: a directory operation, or a parent of the path, is a file.
	ErrNotDir = errors.New("not a directory (a path element is a file)")
	// ErrEscapesRoot: the path leaves the root (.., an absolute path outside it, or a symlink out).
	ErrEscapesRoot = errors.New("path escapes the root")
	// ErrTooLarge: the file is, or would become, larger than the filesystem's maximum file size.
	ErrTooLarge = errors.New("file too large")
	// ErrInvalid: an argument is unusable (a NUL byte in a path, a bad glob pattern, removing the root).
	ErrInvalid = errors.New("invalid argument")
	// ErrReadOnly: a change to a filesystem that is not a WriteFS, such as a ReadOnly view.
	ErrReadOnly = errors.New("read-only filesystem")
	// ErrClosed: the Host filesystem was closed.
	ErrClosed = errors.New("filesystem is closed")
)

// DefaultMaxFileSize is the largest file a filesystem reads or writes unless MaxFileSize says otherwise.
const DefaultMaxFileSize int64 = 32 << 20

// PathError records an operation, the path as the caller gave it, and the cause. errors.Is(err, ErrX)
// works on the sentinels.
type PathError struct {
	// Op is the operation: read, write, ls, glob, stat, rm, mkdir, snapshot, restore.
	Op string
	// Path is the path as given by the caller.
	Path string
	// Err is the cause: a sentinel, or an error wrapping one.
	Err error
}

// Error returns `op "path": reason`, for example `read "src/x.go": no such file (use ls to see what exists)`.
func (e *PathError) Error() string {
	return e.Op + " " + strconv.Quote(e.Path) + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *PathError) Unwrap() error { return e.Err }

// reason is a cause with a specific text that still matches its sentinel with errors.Is.
type reason struct {
	base error
	text string
}

func (r *reason) Error() string { return r.text }
func (r *reason) Unwrap() error { return r.base }

func pathErr(op, p string, err error) error { return &PathError{Op: op, Path: p, Err: err} }

func tooLarge(size, limit int64) error {
	return &reason{ErrTooLarge, "file too large: " + strconv.FormatInt(size, 10) + " bytes, the limit is " +
		strconv.FormatInt(limit, 10) + " bytes"}
}

var (
	errNoDir      = &reason{ErrNotFound, "no such directory"}
	errRemoveRoot = &reason{ErrInvalid, "cannot remove the root directory"}
	errNUL        = &reason{ErrInvalid, "path contains a NUL byte"}
)

// Clean turns a caller's path into the canonical relative form used as a key: "." for the root, otherwise
// a path.Clean'ed relative path with no leading "/" and no ".." element. A leading "/" means the root.
// The error is ErrEscapesRoot or ErrInvalid (not wrapped in a PathError).
func Clean(p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", errNUL
	}
	p = strings.TrimLeft(p, "/")
	if p == "" {
		return ".", nil
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", ErrEscapesRoot
	}
	return c, nil
}

// Option configures NewMemory and NewHost.
type Option func(*options)

type options struct {
	maxFileSize int64
	backupDir   string
	maxSnapshot int64
	noTracking  bool
}

func buildOptions(opts []Option) options {
	o := options{maxFileSize: DefaultMaxFileSize, maxSnapshot: DefaultMaxSnapshotBytes}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// MaxFileSize sets the largest file, in bytes, that Read and Write accept (default 32 MiB).
// n <= 0 keeps the default.
func MaxFileSize(n int64) Option {
	return func(o *options) {
		if n > 0 {
			o.maxFileSize = n
		}
	}
}

// BackupDir sets the directory under which a Host keeps its snapshot store (default: os.TempDir()).
// It must not be inside the Host's root.
func BackupDir(dir string) Option { return func(o *options) { o.backupDir = dir } }

// DefaultMaxSnapshotBytes is how many bytes of file content one Host snapshot may copy unless
// MaxSnapshotBytes says otherwise.
const DefaultMaxSnapshotBytes int64 = 1 << 30

// MaxSnapshotBytes caps the bytes of file content one Host snapshot copies into its store (files that did
// not change since the previous snapshot share their copy and cost nothing; the holes of sparse files cost
// nothing). A snapshot over the cap fails with an error naming the file that crossed it. n <= 0 keeps the
// default.
func MaxSnapshotBytes(n int64) Option {
	return func(o *options) {
		if n > 0 {
			o.maxSnapshot = n
		}
	}
}

// baseName returns the last element of a cleaned path ("." for the root).
func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// parentOf returns the parent of a cleaned path ("." for top-level entries).
func parentOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// joinPath joins a cleaned directory and a name.
func joinPath(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

func indexSlash(s string) int { return strings.IndexByte(s, '/') }

func sortEntries(es []Entry) {
	slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
}

func sortStrings(ss []string) { slices.Sort(ss) }
