package vfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// BenchmarkGoSourceTree: one op = Snapshot + change one file + Restore on a copy of $(go env GOROOT)/src
// (about 11,500 files), with change tracking, with the full walk, and `git status` on the same tree; then
// the same with ten copies of it (10x the files). Run:
//
//	go test -run '^$' -bench GoSourceTree -benchmem -count 5 ./runtime/vfs
func BenchmarkGoSourceTree(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(src); err != nil {
		b.Fatalf("no Go source tree at %s: %v", src, err)
	}
	for _, copies := range []int{1, 10} {
		root := b.TempDir()
		for i := range copies {
			dst := filepath.Join(root, "src"+strconv.Itoa(i))
			if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
				b.Fatalf("cp: %v %s", err, out)
			}
		}
		files := 0
		filepath.WalkDir(root, func(_ string, d os.DirEntry, _ error) error {
			if d != nil && !d.IsDir() {
				files++
			}
			return nil
		})
		name := "files=" + strconv.Itoa(files)
		target := filepath.Join("src0", "fmt", "print.go")
		for _, mode := range []struct {
			name  string
			track bool
		}{{"tracking", true}, {"walk", false}} {
			b.Run(name+"/"+mode.name, func(b *testing.B) {
				h, err := NewHost(root, BackupDir(b.TempDir()), TrackChanges(mode.track), MaxSnapshotBytes(8<<30))
				if err != nil {
					b.Fatal(err)
				}
				defer h.Close()
				s, err := h.Snapshot() // the first, full copy is set-up
				if err != nil {
					b.Fatal(err)
				}
				h.Release(s)
				data := []byte("package fmt // changed\n")
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					s, err := h.Snapshot()
					if err != nil {
						b.Fatal(err)
					}
					if err := h.Write(target, data); err != nil {
						b.Fatal(err)
					}
					if err := h.Restore(s); err != nil {
						b.Fatal(err)
					}
					h.Release(s)
				}
				b.StopTimer()
				if mode.track && !h.trackReady() {
					b.Fatal("tracking was lost during the benchmark")
				}
			})
		}
		b.Run(name+"/git-status", func(b *testing.B) {
			git := func(args ...string) {
				cmd := exec.Command("git", args...)
				cmd.Dir = root
				cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@b", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@b")
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("git %v: %v %s", args, err, out)
				}
			}
			if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
				git("init", "-q")
				git("add", "-A")
				git("commit", "-q", "-m", "tree")
				git("status", "--porcelain") // warm the index
			}
			b.ResetTimer()
			for b.Loop() {
				git("status", "--porcelain")
			}
		})
	}
}
