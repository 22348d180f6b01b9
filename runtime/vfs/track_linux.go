//go:build linux

package vfs

import (
	"errors"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// tracker follows changes under a Host's root with inotify: one watch per directory, events turned into
// dirty paths. It is driven from Snapshot and Restore (under h.mu): drain reads what the kernel queued,
// without blocking. The kernel queues an event before the system call that caused it returns, so once a
// writer's call has returned, the next drain sees it. Tracking is abandoned (broken) on a queue overflow,
// a watch that cannot be added (the watch limit) or any read error; Snapshot and Restore then walk the
// whole tree, and the next full walk re-arms it.
type tracker struct {
	fd    int
	wds   map[int32]string // watch descriptor → directory (root-relative, "." for the root)
	byDir map[string]int32
	// files: watch descriptor of a file's inode → the path it was first watched under; more: the other
	// paths (two names of one inode share a descriptor). A path may be stale (renamed or removed since),
	// which only costs a look at it.
	files  map[int32]string
	more   map[int32][]string
	dirty  map[string]bool // path → deep (a directory created, moved or removed: walk all of it)
	broken bool
	buf    []byte
}

const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR |
	unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK

// fileMask is what a file's own watch reports: a change of its link count (a name added or removed, under
// the root or anywhere else, rename over one included), its mode or times, and its deletion. Writes are
// reported by the directory watches under the name written through; a write through a name no directory
// watch sees (a link made since the file was examined) always follows a link count change, which marks
// every watched name of the inode. Writes are deliberately not in the mask: with the directory's event
// for the same write interleaved, the kernel could not merge repeated writes into one event.
const fileMask = unix.IN_ATTRIB | unix.IN_DELETE_SELF | unix.IN_DONT_FOLLOW

func newTracker() *tracker {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	return &tracker{fd: fd, wds: map[int32]string{}, byDir: map[string]int32{}, files: map[int32]string{},
		more: map[int32][]string{}, dirty: map[string]bool{}, buf: make([]byte, 64<<10)}
}

// arm forgets every watch and dirty path: a full walk follows, adding watches as it goes. The old watches
// go with the old inotify descriptor (one close instead of a removal, and its event, per watch).
func (t *tracker) arm() {
	if fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC); err == nil {
		unix.Close(t.fd)
		t.fd = fd
	} else {
		for wd := range t.wds {
			unix.InotifyRmWatch(t.fd, uint32(wd))
		}
		for wd := range t.files {
			unix.InotifyRmWatch(t.fd, uint32(wd))
		}
		t.drainDiscard()
	}
	clear(t.wds)
	clear(t.byDir)
	clear(t.files)
	clear(t.more)
	clear(t.dirty)
	t.broken = false
}

// watch adds a watch on the directory p (abs is its host path).
func (t *tracker) watch(abs, p string) {
	if t.broken {
		return
	}
	wd, err := unix.InotifyAddWatch(t.fd, abs, watchMask)
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return // gone meanwhile: its parent's event says so
		}
		if errors.Is(err, unix.EACCES) {
			return // unreadable: the snapshot seals it (left alone) or fails naming it
		}
		t.broken = true // the watch limit (ENOSPC), no permission...: fall back to walking
		return
	}
	if old, ok := t.byDir[p]; ok && old != int32(wd) {
		delete(t.wds, old)
	}
	t.wds[int32(wd)] = p
	t.byDir[p] = int32(wd)
}

// watchFile adds a watch on the inode of the regular file p (abs is its host path), so that a change of
// its link count, mode or times through any name marks p dirty. The error is EACCES when this user may
// not read the file (the caller decides); any other failure breaks tracking.
func (t *tracker) watchFile(abs, p string) error {
	if t.broken {
		return nil
	}
	wd, err := unix.InotifyAddWatch(t.fd, abs, fileMask)
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return nil // gone meanwhile: its parent's event says so
		}
		if errors.Is(err, unix.EACCES) {
			return err
		}
		t.broken = true
		return nil
	}
	if _, isDir := t.wds[int32(wd)]; isDir {
		return nil // replaced by a directory meanwhile: that directory's watch
	}
	first, ok := t.files[int32(wd)]
	if !ok {
		t.files[int32(wd)] = p
		return nil
	}
	if first == p {
		return nil
	}
	more := t.more[int32(wd)]
	for _, q := range more {
		if q == p {
			return nil
		}
	}
	t.more[int32(wd)] = append(more, p)
	return nil
}

// unwatchTree removes the watches of p and of every directory below it (moved away: their descriptors
// would now name other paths).
func (t *tracker) unwatchTree(p string) {
	prefix := p + "/"
	for dir, wd := range t.byDir {
		if dir == p || strings.HasPrefix(dir, prefix) || p == "." {
			unix.InotifyRmWatch(t.fd, uint32(wd))
			delete(t.byDir, dir)
			delete(t.wds, wd)
		}
	}
}

// drain reads every queued event into the dirty set.
func (t *tracker) drain() {
	for !t.broken {
		n, err := unix.Read(t.fd, t.buf)
		if err != nil {
			if errors.Is(err, unix.EAGAIN) {
				return
			}
			if errors.Is(err, unix.EINTR) {
				continue
			}
			t.broken = true
			return
		}
		if n <= 0 {
			return
		}
		t.parse(t.buf[:n])
	}
}

func (t *tracker) drainDiscard() {
	for {
		n, err := unix.Read(t.fd, t.buf)
		if n <= 0 || err != nil {
			return
		}
	}
}

func (t *tracker) parse(b []byte) {
	for len(b) >= unix.SizeofInotifyEvent {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&b[0]))
		nameLen := int(ev.Len)
		if unix.SizeofInotifyEvent+nameLen > len(b) {
			t.broken = true
			return
		}
		name := strings.TrimRight(string(b[unix.SizeofInotifyEvent:unix.SizeofInotifyEvent+nameLen]), "\x00")
		b = b[unix.SizeofInotifyEvent+nameLen:]
		mask := ev.Mask
		if mask&unix.IN_Q_OVERFLOW != 0 {
			t.broken = true
			return
		}
		dir, ok := t.wds[ev.Wd]
		if mask&unix.IN_IGNORED != 0 {
			if ok && t.byDir[dir] == ev.Wd {
				delete(t.byDir, dir)
			}
			delete(t.wds, ev.Wd)
			if _, isFile := t.files[ev.Wd]; isFile {
				t.markFile(ev.Wd)
				delete(t.files, ev.Wd)
				delete(t.more, ev.Wd)
			}
			continue
		}
		if !ok {
			// A file's own watch: every name it was watched under may now read differently.
			t.markFile(ev.Wd)
			continue
		}
		if name == "" { // the directory itself
			if mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0 {
				continue // its parent reports it by name
			}
			t.mark(dir, false)
			continue
		}
		p := joinPath(dir, name)
		isDir := mask&unix.IN_ISDIR != 0
		switch {
		case isDir && mask&(unix.IN_MOVED_FROM|unix.IN_DELETE) != 0:
			t.unwatchTree(p)
			t.mark(p, true)
		case isDir && mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0:
			t.mark(p, true)
		default:
			t.mark(p, false)
		}
	}
}

// markFile marks every path the file watch wd was added under.
func (t *tracker) markFile(wd int32) {
	if p, ok := t.files[wd]; ok {
		t.mark(p, false)
	}
	for _, q := range t.more[wd] {
		t.mark(q, false)
	}
}

func (t *tracker) mark(p string, deep bool) {
	t.dirty[p] = t.dirty[p] || deep
}

// peek drains the queue and returns the dirty paths, keeping them for take (the caller must not change
// the map).
func (t *tracker) peek() map[string]bool {
	t.drain()
	return t.dirty
}

// take returns the dirty paths and clears them.
func (t *tracker) take() map[string]bool {
	d := t.dirty
	t.dirty = map[string]bool{}
	return d
}

func (t *tracker) close() {
	if t != nil {
		unix.Close(t.fd)
	}
}
