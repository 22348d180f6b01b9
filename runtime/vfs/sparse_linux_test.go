package vfs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// diskBytes is the space a file really takes (st_blocks).
func diskBytes(t *testing.T, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		t.Skip("no st_blocks on this platform")
	}
	return st.Blocks * 512
}

// TestSparseFilesAreSnapshotAndRestoredSparsely: a 2 GiB file holding a few KiB of data costs those KiB in
// the snapshot store, and a restore brings it back, holes included, quickly.
func TestSparseFilesAreSnapshotAndRestoredSparsely(t *testing.T) {
	root := t.TempDir()
	big := filepath.Join(root, "big.img")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("header"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("middle"), 1<<30); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if diskBytes(t, big) > 1<<20 {
		t.Skip("the temporary filesystem does not keep holes")
	}
	h, err := NewHost(root)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	start := time.Now()
	snap, err := h.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("snapshot of a sparse 2 GiB file took %v", took)
	}
	var stored int64
	entries, _ := os.ReadDir(h.store.dir)
	for _, e := range entries {
		stored += diskBytes(t, filepath.Join(h.store.dir, e.Name()))
	}
	if stored > 1<<20 {
		t.Fatalf("the snapshot store takes %d bytes for a file with 12 bytes of data", stored)
	}
	if err := os.WriteFile(big, []byte("replaced"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := h.Restore(snap); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(big)
	if fi.Size() != 2<<30 || diskBytes(t, big) > 1<<20 {
		t.Fatalf("restored size %d, %d bytes on disk", fi.Size(), diskBytes(t, big))
	}
	g, _ := os.Open(big)
	defer g.Close()
	buf := make([]byte, 6)
	g.ReadAt(buf, 0)
	if string(buf) != "header" {
		t.Fatalf("restored header %q", buf)
	}
	g.ReadAt(buf, 1<<30)
	if string(buf) != "middle" {
		t.Fatalf("restored middle %q", buf)
	}
}

// TestSnapshotOverItsByteCapFailsNamingTheFile: a snapshot that would copy more file content than
// MaxSnapshotBytes fails, naming the file, and stores nothing.
func TestSnapshotOverItsByteCapFailsNamingTheFile(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "small.txt"), []byte("small"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "large.bin"), make([]byte, 3<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(root, MaxSnapshotBytes(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	_, err = h.Snapshot()
	want := `snapshot ".": copying "large.bin" would take the snapshot over its limit of 1048576 bytes of file content (vfs.MaxSnapshotBytes); move large files out of the workspace or raise the limit`
	if err == nil || err.Error() != want || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	entries, _ := os.ReadDir(h.store.dir)
	if len(entries) != 0 {
		t.Fatalf("a failed snapshot left %d copies", len(entries))
	}
	if err := os.Remove(filepath.Join(root, "large.bin")); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Snapshot(); err != nil && !strings.Contains(err.Error(), "large") {
		t.Fatal(err)
	}
}
