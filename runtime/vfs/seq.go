package vfs

import "slices"

// seq is a Host snapshot's entries in walk order, stored as immutable chunks so that a snapshot that
// differs from the previous one in a few paths shares every other chunk with it: building it costs the
// changed chunks plus one slice of chunk pointers (files/maxChunk of them), not a copy of every entry.
// The zero seq is empty.
type seq struct {
	chunks []*chunk
	starts []int // starts[i] is the index of chunks[i]'s first entry; len(starts) == len(chunks)+1
}

// chunk is a run of entries; never changed once part of a seq.
type chunk struct {
	e    []*hentry
	mark uint64 // the last sweep that visited it (a chunk shared by several states is visited once)
}

// maxChunk bounds a chunk's length (a rebuilt chunk is split at it).
const maxChunk = 512

// newSeq returns the seq of entries (taken over, not copied).
func newSeq(entries []*hentry) seq {
	var b seqBuilder
	b.addRun(entries)
	return b.seq()
}

func (s seq) len() int {
	if len(s.starts) == 0 {
		return 0
	}
	return s.starts[len(s.starts)-1]
}

// chunkOf returns the chunk holding index i and i's offset in it.
func (s seq) chunkOf(i int) (int, int) {
	c, found := slices.BinarySearch(s.starts, i)
	if !found {
		c--
	}
	return c, i - s.starts[c]
}

func (s seq) at(i int) *hentry {
	c, off := s.chunkOf(i)
	return s.chunks[c].e[off]
}

// search returns the index of p, or where it would be inserted.
func (s seq) search(p string) (int, bool) {
	// The first chunk whose last entry is not before p holds p, if anything does.
	c, _ := slices.BinarySearchFunc(s.chunks, p, func(ch *chunk, p string) int {
		return cmpWalk(ch.e[len(ch.e)-1].path, p)
	})
	if c == len(s.chunks) {
		return s.len(), false
	}
	off, found := slices.BinarySearchFunc(s.chunks[c].e, p, func(e *hentry, p string) int { return cmpWalk(e.path, p) })
	return s.starts[c] + off, found
}

// each calls f with the entries of [lo, hi) in order, stopping when f returns false.
func (s seq) each(lo, hi int, f func(e *hentry) bool) {
	if lo >= hi {
		return
	}
	c, off := s.chunkOf(lo)
	for i := lo; i < hi; c, off = c+1, 0 {
		for _, e := range s.chunks[c].e[off:min(len(s.chunks[c].e), off+hi-i)] {
			if !f(e) {
				return
			}
			i++
		}
	}
}

// backward calls f with every entry, last first.
func (s seq) backward(f func(e *hentry)) {
	for c := len(s.chunks) - 1; c >= 0; c-- {
		es := s.chunks[c].e
		for i := len(es) - 1; i >= 0; i-- {
			f(es[i])
		}
	}
}

// patched returns s with the entries in the sorted, disjoint spans drop removed and added (sorted, none
// equal to a kept entry) inserted in walk order. Chunks that neither lose nor gain an entry are shared.
func (s seq) patched(drop []span, added []*hentry) seq {
	var b seqBuilder
	di, ai := 0, 0
	// Where each added entry goes, as an index of s.
	pos := make([]int, len(added))
	for i, e := range added {
		pos[i], _ = s.search(e.path)
	}
	for c, ch := range s.chunks {
		start, end := s.starts[c], s.starts[c+1]
		last := c == len(s.chunks)-1
		for di < len(drop) && drop[di].hi <= start {
			di++
		}
		touched := di < len(drop) && drop[di].lo < end
		if ai < len(added) && (pos[ai] < end || last) {
			touched = true
		}
		if !touched {
			b.addChunk(ch)
			continue
		}
		var es []*hentry
		for i, e := range ch.e {
			at := start + i
			for ai < len(added) && pos[ai] <= at {
				es = append(es, added[ai])
				ai++
			}
			if inSpans(drop, at) {
				continue
			}
			es = append(es, e)
		}
		if last {
			es = append(es, added[ai:]...)
			ai = len(added)
		}
		b.addRun(es)
	}
	if len(s.chunks) == 0 {
		b.addRun(added)
	}
	return b.seq()
}

// replaced returns s with the entry at index i replaced by e (copying only its chunk).
func (s seq) replaced(repl map[int]*hentry) seq {
	out := seq{chunks: slices.Clone(s.chunks), starts: s.starts}
	copied := map[int]bool{}
	for i, e := range repl {
		c, off := s.chunkOf(i)
		if !copied[c] {
			out.chunks[c] = &chunk{e: slices.Clone(out.chunks[c].e)}
			copied[c] = true
		}
		out.chunks[c].e[off] = e
	}
	return out
}

// seqBuilder assembles a seq from chunks and runs of entries.
type seqBuilder struct {
	s   seq
	run []*hentry // entries not yet in a chunk
}

func (b *seqBuilder) addChunk(ch *chunk) {
	b.flush()
	b.push(ch)
}

func (b *seqBuilder) addRun(es []*hentry) {
	b.run = append(b.run, es...)
	for len(b.run) >= 2*maxChunk {
		b.push(&chunk{e: slices.Clip(b.run[:maxChunk])})
		b.run = b.run[maxChunk:]
	}
}

func (b *seqBuilder) flush() {
	if len(b.run) == 0 {
		return
	}
	if len(b.run) > maxChunk {
		h := len(b.run) / 2
		b.push(&chunk{e: slices.Clip(b.run[:h])})
		b.run = b.run[h:]
	}
	b.push(&chunk{e: slices.Clip(b.run)})
	b.run = nil
}

func (b *seqBuilder) push(ch *chunk) {
	if len(b.s.starts) == 0 {
		b.s.starts = append(b.s.starts, 0)
	}
	b.s.chunks = append(b.s.chunks, ch)
	b.s.starts = append(b.s.starts, b.s.starts[len(b.s.starts)-1]+len(ch.e))
}

func (b *seqBuilder) seq() seq {
	b.flush()
	return b.s
}

// all returns every entry in order, in a new slice.
func (s seq) all() []*hentry {
	out := make([]*hentry, 0, s.len())
	for _, ch := range s.chunks {
		out = append(out, ch.e...)
	}
	return out
}
