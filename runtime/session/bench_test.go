package session

import (
	"strconv"
	"testing"
)

type benchItem struct {
	ID   int
	Name string
}

// Benchmark slices are declared once, as programs do: slice ids are
// process-wide and size every session's table of heads.
var (
	benchState = NewSlice[benchItem]("bench", Rollback)
	benchLog   = NewSlice[benchItem]("bench_log", NoRollback)
)

// BenchmarkSnapshotRestore measures one transaction: snapshot, one append,
// restore. Its cost must not depend on the number of items in the slice.
func BenchmarkSnapshotRestore(b *testing.B) {
	for _, n := range []int{10, 100000} {
		b.Run("items="+strconv.Itoa(n), func(b *testing.B) {
			sl := benchState
			s := New()
			Append(s, benchLog, benchItem{})
			items := make([]benchItem, n)
			for i := range items {
				items[i] = benchItem{ID: i, Name: "item"}
			}
			Seed(s, sl, items...)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				sn := s.Snapshot()
				Append(s, sl, benchItem{ID: i})
				s.Restore(sn)
			}
			b.StopTimer()
			if got := Len(s, sl); got != n {
				b.Fatalf("Len = %d after restores, want %d", got, n)
			}
		})
	}
}

// BenchmarkAppend measures Append on a growing slice.
func BenchmarkAppend(b *testing.B) {
	sl := NewSlice[benchItem]("bench_append", Rollback)
	s := New()
	b.ReportAllocs()
	for i := range b.N {
		Append(s, sl, benchItem{ID: i})
	}
}

// BenchmarkAll measures copying out 1000 items.
func BenchmarkAll(b *testing.B) {
	sl := NewSlice[benchItem]("bench_all", Rollback)
	s := New()
	for i := range 1000 {
		Append(s, sl, benchItem{ID: i})
	}
	b.ReportAllocs()
	for range b.N {
		if len(All(s, sl)) != 1000 {
			b.Fatal("wrong length")
		}
	}
}

// BenchmarkApply measures one event through one appending reducer.
func BenchmarkApply(b *testing.B) {
	sl := NewSlice[benchItem]("bench_dispatch", Rollback)
	ev := NewEvent[int]("bench_event")
	s := New()
	OnAppend(s, ev, sl, func(i int) benchItem { return benchItem{ID: i} })
	b.ReportAllocs()
	for i := range b.N {
		if err := Apply(s, ev, i); err != nil {
			b.Fatal(err)
		}
	}
}
