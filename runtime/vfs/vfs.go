package vfs

import (
	"bytes"
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Filesystem is the file store tools work on. Paths are slash-separated, relative to the root ("a/b.txt");
// a leading "/" means the root; "." and "" mean the root; they are cleaned (path.Clean) and a path that
// escapes the root ("..", "../x", "a/../../x") is refused with *PathError{Op, Path, Err: ErrEscapesRoot}.
//
// Every error returned by an implementation is a *PathError whose Err wraps one of the sentinels below
// (or, for host I/O failures with no sentinel, the underlying error).
type Filesystem interface {
	// Read returns a copy of the file's content.
	Read(path string) ([]byte, error)
	// Write creates or replaces the file, creating missing parent directories.
	Write(path string, data []byte) error
	// Edit replaces exactly one occurrence of old with new, or every occurrence when replaceAll is set, and
	// returns the number of replacements. Errors: ErrNotFound, ErrNoMatch, ErrAmbiguous (the message carries
	// the count), ErrInvalid (old is empty), ErrIsDir, ErrTooLarge.
	Edit(path, old, new string, replaceAll bool) (int, error)
	// List returns the entries of a directory sorted by name.
	List(dir string) ([]Entry, error)
	// Glob returns the paths of files and directories matching pattern, sorted. Each "/"-separated
	// segment is matched with path.Match; a segment that is exactly "**" matches zero or more segments.
	Glob(pattern string) ([]string, error)
	// Stat describes one file or directory; the root is Entry{Path: ".", Name: ".", IsDir: true}.
	Stat(path string) (Entry, error)
	// Remove deletes a file, or a directory with everything below it. Removing the root is refused.
	Remove(path string) error
	// MkdirAll creates a directory and any missing parents; an existing directory is not an error.
	MkdirAll(path string) error
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

// The sentinel errors. Their texts are written for a model: each says what is wrong and what to do.
var (
	// ErrNotFound: the path does not exist.
	ErrNotFound = errors.New("no such file (use ls to see what exists)")
	// ErrExists: the path exists and the operation needs it not to (MkdirAll over a file).
	ErrExists = errors.New("already exists as a file")
	// ErrIsDir: a file operation was given a directory.
	ErrIsDir = errors.New("is a directory, not a file (use ls to list it)")
	// ErrNotDir: a directory operation, or a parent of the path, is a file.
	ErrNotDir = errors.New("not a directory (a path element is a file)")
	// ErrEscapesRoot: the path leaves the root (.., an absolute path outside it, or a symlink out).
	ErrEscapesRoot = errors.New("path escapes the workspace root (use a path relative to the root, without ..)")
	// ErrNoMatch: Edit did not find the old text.
	ErrNoMatch = errors.New("old text not found (read the file and copy the text exactly, including whitespace)")
	// ErrAmbiguous: Edit found the old text more than once and replaceAll was not set.
	ErrAmbiguous = errors.New("old text matches more than once (add surrounding lines to make it unique, or set replace_all)")
	// ErrTooLarge: the file is, or would become, larger than the filesystem's maximum file size.
	ErrTooLarge = errors.New("file too large")
	// ErrInvalid: an argument is unusable (a NUL byte in a path, an empty old text, a bad glob pattern,
	// removing the root).
	ErrInvalid = errors.New("invalid argument")
	// ErrClosed: the Host filesystem was closed.
	ErrClosed = errors.New("filesystem is closed")
)

// DefaultMaxFileSize is the largest file a filesystem reads or writes unless MaxFileSize says otherwise.
const DefaultMaxFileSize int64 = 32 << 20

// PathError records an operation, the path as the caller gave it, and the cause. errors.Is(err, ErrX)
// works on the sentinels.
type PathError struct {
	// Op is the operation: read, write, edit, ls, glob, stat, rm, mkdir, snapshot, restore.
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

func ambiguous(n int) error {
	return &reason{ErrAmbiguous, "old text matches " + strconv.Itoa(n) +
		" times (add surrounding lines to make it unique, or set replace_all to replace all " + strconv.Itoa(n) + ")"}
}

func tooLarge(size, limit int64) error {
	return &reason{ErrTooLarge, "file too large: " + strconv.FormatInt(size, 10) + " bytes, the limit is " +
		strconv.FormatInt(limit, 10) + " bytes"}
}

var (
	errNoDir      = &reason{ErrNotFound, "no such directory (use ls to see what exists)"}
	errEmptyOld   = &reason{ErrInvalid, "old text is empty (give the exact text to replace)"}
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

// HostOption is the option type of NewHost; it is the same type as Option.
type HostOption = Option

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

// MaxFileSize sets the largest file, in bytes, that Read, Write and Edit accept (default 32 MiB).
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

// editContent applies Edit's rules to content and returns the new content and the count.
func editContent(content []byte, old, new string, replaceAll bool) ([]byte, int, error) {
	if old == "" {
		return nil, 0, errEmptyOld
	}
	o := []byte(old)
	n := bytes.Count(content, o)
	switch {
	case n == 0:
		return nil, 0, ErrNoMatch
	case n > 1 && !replaceAll:
		return nil, 0, ambiguous(n)
	}
	return bytes.Replace(content, o, []byte(new), -1), n, nil
}

func indexSlash(s string) int { return strings.IndexByte(s, '/') }

func sortEntries(es []Entry) {
	slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
}

func sortStrings(ss []string) { slices.Sort(ss) }
