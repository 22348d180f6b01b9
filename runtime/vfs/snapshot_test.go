package vfs

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// dump describes the whole tree through the Filesystem interface: "dir/" for directories, "file=content".
func dump(t testing.TB, fsys Filesystem) []string {
	t.Helper()
	var out []string
	var rec func(dir string)
	rec = func(dir string) {
		es, err := fsys.List(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.IsDir {
				out = append(out, e.Path+"/")
				rec(e.Path)
				continue
			}
			out = append(out, e.Path+"="+mustRead(t, fsys, e.Path))
		}
	}
	rec(".")
	return out
}

// hostDump describes the tree under a host directory including modes, symlink targets and file mtimes.
func hostDump(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		line := rel + " " + fi.Mode().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + " " + string(b)
		case fi.IsDir() && rel != ".":
			line += " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
		}
		out = append(out, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// randomOps applies n random operations over a small name space so they collide (overwrite, remove
// directories with content, turn files into directories...).
func randomOps(t testing.TB, fsys rwFS, r *rand.Rand, n int) {
	names := []string{"a", "b", "c.txt", "d"}
	randPath := func() string {
		depth := 1 + r.IntN(3)
		parts := make([]string, depth)
		for i := range parts {
			parts[i] = names[r.IntN(len(names))]
		}
		return strings.Join(parts, "/")
	}
	for range n {
		p := randPath()
		switch r.IntN(5) {
		case 0, 1:
			fsys.Write(p, []byte("v"+strconv.Itoa(r.IntN(1000))+strings.Repeat("x", r.IntN(3000))))
		case 2:
			replaceAll(fsys, p, "x", "yy")
		case 3:
			fsys.Remove(p)
		case 4:
			fsys.MkdirAll(p)
		}
	}
}

func TestSnapshotRestoreRandomSequences(t *testing.T) {
	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) {
			for seed := range uint64(30) {
				r := rand.New(rand.NewPCG(seed, 7))
				fsys := im.new(t)
				sn := fsys.(snapshotter)
				randomOps(t, fsys, r, 40)
				var hostBefore []string
				if h, ok := fsys.(*Host); ok {
					hostBefore = hostDump(t, h.Root())
				}
				before := dump(t, fsys)
				snap, err := sn.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				randomOps(t, fsys, r, 40)
				// A second snapshot in between exercises the incremental path.
				if _, err := sn.Snapshot(); err != nil {
					t.Fatal(err)
				}
				randomOps(t, fsys, r, 20)
				if err := sn.Restore(snap); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(before, dump(t, fsys)); diff != "" {
					t.Fatalf("seed %d: tree after restore differs (-want +got):\n%s", seed, diff)
				}
				if h, ok := fsys.(*Host); ok {
					if diff := cmp.Diff(hostBefore, hostDump(t, h.Root())); diff != "" {
						t.Fatalf("seed %d: host tree after restore differs (-want +got):\n%s", seed, diff)
					}
				}
				// Restoring twice, and after further changes, gives the same tree again.
				randomOps(t, fsys, r, 20)
				if err := sn.Restore(snap); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(before, dump(t, fsys)); diff != "" {
					t.Fatalf("seed %d: second restore differs:\n%s", seed, diff)
				}
			}
		})
	}
}

func TestMemorySnapshotIsolatedFromLaterWrites(t *testing.T) {
	m := NewMemory()
	mustWrite(t, m, "f", "old")
	s, _ := m.Snapshot()
	mustWrite(t, m, "f", "new")
	m.Remove("f")
	mustWrite(t, m, "g", "x")
	if err := m.Restore(s); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"f=old"}, dump(t, m)); diff != "" {
		t.Fatal(diff)
	}
}

// TestHostRestoreUndoesSubprocessChanges: changes made by another process after the snapshot, including
// in-place appends that keep the inode, deletions, new directories, chmod and symlinks, are all rolled back.
func TestHostRestoreUndoesSubprocessChanges(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	h, root := newHost(t)
	mustWrite(t, h, "f", "base\n")
	mustWrite(t, h, "g", "gone soon")
	mustWrite(t, h, "keep/deep/h", "h")
	mustWrite(t, h, "exec.sh", "#!/bin/sh\n")
	os.Chmod(filepath.Join(root, "exec.sh"), 0o755)
	os.Symlink("f", filepath.Join(root, "link"))
	// Run the same change twice: once right after the writes above (every file racy), once with
	// signatures trusted (their ctime well before the snapshot), to exercise both paths.
	for _, age := range []string{"fresh", "aged"} {
		if age == "aged" {
			waitPastRacyWindow()
		}
		want := hostDump(t, root)
		snap, err := h.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		script := `echo x >> f; rm g; mkdir d; echo y > d/n; chmod 600 exec.sh; rm -r keep/deep; ` +
			`ln -sf g link; chmod 500 keep; printf z > new.txt`
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", age, err, out)
		}
		if err := h.Restore(snap); err != nil {
			t.Fatalf("%s: restore: %v", age, err)
		}
		if diff := cmp.Diff(want, hostDump(t, root)); diff != "" {
			t.Fatalf("%s: tree after restore differs (-want +got):\n%s", age, diff)
		}
	}
}

// TestHostRestoreSeesForgedMtime: an in-place rewrite that keeps the size and puts the mtime back is still
// rolled back (ctime changes), with fresh and with trusted signatures.
func TestHostRestoreSeesForgedMtime(t *testing.T) {
	for _, age := range []string{"fresh", "aged"} {
		t.Run(age, func(t *testing.T) {
			h, root := newHost(t)
			mustWrite(t, h, "f", "aaaa")
			p := filepath.Join(root, "f")
			fi, _ := os.Stat(p)
			if age == "aged" {
				waitPastRacyWindow()
			}
			snap, _ := h.Snapshot()
			os.WriteFile(p, []byte("bbbb"), 0o644)
			os.Chtimes(p, fi.ModTime(), fi.ModTime())
			if err := h.Restore(snap); err != nil {
				t.Fatal(err)
			}
			if got := mustRead(t, h, "f"); got != "aaaa" {
				t.Fatalf("after restore f = %q", got)
			}
		})
	}
}

func storeBlobs(t *testing.T, h *Host) int {
	t.Helper()
	es, err := os.ReadDir(h.store.dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// TestHostSnapshotCopiesOnlyChangedFiles: the second snapshot stores one new blob for one changed file.
func TestHostSnapshotCopiesOnlyChangedFiles(t *testing.T) {
	for _, age := range []string{"fresh", "aged"} {
		t.Run(age, func(t *testing.T) {
			h, _ := newHost(t)
			for i := range 5 {
				mustWrite(t, h, "d/f"+strconv.Itoa(i), "content "+strconv.Itoa(i))
			}
			if age == "aged" {
				waitPastRacyWindow()
			}
			s1, _ := h.Snapshot()
			if n := storeBlobs(t, h); n != 5 {
				t.Fatalf("first snapshot stored %d blobs, want 5", n)
			}
			mustWrite(t, h, "d/f3", "changed")
			s2, _ := h.Snapshot()
			if n := storeBlobs(t, h); n != 6 {
				t.Fatalf("second snapshot: store holds %d blobs, want 6", n)
			}
			h.Release(s1)
			h.Release(s2)
			if n := storeBlobs(t, h); n != 5 {
				t.Fatalf("after releasing both: %d blobs, want the 5 the index still uses", n)
			}
		})
	}
}
