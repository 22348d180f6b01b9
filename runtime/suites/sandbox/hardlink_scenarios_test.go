//go:build linux

package sandbox_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/sandbox"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// printTree describes the tree under dir: each path's kind, mode and content, and for a file the first
// path (in walk order) of its inode, so two trees print alike exactly when names share inodes alike.
func printTree(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	first := map[uint64]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			lines = append(lines, fmt.Sprintf("%s dir %v", rel, fi.Mode()))
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			ino := fi.Sys().(*syscall.Stat_t).Ino
			if _, ok := first[ino]; !ok {
				first[ino] = rel
			}
			lines = append(lines, fmt.Sprintf("%s file %v %q inode of %s", rel, fi.Mode(), b, first[ino]))
		case fi.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			lines = append(lines, rel+" symlink "+l)
		default:
			lines = append(lines, fmt.Sprintf("%s other %v", rel, fi.Mode()))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// TestShellRollbackScenariosWithLinks: through the shell tool and the dispatcher's transaction, with the
// workspace tracked and walked: commands that link names across directories, rename a directory holding
// linked files, remove a name and re-create it, link to a file made in the same call, make 150 links to
// one file, or chmod, truncate and append through links, then fail; the workspace must be exactly as
// before the call (names, modes, contents, and which names share a file), also after committed calls
// that left links behind. A setuid bit set through a link is taken from every name of the file. Also run
// as nobody (TestSandboxAsAnUnprivilegedUser).
func TestShellRollbackScenariosWithLinks(t *testing.T) {
	requireBwrap(t)
	type call struct {
		script string
		keep   bool
	}
	scenarios := []struct {
		name  string
		calls []call
	}{
		{"across directories", []call{{"mkdir d && echo A > d/e && echo B > f", true}, {"mkdir x && ln d/e x/e && echo new > x/e", false},
			{"mkdir x && ln d/e x/e", true}, {"echo through > x/e && ln -f f d/e && echo f2 >> d/e", false}}},
		{"directory renamed", []call{{"mkdir d && echo A > d/e && ln d/e a", true}, {"mv d x && echo new > x/e", false},
			{"mv d x", true}, {"echo new >> a && mv x d", false}}},
		{"removed and re-created", []call{{"echo A > a", true}, {"ln a b && rm a && echo B > a && echo x >> b", false},
			{"ln a b", true}, {"rm a && echo C > a && truncate -s 0 b", false}}},
		{"made in the same call", []call{{"echo n > n && ln n m && echo more >> m && chmod 600 m", false},
			{"echo n > n && ln n m", true}, {"echo z >> m && rm n && ln m n2", false}}},
		{"many links", []call{{"echo A > a", true}, {"for i in $(seq 150); do ln a l$i; done; echo x > l77", false},
			{"for i in $(seq 150); do ln a l$i; done", true}, {"echo y >> l3 && rm a l1 && echo K > l5 && chmod 700 l9", false}}},
		{"symlinks beside links", []call{{"echo A > a", true}, {"ln -s a s && ln a h && echo x >> s && rm a", false}}},
	}
	for _, track := range []bool{true, false} {
		for _, sc := range scenarios {
			t.Run(fmt.Sprintf("track=%v/%s", track, sc.name), func(t *testing.T) {
				t.Parallel() // each waits for its sandboxed commands, one at a time: side by side they keep the cores busy
				root := t.TempDir()
				h, err := vfs.NewHost(root, vfs.BackupDir(t.TempDir()), vfs.TrackChanges(track))
				if err != nil {
					t.Fatal(err)
				}
				defer h.Close()
				d := &wink.Dispatcher{Registry: wink.MustRegistry(sandbox.WinkTools()), Filesystem: h, Session: session.New()}
				e := &env{d: d, host: h, root: root}
				for i, c := range sc.calls {
					before := printTree(t, root)
					script := c.script
					if !c.keep {
						script += "; exit 1"
					}
					out := e.shell(t, `{"command":"sh","args":["-c",`+strconv.Quote(script)+`]}`)
					if out.Success != c.keep {
						t.Fatalf("call %d %q: outcome %+v", i, c.script, out)
					}
					if !c.keep {
						if after := printTree(t, root); after != before {
							t.Fatalf("call %d %q rolled back to:\n%s\nwant\n%s", i, c.script, after, before)
						}
					}
				}
				// A setuid bit set through a link leaves no name of the file with it.
				out := e.shell(t, `{"command":"sh","args":["-c","echo s > s0 && ln s0 s1 && chmod 4755 s1"]}`)
				if !out.Success {
					t.Fatalf("outcome %+v", out)
				}
				for _, n := range []string{"s0", "s1"} {
					if fi, err := os.Lstat(filepath.Join(root, n)); err != nil || fi.Mode()&os.ModeSetuid != 0 {
						t.Errorf("%s: %v %v", n, fi, err)
					}
				}
			})
		}
	}
}
