package vfs

import (
	"errors"
	"io/fs"
	"strconv"
)

// Growth is what a Host gained since its last Snapshot or Restore: the measure a caller bounds what one
// call may add to the root by.
type Growth struct {
	// Bytes is the file content added: for each file created or changed, the disk space its data takes
	// beyond its size at the snapshot (the holes of a sparse file count nothing, space reserved past its
	// end counts); a file with several names counts once.
	Bytes int64
	// Entries is the number of paths (files, directories, links, others) that the snapshot did not have.
	Entries int64
}

// Growth measures what was added under the root since the last Snapshot or Restore. Cost: with change
// tracking, the paths changed since (O(changes)); otherwise one lstat walk of the tree. Before the first
// Snapshot it measures the whole tree. It changes nothing and may run while a subprocess is writing (each
// call measures the tree as it finds it).
func (h *Host) Growth() (Growth, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return Growth{}, pathErr("growth", ".", ErrClosed)
	}
	var g Growth
	// The files with several names: each inode's data counts once, less what it held at the snapshot
	// under any of its names (a hard link adds a name, not data).
	type shared struct{ data, base int64 }
	var inodes map[[2]uint64]*shared
	err := h.scanChanged(func(p string, fi fs.FileInfo) error {
		old := h.index.lookup(p)
		if old == nil || old.kind != kindOf(fi) {
			g.Entries++
		}
		if !fi.Mode().IsRegular() {
			return nil
		}
		n := dataBytes(fi)
		if s, ok := sigOf(fi); ok && linkCount(fi) > 1 {
			k := [2]uint64{s.dev, s.ino}
			sh := inodes[k]
			if sh == nil {
				if inodes == nil {
					inodes = map[[2]uint64]*shared{}
				}
				sh = &shared{data: n}
				inodes[k] = sh
			}
			if old != nil && old.kind == kindFile && old.blob != nil && old.sig.dev == s.dev && old.sig.ino == s.ino {
				sh.base = max(sh.base, old.blob.size)
			}
			return nil
		}
		if old != nil && old.kind == kindFile && old.blob != nil {
			n -= old.blob.size
		}
		if n > 0 {
			g.Bytes += n
		}
		return nil
	})
	for _, sh := range inodes {
		if n := sh.data - sh.base; n > 0 {
			g.Bytes += n
		}
	}
	if err != nil {
		return Growth{}, pathErr("growth", ".", mapErr(err))
	}
	return g, nil
}

// ScrubPrivileges takes away, from every path created or changed since the last Snapshot or Restore,
// what could grant privileges on this host to whoever runs or opens it: the setuid and setgid bits (files
// and directories; a directory keeps a setgid it inherited from a setgid parent of the same group, as
// every directory made there gets it), file capabilities (the security.capability attribute), and fifos,
// sockets and device nodes (removed). An entry that is as the snapshot recorded it (same kind and mode; for a file, the same
// inode unchanged) is left alone: the caller put it there. It returns one sentence per change made, for
// the model or a log. Cost: as Growth.
func (h *Host) ScrubPrivileges() ([]string, error) { return h.scrub(true) }

// ClearPrivilegeBits is ScrubPrivileges without the removal of fifos, sockets and device nodes: what may
// run while a subprocess is still working in the tree (one that uses a fifo would break), so that what it
// makes carries a privilege only until the next call rather than until it ends.
func (h *Host) ClearPrivilegeBits() ([]string, error) { return h.scrub(false) }

func (h *Host) scrub(removeSpecial bool) ([]string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, pathErr("scrub", ".", ErrClosed)
	}
	var done []string
	var specials []string
	err := h.scanChanged(func(p string, fi fs.FileInfo) error {
		old := h.index.lookup(p)
		kind := kindOf(fi)
		if old != nil && old.kind == kind && old.mode == fi.Mode()&modeBits && !old.sealed {
			if kind != kindFile {
				return nil
			}
			if s, ok := sigOf(fi); ok && s == old.sig {
				return nil
			}
		}
		switch kind {
		case kindOther:
			if removeSpecial {
				specials = append(specials, p)
			}
			return nil
		case kindLink:
			return nil
		}
		if m := fi.Mode() & modeBits; m&(fs.ModeSetuid|fs.ModeSetgid) != 0 && !h.inheritedSetgid(p, fi) {
			if err := h.chmodReaching(p, m&^(fs.ModeSetuid|fs.ModeSetgid)); err != nil {
				return err
			}
			done = append(done, "removed the setuid/setgid bits of "+strconv.Quote(p))
		}
		if kind == kindFile {
			dropped, err := h.dropCapabilities(p)
			if err != nil {
				return err
			}
			if dropped {
				done = append(done, "removed the file capabilities of "+strconv.Quote(p))
			}
		}
		return nil
	})
	for _, p := range specials {
		if err == nil {
			rerr := h.root.Remove(p)
			if errors.Is(rerr, fs.ErrPermission) { // below directories left without permission
				undo := h.reach(p, true)
				rerr = h.root.Remove(p)
				undo()
			}
			if rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				err = rerr
			} else {
				done = append(done, "removed "+strconv.Quote(p)+" (fifos, sockets and device nodes may not be left in the workspace)")
			}
		}
	}
	if err != nil {
		return done, pathErr("scrub", ".", mapErr(err))
	}
	return done, nil
}

// inheritedSetgid reports that p is a directory whose only special bit is a setgid it inherited, as the
// kernel gives every directory made in a setgid directory: its parent is setgid, with the same group. It
// grants nothing the parent did not (the owner of the tree chose it), so ScrubPrivileges keeps it.
func (h *Host) inheritedSetgid(p string, fi fs.FileInfo) bool {
	if !fi.IsDir() || fi.Mode()&fs.ModeSetuid != 0 || p == "." {
		return false
	}
	pfi, err := h.root.Lstat(parentOf(p))
	if err != nil || !pfi.IsDir() || pfi.Mode()&fs.ModeSetgid == 0 {
		return false
	}
	g1, ok1 := groupOf(fi)
	g2, ok2 := groupOf(pfi)
	return ok1 && ok2 && g1 == g2
}

// scanChanged calls f with every path that may differ from the index: with change tracking ready, the
// paths changed since it (a directory created or moved in with everything below it), without consuming
// them (the next Snapshot or Restore still sees them); otherwise every path of the tree. Callers hold h.mu.
func (h *Host) scanChanged(f func(p string, fi fs.FileInfo) error) error {
	visit := func(p string, fi fs.FileInfo) (bool, error) {
		if e := h.index.lookup(p); e != nil && e.sealed {
			return false, nil
		}
		return fi.IsDir(), f(p, fi)
	}
	if h.trackReady() {
		if dirty := h.tr.peek(); !h.tr.broken {
			scopes := make([]scope, 0, len(dirty))
			for p, deep := range dirty {
				scopes = append(scopes, scope{path: p, deep: deep})
			}
			for _, sc := range normScopes(scopes) {
				if err := h.scanScope(sc, visit); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return h.walkDenied(visit, skipDenied)
}

// scanScope visits one scope of scanChanged; a path below a directory that forbids reaching it (left
// so by a command) is reached by opening the way (reach) for the visit.
func (h *Host) scanScope(sc scope, visit func(string, fs.FileInfo) (bool, error)) error {
	fi, err := h.root.Lstat(sc.path)
	if err != nil && errors.Is(err, fs.ErrPermission) {
		defer h.reach(sc.path, false)()
		fi, err = h.root.Lstat(sc.path)
	}
	if err != nil && (errors.Is(err, fs.ErrNotExist) || errors.Is(mapErr(err), ErrNotDir) || isEscape(err)) {
		return nil // gone, or its parent is no longer a directory (that parent is a scope of its own)
	}
	if err != nil {
		return err
	}
	if !sc.deep {
		_, err := visit(sc.path, fi)
		return err
	}
	return h.walkAt(sc.path, fi, visit, skipDenied)
}

// skipDenied passes over a directory that cannot be listed (another user's).
func skipDenied(string, fs.FileInfo, error) error { return nil }

// chmodReaching changes p's mode; when a directory above it forbids reaching it (a command may leave
// its directories without search permission), it opens the way for the change (reach).
func (h *Host) chmodReaching(p string, mode fs.FileMode) error {
	err := h.root.Chmod(p, mode)
	if err == nil || !errors.Is(err, fs.ErrPermission) {
		return err
	}
	defer h.reach(p, false)()
	return h.root.Chmod(p, mode)
}

// reach gives this user search permission on each directory above p that lacks it and is this user's
// to change (and write permission on p's parent too when parentWrite is set, to remove p), and returns
// what puts their modes back.
func (h *Host) reach(p string, parentWrite bool) (undo func()) {
	type opened struct {
		dir  string
		mode fs.FileMode
	}
	var done []opened
	for i := -1; i < len(p); i++ {
		dir := "." // the root first, then each directory below it on the way to p
		if i >= 0 {
			if p[i] != '/' {
				continue
			}
			dir = p[:i]
		}
		need := fs.FileMode(0o100)
		if parentWrite && dir == parentOf(p) {
			need = 0o300
		}
		fi, err := h.root.Lstat(dir)
		if err != nil || !fi.IsDir() || fi.Mode()&need == need {
			continue
		}
		if h.root.Chmod(dir, fi.Mode()&modeBits|0o700) == nil {
			done = append(done, opened{dir, fi.Mode() & modeBits})
		}
	}
	return func() {
		for i := len(done) - 1; i >= 0; i-- {
			h.root.Chmod(done[i].dir, done[i].mode)
		}
	}
}
