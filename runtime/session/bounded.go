package session

// Bound limits a LOG slice that AppendBounded appends to: at most Entries items and Bytes bytes, as
// the appender counts them. A negative field is no limit; zero allows nothing but the newest item.
type Bound struct {
	Entries int
	Bytes   int64
}

// AppendBounded appends v, counted as size bytes, to the LOG slice sl, and when the slice then holds
// more than b.Entries items or more than b.Bytes bytes, drops its oldest items until it holds at most
// half of each (max(b.Entries/2, 1) items, b.Bytes/2 bytes); the newest item is always kept. Dropping
// half at a time costs about one item moved per append, amortised; what is dropped is not referenced
// by the session any more.
//
// The count is the sum of the sizes given to AppendBounded; sizeOf gives an item's size when the
// count must be rebuilt: at a trim (which recounts what it keeps) and after the slice was changed
// otherwise than by appending (Seed, Replace, Clear, a reducer's replacement). Items added by Append
// are not counted until the next trim. sizeOf runs under the session's lock: it must not use the
// session.
//
// It is one step under the session's lock: the append, the count and the trim, for any number of
// goroutines appending at once. It panics for a STATE slice (whose items a rollback puts back, which
// a count could not follow) and on a read-only view like Append does for STATE slices: LOG slices may
// be appended to through it.
func AppendBounded[T any](s *Session, sl Slice[T], v T, size int64, b Bound, sizeOf func(T) int64) {
	sl.check()
	if sl.retention != NoRollback {
		panic("session: AppendBounded to STATE slice " + sl.name + ": only LOG slices are bounded")
	}
	s = writable(s, sl.name, sl.retention)
	s.mu.Lock()
	h := head(s, sl)
	var counted int64
	if id := int(sl.id); id < len(s.entries) {
		counted = s.entries[id].bytes
	}
	if counted >= 0 && h != nil && h.count > 0 && !h.published.Load() {
		// The common case, which runs no code of the caller's (so no deferred unlock): grow the
		// unpublished head in place, and stop if the bound still holds.
		counted += size
		h.pushInPlacePacked(v, sl.packing)
		s.entries[sl.id].bytes = counted
		if n := h.len(); (b.Entries < 0 || n <= b.Entries) && (b.Bytes < 0 || counted <= b.Bytes) {
			s.mu.Unlock()
			return
		}
		defer s.mu.Unlock()
		trim(s, sl, h, counted, b, sizeOf)
		return
	}
	defer s.mu.Unlock() // sizeOf may panic
	if counted < 0 {    // changed otherwise than by appending: recount
		counted = 0
		h.each(func(_ int, x T) bool { counted += sizeOf(x); return true })
	}
	counted += size
	if h != nil && h.count > 0 && !h.published.Load() {
		h.pushInPlacePacked(v, sl.packing)
	} else {
		h = h.pushPacked(v, sl.packing)
		setHeadBytes(s, sl, h, counted)
	}
	// The entry exists now; a LOG entry's count may be written in a table a Snapshot shares, since
	// Restore never reads a LOG slice's entry from a snapshot.
	e := &s.entries[sl.id]
	e.bytes = counted
	n := h.len()
	if (b.Entries < 0 || n <= b.Entries) && (b.Bytes < 0 || counted <= b.Bytes) {
		return
	}
	trim(s, sl, h, counted, b, sizeOf)
}

// trim drops h's oldest items until at most half of b is held (see AppendBounded); s.mu is held.
func trim[T any](s *Session, sl Slice[T], h *vector[T], counted int64, b Bound, sizeOf func(T) int64) {
	n := h.len()
	keepEntries, keepBytes := -1, int64(-1)
	if b.Entries >= 0 {
		keepEntries = max(b.Entries/2, 1)
	}
	if b.Bytes >= 0 {
		keepBytes = b.Bytes / 2
	}
	first := n
	var held int64
	for first > 0 {
		sz := sizeOf(h.at(first - 1))
		kept := n - first
		if kept > 0 && ((keepEntries >= 0 && kept+1 > keepEntries) || (keepBytes >= 0 && held+sz > keepBytes)) {
			break
		}
		held += sz
		first--
	}
	setHeadBytes(s, sl, h.dropFront(first), held)
}
