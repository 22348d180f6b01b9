package vfs

// Design.
//
// Host goes through os.Root, which refuses ".." and symlinks resolving outside the root anywhere in the
// path (dangling ones included) and also absolute symlinks. Snapshots live in a store created with
// os.MkdirTemp under BackupDir (default os.TempDir(), refused when inside the root). A snapshot is a
// manifest of every path (kind, mode bits, mtime, symlink target, content blob). Files are copied into the
// store only when their stat signature (device, inode, size, mtime ns, ctime ns, mode) differs from the
// previous Snapshot's or Restore's record, like git's index; files whose ctime lies within 100 ms (2 s on
// whole-second filesystems) of the signature's stat are "racy" and compared by content instead of trusted.
// Cost: Snapshot = lstat walk O(files) + O(changed bytes) copied; Restore = lstat walk + O(changed bytes)
// written (new paths removed, changed files recreated from the store with mode and mtime, deleted paths
// recreated, directory modes and mtimes put back). Hard links: the files of a snapshot with several links
// are grouped by inode (device and number at the snapshot; their names captured by one snapshot share one
// copy); Restore gives each group one inode again: the inode that still holds one of its names when it is
// the group's own (its content rewritten in place when it changed, so that names outside the root are put
// back too), else the first name recreated, the others linked to it (restorer.group, visitFile). A path
// kept by its content must be the inode recorded or an inode with no other name, so a path that came to
// share an inode (ln -f, mv of a linked name) gets its own back. Limits: ownership and atime are not
// restored; fifos, sockets and devices are left alone (never removed, never recreated); a change that
// keeps size, mtime and ctime identical (clock set back, other tools that forge ctime) is not seen; Snapshot
// and Restore are not atomic against writers running at the same time. Outside Linux no signature is
// available and every file is compared by content.
//
// Storage: a blob is reference-counted by the snapshots (and the latest index) that use it. Release(snap)
// frees a snapshot's share at once; a snapshot that becomes unreachable is released by runtime.AddCleanup;
// Close deletes the whole store. Memory has a Release that does nothing, for symmetry.

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Entry kinds in a host snapshot.
const (
	kindDir uint8 = iota + 1
	kindFile
	kindLink
	kindOther // fifo, socket, device: recorded so Restore leaves it alone; never copied or recreated
)

// modeBits are the mode bits a snapshot records and Restore re-applies.
const modeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// racyWindow: a file whose ctime is within this window before the stat that produced its signature (or
// later) could still change without its signature changing (timestamps come from a coarse kernel clock),
// so its signature is not trusted and its content is compared instead (git's "racy clean" rule).
const (
	racyWindow       = 100 * time.Millisecond
	racyWindowCoarse = 2 * time.Second // for filesystems with whole-second timestamps
)

// sig is a file's stat signature. Any write, truncate, chmod, rename-over or replacement changes ctime (or
// the inode), so an equal, trusted signature means an unchanged file.
type sig struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64
	mode         uint32
}

func trustedAt(s sig, ok bool, t time.Time) bool {
	if !ok {
		return false
	}
	w := racyWindow
	if s.ctime%1e9 == 0 && s.mtime%1e9 == 0 {
		w = racyWindowCoarse
	}
	return s.ctime < t.Add(-w).UnixNano()
}

// blob is one stored file content in the snapshot store.
type blob struct {
	id   uint64
	size int64
	mark uint64 // the last sweep that found it in a live state
}

// hentry is one path of a host snapshot. Immutable once its snapState is published.
type hentry struct {
	path    string
	kind    uint8
	mode    fs.FileMode // modeBits only
	mtime   time.Time
	sig     sig // kindFile
	trusted bool
	blob    *blob  // kindFile
	link    string // kindLink
	// sealed marks a file or directory this user can neither read nor change (another user's, without
	// read permission for us): it is recorded but not copied, and Restore leaves it and what is below it
	// alone. Host.Warnings lists them.
	sealed bool
	// multi marks a file with more than one hard link: a write through a link outside the root raises no
	// event under it, so change tracking re-examines such files at every Snapshot and Restore.
	multi bool
}

// snapState is a full description of the tree, in walk order (parents before children; cmpWalk).
type snapState struct {
	entries seq
	byPath  map[string]*hentry // nil for a state built from changes: lookup searches entries
	multi   []*hentry          // the files with more than one hard link, in walk order
	holders int                // snapshot handles plus the index
}

// hostSnapshot is what Host.Snapshot returns.
type hostSnapshot struct{ h *snapHandle }

// snapHandle is the part the cleanup sees; it must not point to the hostSnapshot.
type snapHandle struct {
	owner    *Host
	st       *snapState
	released bool
}

// blobStore is a directory outside the root holding content copies named by id.
type blobStore struct {
	dir    string
	nextID uint64
	// Storage is reclaimed by sweeps (sweep): blobs lists every copy on disk; live the states held by a
	// snapshot or as the index; garbage is set when a state stops being held; pending counts the copies
	// (and their bytes) made since the last sweep, which the next sweep's cost is charged to.
	blobs        []*blob
	live         []*snapState
	garbage      bool
	pending      int
	pendingBytes int64
	gen          uint64
}

func (b *blobStore) path(id uint64) string { return filepath.Join(b.dir, strconv.FormatUint(id, 10)) }

var (
	errClosedSnap   = errors.New("snapshot was released")
	errBackupInside = errors.New("the snapshot store would be inside the root; pass vfs.BackupDir with a directory outside it")
)

// ensureStore creates the snapshot store on first use. Callers hold h.mu.
func (h *Host) ensureStore() error {
	if h.store != nil {
		return nil
	}
	parent, err := filepath.Abs(h.backup)
	if err != nil {
		return err
	}
	if r, err := filepath.EvalSymlinks(parent); err == nil {
		parent = r
	}
	if parent == h.dir || strings.HasPrefix(parent, h.dir+"/") || h.dir == "/" {
		return errBackupInside
	}
	dir, err := os.MkdirTemp(parent, "wink-vfs-")
	if err != nil {
		return err
	}
	h.store = &blobStore{dir: dir}
	return nil
}

// retain and release count the holders of st (the index, snapshot handles). Callers hold h.mu.
func (h *Host) retain(st *snapState) {
	st.holders++
	if st.holders == 1 && h.store != nil {
		h.store.live = append(h.store.live, st)
	}
}

func (h *Host) release(st *snapState) {
	if st == nil {
		return
	}
	st.holders--
	if st.holders > 0 || h.store == nil {
		return
	}
	b := h.store
	if i := slices.Index(b.live, st); i >= 0 {
		b.live = slices.Delete(b.live, i, i+1)
	}
	b.garbage = true
	h.maybeSweep()
}

// Reclaiming storage. A copy may be shared by every snapshot of a file that did not change, so counting
// references per copy would cost a pass over the whole tree at every Snapshot and Release (what change
// tracking exists to avoid). Instead a sweep marks the copies the live states use and deletes the rest;
// it costs O(files × live states), so it runs when the tree is small (promptly, as reference counting
// would) and otherwise once the copies made since the previous sweep number an eighth of the tree's files
// or hold sweepBytes: its cost is then paid for by the copying it follows, and the storage of released
// snapshots waits at most that long.
const sweepBytes = 64 << 20 // content copied since the last sweep that triggers one

// sweepSmall: trees up to this many entries are swept at every release (a variable for tests).
var sweepSmall = 4096

// maybeSweep sweeps when a state was released and the sweep's cost is due (see above). Callers hold h.mu.
func (h *Host) maybeSweep() {
	b := h.store
	if b == nil || !b.garbage {
		return
	}
	n := 0
	if h.index != nil {
		n = h.index.entries.len()
	}
	if n <= sweepSmall || b.pending*8 >= n || b.pendingBytes >= sweepBytes {
		h.sweep()
	}
}

// sweep deletes every stored copy no live state uses. Callers hold h.mu.
func (h *Host) sweep() {
	b := h.store
	b.gen++
	for _, st := range b.live {
		for _, ch := range st.entries.chunks {
			if ch.mark == b.gen {
				continue // shared with a state already visited
			}
			ch.mark = b.gen
			for _, e := range ch.e {
				if e.blob != nil {
					e.blob.mark = b.gen
				}
			}
		}
	}
	kept := b.blobs[:0]
	for _, bl := range b.blobs {
		if bl.mark == b.gen {
			kept = append(kept, bl)
		} else {
			os.Remove(b.path(bl.id))
		}
	}
	clear(b.blobs[len(kept):])
	b.blobs = kept
	b.garbage, b.pending, b.pendingBytes = false, 0, 0
}

// setIndex makes st the index. Callers hold h.mu.
func (h *Host) setIndex(st *snapState) {
	h.retain(st)
	h.release(h.index)
	h.index = st
}

// Snapshot records the whole tree under the root so that Restore can roll back every later change, made by
// this process or any other. Cost with change tracking (Linux, the default): the paths that changed since
// the previous Snapshot or Restore are examined (O(changes) system calls) and every file among them whose
// stat signature changed is copied (O(changed bytes)); the description of the tree is rebuilt in memory
// (one copy of its pointer slice; the unchanged entries are not visited). Without tracking (other platforms, TrackChanges(false), or
// after the kernel dropped events) it is one lstat walk of the tree (O(files)). Unchanged files share the
// stored copy. The snapshot's storage is freed by Release, or when the snapshot becomes unreachable, or by
// Close.
func (h *Host) Snapshot() (any, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, pathErr("snapshot", ".", ErrClosed)
	}
	if err := h.ensureStore(); err != nil {
		return nil, pathErr("snapshot", ".", err)
	}
	start := time.Now()
	c := &capturer{h: h, start: start, budget: h.maxSnap}
	var st *snapState
	var err error
	if h.trackReady() {
		st, err = h.snapshotTracked(c)
		if errors.Is(err, errTrackingLost) {
			for _, b := range c.created {
				os.Remove(h.store.path(b.id))
			}
			c = &capturer{h: h, start: start, budget: h.maxSnap}
			st, err = h.snapshotWalk(c)
		}
	} else {
		st, err = h.snapshotWalk(c)
	}
	if err != nil {
		for _, b := range c.created {
			os.Remove(h.store.path(b.id))
		}
		h.untrack()
		var ue *unreadableError
		if errors.As(err, &ue) {
			return nil, pathErr("snapshot", ".", ue)
		}
		return nil, pathErr("snapshot", ".", mapErr(err))
	}
	for _, b := range c.created {
		h.store.blobs = append(h.store.blobs, b)
		h.store.pendingBytes += b.size
	}
	h.store.pending += len(c.created)
	h.retain(st) // the handle's hold first, so that setIndex's release of the old index sees st live
	h.setIndex(st)
	hd := &snapHandle{owner: h, st: st}
	snap := &hostSnapshot{h: hd}
	runtime.AddCleanup(snap, func(hd *snapHandle) { hd.owner.releaseHandle(hd) }, hd)
	return snap, nil
}

// snapshotWalk describes the tree by walking all of it, (re)arming change tracking as it goes: a watch is
// added to each directory before it is listed, so what changes after the listing is an event.
func (h *Host) snapshotWalk(c *capturer) (*snapState, error) {
	if tr := h.tracker(); tr != nil {
		tr.arm()
		c.watch = true
		h.beforeStat = c.beforeWatch
		defer func() { h.beforeStat = nil }()
	}
	st := &snapState{byPath: map[string]*hentry{}}
	c.byPath = st.byPath
	err := h.walkDenied(c.visit, c.denied)
	if err != nil {
		return nil, err
	}
	st.entries = newSeq(c.out)
	for _, e := range c.out {
		if e.multi {
			st.multi = append(st.multi, e)
		}
	}
	h.tracked = h.tr != nil && !h.tr.broken
	return st, nil
}

// capturer builds the entries of a snapshot from walked paths.
type capturer struct {
	h       *Host
	start   time.Time
	budget  int64
	created []*blob
	out     []*hentry
	byPath  map[string]*hentry // the entries captured, by path
	watch   bool               // add a change-tracking watch to each directory and file visited
	// prewatched is the last file the walk watched before its look (beforeWatch): visit need not.
	prewatched string
	inodes     map[sig]*hentry // the first entry captured of each file with several links
}

func (c *capturer) add(e *hentry) {
	c.out = append(c.out, e)
	if c.byPath == nil {
		c.byPath = map[string]*hentry{}
	}
	c.byPath[e.path] = e
}

// visit records p; it is the walk's callback.
func (c *capturer) visit(p string, fi fs.FileInfo) (bool, error) {
	h := c.h
	e := &hentry{path: p, mode: fi.Mode() & modeBits, mtime: fi.ModTime()}
	switch {
	case fi.IsDir():
		e.kind = kindDir
		if c.watch {
			h.tr.watch(h.dir+"/"+p, p)
		}
	case fi.Mode()&fs.ModeSymlink != 0:
		e.kind = kindLink
		t, err := h.root.Readlink(p)
		if err != nil {
			return false, err
		}
		e.link = t
	case fi.Mode().IsRegular():
		e.kind = kindFile
		if c.watch && c.prewatched != p {
			// Watch the inode before looking at it, then look again: a change after the look is an event.
			// (A walk watches a file before its first look: see snapshotWalk.)
			if err := h.watchFile(p, fi); err != nil {
				return false, err
			}
			nfi, err := h.root.Lstat(p)
			if err != nil {
				return false, nil // gone meanwhile: its parent's watch saw it go
			}
			if !nfi.Mode().IsRegular() {
				return c.visit(p, nfi) // replaced meanwhile
			}
			fi = nfi
			e.mode, e.mtime = fi.Mode()&modeBits, fi.ModTime()
		}
		e.multi = linkCount(fi) > 1
		if e.multi {
			// The names of one inode captured by this snapshot share one copy (and restore as one inode).
			if s, ok := sigOf(fi); ok {
				if o := c.inodes[s]; o != nil {
					e.sig, e.blob, e.trusted = o.sig, o.blob, o.trusted
					break
				}
			}
		}
		if err := h.captureFile(e, fi, c.start, &c.created, &c.budget); err != nil {
			if !errors.Is(err, fs.ErrPermission) {
				return false, err
			}
			c.add(e)
			return false, c.denied(p, fi, err)
		}
	default:
		e.kind = kindOther
	}
	if e.multi && e.blob != nil {
		if c.inodes == nil {
			c.inodes = map[sig]*hentry{}
		}
		if _, ok := c.inodes[e.sig]; !ok {
			c.inodes[e.sig] = e
		}
	}
	c.add(e)
	return e.kind == kindDir, nil
}

// watchFile adds the change-tracking watch of the regular file p. A file whose mode forbids this user to
// read it is made readable for the moment (as openForRead does); one that cannot be (another user's) is
// left unwatched, as the snapshot leaves it alone (sealed) or fails naming it.
func (h *Host) watchFile(p string, fi fs.FileInfo) error {
	err := h.tr.watchFile(h.dir+"/"+p, p)
	if err == nil {
		return nil
	}
	mode := fi.Mode() & modeBits
	if h.root.Chmod(p, mode|0o400) != nil {
		return nil
	}
	err = h.tr.watchFile(h.dir+"/"+p, p)
	h.root.Chmod(p, mode)
	if err != nil {
		h.tr.broken = true
	}
	return nil
}

// beforeWatch is the walk's hook before it looks at a regular file: the file's watch is added first, so
// that the walk's look is the one after the watch. Where it cannot be (no permission), visit tries again.
func (c *capturer) beforeWatch(p string) {
	if c.h.tr.watchFile(c.h.dir+"/"+p, p) == nil {
		c.prewatched = p
	}
}

// denied handles an entry that cannot be read: sealed when this user cannot change it either, else fatal.
func (c *capturer) denied(p string, fi fs.FileInfo, cause error) error {
	if c.h.mayChange(p, fi.IsDir()) {
		return &unreadableError{path: p, dir: fi.IsDir(), cause: cause}
	}
	if e := c.byPath[p]; e != nil {
		e.sealed, e.blob = true, nil
	}
	c.h.warn(p, fi.IsDir())
	return nil
}

// captureFile fills e's signature and blob, reusing the index's blob when the file is unchanged.
func (h *Host) captureFile(e *hentry, fi fs.FileInfo, start time.Time, created *[]*blob, budget *int64) error {
	s, ok := sigOf(fi)
	if prev := h.index.lookup(e.path); prev != nil && prev.kind == kindFile && prev.blob != nil && ok && prev.sig == s {
		if prev.trusted || h.sameContent(e.path, prev.blob) {
			e.sig, e.blob, e.trusted = s, prev.blob, trustedAt(s, ok, start)
			return nil
		}
	}
	f, err := h.openForRead(e.path, fi)
	if err != nil {
		return err
	}
	defer f.Close()
	before, err := f.Stat()
	if err != nil {
		return err
	}
	b := &blob{id: h.store.nextID}
	h.store.nextID++
	dst, err := os.OpenFile(h.store.path(b.id), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	n, data, err := copyFile(dst, f, before.Size(), *budget)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(h.store.path(b.id))
		if errors.Is(err, errBudget) {
			return &snapshotCapError{path: e.path, limit: h.maxSnap}
		}
		return err
	}
	*budget -= data
	*created = append(*created, b)
	after, err := f.Stat()
	if err != nil {
		return err
	}
	b.size = n
	s1, ok1 := sigOf(before)
	s2, ok2 := sigOf(after)
	e.sig, e.blob = s2, b
	// A file that changed while it was copied is never trusted: the next Restore compares its content.
	e.trusted = ok1 && ok2 && s1 == s2 && s2.size == n && trustedAt(s2, true, start)
	return nil
}

// openForRead opens a regular file, making it readable for the copy if its mode forbids reading.
// It never blocks on a fifo or device swapped in after the walk looked (open.go): that is an error.
func (h *Host) openForRead(p string, fi fs.FileInfo) (*os.File, error) {
	f, _, err := openFile(h.root, p, os.O_RDONLY, 0)
	if err == nil || !errors.Is(err, fs.ErrPermission) {
		return f, notRegularAt(p, err)
	}
	mode := fi.Mode() & modeBits
	if cerr := h.root.Chmod(p, mode|0o400); cerr != nil {
		return nil, err
	}
	f, _, err = openFile(h.root, p, os.O_RDONLY, 0)
	h.root.Chmod(p, mode) // the ctime change makes the entry untrusted, which is safe
	return f, notRegularAt(p, err)
}

// notRegularAt names the path in openFile's refusal of an entry that stopped being a regular file between
// a walk's look and the open (other errors are returned as they are).
func notRegularAt(p string, err error) error {
	if errors.Is(err, errNotRegular) || errors.Is(err, ErrIsDir) {
		return &reason{ErrInvalid, strconv.Quote(p) + " stopped being a regular file while it was being opened (a fifo, device, socket or directory was put in its place)"}
	}
	return err
}

func (st *snapState) lookup(p string) *hentry {
	if st == nil {
		return nil
	}
	if st.byPath != nil {
		return st.byPath[p]
	}
	i, ok := st.entries.search(p)
	if !ok {
		return nil
	}
	return st.entries.at(i)
}

// sameContent reports whether the file at p holds exactly the blob's bytes.
func (h *Host) sameContent(p string, b *blob) bool {
	f, _, err := openFile(h.root, p, os.O_RDONLY, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	g, err := os.Open(h.store.path(b.id))
	if err != nil {
		return false
	}
	defer g.Close()
	var x, y [32 << 10]byte
	for {
		n, err1 := io.ReadFull(f, x[:])
		m, err2 := io.ReadFull(g, y[:])
		if n != m || !bytes.Equal(x[:n], y[:m]) {
			return false
		}
		end1 := err1 == io.EOF || err1 == io.ErrUnexpectedEOF
		end2 := err2 == io.EOF || err2 == io.ErrUnexpectedEOF
		if end1 || end2 {
			return end1 && end2
		}
		if err1 != nil || err2 != nil {
			return false
		}
	}
}

// walk visits the root and every path below it in depth-first, name order, without following symlinks.
// f returns whether to descend into a directory. A directory whose mode forbids reading is made readable
// for the listing and put back.
func (h *Host) walk(f func(p string, fi fs.FileInfo) (bool, error)) error {
	return h.walkDenied(f, nil)
}

// walkDenied is walk where a directory that cannot be listed for lack of permission (after trying to
// make it readable) is handed to denied: nil skips what is below it, an error stops the walk.
func (h *Host) walkDenied(f func(p string, fi fs.FileInfo) (bool, error), denied func(string, fs.FileInfo, error) error) error {
	fi, err := h.root.Lstat(".")
	if err != nil {
		return err
	}
	return h.walkAt(".", fi, f, denied)
}

func (h *Host) walkAt(p string, fi fs.FileInfo, f func(string, fs.FileInfo) (bool, error), denied func(string, fs.FileInfo, error) error) error {
	descend, err := f(p, fi)
	if err != nil || !descend {
		return err
	}
	des, opened, err := h.readDir(p, fi)
	if err != nil && denied != nil && errors.Is(err, fs.ErrPermission) {
		return denied(p, fi, err)
	}
	if err != nil {
		return err
	}
	if opened {
		// What is below is reached through p: it stays open to this user until the walk leaves it.
		defer h.root.Chmod(p, fi.Mode()&modeBits)
	}
	for _, de := range des {
		cp := joinPath(p, de.Name())
		if h.beforeStat != nil && de.Type().IsRegular() {
			h.beforeStat(cp)
		}
		cfi, err := de.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed during the walk
		}
		if err != nil {
			return err
		}
		if err := h.walkAt(cp, cfi, f, denied); err != nil {
			return err
		}
	}
	return nil
}

// readDir lists the directory p. When this user may not list it but may change its mode (its own
// directory, left without permission), it gives itself read and search permission: opened reports it,
// and the caller puts fi's mode back once it has visited what is below (reaching those needs the search
// permission too).
func (h *Host) readDir(p string, fi fs.FileInfo) (des []fs.DirEntry, opened bool, err error) {
	des, err = h.readDirOnce(p)
	if err != nil && errors.Is(err, fs.ErrPermission) {
		mode := fi.Mode() & modeBits
		if h.root.Chmod(p, mode|0o700) == nil {
			des, err = h.readDirOnce(p)
			if err != nil {
				h.root.Chmod(p, mode)
				return nil, false, err
			}
			return des, true, nil
		}
	}
	return des, false, err
}

func (h *Host) readDirOnce(p string) ([]fs.DirEntry, error) {
	d, _, err := openDir(h.root, p)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	des, err := d.ReadDir(-1)
	slices.SortFunc(des, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return des, err
}

// Release frees the storage only snap references: at once in a tree of up to 4,096 entries, otherwise at
// the next sweep, which runs once the copies made since the previous one number an eighth of the tree's
// files or hold 64 MiB (a sweep visits every entry of the live snapshots, so its cost is spread over the
// copying that made it due). Releasing twice, or a snapshot of another filesystem, does nothing. A
// released snapshot cannot be restored.
func (h *Host) Release(snap any) {
	s, ok := snap.(*hostSnapshot)
	if !ok || s == nil || s.h.owner != h {
		return
	}
	h.releaseHandle(s.h)
}

func (h *Host) releaseHandle(hd *snapHandle) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if hd.released || h.closed {
		hd.released = true
		return
	}
	hd.released = true
	h.release(hd.st)
}

// Close deletes the snapshot store and closes the root. Snapshots cannot be restored afterwards and every
// operation fails with ErrClosed.
func (h *Host) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	h.closed = true
	h.tr.close()
	var err error
	if h.store != nil {
		err = os.RemoveAll(h.store.dir)
	}
	if cerr := h.root.Close(); err == nil {
		err = cerr
	}
	return err
}

// errBudget: a copy would exceed the snapshot's budget.
var errBudget = errors.New("snapshot budget exceeded")

// snapshotCapError is a snapshot that would copy more than MaxSnapshotBytes.
type snapshotCapError struct {
	path  string
	limit int64
}

func (e *snapshotCapError) Error() string {
	return "copying " + strconv.Quote(e.path) + " would take the snapshot over its limit of " +
		strconv.FormatInt(e.limit, 10) + " bytes of file content (vfs.MaxSnapshotBytes); move large files out of the workspace or raise the limit"
}

func (e *snapshotCapError) Unwrap() error { return ErrTooLarge }

// copyFile copies the size bytes of src to dst, sparsely where the platform can (the holes of a sparse
// file are neither read nor written: dst gets holes there too), and returns the bytes written and the
// bytes of data among them. With budget >= 0, a copy whose data would exceed budget stops with errBudget.
func copyFile(dst, src *os.File, size, budget int64) (n, data int64, err error) {
	data, err = copyData(dst, src, size, budget)
	if err != nil {
		return 0, 0, err
	}
	if err := dst.Truncate(size); err != nil { // the trailing hole, if any
		return 0, 0, err
	}
	return size, data, nil
}

// copyRange copies [off, end) of src to the same offsets of dst.
func copyRange(dst, src *os.File, off, end int64, buf []byte) error {
	for off < end {
		n := min(int64(len(buf)), end-off)
		m, err := src.ReadAt(buf[:n], off)
		if m > 0 {
			if _, werr := dst.WriteAt(buf[:m], off); werr != nil {
				return werr
			}
			off += int64(m)
		}
		if err == io.EOF {
			return nil // the file shrank meanwhile: the signature check catches it
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// unreadableError is an entry a snapshot cannot read but this user could change: its changes could not
// be rolled back, so the snapshot fails.
type unreadableError struct {
	path  string
	dir   bool
	cause error
}

func (e *unreadableError) Error() string {
	what, fix := "file", "chmod u+r"
	if e.dir {
		what, fix = "directory", "chmod u+rx"
	}
	return "cannot read the " + what + " " + strconv.Quote(e.path) + " to snapshot it, yet this user can change it, so " +
		"its changes could not be rolled back; make it readable (" + fix + ", as its owner) or move it out of the workspace"
}

func (e *unreadableError) Unwrap() error { return e.cause }

// warn records, once per path, that a snapshot leaves p alone. Callers hold h.mu.
func (h *Host) warn(p string, dir bool) {
	if h.warnings == nil {
		h.warnings = map[string]string{}
	}
	if _, done := h.warnings[p]; done {
		return
	}
	what := "file"
	if dir {
		what = "directory (and everything below it)"
	}
	h.warnings[p] = "the " + what + " " + strconv.Quote(p) + " can be neither read nor changed by this user: snapshots record it but do not copy it, and rollbacks leave it alone"
}

// Warnings returns, sorted, what snapshots had to leave alone: entries under the root that this user can
// neither read nor change (owned by another user, without read permission). They cannot be changed
// through this filesystem either, so leaving them out never breaks a rollback; an entry this user cannot
// read but could change fails the snapshot instead, naming it.
func (h *Host) Warnings() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.warnings))
	for _, w := range h.warnings {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}
