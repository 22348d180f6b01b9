package vfs

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var sentinels = []error{ErrNotFound, ErrExists, ErrIsDir, ErrNotDir, ErrEscapesRoot, ErrTooLarge,
	ErrInvalid}

// errClass names the sentinel an error wraps ("ok" for nil).
func errClass(err error) string {
	if err == nil {
		return "ok"
	}
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	return "other: " + err.Error()
}

// TestMemoryLargeDirectoriesMatchHost runs the same random operations on a Memory and a Host over a name
// space wide enough that Memory's per-directory B-trees split and merge at several levels (hundreds of
// entries in a directory, names that sort around "/" such as "n1", "n1.txt", "n1-x"), and checks that
// every operation has the same outcome, that listings, globs and contents agree, and that a snapshot
// taken midway restores exactly.
func TestMemoryLargeDirectoriesMatchHost(t *testing.T) {
	mem := NewMemory()
	host, _ := newHost(t)
	fss := []rwFS{mem, host}
	r := rand.New(rand.NewPCG(3, 5))
	suffixes := []string{"", ".txt", "-x"}
	name := func(n int) string {
		return "n" + strconv.Itoa(r.IntN(n)) + suffixes[r.IntN(len(suffixes))]
	}
	randPath := func() string {
		switch r.IntN(4) {
		case 0:
			return name(300)
		case 1, 2:
			return "d" + strconv.Itoa(r.IntN(3)) + "/" + name(300)
		}
		return "d" + strconv.Itoa(r.IntN(3)) + "/" + name(4) + "/" + name(40)
	}
	globs := []string{"*", "d1/*", "d0/n1*", "**/*.txt", "d2/**", "*/n2*/*-x"}
	widest := 0 // the most entries seen in one directory
	var snap any
	var atSnap []string
	for step := range 3000 {
		p := randPath()
		op := r.IntN(20)
		data := "v" + strconv.Itoa(step) + strings.Repeat("x", r.IntN(3))
		if op >= 17 && r.IntN(20) == 0 { // sometimes remove a whole directory
			p = p[:strings.IndexByte(p+"/", '/')]
		}
		var got [2]string
		for i, fsys := range fss {
			var err error
			switch {
			case op < 12:
				err = fsys.Write(p, []byte(data))
			case op < 15:
				err = replaceAll(fsys, p, "x", "y")
			case op < 17:
				err = fsys.MkdirAll(p)
			default:
				err = fsys.Remove(p)
			}
			got[i] = errClass(err)
		}
		// Known, pre-existing difference: on a path below a file, Memory's Edit and Remove say "no such
		// file" where the host says "not a directory".
		below := got[0] == ErrNotFound.Error() && got[1] == ErrNotDir.Error()
		if got[0] != got[1] && !(below && op >= 12 && op < 15 || below && op >= 17) {
			t.Fatalf("step %d, op %d on %q: memory %q, host %q", step, op, p, got[0], got[1])
		}
		if step == 1500 {
			snap, _ = mem.Snapshot()
			atSnap = dump(t, mem)
		}
		if step%300 != 299 {
			continue
		}
		if diff := cmp.Diff(dump(t, host), dump(t, mem)); diff != "" {
			t.Fatalf("step %d: trees differ (-host +memory):\n%s", step, diff)
		}
		for _, d := range []string{".", "d0", "d1", "d2"} {
			es, _ := mem.List(d)
			widest = max(widest, len(es))
		}
		for _, g := range globs {
			hg, herr := host.Glob(g)
			mg, merr := mem.Glob(g)
			if herr != nil || merr != nil {
				t.Fatalf("glob %q: host %v, memory %v", g, herr, merr)
			}
			if diff := cmp.Diff(hg, mg); diff != "" {
				t.Fatalf("step %d: glob %q differs (-host +memory):\n%s", step, g, diff)
			}
		}
	}
	if widest < 4*bmax {
		t.Fatalf("directories held at most %d entries: too few to exercise multi-level B-trees", widest)
	}
	if err := mem.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(atSnap, dump(t, mem)); diff != "" {
		t.Fatalf("restore after 1,500 more operations differs (-want +got):\n%s", diff)
	}
}

// replaceAll replaces every "old" in the file with "new" by a Read and a Write (the files suite's edit_file
// does the same); no match is an error.
func replaceAll(fsys rwFS, p, old, new string) error {
	b, err := fsys.Read(p)
	if err != nil {
		return err
	}
	if !strings.Contains(string(b), old) {
		return errors.New("no match")
	}
	return fsys.Write(p, []byte(strings.ReplaceAll(string(b), old, new)))
}
