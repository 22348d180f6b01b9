package session

import (
	"errors"
	"slices"
	"testing"
)

// TestLogAppendUnderSnapshotAllocatesOnlyItemStorage checks that appending to a LOG slice while a
// snapshot shares the table (what a dispatcher does on every call: snapshot, then log the call) neither
// copies the table nor allocates a new head: only the 32-item chunks are allocated.
func TestLogAppendUnderSnapshotAllocatesOnlyItemStorage(t *testing.T) {
	logSl := NewSlice[int]("log_alloc", NoRollback)
	stateSl := NewSlice[int]("state_alloc", Rollback)
	s := New()
	Append(s, stateSl, 1)
	Append(s, logSl, 0)
	i := 0
	allocs := testing.AllocsPerRun(3200, func() {
		sn := s.Snapshot()
		Append(s, logSl, i)
		i++
		if i%2 == 0 {
			s.Restore(sn) // a failed call: the log keeps its items
		}
	})
	// One chunk per 32 appends, and half of the iterations restore (Restore builds a new table).
	if max := 1.0/32 + 0.5 + 0.01; allocs > max {
		t.Errorf("%.3f allocations per snapshot+append, want <= %.3f", allocs, max)
	}
	if got, want := Len(s, logSl), 1+3201; got != want { // AllocsPerRun runs the function once more
		t.Errorf("log has %d items, want %d", got, want)
	}
}

// TestLogAppendInPlaceKeepsEveryGuarantee mixes in-place LOG appends with views, snapshots, restores
// and failing dispatches across chunk and trie boundaries, and checks each against a model.
func TestLogAppendInPlaceKeepsEveryGuarantee(t *testing.T) {
	logSl := NewSlice[int]("log_inplace", NoRollback)
	ev := NewEvent[int]("log_inplace_ev")
	s := New()
	On(s, ev, logSl, func(_ View[int], e int) (Op[int], error) { return Appended(e), nil })
	On(s, ev, logSl, func(_ View[int], e int) (Op[int], error) {
		if e < 0 {
			return Op[int]{}, errors.New("negative")
		}
		return Unchanged[int](), nil
	})
	var want []int
	type held struct {
		v    View[int]
		want []int
	}
	var views []held
	for i := range 1200 {
		sn := s.Snapshot()
		Append(s, logSl, i)
		want = append(want, i)
		switch {
		case i%97 == 0:
			views = append(views, held{ViewOf(s, logSl), slices.Clone(want)})
		case i%61 == 0:
			if err := Apply(s, ev, -i); err == nil {
				t.Fatal("dispatch of a negative event succeeded")
			}
		case i%13 == 0:
			if err := Apply(s, ev, i); err != nil {
				t.Fatal(err)
			}
			want = append(want, i)
		}
		if i%3 == 0 {
			s.Restore(sn)
		}
		if got := All(s, logSl); !slices.Equal(got, want) {
			t.Fatalf("after %d: log has %d items, want %d", i, len(got), len(want))
		}
	}
	for k, h := range views {
		if got := h.v.All(); !slices.Equal(got, h.want) {
			t.Fatalf("view %d changed: %d items, want %d", k, len(got), len(h.want))
		}
	}
}
