package vfs

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWritesNeverReachAnInodeOutsideTheRoot: a file inside the root hard-linked to one outside it is
// written (Write, Edit) by giving the path a new inode; the outside file never changes, and a restore
// puts the inside path back.
func TestWritesNeverReachAnInodeOutsideTheRoot(t *testing.T) {
	outsideDir, root := t.TempDir(), t.TempDir()
	outside := filepath.Join(outsideDir, "secret.txt")
	if err := os.WriteFile(outside, []byte("outside content\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(root, "linked.txt")); err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(root)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	snap, err := h.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Write("linked.txt", []byte("rewritten\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "outside content\n" {
		t.Fatalf("the file outside the root changed: %q", b)
	}
	if b, _ := h.Read("linked.txt"); string(b) != "rewritten\n" {
		t.Fatalf("the inside path reads %q", b)
	}
	fi, _ := os.Stat(filepath.Join(root, "linked.txt"))
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640 kept", fi.Mode().Perm())
	}
	if err := h.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if b, _ := h.Read("linked.txt"); string(b) != "outside content\n" {
		t.Fatalf("after restore the inside path reads %q", b)
	}
	if b, _ := os.ReadFile(outside); string(b) != "outside content\n" {
		t.Fatalf("the file outside the root changed: %q", b)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}
