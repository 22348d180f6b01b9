package session_test

import (
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/winkgen/wink/runtime/session"
)

var boundedLog = session.NewSlice[int64]("test.bounded", session.NoRollback)

func size8(int64) int64 { return 8 }

// A bounded LOG slice keeps its newest items, at most the bound, and at least half of it once full.
func TestAppendBoundedKeepsTheNewestWithinTheBound(t *testing.T) {
	s := session.New()
	b := session.Bound{Entries: 100, Bytes: -1}
	for i := range int64(1000) {
		session.AppendBounded(s, boundedLog, i, 8, b, size8)
		all := session.All(s, boundedLog)
		if len(all) > 100 || (i >= 100 && len(all) < 50) {
			t.Fatalf("after %d appends: %d items", i+1, len(all))
		}
		if all[len(all)-1] != i || all[0] != i-int64(len(all))+1 {
			t.Fatalf("after %d appends: items %d..%d, want the newest", i+1, all[0], all[len(all)-1])
		}
	}
	// By bytes: 80 bytes hold 10 items; a trim keeps 40 bytes.
	s = session.New()
	for i := range int64(95) {
		session.AppendBounded(s, boundedLog, i, 8, session.Bound{Entries: -1, Bytes: 80}, size8)
	}
	if got, want := session.All(s, boundedLog), []int64{90, 91, 92, 93, 94}; !slices.Equal(got, want) {
		t.Fatalf("byte-bounded log = %v, want %v", got, want)
	}
}

// Seed and Replace make the next AppendBounded recount; a snapshot's Restore keeps the log and its
// count (LOG slices are never rolled back).
func TestAppendBoundedRecountsAfterOtherChanges(t *testing.T) {
	s := session.New()
	session.Seed(s, boundedLog, 1, 2, 3, 4, 5, 6, 7, 8, 9) // 72 bytes, uncounted
	session.AppendBounded(s, boundedLog, 10, 8, session.Bound{Entries: -1, Bytes: 72}, size8)
	if got, want := session.All(s, boundedLog), []int64{7, 8, 9, 10}; !slices.Equal(got, want) { // 80 > 72: keep 36
		t.Fatalf("after Seed and one bounded append: %v, want %v", got, want)
	}
	sn := s.Snapshot()
	for i := range int64(4) {
		session.AppendBounded(s, boundedLog, 11+i, 8, session.Bound{Entries: -1, Bytes: 72}, size8)
	}
	s.Restore(sn) // 7..14, 64 bytes
	session.AppendBounded(s, boundedLog, 15, 8, session.Bound{Entries: -1, Bytes: 72}, size8)
	session.AppendBounded(s, boundedLog, 16, 8, session.Bound{Entries: -1, Bytes: 72}, size8)
	if got, want := session.All(s, boundedLog), []int64{13, 14, 15, 16}; !slices.Equal(got, want) {
		t.Fatalf("after a restore: %v, want %v", got, want)
	}
}

// Goroutines appending at once never take the log past its bound, and none of their items is lost
// but by a trim (run with -race).
func TestAppendBoundedIsOneStepForConcurrentAppenders(t *testing.T) {
	s := session.New()
	b := session.Bound{Entries: 64, Bytes: -1}
	var wg sync.WaitGroup
	for g := range int64(4) {
		wg.Go(func() {
			for i := range int64(2000) {
				session.AppendBounded(s, boundedLog, g<<32|i, 8, b, size8)
				if n := session.Len(s, boundedLog); n > 64 {
					t.Errorf("log holds %d items", n)
					return
				}
			}
		})
	}
	wg.Wait()
	last := map[int64]int64{}
	for _, x := range session.All(s, boundedLog) {
		g, i := x>>32, x&(1<<32-1)
		if p, ok := last[g]; ok && i <= p {
			t.Fatalf("goroutine %d's items out of order: %d after %d", g, i, p)
		}
		last[g] = i
	}
}

// A long session's bounded log costs about what its items' storage costs: one leaf of 32 items per
// 32 appends (8.25 bytes an int64 item), the trie's path copy (one 512-byte node per leaf: a trim
// renumbers the kept leaves, so the trie stays as shallow as what it keeps) and, per trim, the new
// interior nodes over the kept leaves; no item is copied. 27 bytes per append measured; 43 when the
// trie kept deepening with the items ever appended.
func TestAppendBoundedTrimCopiesNothing(t *testing.T) {
	s := session.New()
	b := session.Bound{Entries: 1000, Bytes: -1}
	for i := range int64(5000) {
		session.AppendBounded(s, boundedLog, i, 8, b, size8)
	}
	const n = 20000
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range int64(n) {
		session.AppendBounded(s, boundedLog, i, 8, b, size8)
	}
	runtime.ReadMemStats(&after)
	if per := float64(after.TotalAlloc-before.TotalAlloc) / n; per > 32 {
		t.Errorf("%.1f bytes allocated per append, want at most 32", per)
	}
}
