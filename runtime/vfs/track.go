package vfs

import (
	"errors"
	"io/fs"
	"slices"
	"sort"
	"strings"
)

// Change tracking: how a Host snapshot costs what changed. Design notes for track_linux.go's tracker and
// the tracked paths of Snapshot and Restore.
//
// The index (the tree as the last Snapshot or Restore left it) stays exact while the tracker is intact:
// every change since then is a dirty path (an event from a directory's watch), a directory created, moved or
// removed being a deep one (all of it is walked again: what was written in a new directory before its watch
// existed raised no event).
//
// Hard links. A directory watch reports a write under the name written through only, so a link made
// since a file was examined (ln a b, cp -l, in the root or outside it) would let a write through b change
// a unseen, even with b removed again before the next look (no name of it is left to examine). Each file
// therefore also has a watch of its own inode (fileMask): a link count change, whatever name caused it,
// marks every name the inode was watched under, so every name of an inode is examined whenever a name is
// added to it or removed from it. The watch is added before the file is examined (captureFile), which
// then looks at it again, so a change after the look is an event. Inotify alone could not tell a link
// from a new file (ln a b; echo x > b raises the same events on b as echo x > b). Files that already have
// several links are re-examined at every Snapshot and Restore besides (writes through a name outside the
// root raise no event here). A tracked Snapshot examines only the dirty paths, their parents (a directory's
// mtime changes with its entries) and the files with more than one hard link (a write through a link
// outside the root raises no event here); it rebuilds the description in memory by dropping the replaced
// ranges of the index (a subtree is contiguous in walk order) and merging in the new entries. A tracked
// Restore to the index compares only the dirty paths with it. Anything else (no tracker, events dropped by
// the kernel, a watch that could not be added, a Restore to an older snapshot, an error) falls back to the
// full walk, which re-arms the tracker.

// TrackChanges turns change tracking on or off for a Host (default on, Linux only): with it, Snapshot and
// Restore cost what changed since the previous Snapshot or Restore instead of a walk of the whole tree.
// Off, or where the kernel cannot track (no inotify, the watch limit reached, events dropped), every
// Snapshot and Restore walks the tree. What tracking cannot see, so turn it off if tools do it: a write
// through a shared memory mapping that is never closed. Tracking uses one inotify watch per directory and
// per file (the kernel's fs.inotify.max_user_watches bounds them; past it, every Snapshot walks).
func TrackChanges(on bool) Option { return func(o *options) { o.noTracking = !on } }

// tracker returns the Host's tracker, created on first use; nil when tracking is off or unavailable.
// Callers hold h.mu.
func (h *Host) tracker() *tracker {
	if h.noTracking {
		return nil
	}
	if h.tr == nil && !h.trTried {
		h.trTried = true
		h.tr = newTracker()
	}
	return h.tr
}

// trackReady reports whether the index is exact and every change since it is known. Callers hold h.mu.
func (h *Host) trackReady() bool {
	return h.tracked && h.tr != nil && !h.tr.broken && h.index != nil
}

// untrack makes the next Snapshot walk the tree (and re-arm the tracker).
func (h *Host) untrack() { h.tracked = false }

// trackedScopes drains the tracker and returns the scopes that may differ from st: the dirty paths (deep
// for directories created, moved or removed) and st's files with several links, in walk order, none inside a
// deep one. ok is false when tracking broke while draining.
func (h *Host) trackedScopes(st *snapState) (scopes []scope, ok bool) {
	h.tr.drain()
	if h.tr.broken {
		return nil, false
	}
	dirty := h.tr.take()
	for _, e := range st.multi {
		if _, ok := dirty[e.path]; !ok {
			dirty[e.path] = false
		}
	}
	for p, deep := range dirty {
		scopes = append(scopes, scope{path: p, deep: deep})
	}
	return normScopes(scopes), true
}

// normScopes sorts scopes in walk order and drops those inside a deep one (and duplicates).
func normScopes(scopes []scope) []scope {
	slices.SortFunc(scopes, func(a, b scope) int { return cmpWalk(a.path, b.path) })
	out := scopes[:0]
	deepAt := "" // the last deep scope kept
	for _, sc := range scopes {
		if deepAt != "" && within(sc.path, deepAt) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].path == sc.path {
			out[n-1].deep = out[n-1].deep || sc.deep
			if sc.deep {
				deepAt = sc.path
			}
			continue
		}
		out = append(out, sc)
		if sc.deep {
			deepAt = sc.path
		}
	}
	return out
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// cmpWalk orders paths as the walk visits them: the root first, then depth first with names in byte order
// (a path's descendants follow it directly).
func cmpWalk(a, b string) int {
	if a == b {
		return 0
	}
	if a == "." {
		return -1
	}
	if b == "." {
		return 1
	}
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if x == '/' {
			return -1
		}
		if y == '/' {
			return 1
		}
		if x < y {
			return -1
		}
		return 1
	}
	if len(a) < len(b) {
		return -1
	}
	return 1
}

// subtree returns the range of st's entries that are p and what lies below it (empty when st has no p).
func (st *snapState) subtree(p string) (lo, hi int) {
	lo, found := st.entries.search(p)
	if !found {
		return lo, lo
	}
	n := st.entries.len()
	hi = lo + 1 + sortSearch(n-lo-1, func(i int) bool { return !within(st.entries.at(lo+1+i).path, p) })
	return lo, hi
}

func sortSearch(n int, f func(int) bool) int {
	i, j := 0, n
	for i < j {
		m := int(uint(i+j) >> 1)
		if !f(m) {
			i = m + 1
		} else {
			j = m
		}
	}
	return i
}

// snapshotTracked describes the tree from the index and the tracked changes.
func (h *Host) snapshotTracked(c *capturer) (*snapState, error) {
	old := h.index
	scopes, ok := h.trackedScopes(old)
	if !ok {
		return h.snapshotWalk(c)
	}
	if len(scopes) == 0 {
		return &snapState{entries: old.entries, byPath: old.byPath, multi: old.multi}, nil
	}
	// A directory's mtime changes with its entries: refresh the parents' own entries too.
	withParents := scopes
	for _, sc := range scopes {
		if sc.path != "." {
			withParents = append(withParents, scope{path: parentOf(sc.path)})
		}
	}
	scopes = normScopes(withParents)
	c.watch = true
	h.beforeStat = c.beforeWatch
	defer func() { h.beforeStat = nil }()
	var drop []span // the ranges of old.entries replaced, in order
	for _, sc := range scopes {
		lo, hi := old.subtree(sc.path)
		fi, err := h.root.Lstat(sc.path)
		if errors.Is(err, fs.ErrNotExist) {
			drop = addSpan(drop, lo, hi)
			continue
		}
		if err != nil {
			return nil, err
		}
		oe := old.lookup(sc.path)
		if oe != nil && oe.sealed {
			continue // left alone, as the walk leaves it
		}
		if !sc.deep && oe != nil && oe.kind == kindOf(fi) {
			drop = addSpan(drop, lo, lo+1)
			if oe.kind == kindDir { // its own attributes; its entries are scopes when they changed
				c.add(&hentry{path: sc.path, kind: kindDir, mode: fi.Mode() & modeBits, mtime: fi.ModTime()})
				continue
			}
			if _, err := c.visit(sc.path, fi); err != nil {
				return nil, err
			}
			continue
		}
		drop = addSpan(drop, lo, hi)
		if err := h.walkAt(sc.path, fi, c.visit, c.denied); err != nil {
			return nil, err
		}
	}
	if h.tr.broken { // a watch could not be added: what it would have reported is unknown
		return nil, errTrackingLost
	}
	added := c.out
	slices.SortStableFunc(added, func(a, b *hentry) int { return cmpWalk(a.path, b.path) })
	return old.patched(drop, added), nil
}

// span is a range [lo, hi) of a state's entries.
type span struct{ lo, hi int }

// addSpan adds [lo, hi) to spans, kept sorted and merged.
func addSpan(spans []span, lo, hi int) []span {
	if lo >= hi {
		return spans
	}
	spans = append(spans, span{lo, hi})
	if n := len(spans); n == 1 || spans[n-2].hi < lo {
		return spans // the usual case: scopes come in walk order
	}
	slices.SortFunc(spans, func(a, b span) int { return a.lo - b.lo })
	out := spans[:1]
	for _, sp := range spans[1:] {
		if last := &out[len(out)-1]; sp.lo <= last.hi {
			last.hi = max(last.hi, sp.hi)
		} else {
			out = append(out, sp)
		}
	}
	return out
}

// patched returns the state st becomes when the entries in drop are removed and added (in walk order,
// none of them among the kept entries) are inserted. It dereferences only the added entries and the
// O(log files) entries a binary search visits to place each one, and shares every chunk of entries that
// loses or gains none: O(changes × log files + files/maxChunk).
func (st *snapState) patched(drop []span, added []*hentry) *snapState {
	out := &snapState{entries: st.entries.patched(drop, added)}
	// The files with several links: the old ones not dropped, then the added ones, in walk order.
	for _, e := range st.multi {
		i, _ := st.entries.search(e.path)
		if !inSpans(drop, i) {
			out.multi = append(out.multi, e)
		}
	}
	n := len(out.multi)
	for _, e := range added {
		if e.multi {
			out.multi = append(out.multi, e)
		}
	}
	if n > 0 && n < len(out.multi) {
		slices.SortFunc(out.multi, func(a, b *hentry) int { return cmpWalk(a.path, b.path) })
	}
	return out
}

// inSpans reports whether i lies in one of the sorted spans.
func inSpans(spans []span, i int) bool {
	k := sort.Search(len(spans), func(k int) bool { return spans[k].hi > i })
	return k < len(spans) && spans[k].lo <= i
}

// errTrackingLost: tracking broke during a tracked snapshot; Snapshot walks the tree instead.
var errTrackingLost = errors.New("change tracking lost during the snapshot")
