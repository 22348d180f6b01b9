package vfs

import (
	"strconv"
	"testing"
)

func fill(b *testing.B, fsys rwFS, files, size int) {
	data := make([]byte, size)
	for i := range files {
		if err := fsys.Write("dir"+strconv.Itoa(i%100)+"/f"+strconv.Itoa(i), data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSnapshotRestore: one op = Snapshot + one Write + Restore on a tree of n files of 10 KiB.
func BenchmarkSnapshotRestore(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run("memory/files="+strconv.Itoa(n), func(b *testing.B) {
			m := NewMemory()
			fill(b, m, n, 10<<10)
			data := []byte("changed")
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				s, _ := m.Snapshot()
				if err := m.Write("dir1/f1", data); err != nil {
					b.Fatal(err)
				}
				if err := m.Restore(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The same data in one directory of 10,000 files: that directory's B-tree is four levels deep (the
	// 100-file directories above have two), the worst shape for this amount of data.
	b.Run("memory-flat/files=10000", func(b *testing.B) {
		m := NewMemory()
		data := make([]byte, 10<<10)
		for i := range 10000 {
			if err := m.Write("flat/f"+strconv.Itoa(i), data); err != nil {
				b.Fatal(err)
			}
		}
		changed := []byte("changed")
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			s, _ := m.Snapshot()
			if err := m.Write("flat/f1", changed); err != nil {
				b.Fatal(err)
			}
			if err := m.Restore(s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkHostSnapshot: one op = Snapshot + rewrite one file + Restore on a host tree of n files of 10 KiB.
func BenchmarkHostSnapshot(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run("files="+strconv.Itoa(n), func(b *testing.B) {
			h, _ := newHost(b)
			fill(b, h, n, 10<<10)
			waitPastRacyWindow()
			s, _ := h.Snapshot() // the first, full copy is set-up
			h.Release(s)
			data := []byte("changed")
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				s, err := h.Snapshot()
				if err != nil {
					b.Fatal(err)
				}
				if err := h.Write("dir1/f1", data); err != nil {
					b.Fatal(err)
				}
				if err := h.Restore(s); err != nil {
					b.Fatal(err)
				}
				h.Release(s)
			}
		})
	}
}
