package vfs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func newHost(t testing.TB) (*Host, string) {
	dir := t.TempDir()
	h, err := NewHost(dir, BackupDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h, h.Root()
}

func TestHostAbsolutePaths(t *testing.T) {
	h, root := newHost(t)
	mustWrite(t, h, "a.txt", "in")
	if got := mustRead(t, h, filepath.Join(root, "a.txt")); got != "in" {
		t.Fatalf("absolute inside root: %q", got)
	}
	if e, err := h.Stat(root); err != nil || e.Path != "." {
		t.Fatalf("stat root by host path: %+v %v", e, err)
	}
	for _, p := range []string{"/etc/passwd", "/", root + "/../x", root + "x/a.txt"} {
		if _, err := h.Read(p); !errors.Is(err, ErrEscapesRoot) {
			t.Errorf("read %q: %v", p, err)
		}
	}
}

func TestHostSymlinks(t *testing.T) {
	h, root := newHost(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644)
	mustWrite(t, h, "inside/real.txt", "real")
	links := map[string]string{
		"out-file":     filepath.Join(outside, "secret"),
		"out-dir":      outside,
		"rel-out":      "../" + filepath.Base(outside) + "/secret",
		"dangling-out": filepath.Join(outside, "nothing-here"),
		"in-file":      "inside/real.txt",
		"in-dir":       "inside",
		"dangling-in":  "inside/missing",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	escapes := []string{"out-file", "out-dir/secret", "out-dir", "rel-out", "dangling-out"}
	for _, p := range escapes {
		if _, err := h.Read(p); !errors.Is(err, ErrEscapesRoot) {
			t.Errorf("read %q: %v", p, err)
		}
		if err := h.Write(p, []byte("pwned")); !errors.Is(err, ErrEscapesRoot) {
			t.Errorf("write %q: %v", p, err)
		}
		if _, err := h.Stat(p); !errors.Is(err, ErrEscapesRoot) {
			t.Errorf("stat %q: %v", p, err)
		}
	}
	if _, err := h.List("out-dir"); !errors.Is(err, ErrEscapesRoot) {
		t.Errorf("ls out-dir: %v", err)
	}
	if err := h.Write("out-dir/new", []byte("x")); !errors.Is(err, ErrEscapesRoot) {
		t.Errorf("write through dir link: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "s" {
		t.Fatalf("outside file changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(outside, "nothing-here")); !os.IsNotExist(err) {
		t.Fatal("write through dangling link created a file outside the root")
	}
	if got := mustRead(t, h, "in-file"); got != "real" {
		t.Fatalf("inside link: %q", got)
	}
	if got := mustRead(t, h, "in-dir/real.txt"); got != "real" {
		t.Fatalf("inside dir link: %q", got)
	}
	if _, err := h.Read("dangling-in"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("dangling inside: %v", err)
	}
	// Removing a link removes the link, not the target.
	if err := h.Remove("out-dir"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(outside, "secret")); err != nil {
		t.Fatalf("rm of link touched its target: %v", err)
	}
}

func TestNewHostRejectsMissingRootAndBackupInsideRoot(t *testing.T) {
	if _, err := NewHost(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing root: %v", err)
	}
	root := t.TempDir()
	h, err := NewHost(root, BackupDir(filepath.Join(root, "sub")))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	os.Mkdir(filepath.Join(root, "sub"), 0o755)
	if _, err := h.Snapshot(); err == nil {
		t.Fatal("snapshot store inside the root was accepted")
	}
}

func TestHostCloseDeletesStoreAndReleaseInvalidatesSnapshot(t *testing.T) {
	backup := t.TempDir()
	h, err := NewHost(t.TempDir(), BackupDir(backup))
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, h, "f", "1")
	s1, _ := h.Snapshot()
	mustWrite(t, h, "f", "2")
	s2, _ := h.Snapshot()
	h.Release(s1)
	if err := h.Restore(s1); err == nil || err.Error() != `restore ".": snapshot was released` {
		t.Fatalf("restore released: %v", err)
	}
	mustWrite(t, h, "f", "3")
	if err := h.Restore(s2); err != nil || mustRead(t, h, "f") != "2" {
		t.Fatalf("restore s2: %v", err)
	}
	ents, _ := os.ReadDir(backup)
	if len(ents) != 1 {
		t.Fatalf("backup dir holds %d entries, want one store", len(ents))
	}
	store := filepath.Join(backup, ents[0].Name())
	blobs, _ := os.ReadDir(store)
	if len(blobs) != 1 {
		t.Fatalf("store holds %d blobs after releasing s1, want 1 (content \"2\")", len(blobs))
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(store); !os.IsNotExist(err) {
		t.Fatalf("store survives Close: %v", err)
	}
	if _, err := h.Read("f"); !errors.Is(err, ErrClosed) {
		t.Fatalf("read after close: %v", err)
	}
	if err := h.Restore(s2); !errors.Is(err, ErrClosed) {
		t.Fatalf("restore after close: %v", err)
	}
}
