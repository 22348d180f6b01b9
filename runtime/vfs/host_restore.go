package vfs

// Restoring a host snapshot: the walk that compares the tree with a snapshot's manifest and puts back
// what changed (host_snapshot.go's design note says what is restored and what is not; the capture and the
// store are there).

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"time"
)

// Restore rolls the tree back to snap: paths created since are removed, changed files are rewritten from
// the store (mode and mtime included), deleted files, directories and symlinks are recreated, and
// directory modes and mtimes are put back. Cost, restoring the latest snapshot with change tracking: the
// paths changed since it (O(changes)); otherwise one lstat walk (O(files)); plus O(changed bytes). A file
// whose signature is untrusted is compared by content. Names that shared an inode at the snapshot share
// one again, with its content (see the package doc on hard links). Not restored: ownership,
// fifos/sockets/devices that were deleted, access times.
func (h *Host) Restore(snap any) error {
	s, ok := snap.(*hostSnapshot)
	if !ok || s == nil || s.h.owner != h {
		return pathErr("restore", ".", errForeignSnapshot)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return pathErr("restore", ".", ErrClosed)
	}
	if s.h.released {
		return pathErr("restore", ".", errClosedSnap)
	}
	r := restorer{h: h, st: s.h.st, start: time.Now(), seen: map[string]bool{}, fixed: map[string]*hentry{},
		dirty: map[string]bool{}}
	var err error
	scopes, tracked := []scope(nil), false
	if h.trackReady() && s.h.st == h.index {
		// Only what changed since the index was taken can differ from it.
		scopes, tracked = h.trackedScopes(s.h.st)
	}
	if tracked {
		r.watch = true
		err = r.runScopes(scopes)
		if err == nil {
			// The deep scopes' directories may be new (recreated here or before): watch them all.
			for _, sc := range scopes {
				if !sc.deep {
					continue
				}
				lo, hi := r.st.subtree(sc.path)
				r.st.entries.each(lo, hi, func(e *hentry) bool {
					if e.kind == kindDir && !e.sealed {
						h.tr.watch(h.dir+"/"+e.path, e.path)
					}
					return true
				})
			}
			if h.tr.broken {
				h.untrack()
			}
		}
	} else {
		err = r.run()
		h.untrack() // directories recreated here have no watch: the next Snapshot walks and re-arms
	}
	if err != nil {
		// The tree is partly restored; the index no longer describes it, so drop it (the next Snapshot
		// copies everything it cannot trust).
		h.release(h.index)
		h.index = nil
		h.untrack()
		return pathErr("restore", r.at, mapErr(err))
	}
	// The new index is the snapshot's description with the entries Restore rewrote replaced: O(files
	// rewritten × log files), copying only the chunks that hold them.
	next := &snapState{entries: r.st.entries, byPath: r.st.byPath, multi: r.st.multi}
	if len(r.fixed) > 0 {
		repl := make(map[int]*hentry, len(r.fixed))
		for p, f := range r.fixed {
			if i, ok := r.st.entries.search(p); ok {
				repl[i] = f
			}
		}
		next = &snapState{entries: r.st.entries.replaced(repl), multi: slices.Clone(r.st.multi)}
		for p, f := range r.fixed {
			if i, ok := slices.BinarySearchFunc(next.multi, p, func(e *hentry, p string) int { return cmpWalk(e.path, p) }); ok {
				next.multi[i] = f
			}
		}
	}
	h.setIndex(next)
	return nil
}

type restorer struct {
	h     *Host
	st    *snapState
	start time.Time
	seen  map[string]bool    // snapshot paths found in place with the right kind
	fixed map[string]*hentry // file entries rewritten or re-verified: their new signature
	dirty map[string]bool    // directories whose mode or mtime must be put back
	at    string             // the path being worked on, for the error
	// groups are the snapshot's files with several links, by inode (built on first use).
	groups map[inodeKey]*linkGroup
	watch  bool // add a change-tracking watch to each file rewritten (a tracked restore)
}

// inodeKey names an inode of a snapshot: its device and number when the snapshot was taken.
type inodeKey struct{ dev, ino uint64 }

// linkGroup is the names one inode had in a snapshot. Restore gives them one inode again: the inode still
// holding one of them when it is the same one (rewritten in place if its content changed, so names
// outside the root get their content back too), or the first name recreated, to which the others are
// linked.
type linkGroup struct {
	members []*hentry
	at      string // a path holding the group's inode, restored; "" until one does
	touched bool   // a name was rewritten, relinked or fixed: every name's signature is recorded again
}

// group returns the link group of the file entry e, or nil for a file with one link.
func (r *restorer) group(e *hentry) *linkGroup {
	if !e.multi {
		return nil
	}
	if r.groups == nil {
		r.groups = map[inodeKey]*linkGroup{}
		for _, m := range r.st.multi {
			k := inodeKey{m.sig.dev, m.sig.ino}
			g := r.groups[k]
			if g == nil {
				g = &linkGroup{}
				r.groups[k] = g
			}
			g.members = append(g.members, m)
		}
	}
	return r.groups[inodeKey{e.sig.dev, e.sig.ino}]
}

// visitFile compares the file at p with its snapshot entry e and keeps it, fixes it, or removes it for
// pass 2 to recreate. A file is kept by its content only while it is the inode the snapshot recorded, or
// an inode with no other name: a path that came to share another file's inode (ln -f, mv of a linked
// name) must get an inode of its own back, or a later write through one name would change the other.
func (r *restorer) visitFile(p string, e *hentry, fi fs.FileInfo) error {
	s, ok := sigOf(fi)
	same := ok && s.dev == e.sig.dev && s.ino == e.sig.ino
	g := r.group(e)
	switch {
	case ok && e.trusted && s == e.sig:
		r.seen[p] = true
		if g != nil {
			g.at = p
		}
		return nil
	case g != nil && same:
		// The group's own inode: put its content back in place, for every name it has.
		r.seen[p] = true
		g.at, g.touched = p, true
		if fi.Size() == e.blob.size && r.h.sameContent(p, e.blob) {
			return r.fixFile(p, e, fi)
		}
		if err := r.rewrite(p, e, fi); err == nil {
			return nil
		}
		g.at = ""
		delete(r.seen, p)
	case g == nil && (same || linkCount(fi) == 1) && fi.Size() == e.blob.size && r.h.sameContent(p, e.blob):
		r.seen[p] = true
		return r.fixFile(p, e, fi)
	}
	if g != nil {
		g.touched = true
	}
	r.dirty[parentOf(p)] = true
	return r.removeAll(p)
}

// rewrite puts the blob's content back into the file at p in place (its inode, and so every name of it,
// kept), then its mode and mtime.
func (r *restorer) rewrite(p string, e *hentry, fi fs.FileInfo) error {
	root := r.h.root
	dst, _, err := openFile(root, p, os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrPermission) && root.Chmod(p, fi.Mode()&modeBits|0o200) == nil {
		dst, _, err = openFile(root, p, os.O_WRONLY, 0)
	}
	if err == nil {
		if err = dst.Truncate(0); err != nil {
			dst.Close()
		}
	}
	if err != nil {
		return notRegularAt(p, err)
	}
	src, err := os.Open(r.h.store.path(e.blob.id))
	if err != nil {
		dst.Close()
		return err
	}
	_, _, err = copyFile(dst, src, e.blob.size, -1)
	src.Close()
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Chmod(p, e.mode)
	}
	if err == nil {
		err = root.Chtimes(p, e.mtime, e.mtime)
	}
	if err != nil {
		return err
	}
	return r.record(p, e)
}

// scope is a part of the tree a restore compares: a path and, when deep, everything below it.
type scope struct {
	path string
	deep bool
}

// run compares and restores the whole tree.
func (r *restorer) run() error { return r.runScopes([]scope{{path: ".", deep: true}}) }

// runScopes compares and restores the scopes (sorted in walk order, none inside a deep one); what lies
// outside them is taken to be as the snapshot describes it.
func (r *restorer) runScopes(scopes []scope) error {
	root := r.h.root
	// Pass 1: walk what is there now; remove what is new or of another kind, keep what is unchanged.
	visit := func(p string, fi fs.FileInfo) (bool, error) {
		r.at = p
		e := r.st.lookup(p)
		kind := kindOf(fi)
		if e != nil && e.sealed {
			r.seen[p] = true // neither readable nor changeable by this user: left alone
			return false, nil
		}
		if e == nil || e.kind != kind {
			r.dirty[parentOf(p)] = true
			return false, r.removeAll(p)
		}
		switch kind {
		case kindDir:
			r.seen[p] = true
			if fi.Mode()&modeBits != e.mode || !fi.ModTime().Equal(e.mtime) {
				r.dirty[p] = true
			}
			if fi.Mode()&0o700 != 0o700 { // make it workable; pass 3 puts the mode back
				r.dirty[p] = true
				if err := root.Chmod(p, fi.Mode()&modeBits|0o700); err != nil {
					return false, err
				}
			}
			return true, nil
		case kindLink:
			t, err := root.Readlink(p)
			if err == nil && t == e.link {
				r.seen[p] = true
				return false, nil
			}
			r.dirty[parentOf(p)] = true
			return false, r.removeAll(p)
		case kindFile:
			return false, r.visitFile(p, e, fi)
		default:
			r.seen[p] = true
			return false, nil
		}
	}
	for i, sc := range scopes {
		r.at = sc.path
		fi, err := root.Lstat(sc.path)
		if errors.Is(err, fs.ErrNotExist) {
			scopes[i].deep = true // missing: pass 2 recreates it and what was below it
			continue
		}
		if err != nil {
			return err
		}
		if e := r.st.lookup(sc.path); !sc.deep && fi.IsDir() && e != nil && e.kind == kindDir && !e.sealed {
			// A directory's own attributes changed: its entries are scopes of their own when they did.
			r.seen[sc.path] = true
			if fi.Mode()&modeBits != e.mode || !fi.ModTime().Equal(e.mtime) {
				r.dirty[sc.path] = true
			}
			continue
		}
		scopes[i].deep = true
		if err := r.h.walkAt(sc.path, fi, visit, nil); err != nil {
			return err
		}
	}
	// Pass 2: recreate what is missing, parents first.
	for _, sc := range scopes {
		lo, hi := r.st.subtree(sc.path)
		if !sc.deep && hi > lo {
			hi = lo + 1
		}
		var err error
		r.st.entries.each(lo, hi, func(e *hentry) bool {
			if r.seen[e.path] || e.kind == kindOther || e.sealed {
				return true
			}
			err = r.recreate(e)
			return err == nil
		})
		if err != nil {
			return err
		}
	}
	// The names of an inode rewritten, relinked or verified: their signatures changed with the link count.
	for _, g := range r.groups {
		if !g.touched {
			continue
		}
		for _, m := range g.members {
			if r.seen[m.path] && !m.sealed {
				r.at = m.path
				if err := r.record(m.path, m); err != nil {
					return err
				}
			}
		}
	}
	// Pass 3: directory modes and mtimes, children before parents.
	dirs := make([]*hentry, 0, len(r.dirty))
	for p := range r.dirty {
		if e := r.st.lookup(p); e != nil && e.kind == kindDir && !e.sealed {
			dirs = append(dirs, e)
		}
	}
	slices.SortFunc(dirs, func(a, b *hentry) int { return cmpWalk(b.path, a.path) })
	for _, e := range dirs {
		r.at = e.path
		if err := root.Chmod(e.path, e.mode); err != nil {
			return err
		}
		if err := root.Chtimes(e.path, e.mtime, e.mtime); err != nil {
			return err
		}
	}
	return nil
}

// recreate puts back a missing entry of the snapshot.
func (r *restorer) recreate(e *hentry) error {
	root := r.h.root
	{
		r.at = e.path
		r.dirty[parentOf(e.path)] = true
		r.seen[e.path] = true
		switch e.kind {
		case kindDir:
			if err := root.Mkdir(e.path, 0o700); err != nil {
				return err
			}
			r.dirty[e.path] = true
		case kindLink:
			if err := root.Symlink(e.link, e.path); err != nil {
				return err
			}
		case kindFile:
			g := r.group(e)
			if g != nil && g.at != "" {
				// Another name of this inode is already back: link to it.
				if err := root.Link(g.at, e.path); err == nil {
					g.touched = true
					return nil
				}
			}
			if err := r.createFile(e); err != nil {
				return err
			}
			if g != nil {
				g.at, g.touched = e.path, true
			}
		}
	}
	return nil
}

func kindOf(fi fs.FileInfo) uint8 {
	switch m := fi.Mode(); {
	case m.IsDir():
		return kindDir
	case m&fs.ModeSymlink != 0:
		return kindLink
	case m.IsRegular():
		return kindFile
	}
	return kindOther
}

// removeAll removes p; when a directory below it forbids it, it makes the subtree writable and retries.
func (r *restorer) removeAll(p string) error {
	err := r.h.root.RemoveAll(p)
	if err == nil || !errors.Is(err, fs.ErrPermission) {
		return err
	}
	r.h.chmodTree(p)
	return r.h.root.RemoveAll(p)
}

func (h *Host) chmodTree(p string) {
	fi, err := h.root.Lstat(p)
	if err != nil || !fi.IsDir() {
		return
	}
	h.root.Chmod(p, 0o700)
	des, err := h.readDirOnce(p)
	if err != nil {
		return
	}
	for _, de := range des {
		if de.IsDir() {
			h.chmodTree(joinPath(p, de.Name()))
		}
	}
}

// fixFile puts back the mode and mtime of a file whose content is right, and records its new signature.
func (r *restorer) fixFile(p string, e *hentry, fi fs.FileInfo) error {
	if fi.Mode()&modeBits != e.mode {
		if err := r.h.root.Chmod(p, e.mode); err != nil {
			return err
		}
	}
	if !fi.ModTime().Equal(e.mtime) {
		if err := r.h.root.Chtimes(p, e.mtime, e.mtime); err != nil {
			return err
		}
	}
	return r.record(p, e)
}

// createFile writes a file from its blob with its mode and mtime.
func (r *restorer) createFile(e *hentry) error {
	src, err := os.Open(r.h.store.path(e.blob.id))
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := r.h.root.OpenFile(e.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, _, err = copyFile(dst, src, e.blob.size, -1)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := r.h.root.Chmod(e.path, e.mode); err != nil {
		return err
	}
	if err := r.h.root.Chtimes(e.path, e.mtime, e.mtime); err != nil {
		return err
	}
	return r.record(e.path, e)
}

// record stores the signature of a file just verified or rewritten, for the next Snapshot or Restore.
func (r *restorer) record(p string, e *hentry) error {
	fi, err := r.h.root.Lstat(p)
	if err != nil {
		return err
	}
	if r.watch && fi.Mode().IsRegular() {
		if err := r.h.watchFile(p, fi); err != nil {
			return err
		}
	}
	s, ok := sigOf(fi)
	n := *e
	n.sig, n.trusted = s, trustedAt(s, ok, r.start)
	r.fixed[p] = &n
	return nil
}
