package vfs

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// snappedHost opens a Host on dir, tracking changes or walking, and takes a snapshot; the snapshot is
// released and the Host closed when the test ends.
func snappedHost(t *testing.T, dir string, track bool) (*Host, any) {
	t.Helper()
	h, err := NewHost(dir, BackupDir(t.TempDir()), TrackChanges(track))
	must(t, err)
	t.Cleanup(func() { h.Close() })
	snap, err := h.Snapshot()
	must(t, err)
	t.Cleanup(func() { h.Release(snap) })
	return h, snap
}

// TestScrubPrivilegesTakesAwayWhatCouldGrantThem: after a snapshot, setuid/setgid files and directories,
// a file with capabilities, a fifo and a socket are made under the root; ScrubPrivileges takes every
// privilege away (bits cleared, capabilities dropped, special files removed) and leaves alone what was
// there before and is unchanged, tracked and walked. Also run as nobody (capabilities need root).
func TestScrubPrivilegesTakesAwayWhatCouldGrantThem(t *testing.T) {
	for _, track := range []bool{true, false} {
		t.Run(fmt.Sprintf("track=%v", track), func(t *testing.T) {
			dir := t.TempDir()
			p := func(n string) string { return filepath.Join(dir, n) }
			must(t, os.WriteFile(p("kept"), []byte("#!/bin/sh\n"), 0o755))
			must(t, os.Chmod(p("kept"), 0o755|os.ModeSetuid))
			must(t, os.WriteFile(p("touched"), []byte("#!/bin/sh\n"), 0o755))
			must(t, os.Mkdir(p("shared"), 0o775))
			must(t, os.Chmod(p("shared"), 0o775|os.ModeSetgid))
			h, snap := snappedHost(t, dir, track)
			must(t, os.WriteFile(p("suid"), []byte("#!/bin/sh\n"), 0o755))
			must(t, os.Chmod(p("suid"), 0o755|os.ModeSetuid|os.ModeSetgid))
			must(t, os.MkdirAll(p("new/deep"), 0o755))
			must(t, os.Chmod(p("new/deep"), 0o755|os.ModeSetgid))
			must(t, os.WriteFile(p("new/deep/sgid"), nil, 0o755))
			must(t, os.Chmod(p("new/deep/sgid"), 0o755|os.ModeSetgid))
			must(t, os.Chmod(p("touched"), 0o755|os.ModeSetuid))
			must(t, syscall.Mkfifo(p("new/fifo"), 0o644))
			// Directories made in a setgid directory inherit its setgid: kept where the owner chose it
			// (shared, setgid before the snapshot), taken where the command did (new/deep).
			must(t, os.MkdirAll(p("new/deep/inherits/too"), 0o755))
			must(t, os.MkdirAll(p("shared/sub/subsub"), 0o755))
			must(t, unix.Mknod(p("sock"), unix.S_IFSOCK|0o644, 0)) // a socket's file, as bind makes it
			want := []string{
				`removed "new/fifo" (fifos, sockets and device nodes may not be left in the workspace)`,
				`removed "sock" (fifos, sockets and device nodes may not be left in the workspace)`,
				`removed the setuid/setgid bits of "new/deep"`,
				`removed the setuid/setgid bits of "new/deep/sgid"`,
				`removed the setuid/setgid bits of "new/deep/inherits"`,
				`removed the setuid/setgid bits of "new/deep/inherits/too"`,
				`removed the setuid/setgid bits of "suid"`,
				`removed the setuid/setgid bits of "touched"`,
			}
			if os.Geteuid() == 0 {
				// A v2 capability set: cap_net_raw permitted and effective.
				capData := make([]byte, 20)
				binary.LittleEndian.PutUint32(capData[0:], 0x02000000|1)
				binary.LittleEndian.PutUint32(capData[4:], 1<<13)
				must(t, os.WriteFile(p("capped"), []byte("x"), 0o755))
				must(t, unix.Setxattr(p("capped"), "security.capability", capData, 0))
				want = append(want, `removed the file capabilities of "capped"`)
				must(t, unix.Mknod(p("new/null"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))))
				want = append(want, `removed "new/null" (fifos, sockets and device nodes may not be left in the workspace)`)
			}
			done, err := h.ScrubPrivileges()
			must(t, err)
			slices.Sort(done)
			slices.Sort(want)
			if strings.Join(done, "\n") != strings.Join(want, "\n") {
				t.Fatalf("scrubbed:\n%s\nwant:\n%s", strings.Join(done, "\n"), strings.Join(want, "\n"))
			}
			for _, n := range []string{"suid", "new/deep", "new/deep/sgid", "touched", "new/deep/inherits", "new/deep/inherits/too"} {
				fi, err := os.Lstat(p(n))
				must(t, err)
				if fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0 {
					t.Errorf("%s still has mode %v", n, fi.Mode())
				}
			}
			for _, n := range []string{"shared", "shared/sub", "shared/sub/subsub"} {
				if fi, _ := os.Lstat(p(n)); fi.Mode()&os.ModeSetgid == 0 {
					t.Errorf("%s lost the setgid it has from shared: mode %v", n, fi.Mode())
				}
			}
			if fi, _ := os.Lstat(p("kept")); fi.Mode()&os.ModeSetuid == 0 {
				t.Errorf("kept (setuid before the snapshot, unchanged) lost its bit: %v", fi.Mode())
			}
			for _, n := range []string{"new/fifo", "sock"} {
				if _, err := os.Lstat(p(n)); err == nil {
					t.Errorf("%s is still there", n)
				}
			}
			if os.Geteuid() == 0 {
				if _, err := unix.Getxattr(p("capped"), "security.capability", nil); err == nil {
					t.Error("capped still has file capabilities")
				}
			}
			// Nothing left to take: a second scrub changes nothing; and the rollback still works.
			if again, err := h.ScrubPrivileges(); err != nil || len(again) != 0 {
				t.Fatalf("a second scrub: %v %v", again, err)
			}
			must(t, h.Restore(snap))
			if _, err := os.Lstat(p("suid")); err == nil {
				t.Error("the rollback left suid")
			}
			if fi, _ := os.Lstat(p("touched")); fi.Mode()&os.ModeSetuid != 0 {
				t.Errorf("touched has mode %v after the rollback", fi.Mode())
			}
		})
	}
}

// TestGrowthMeasuresWhatWasAdded: files written, appended to and made sparse, and new directories, after a
// snapshot; Growth counts the added data (not holes, not what was removed) and the new entries.
func TestGrowthMeasuresWhatWasAdded(t *testing.T) {
	for _, track := range []bool{true, false} {
		t.Run(fmt.Sprintf("track=%v", track), func(t *testing.T) {
			dir := t.TempDir()
			p := func(n string) string { return filepath.Join(dir, n) }
			must(t, os.WriteFile(p("old"), make([]byte, 1000), 0o644))
			must(t, os.WriteFile(p("gone"), make([]byte, 5000), 0o644))
			h, snap := snappedHost(t, dir, track)
			if g, err := h.Growth(); err != nil || g != (Growth{}) {
				t.Fatalf("growth right after the snapshot: %+v %v", g, err)
			}
			must(t, os.MkdirAll(p("d/e"), 0o755))
			must(t, os.WriteFile(p("d/e/new"), make([]byte, 10000), 0o644))
			f, err := os.OpenFile(p("old"), os.O_WRONLY|os.O_APPEND, 0)
			must(t, err)
			_, err = f.Write(make([]byte, 500))
			must(t, err)
			must(t, f.Close())
			must(t, os.Remove(p("gone")))
			must(t, os.WriteFile(p("sparse"), nil, 0o644))
			must(t, os.Truncate(p("sparse"), 1<<30))
			g, err := h.Growth()
			must(t, err)
			if want := (Growth{Bytes: 10500, Entries: 4}); g != want {
				t.Fatalf("growth %+v, want %+v", g, want)
			}
			must(t, h.Restore(snap))
			if g, err := h.Growth(); err != nil || g != (Growth{}) {
				t.Fatalf("growth after the rollback: %+v %v", g, err)
			}
		})
	}
}

// TestGrowthCountsDiskSpaceNotNames: Growth counts the space a file's data takes on disk, not its names.
// Space reserved past a file's end (fallocate --keep-size, which leaves the size 0) counts; a hard link to
// a file that was there before adds no data (only an entry), whether made in the same directory or in a
// new one; a new file with several names counts once; data appended through a link counts once. Tracked
// and walked; also run as nobody.
func TestGrowthCountsDiskSpaceNotNames(t *testing.T) {
	for _, track := range []bool{true, false} {
		t.Run(fmt.Sprintf("track=%v", track), func(t *testing.T) {
			dir := t.TempDir()
			p := func(n string) string { return filepath.Join(dir, n) }
			must(t, os.WriteFile(p("big"), make([]byte, 100000), 0o644))
			h, err := NewHost(dir, BackupDir(t.TempDir()), TrackChanges(track))
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			growth := func(want Growth, when string) {
				t.Helper()
				g, err := h.Growth()
				must(t, err)
				if g != want {
					t.Fatalf("%s: growth %+v, want %+v", when, g, want)
				}
			}
			for _, step := range []func(){
				func() { // reserved space past the end
					f, err := os.Create(p("reserved"))
					must(t, err)
					defer f.Close()
					must(t, unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_KEEP_SIZE, 0, 1<<20))
					growth(Growth{Bytes: 1 << 20, Entries: 1}, "1 MiB reserved past the end of an empty file")
				},
				func() { // links to a file that was there
					must(t, os.Link(p("big"), p("l1")))
					must(t, os.Link(p("big"), p("l2")))
					must(t, os.Mkdir(p("d"), 0o755))
					must(t, os.Link(p("big"), p("d/l3")))
					growth(Growth{Entries: 4}, "three links to a file that was there")
					f, err := os.OpenFile(p("d/l3"), os.O_WRONLY|os.O_APPEND, 0)
					must(t, err)
					_, err = f.Write(make([]byte, 1000))
					must(t, err)
					must(t, f.Close())
					growth(Growth{Bytes: 1000, Entries: 4}, "1000 bytes appended through one of them")
				},
				func() { // a new file with three names
					must(t, os.WriteFile(p("n"), make([]byte, 50000), 0o644))
					must(t, os.Link(p("n"), p("n2")))
					must(t, os.Mkdir(p("e"), 0o755))
					must(t, os.Link(p("n"), p("e/n3")))
					growth(Growth{Bytes: 50000, Entries: 4}, "a new file of 50000 bytes with three names")
				},
			} {
				snap, err := h.Snapshot()
				must(t, err)
				step()
				must(t, h.Restore(snap))
				growth(Growth{}, "after the rollback")
				h.Release(snap)
			}
		})
	}
}

// TestScrubReachesFilesInDirectoriesThatForbidIt: a setuid file left in directories without search
// permission (as a command may leave them: mode 000, or 600) still loses its bits, and the directories
// keep their modes; ScrubPrivileges does not fail. Tracked and walked; meaningful as nobody (root passes
// any directory), where it is also run.
func TestScrubReachesFilesInDirectoriesThatForbidIt(t *testing.T) {
	for _, track := range []bool{true, false} {
		t.Run(fmt.Sprintf("track=%v", track), func(t *testing.T) {
			dir := t.TempDir()
			p := func(n string) string { return filepath.Join(dir, n) }
			// A file there before the snapshot (tracked: its own path is what changed, below directories
			// that forbid reaching it), and one made after it (tracked: a new directory, walked).
			must(t, os.MkdirAll(p("old/sub"), 0o755))
			must(t, os.WriteFile(p("old/sub/y"), []byte("#!/bin/sh\n"), 0o755))
			h, snap := snappedHost(t, dir, track)
			must(t, os.MkdirAll(p("d/e"), 0o755))
			must(t, os.WriteFile(p("d/e/x"), []byte("#!/bin/sh\n"), 0o755))
			must(t, os.Chmod(p("d/e/x"), 0o4755|os.ModeSetuid))
			must(t, unix.Mkfifo(p("d/e/ff"), 0o644))
			must(t, os.Chmod(p("d/e"), 0o600))
			must(t, os.Chmod(p("d"), 0))
			must(t, os.Chmod(p("old/sub/y"), 0o755|os.ModeSetgid))
			must(t, os.Chmod(p("old/sub"), 0o600))
			must(t, os.Chmod(p("old"), 0))
			done, err := h.ScrubPrivileges()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(done, `removed the setuid/setgid bits of "d/e/x"`) || !slices.Contains(done, `removed the setuid/setgid bits of "old/sub/y"`) ||
				!slices.Contains(done, `removed "d/e/ff" (fifos, sockets and device nodes may not be left in the workspace)`) {
				t.Errorf("scrub did %q", done)
			}
			if fi, err := os.Lstat(p("old")); err != nil || fi.Mode().Perm() != 0 {
				t.Errorf("old: %v %v, want mode 000", fi.Mode(), err)
			}
			must(t, os.Chmod(p("old"), 0o700))
			must(t, os.Chmod(p("old/sub"), 0o700))
			if fi, err := os.Lstat(p("old/sub/y")); err != nil || fi.Mode()&os.ModeSetgid != 0 {
				t.Errorf("old/sub/y: %v %v", fi.Mode(), err)
			}
			must(t, os.Chmod(p("d"), 0o700))
			must(t, os.Chmod(p("d/e"), 0o700))
			fi, err := os.Lstat(p("d/e/x"))
			must(t, err)
			if fi.Mode()&os.ModeSetuid != 0 {
				t.Errorf("d/e/x has mode %v", fi.Mode())
			}
			if _, err := os.Lstat(p("d/e/ff")); !os.IsNotExist(err) {
				t.Errorf("the fifo d/e/ff: %v", err)
			}
			must(t, os.Chmod(p("d/e"), 0o600))
			must(t, os.Chmod(p("d"), 0))
			// Growth sees the file too (and counts it once).
			if g, err := h.Growth(); err != nil || g != (Growth{Bytes: 10, Entries: 3}) {
				t.Errorf("growth %+v %v, want 10 bytes and 3 entries", g, err)
			}
			fi, err = os.Lstat(p("d"))
			must(t, err)
			if fi.Mode().Perm() != 0 {
				t.Errorf("d has mode %v after the scrub, want 000", fi.Mode().Perm())
			}
			must(t, os.Chmod(p("d"), 0o700))
			fi, err = os.Lstat(p("d/e"))
			must(t, err)
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("d/e has mode %v after the scrub, want 600", fi.Mode().Perm())
			}
			must(t, os.Chmod(p("d"), 0))
			must(t, h.Restore(snap))
		})
	}
}
