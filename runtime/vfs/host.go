package vfs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/winkgen/wink/runtime/txn"
)

// Host is a Filesystem over a host directory. Every operation goes through an os.Root, so ".." and
// symlinks that resolve outside the root (anywhere in the path, dangling or not) are refused with
// ErrEscapesRoot; os.Root also refuses absolute symlinks, even ones pointing inside the root. Relative
// symlinks that stay inside the root are followed.
//
// Absolute paths are host paths: one inside the root is used relative to it, any other is refused with
// ErrEscapesRoot. This differs from Memory, where a leading "/" means the root.
//
// Host is safe for concurrent use; Snapshot and Restore are serialized with each other but are not atomic
// against concurrent writers (a tool should not run while the dispatcher snapshots or restores).
type Host struct {
	txLock  txn.PartLock // the transaction lock (txn.Lockable)
	root    *os.Root
	dir     string // absolute, symlinks resolved
	given   string // absolute as given, cleaned
	maxSize int64
	backup  string // parent of the snapshot store
	maxSnap int64  // MaxSnapshotBytes

	mu    sync.Mutex // guards everything below
	store *blobStore
	index *snapState // what the tree looked like at the last Snapshot or Restore; nil before the first
	// warnings are the entries snapshots leave alone (Warnings), by path.
	warnings map[string]string
	// closed is set by Close.
	closed bool
	// Change tracking (track.go): the tracker, whether its creation was tried, whether the index is exact
	// with every change since it known to the tracker, and whether tracking is off (TrackChanges(false)).
	tr         *tracker
	trTried    bool
	tracked    bool
	noTracking bool
	// beforeStat, when set (during a snapshot's walk, under mu), is called with each regular file a walk
	// finds before the walk looks at it.
	beforeStat func(p string)
}

var (
	_ WriteFS = (*Host)(nil)
	_ GlobFS  = (*Host)(nil)
)

// NewHost returns a Filesystem over the directory root, which must exist. Options: MaxFileSize, BackupDir,
// MaxSnapshotBytes, TrackChanges.
func NewHost(root string, opts ...Option) (*Host, error) {
	o := buildOptions(opts)
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, pathErr("open", root, err)
	}
	dir, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, pathErr("open", root, mapErr(err))
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, pathErr("open", root, mapErr(err))
	}
	if !fi.IsDir() {
		return nil, pathErr("open", root, ErrNotDir)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, pathErr("open", root, mapErr(err))
	}
	backup := o.backupDir
	if backup == "" {
		backup = os.TempDir()
	}
	return &Host{root: r, dir: dir, given: filepath.Clean(abs), maxSize: o.maxFileSize, backup: backup, maxSnap: o.maxSnapshot,
		noTracking: o.noTracking}, nil
}

// Root returns the absolute, symlink-resolved host path of the root directory.
func (h *Host) Root() string { return h.dir }

// clean maps a caller's path to a cleaned root-relative path; see the Host doc for absolute paths.
func (h *Host) clean(p string) (string, error) {
	if strings.HasPrefix(p, "/") && strings.IndexByte(p, 0) < 0 {
		c := path.Clean(p)
		for _, base := range [2]string{h.dir, h.given} {
			if base == "/" {
				return Clean(c)
			}
			if c == base {
				return ".", nil
			}
			if strings.HasPrefix(c, base+"/") {
				return c[len(base)+1:], nil
			}
		}
		return "", ErrEscapesRoot
	}
	return Clean(p)
}

// isEscape reports whether err is os.Root's refusal of a path leaving the root. The os package does not
// export that error, so its text is compared (error path only).
func isEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// mapErr turns an os error into a sentinel where one fits; otherwise it returns the innermost error so the
// message does not repeat the host path.
func mapErr(err error) error {
	switch {
	case isEscape(err):
		return ErrEscapesRoot
	case errors.Is(err, fs.ErrNotExist):
		return ErrNotFound
	case errors.Is(err, syscall.ENOTDIR):
		return ErrNotDir
	case errors.Is(err, syscall.EISDIR):
		return ErrIsDir
	case errors.Is(err, fs.ErrExist):
		return ErrExists
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

func (h *Host) isClosed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// prep cleans p and checks that the filesystem is open.
func (h *Host) prep(p string) (string, error) {
	if h.isClosed() {
		return "", ErrClosed
	}
	return h.clean(p)
}

var errNotRegular = &reason{ErrInvalid, "not a regular file"}

// Read returns the file's content. The file is opened without blocking and described by what was opened
// (open.go), so a fifo, socket or device is refused at once, even one swapped in at any moment.
func (h *Host) Read(p string) ([]byte, error) {
	c, err := h.prep(p)
	if err != nil {
		return nil, pathErr("read", p, err)
	}
	f, fi, err := openFile(h.root, c, os.O_RDONLY, 0)
	if err != nil {
		return nil, pathErr("read", p, mapErr(err))
	}
	defer f.Close()
	if fi.Size() > h.maxSize {
		return nil, pathErr("read", p, tooLarge(fi.Size(), h.maxSize))
	}
	data, err := io.ReadAll(io.LimitReader(f, h.maxSize+1))
	if err != nil {
		return nil, pathErr("read", p, mapErr(err))
	}
	if int64(len(data)) > h.maxSize {
		return nil, pathErr("read", p, tooLarge(int64(len(data)), h.maxSize))
	}
	return data, nil
}

// Write creates or replaces the file (keeping an existing file's mode; new files get 0644 less the umask),
// creating missing parent directories (0755 less the umask).
func (h *Host) Write(p string, data []byte) error {
	c, err := h.prep(p)
	if err != nil {
		return pathErr("write", p, err)
	}
	if int64(len(data)) > h.maxSize {
		return pathErr("write", p, tooLarge(int64(len(data)), h.maxSize))
	}
	return h.write("write", p, c, data)
}

func (h *Host) write(op, p, c string, data []byte) error {
	if c == "." {
		return pathErr(op, p, ErrIsDir)
	}
	if dir := parentOf(c); dir != "." {
		if fi, err := h.root.Stat(dir); err == nil && !fi.IsDir() {
			return pathErr(op, p, ErrNotDir)
		}
		if err := h.root.MkdirAll(dir, 0o755); err != nil {
			return pathErr(op, p, mapErr(err))
		}
	}
	fi, err := h.root.Stat(c)
	if err == nil && fi.IsDir() {
		return pathErr(op, p, ErrIsDir)
	}
	if err == nil && fi.Mode().IsRegular() && linkCount(fi) > 1 {
		// A file with other hard links shares its inode with paths that may be outside the root: writing
		// in place would change them too, and no snapshot of the root could undo it. Write a new file
		// and rename it over the path instead, which gives this path an inode of its own.
		if lfi, lerr := h.root.Lstat(c); lerr != nil || lfi.Mode()&fs.ModeSymlink != 0 {
			return pathErr(op, p, errSharedInode)
		}
		return h.replace(op, p, c, data, fi.Mode()&modeBits)
	}
	return h.writeInPlace(op, p, c, data)
}

// writeInPlace creates the file c or truncates and rewrites the regular file there. It opens without
// blocking and checks what it opened (open.go): a fifo, socket or device found there, even one swapped in
// after the checks above, is refused at once. What it opened is truncated only once it is known to be a
// regular file.
func (h *Host) writeInPlace(op, p, c string, data []byte) error {
	f, _, err := openFile(h.root, c, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return pathErr(op, p, mapErr(err))
	}
	err = f.Truncate(0)
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return pathErr(op, p, mapErr(err))
	}
	return nil
}

var errSharedInode = &reason{ErrInvalid, "is a symlink to a file with other hard links; write to the file's own path"}

// replace writes data to a new file beside c and renames it over c, with the given mode.
func (h *Host) replace(op, p, c string, data []byte, mode fs.FileMode) error {
	tmp := joinPath(parentOf(c), "."+baseName(c)+".wink-"+randomSuffix())
	f, err := h.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return pathErr(op, p, mapErr(err))
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = h.root.Chmod(tmp, mode)
	}
	if err == nil {
		err = h.root.Rename(tmp, c)
	}
	if err != nil {
		h.root.Remove(tmp)
		return pathErr(op, p, mapErr(err))
	}
	return nil
}

func hostEntry(p string, fi fs.FileInfo) Entry {
	return Entry{Path: p, Name: baseName(p), IsDir: fi.IsDir(), Size: fi.Size(), ModTime: fi.ModTime()}
}

// List returns the directory's entries sorted by name. A symlink is described by what it points to when
// that resolves inside the root, otherwise by the link itself (IsDir false).
func (h *Host) List(dir string) ([]Entry, error) {
	c, err := h.prep(dir)
	if err != nil {
		return nil, pathErr("ls", dir, err)
	}
	f, _, err := openDir(h.root, c)
	if err != nil {
		if errors.Is(mapErr(err), ErrNotFound) {
			return nil, pathErr("ls", dir, errNoDir)
		}
		return nil, pathErr("ls", dir, mapErr(err))
	}
	des, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return nil, pathErr("ls", dir, mapErr(err))
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		p := joinPath(c, de.Name())
		var info fs.FileInfo
		if de.Type()&fs.ModeSymlink != 0 {
			info, err = h.root.Stat(p)
		} else {
			info, err = de.Info()
		}
		if err != nil {
			if info, err = h.root.Lstat(p); err != nil {
				continue // vanished meanwhile
			}
		}
		e := hostEntry(p, info)
		e.Link = de.Type()&fs.ModeSymlink != 0
		out = append(out, e)
	}
	sortEntries(out)
	return out, nil
}

// Glob returns the sorted paths of entries matching pattern (see the Glob function for the syntax). Symlinked directories are
// not descended into; unreadable directories are skipped.
func (h *Host) Glob(pattern string) ([]string, error) {
	if h.isClosed() {
		return nil, pathErr("glob", pattern, ErrClosed)
	}
	g, err := compileGlob(pattern)
	if err != nil {
		return nil, pathErr("glob", pattern, err)
	}
	var out []string
	fs.WalkDir(h.root.FS(), g.base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p != "." && g.match(p) {
			out = append(out, p)
		}
		return nil
	})
	sortStrings(out)
	return out, nil
}

// Stat describes one file or directory, following symlinks that stay inside the root.
func (h *Host) Stat(p string) (Entry, error) {
	c, err := h.prep(p)
	if err != nil {
		return Entry{}, pathErr("stat", p, err)
	}
	fi, err := h.root.Stat(c)
	if err != nil {
		return Entry{}, pathErr("stat", p, mapErr(err))
	}
	return hostEntry(c, fi), nil
}

// Remove deletes a file, or a directory and everything below it. A symlink is removed itself, never its
// target.
func (h *Host) Remove(p string) error {
	c, err := h.prep(p)
	if err != nil {
		return pathErr("rm", p, err)
	}
	if c == "." {
		return pathErr("rm", p, errRemoveRoot)
	}
	if _, err := h.root.Lstat(c); err != nil {
		return pathErr("rm", p, mapErr(err))
	}
	if err := h.root.RemoveAll(c); err != nil {
		return pathErr("rm", p, mapErr(err))
	}
	return nil
}

// MkdirAll creates a directory and any missing parents (0755 less the umask).
func (h *Host) MkdirAll(p string) error {
	c, err := h.prep(p)
	if err != nil {
		return pathErr("mkdir", p, err)
	}
	if fi, err := h.root.Stat(c); err == nil && !fi.IsDir() {
		return pathErr("mkdir", p, ErrExists)
	}
	if err := h.root.MkdirAll(c, 0o755); err != nil {
		return pathErr("mkdir", p, mapErr(err))
	}
	return nil
}

// randomSuffix names a temporary file.
func randomSuffix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// TxnLock returns the filesystem's transaction lock (txn.Lockable), which a tool call's transaction
// holds from its snapshot to its commit or restore.
func (h *Host) TxnLock() *txn.PartLock { return &h.txLock }
