package vfs

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// Hard-link rollback scenarios beside the model-based randomized test (hardlink_rollback_linux_test.go):
// directories renamed, swapped, removed and re-made with linked files in them, cp -al of trees, links
// to files made in the same call, names removed and re-created, links with chmod and truncation,
// symlinks beside hard links, 150 links to one file, names restored by an earlier rollback (new inodes)
// linked again. The expectation needs no model: a rollback gives back the tree exactly as it was before
// the call (names, kinds, modes, contents, symlink targets, and which names share an inode), whatever
// commits came before. Tracked, walked, and tracked with every snapshot falling back to a walk.

// treePrint describes the tree under dir: each path's kind, mode and content, and for a file the first
// path (in walk order) of its inode, so two trees print alike exactly when names share inodes alike.
func treePrint(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	group := map[uint64]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		switch {
		case fi.IsDir():
			lines = append(lines, fmt.Sprintf("%s dir %v", rel, fi.Mode()))
		case fi.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			g, ok := group[st.Ino]
			if !ok {
				g = rel
				group[st.Ino] = rel
			}
			lines = append(lines, fmt.Sprintf("%s file %v %q group=%s", rel, fi.Mode(), b, g))
		case fi.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			lines = append(lines, fmt.Sprintf("%s link %s", rel, l))
		default:
			lines = append(lines, fmt.Sprintf("%s other %v", rel, fi.Mode()))
		}
		return nil
	})
	return strings.Join(lines, "\n")
}

// linkStep is one call: a shell script, kept (commit) or rolled back.
type linkStep struct {
	sh     string
	commit bool
}

// TestRollbackScenariosWithLinksAndDirectories: each scenario sets a tree up, then runs calls in order;
// every call that is rolled back must leave the tree as it was before it.
func TestRollbackScenariosWithLinksAndDirectories(t *testing.T) {
	cases := []struct {
		name  string
		setup string
		steps []linkStep
	}{
		{"mvdir", "mkdir d && echo A > d/e && ln d/e a", []linkStep{{"mv d x && echo new > x/e", false}}},
		{"mvdir-commit-then-write", "mkdir d && echo A > d/e && ln d/e a", []linkStep{{"mv d x", true}, {"echo new > a", false}, {"echo new2 >> x/e", false}}},
		{"mvdir-link-inside", "mkdir d && echo A > d/e", []linkStep{{"ln d/e d/f && mv d x && echo z >> x/f", false}, {"ln d/e d/f", true}, {"mv d x", true}, {"echo q > x/f", false}, {"mv x/e a && echo r >> x/f", false}}},
		{"mvdir-nested", "mkdir -p d/s && echo A > d/s/e && ln d/s/e a", []linkStep{{"mv d/s t && mv d t/d && echo new > t/e", false}, {"mv d/s t", true}, {"mv t d/s2", true}, {"echo 9 >> a", false}, {"echo 9 >> d/s2/e", false}}},
		{"recreate", "echo A > a", []linkStep{{"ln a b && rm a && echo B > a && echo x >> b", false}, {"ln a b", true}, {"rm a && echo B > a && echo x >> b", false}, {"rm a", true}, {"echo C > a && echo y >> b", false}}},
		{"newfile", "", []linkStep{{"echo n > n && ln n m && echo q >> m", false}, {"echo n > n && ln n m", true}, {"echo z >> m && rm n", false}, {"echo z >> n && rm m", false}}},
		{"chmod", "echo A > a", []linkStep{{"ln a b && chmod 600 b && rm b", false}, {"ln a b", true}, {"chmod 700 b", false}, {"chmod 700 a && truncate -s 1 b", false}}},
		{"trunc", "echo AAAA > a && ln a b", []linkStep{{"truncate -s 0 b", false}, {"truncate -s 100 b", false}, {"echo zz >> a", false}, {"rm b", true}, {"ln a b && truncate -s 0 b", false}}},
		{"symlink", "echo A > a", []linkStep{{"ln -s a s && echo x > s", false}, {"ln -s a s", true}, {"ln s h && echo y >> s && rm s", false}, {"ln -P s h", true}, {"rm s && ln -s b s2 && echo x >> a", false}}},
		{"many", "echo A > a", []linkStep{{"for i in $(seq 150); do ln a l$i; done; echo x > l77", false}, {"for i in $(seq 150); do ln a l$i; done", true}, {"echo y >> l3 && rm l5 && echo K > l5", false}, {"rm a l1 l2 && echo z > l150", false}}},
		{"cpal", "mkdir -p d/s && echo A > d/s/e && echo B > d/f", []linkStep{{"cp -al d x && echo z >> x/s/e && echo w > x/f", false}, {"cp -al d x", true}, {"rm -r d && echo z >> x/s/e", false}, {"mv x/s d/s2 && echo q >> d/s2/e", false}}},
		{"rmdir-recreate", "mkdir d && echo A > d/e && ln d/e a", []linkStep{{"rm -r d && mkdir d && ln a d/e && echo x >> a", false}, {"rm -r d", true}, {"mkdir d && ln a d/e", true}, {"rm -r d && mkdir d && echo B > d/e && echo y >> a", false}}},
		{"restore-recreated", "echo A > a && mkdir d && echo E > d/e", []linkStep{{"rm a && rm -r d", false}, {"ln a b && echo x > b", false}, {"ln d/e f && echo y > f", false}, {"mv a c", false}, {"ln a b && echo z >> b", false}, {"mv d q", false}, {"ln d/e f && echo w >> f", false}}},
		{"restore-recreated-commit", "echo A > a", []linkStep{{"rm a", false}, {"ln a b", true}, {"echo x > b", false}, {"rm b && echo Q > a", false}, {"echo R >> b && rm a", false}}},
		{"replace-by-tool", "echo A > a", []linkStep{{"cp a t && mv t a", true}, {"ln a b && echo x >> b", false}, {"sed -i s/A/B/ a", true}, {"ln a b && echo x >> b", false}}},
		{"dirswap", "mkdir d x && echo A > d/e && echo B > x/e && ln d/e x/f", []linkStep{{"mv d t && mv x d && mv t x && echo z >> d/f", false}, {"mv d t && mv x d && mv t x", true}, {"echo q >> x/e", false}, {"echo q >> d/f", false}}},
	}
	for _, mode := range []string{"tracked", "walk", "fallback"} {
		for _, tc := range cases {
			t.Run(mode+"/"+tc.name, func(t *testing.T) {
				t.Parallel() // each runs one process at a time: side by side they keep the cores busy
				dir := t.TempDir()
				sh := newShell(t, dir).must
				if tc.setup != "" {
					sh(tc.setup)
				}
				h, err := NewHost(dir, BackupDir(t.TempDir()), TrackChanges(mode != "walk"))
				must(t, err)
				defer h.Close()
				// A first call arms tracking (its walk adds the watches).
				s0, err := h.Snapshot()
				must(t, err)
				h.Release(s0)
				for i, st := range tc.steps {
					if mode == "fallback" && h.tr != nil {
						h.tr.broken = true
					}
					before := treePrint(t, dir)
					s, err := h.Snapshot()
					must(t, err)
					sh(st.sh)
					if !st.commit {
						must(t, h.Restore(s))
						if after := treePrint(t, dir); after != before {
							t.Fatalf("step %d %q rolled back:\n%s\nwant\n%s", i, st.sh, after, before)
						}
					}
					h.Release(s)
				}
			})
		}
	}
}

// TestRandomRollbacksWithDirectoryMoves: random scripts of writes, appends, ln -f, mv -f of names,
// mv -T of directories, mkdir, rm -rf, chmod, truncate and cp -al of directories (failures ignored),
// a third of them rolled back to the latest or an older snapshot still held; the tree must then print
// as it did at that snapshot.
func TestRandomRollbacksWithDirectoryMoves(t *testing.T) {
	names := []string{"a", "b", "d/a", "d/b", "d/s/a", "x/a", "x/b"}
	dirs := []string{"d", "x", "d/s", "q"}
	for _, mode := range []string{"tracked", "walk", "fallback"} {
		for seed := uint64(1); seed <= 8; seed++ {
			t.Run(fmt.Sprintf("%s/%d", mode, seed), func(t *testing.T) {
				t.Parallel() // each runs one process at a time: side by side they keep the cores busy
				rng := rand.New(rand.NewPCG(17, seed))
				pick := func(l []string) string { return l[rng.IntN(len(l))] }
				dir := t.TempDir()
				h, err := NewHost(dir, BackupDir(t.TempDir()), TrackChanges(mode != "walk"))
				must(t, err)
				defer h.Close()
				sh := newShell(t, dir)
				type held struct {
					s  any
					fp string
				}
				var snaps []held
				for step := range 60 {
					if mode == "fallback" && h.tr != nil && step%3 == 0 {
						h.tr.broken = true
					}
					fp := treePrint(t, dir)
					s, err := h.Snapshot()
					must(t, err)
					snaps = append(snaps, held{s, fp})
					var cmds []string
					for range 1 + rng.IntN(4) {
						var c string
						switch rng.IntN(12) {
						case 0, 1:
							c = "echo v" + fmt.Sprint(step) + " > " + pick(names)
						case 2:
							c = "echo w >> " + pick(names)
						case 3, 4:
							c = "ln -f " + pick(names) + " " + pick(names)
						case 5:
							c = "mv -f " + pick(names) + " " + pick(names)
						case 6:
							c = "mv -T " + pick(dirs) + " " + pick(dirs)
						case 7:
							c = "mkdir -p " + pick(dirs)
						case 8:
							c = "rm -rf " + pick(append(dirs, names...))
						case 9:
							c = "chmod " + pick([]string{"600", "755", "644"}) + " " + pick(names)
						case 10:
							c = "truncate -s " + fmt.Sprint(rng.IntN(5)) + " " + pick(names)
						case 11:
							c = "cp -al " + pick(dirs) + " " + pick(dirs) + "/c"
						}
						cmds = append(cmds, c)
					}
					script := strings.Join(cmds, "; ")
					if o, status := sh.run(script); status < 0 { // commands may fail; the shell must not end
						t.Fatalf("step %d: %q: %s", step, script, o)
					}
					switch r := rng.IntN(3); r {
					case 0:
						i := len(snaps) - 1
						if rng.IntN(3) == 0 {
							i = rng.IntN(len(snaps))
						}
						must(t, h.Restore(snaps[i].s))
						if got := treePrint(t, dir); got != snaps[i].fp {
							t.Fatalf("step %d: %q rolled back to %d:\n%s\nwant\n%s", step, script, i, got, snaps[i].fp)
						}
					}
					if len(snaps) > 3 {
						i := rng.IntN(len(snaps))
						h.Release(snaps[i].s)
						snaps = slices.Delete(snaps, i, i+1)
					}
				}
			})
		}
	}
}
