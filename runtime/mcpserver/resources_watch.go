package mcpserver

import (
	"context"
	"hash/fnv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Change detection: the design notes.
//
// A background watcher, one per workspace, runs while any file is subscribed. Every
// WorkspaceOptions.Poll, and when a tools/call wakes it (a non-blocking send: the call neither waits for
// it nor does any of its work, and wakes arriving during a round are merged into one more round), it
// takes a copy of the watched list under the lock, then, with no lock held, stats each file and compares
// its size and modification time with what it saw last. Only a file whose size or time changed (or whose
// time is within racyWindow of the look, where a coarse clock could hide a second change) is read and
// hashed (FNV-64a), and at most MaxHashBytes are read per round: the others keep their old look and are
// compared in the next round, which starts at once. A file whose hash differs is announced with
// ResourceUpdated, outside the lock, to the sessions subscribed to its URI. A read that fails (a
// missing file, a directory, a fifo: vfs never blocks on one) counts as "absent". The lock guards only
// the map and each watch's last look; no filesystem call runs under it. A round costs one Stat per
// watched file (bounded by DefaultMaxSubscriptions) plus the changed bytes, capped.

// racyWindow: a file modified this recently (by its modification time, against the clock when it was
// looked at) is hashed again at the next round even if its size and time look the same.
const racyWindow = 2 * time.Second

// minRound is the shortest time between two rounds of the watcher, however often tools/call wakes it.
const minRound = 10 * time.Millisecond

// watch is one watched file.
type watch struct {
	path    string
	holders int // sessions subscribed to it
	last    watchState
}

// watchState is what the watcher last saw of a file.
type watchState struct {
	exists bool
	size   int64
	mtime  time.Time
	racy   bool   // modified within racyWindow of the look: hash again next round
	sum    uint64 // FNV-64a of the content (|1), 0 when absent or unreadable
}

// look stats and hashes the file p (for a new subscription's baseline: the subscriber's request).
func (w *workspace) look(p string) watchState {
	st, _ := w.lookAt(p, watchState{}, true, -1)
	return st
}

// lookAt compares the file p with prev: it stats it and, when its size or time differ (or prev is
// racy, or force), reads it and hashes it if budget (-1: no bound) allows. It returns the new state
// and the bytes read; when the budget did not allow the read, prev is returned unchanged with -1.
func (w *workspace) lookAt(p string, prev watchState, force bool, budget int64) (watchState, int64) {
	now := time.Now()
	e, err := w.fs.Stat(p)
	if err != nil || e.IsDir {
		return watchState{}, 0
	}
	st := watchState{exists: true, size: e.Size, mtime: e.ModTime, racy: now.Sub(e.ModTime) < racyWindow}
	if !force && !prev.racy && prev.exists && prev.size == st.size && prev.mtime.Equal(st.mtime) {
		st.sum = prev.sum
		return st, 0
	}
	if budget >= 0 && e.Size > budget {
		return prev, -1
	}
	data, err := w.fs.Read(p)
	if err == nil {
		h := fnv.New64a()
		h.Write(data)
		st.sum = h.Sum64() | 1
	}
	return st, int64(len(data))
}

// watch starts watching the file p under its canonical uri for one more session; base is its state
// when the session subscribed.
func (w *workspace) watch(uri, p string, base watchState) {
	w.mu.Lock()
	defer w.mu.Unlock()
	wt := w.watched[uri]
	if wt == nil {
		wt = &watch{path: p, last: base}
		w.watched[uri] = wt
	}
	wt.holders++
	if w.stop == nil {
		w.stop = make(chan struct{})
		if w.kick == nil {
			w.kick = make(chan struct{}, 1)
		}
		go w.run(w.stop, w.kick)
	}
}

// unwatch gives back one session's hold on uri; the watcher stops with the last watched file.
func (w *workspace) unwatch(uri string) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if wt := w.watched[uri]; wt != nil {
		wt.holders--
		if wt.holders <= 0 {
			delete(w.watched, uri)
		}
	}
	if len(w.watched) == 0 && w.stop != nil {
		close(w.stop)
		w.stop = nil
	}
}

// wake asks the watcher for a round soon; it never waits.
func (w *workspace) wake() {
	w.mu.Lock()
	kick := w.kick
	running := w.stop != nil
	w.mu.Unlock()
	if !running || kick == nil {
		return
	}
	select {
	case kick <- struct{}{}:
	default: // a round is already due
	}
}

// run is the watcher: a round every Poll and on every wake, until stop is closed.
func (w *workspace) run(stop, kick chan struct{}) {
	var tick <-chan time.Time
	if w.o.Poll > 0 {
		t := time.NewTicker(w.o.Poll)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-stop:
			return
		case <-tick:
		case <-kick:
		}
		more := w.round(stop)
		if w.scanned != nil {
			w.scanned()
		}
		if more {
			select {
			case kick <- struct{}{}:
			default:
			}
		}
		select { // at most one round per minRound, however often the tools/calls come
		case <-stop:
			return
		case <-time.After(minRound):
		}
	}
}

// round looks at every watched file once (see the notes above) and notifies the subscribers of those
// whose content changed. more reports files left for the next round by the byte budget.
func (w *workspace) round(stop chan struct{}) (more bool) {
	type item struct {
		uri  string
		wt   *watch
		last watchState
	}
	w.mu.Lock()
	items := make([]item, 0, len(w.watched))
	for uri, wt := range w.watched {
		items = append(items, item{uri, wt, wt.last})
	}
	w.mu.Unlock()
	budget, read := w.o.MaxHashBytes, false
	var changed []string
	for _, it := range items {
		select {
		case <-stop:
			return false
		default:
		}
		b := budget
		if !read {
			b = -1 // the first file read in a round is read whatever its size (vfs bounds it)
		}
		st, n := w.lookAt(it.wt.path, it.last, false, b)
		if n < 0 {
			more = true
			continue
		}
		budget -= n
		read = read || n > 0
		w.mu.Lock()
		if w.watched[it.uri] == it.wt { // still watched
			it.wt.last = st
			if st.sum != it.last.sum {
				changed = append(changed, it.uri)
			}
		}
		w.mu.Unlock()
	}
	sortStrings(changed)
	for _, uri := range changed {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_ = w.ms.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
		cancel()
	}
	return more
}
