package vfs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSeqPatchedMatchesASlice: random removals and insertions on seqs of many chunks give the entries a
// plain slice gives, every query agrees with the slice, and a small change shares most chunks.
func TestSeqPatchedMatchesASlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	name := func(i int) string { return fmt.Sprintf("d%02d/f%06d", i%37, i) }
	for round := range 200 {
		n := rng.IntN(5 * maxChunk)
		var ref []*hentry
		for i := range n {
			ref = append(ref, &hentry{path: name(i * 2)})
		}
		slices.SortFunc(ref, func(a, b *hentry) int { return cmpWalk(a.path, b.path) })
		s := newSeq(slices.Clone(ref))
		for step := range 5 {
			// Drop a few random spans, insert a few new paths (odd numbers: never present).
			var drop []span
			for range rng.IntN(4) {
				if len(ref) == 0 {
					break
				}
				lo := rng.IntN(len(ref))
				drop = addSpan(drop, lo, min(len(ref), lo+1+rng.IntN(3*maxChunk/2)))
			}
			var added []*hentry
			for range rng.IntN(50) {
				added = append(added, &hentry{path: name(rng.IntN(10*maxChunk)*2 + 1 + 20*maxChunk*(step+round))})
			}
			slices.SortFunc(added, func(a, b *hentry) int { return cmpWalk(a.path, b.path) })
			added = slices.CompactFunc(added, func(a, b *hentry) bool { return a.path == b.path })
			var want []*hentry
			for i, e := range ref {
				if !inSpans(drop, i) {
					want = append(want, e)
				}
			}
			want = append(want, added...)
			slices.SortFunc(want, func(a, b *hentry) int { return cmpWalk(a.path, b.path) })
			got := s.patched(drop, added)
			if !slices.Equal(got.all(), want) {
				t.Fatalf("round %d step %d: patched differs from the slice", round, step)
			}
			if len(drop) == 0 && len(added) <= 1 && len(s.chunks) > 4 {
				shared := 0
				for _, ch := range got.chunks {
					if slices.Contains(s.chunks, ch) {
						shared++
					}
				}
				if shared < len(s.chunks)-2 {
					t.Fatalf("one insertion shared %d of %d chunks", shared, len(s.chunks))
				}
			}
			for _, ch := range got.chunks {
				if len(ch.e) == 0 || len(ch.e) > 2*maxChunk {
					t.Fatalf("a chunk of %d entries", len(ch.e))
				}
			}
			ref, s = want, got
			if s.len() != len(ref) {
				t.Fatalf("len %d, want %d", s.len(), len(ref))
			}
			for range 20 {
				if len(ref) == 0 {
					break
				}
				i := rng.IntN(len(ref))
				if s.at(i) != ref[i] {
					t.Fatalf("at(%d) differs", i)
				}
				if j, ok := s.search(ref[i].path); !ok || j != i {
					t.Fatalf("search(%q) = %d, %v; want %d", ref[i].path, j, ok, i)
				}
				lo, hi := rng.IntN(len(ref)), rng.IntN(len(ref)+1)
				var each []*hentry
				s.each(lo, hi, func(e *hentry) bool { each = append(each, e); return true })
				if lo < hi && !slices.Equal(each, ref[lo:hi]) || lo >= hi && len(each) != 0 {
					t.Fatalf("each(%d, %d) differs", lo, hi)
				}
			}
			var back []*hentry
			s.backward(func(e *hentry) { back = append(back, e) })
			slices.Reverse(back)
			if !slices.Equal(back, ref) {
				t.Fatal("backward differs")
			}
			if len(ref) > 0 {
				i := rng.IntN(len(ref))
				e := &hentry{path: ref[i].path}
				r := s.replaced(map[int]*hentry{i: e})
				if r.at(i) != e || s.at(i) != ref[i] {
					t.Fatal("replaced changed the original or missed the entry")
				}
			}
		}
	}
}
