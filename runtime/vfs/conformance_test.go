package vfs

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

type snapshotter interface {
	Snapshot() (any, error)
	Restore(snap any) error
}

type impl struct {
	name string
	new  func(t testing.TB, opts ...Option) Filesystem
}

var impls = []impl{
	{"memory", func(t testing.TB, opts ...Option) Filesystem { return NewMemory(opts...) }},
	{"host", func(t testing.TB, opts ...Option) Filesystem {
		h, err := NewHost(t.TempDir(), append([]Option{BackupDir(t.TempDir())}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		return h
	}},
}

func forEach(t *testing.T, f func(t *testing.T, fsys Filesystem)) {
	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) { f(t, im.new(t)) })
	}
}

func mustWrite(t testing.TB, fsys Filesystem, p, data string) {
	t.Helper()
	if err := fsys.Write(p, []byte(data)); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t testing.TB, fsys Filesystem, p string) string {
	t.Helper()
	b, err := fsys.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func names(es []Entry) []string {
	var out []string
	for _, e := range es {
		n := e.Name
		if e.IsDir {
			n += "/"
		}
		out = append(out, n)
	}
	return out
}

func TestWriteReadRoundTripAndParentsCreated(t *testing.T) {
	forEach(t, func(t *testing.T, fsys Filesystem) {
		mustWrite(t, fsys, "a/b/c.txt", "hello")
		if got := mustRead(t, fsys, "a/b/c.txt"); got != "hello" {
			t.Fatalf("read = %q", got)
		}
		for _, p := range []string{"/a/b/c.txt", "a/./b/../b/c.txt", "a//b/c.txt"} {
			if _, ok := fsys.(*Host); ok && strings.HasPrefix(p, "/") {
				continue
			}
			if got := mustRead(t, fsys, p); got != "hello" {
				t.Fatalf("read %q = %q", p, got)
			}
		}
		e, err := fsys.Stat("a/b")
		if err != nil || !e.IsDir || e.Path != "a/b" || e.Name != "b" {
			t.Fatalf("stat a/b = %+v, %v", e, err)
		}
		mustWrite(t, fsys, "a/b/c.txt", "replaced")
		if got := mustRead(t, fsys, "a/b/c.txt"); got != "replaced" {
			t.Fatalf("after replace read = %q", got)
		}
		e, err = fsys.Stat("a/b/c.txt")
		if err != nil || e.IsDir || e.Size != 8 || e.Name != "c.txt" || e.ModTime.IsZero() {
			t.Fatalf("stat file = %+v, %v", e, err)
		}
		root, err := fsys.Stat("")
		if err != nil || !root.IsDir || root.Path != "." || root.Name != "." {
			t.Fatalf("stat root = %+v, %v", root, err)
		}
	})
}

func TestWriteCopiesCallerBuffer(t *testing.T) {
	forEach(t, func(t *testing.T, fsys Filesystem) {
		buf := []byte("abc")
		if err := fsys.Write("f", buf); err != nil {
			t.Fatal(err)
		}
		buf[0] = 'X'
		got, _ := fsys.Read("f")
		got[1] = 'Y'
		if s := mustRead(t, fsys, "f"); s != "abc" {
			t.Fatalf("stored content changed through caller buffers: %q", s)
		}
	})
}

func TestListSortedDirectChildrenOnly(t *testing.T) {
	forEach(t, func(t *testing.T, fsys Filesystem) {
		for _, p := range []string{"d/b", "d/b.txt", "d/b/c", "d/b/c/deep", "d/a-1", "d/B", "d/z/x", "top"} {
			mustWrite(t, fsys, p+"/f", "x")
		}
		mustWrite(t, fsys, "d/file", "x")
		es, err := fsys.List("d")
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"B/", "a-1/", "b/", "b.txt/", "file", "z/"}
		if got := names(es); !slices.Equal(got, want) {
			t.Fatalf("ls d = %v, want %v", got, want)
		}
		if es[1].Path != "d/a-1" {
			t.Fatalf("entry path = %q", es[1].Path)
		}
		es, _ = fsys.List("")
		if got := names(es); !slices.Equal(got, []string{"d/", "top/"}) {
			t.Fatalf("ls / = %v", got)
		}
		es, _ = fsys.List("d/b/c/deep")
		if got := names(es); !slices.Equal(got, []string{"f"}) {
			t.Fatalf("ls deep = %v", got)
		}
		if err := fsys.MkdirAll("empty"); err != nil {
			t.Fatal(err)
		}
		es, err = fsys.List("empty")
		if err != nil || len(es) != 0 {
			t.Fatalf("ls empty = %v, %v", es, err)
		}
	})
}

func TestEditCounts(t *testing.T) {
	forEach(t, func(t *testing.T, fsys Filesystem) {
		mustWrite(t, fsys, "f", "one two two three")
		n, err := fsys.Edit("f", "one", "1", false)
		if err != nil || n != 1 || mustRead(t, fsys, "f") != "1 two two three" {
			t.Fatalf("single edit: %d %v %q", n, err, mustRead(t, fsys, "f"))
		}
		n, err = fsys.Edit("f", "two", "2", true)
		if err != nil || n != 2 || mustRead(t, fsys, "f") != "1 2 2 three" {
			t.Fatalf("replace all: %d %v %q", n, err, mustRead(t, fsys, "f"))
		}
		if _, err := fsys.Edit("f", "2", "x", false); !errors.Is(err, ErrAmbiguous) {
			t.Fatalf("ambiguous: %v", err)
		}
		if mustRead(t, fsys, "f") != "1 2 2 three" {
			t.Fatal("failed edit changed the file")
		}
		if _, err := fsys.Edit("f", "nope", "x", true); !errors.Is(err, ErrNoMatch) {
			t.Fatalf("no match: %v", err)
		}
	})
}

func TestGlob(t *testing.T) {
	forEach(t, func(t *testing.T, fsys Filesystem) {
		for _, p := range []string{"main.go", "README.md", "src/a.go", "src/b.txt", "src/x/c.go", "src/x/y/d.go", "src.go/e", ".hidden.go"} {
			mustWrite(t, fsys, p, "x")
		}
		tests := []struct {
			pattern string
			want    []string
		}{
			{"*.go", []string{".hidden.go", "main.go", "src.go"}},
			{"**/*.go", []string{".hidden.go", "main.go", "src.go", "src/a.go", "src/x/c.go", "src/x/y/d.go"}},
			{"src/**/*.go", []string{"src/a.go", "src/x/c.go", "src/x/y/d.go"}},
			{"src/*", []string{"src/a.go", "src/b.txt", "src/x"}},
			{"src/**", []string{"src", "src/a.go", "src/b.txt", "src/x", "src/x/c.go", "src/x/y", "src/x/y/d.go"}},
			{"/src/x/c.go", []string{"src/x/c.go"}},
			{"src/x/c.go", []string{"src/x/c.go"}},
			{"src/?.go", []string{"src/a.go"}},
			{"src/[ab].*", []string{"src/a.go", "src/b.txt"}},
			{"nothing/**", nil},
			{"**/y", []string{"src/x/y"}},
		}
		for _, tt := range tests {
			if _, ok := fsys.(*Host); ok && strings.HasPrefix(tt.pattern, "/") {
				continue
			}
			got, err := fsys.Glob(tt.pattern)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("glob %q = %v, %v; want %v", tt.pattern, got, err, tt.want)
			}
		}
		if _, err := fsys.Glob("src/[a"); !errors.Is(err, ErrInvalid) {
			t.Errorf("bad pattern: %v", err)
		}
		if _, err := fsys.Glob("../*"); !errors.Is(err, ErrEscapesRoot) {
			t.Errorf("escaping pattern: %v", err)
		}
	})
}

func TestRemoveFileAndDirectoryRecursively(t *testing.T) {
	forEach(t, func(t *testing.T, fsys Filesystem) {
		for _, p := range []string{"d/a", "d/sub/b", "d.txt", "d0", "dd/x"} {
			mustWrite(t, fsys, p, "x")
		}
		if err := fsys.Remove("d"); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"d", "d/a", "d/sub", "d/sub/b"} {
			if _, err := fsys.Stat(p); !errors.Is(err, ErrNotFound) {
				t.Fatalf("stat %s after rm: %v", p, err)
			}
		}
		es, _ := fsys.List(".")
		if got := names(es); !slices.Equal(got, []string{"d.txt", "d0", "dd/"}) {
			t.Fatalf("ls after rm = %v", got)
		}
		if err := fsys.Remove("d.txt"); err != nil {
			t.Fatal(err)
		}
		if err := fsys.Remove("d.txt"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("rm twice: %v", err)
		}
		// A path can be reused with another kind after removal.
		mustWrite(t, fsys, "d/a/now-a-dir", "x")
	})
}

func TestMkdirAllIdempotent(t *testing.T) {
	forEach(t, func(t *testing.T, fsys Filesystem) {
		if err := fsys.MkdirAll("a/b/c"); err != nil {
			t.Fatal(err)
		}
		if err := fsys.MkdirAll("a/b/c"); err != nil {
			t.Fatalf("second mkdir: %v", err)
		}
		if err := fsys.MkdirAll("."); err != nil {
			t.Fatalf("mkdir root: %v", err)
		}
		for _, p := range []string{"a", "a/b", "a/b/c"} {
			if e, err := fsys.Stat(p); err != nil || !e.IsDir {
				t.Fatalf("stat %s = %+v %v", p, e, err)
			}
		}
	})
}

func TestMaxFileSize(t *testing.T) {
	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) {
			fsys := im.new(t, MaxFileSize(10))
			err := fsys.Write("big", make([]byte, 11))
			if !errors.Is(err, ErrTooLarge) || err.Error() != `write "big": file too large: 11 bytes, the limit is 10 bytes` {
				t.Fatalf("write big: %v", err)
			}
			mustWrite(t, fsys, "f", "0123456789")
			_, err = fsys.Edit("f", "0", "00", false)
			if !errors.Is(err, ErrTooLarge) || mustRead(t, fsys, "f") != "0123456789" {
				t.Fatalf("edit growing past limit: %v", err)
			}
		})
	}
}

// TestErrorMessages pins the product text a model reads.
func TestErrorMessages(t *testing.T) {
	forEach(t, func(t *testing.T, fsys Filesystem) {
		mustWrite(t, fsys, "src/x.go", "a a")
		mustWrite(t, fsys, "file", "x")
		tests := []struct {
			name string
			run  func() error
			is   error
			want string
		}{
			{"read missing", func() error { _, err := fsys.Read("src/y.go"); return err }, ErrNotFound,
				`read "src/y.go": no such file (use ls to see what exists)`},
			{"read dir", func() error { _, err := fsys.Read("src"); return err }, ErrIsDir,
				`read "src": is a directory, not a file (use ls to list it)`},
			{"write dir", func() error { return fsys.Write("src", nil) }, ErrIsDir,
				`write "src": is a directory, not a file (use ls to list it)`},
			{"write root", func() error { return fsys.Write(".", nil) }, ErrIsDir,
				`write ".": is a directory, not a file (use ls to list it)`},
			{"write under file", func() error { return fsys.Write("file/x", nil) }, ErrNotDir,
				`write "file/x": not a directory (a path element is a file)`},
			{"ls missing", func() error { _, err := fsys.List("nope"); return err }, ErrNotFound,
				`ls "nope": no such directory (use ls to see what exists)`},
			{"ls file", func() error { _, err := fsys.List("file"); return err }, ErrNotDir,
				`ls "file": not a directory (a path element is a file)`},
			{"mkdir over file", func() error { return fsys.MkdirAll("file") }, ErrExists,
				`mkdir "file": already exists as a file`},
			{"mkdir under file", func() error { return fsys.MkdirAll("file/sub") }, ErrNotDir,
				`mkdir "file/sub": not a directory (a path element is a file)`},
			{"rm root", func() error { return fsys.Remove(".") }, ErrInvalid,
				`rm ".": cannot remove the root directory`},
			{"rm missing", func() error { return fsys.Remove("ghost") }, ErrNotFound,
				`rm "ghost": no such file (use ls to see what exists)`},
			{"edit missing", func() error { _, err := fsys.Edit("ghost", "a", "b", false); return err }, ErrNotFound,
				`edit "ghost": no such file (use ls to see what exists)`},
			{"edit no match", func() error { _, err := fsys.Edit("src/x.go", "b", "c", false); return err }, ErrNoMatch,
				`edit "src/x.go": old text not found (read the file and copy the text exactly, including whitespace)`},
			{"edit ambiguous", func() error { _, err := fsys.Edit("src/x.go", "a", "c", false); return err }, ErrAmbiguous,
				`edit "src/x.go": old text matches 2 times (add surrounding lines to make it unique, or set replace_all to replace all 2)`},
			{"edit empty old", func() error { _, err := fsys.Edit("src/x.go", "", "c", false); return err }, ErrInvalid,
				`edit "src/x.go": old text is empty (give the exact text to replace)`},
			{"escape", func() error { _, err := fsys.Read("a/../../x"); return err }, ErrEscapesRoot,
				`read "a/../../x": path escapes the workspace root (use a path relative to the root, without ..)`},
			{"nul", func() error { _, err := fsys.Read("a\x00b"); return err }, ErrInvalid,
				`read "a\x00b": path contains a NUL byte`},
			{"stat missing", func() error { _, err := fsys.Stat("src/none"); return err }, ErrNotFound,
				`stat "src/none": no such file (use ls to see what exists)`},
			{"glob bad", func() error { _, err := fsys.Glob("a/[x"); return err }, ErrInvalid,
				`glob "a/[x": bad glob pattern segment "[x" (use *, ?, [a-z] within a segment and ** for any depth)`},
		}
		for _, tt := range tests {
			err := tt.run()
			if !errors.Is(err, tt.is) {
				t.Errorf("%s: errors.Is(%v, %v) = false", tt.name, err, tt.is)
				continue
			}
			var pe *PathError
			if !errors.As(err, &pe) {
				t.Errorf("%s: %T is not a *PathError", tt.name, err)
			}
			if err.Error() != tt.want {
				t.Errorf("%s:\n got %s\nwant %s", tt.name, err.Error(), tt.want)
			}
		}
	})
}

func TestPathEscapesRefused(t *testing.T) {
	forEach(t, func(t *testing.T, fsys Filesystem) {
		for _, p := range []string{"..", "../x", "a/../../x", "/../x", "./..", "a/b/../../../etc/passwd"} {
			if _, err := fsys.Read(p); !errors.Is(err, ErrEscapesRoot) {
				t.Errorf("read %q: %v", p, err)
			}
			if err := fsys.Write(p, []byte("x")); !errors.Is(err, ErrEscapesRoot) {
				t.Errorf("write %q: %v", p, err)
			}
			if err := fsys.Remove(p); !errors.Is(err, ErrEscapesRoot) {
				t.Errorf("rm %q: %v", p, err)
			}
			if err := fsys.MkdirAll(p); !errors.Is(err, ErrEscapesRoot) {
				t.Errorf("mkdir %q: %v", p, err)
			}
			if _, err := fsys.List(p); !errors.Is(err, ErrEscapesRoot) {
				t.Errorf("ls %q: %v", p, err)
			}
		}
	})
}

func TestMemoryAbsolutePathIsRootRelative(t *testing.T) {
	m := NewMemory()
	mustWrite(t, m, "/etc/passwd", "not the host's")
	if got := mustRead(t, m, "etc/passwd"); got != "not the host's" {
		t.Fatalf("got %q", got)
	}
}

func TestRestoreRefusesForeignSnapshot(t *testing.T) {
	a, b := impls[0].new(t).(snapshotter), impls[0].new(t).(snapshotter)
	h1, h2 := impls[1].new(t).(snapshotter), impls[1].new(t).(snapshotter)
	sa, _ := a.Snapshot()
	sh, _ := h1.Snapshot()
	for _, tc := range []struct {
		fs   snapshotter
		snap any
	}{{b, sa}, {h1, sa}, {h2, sh}, {a, sh}, {a, nil}, {h1, "x"}} {
		err := tc.fs.Restore(tc.snap)
		if err == nil || err.Error() != `restore ".": snapshot was not taken from this filesystem` {
			t.Errorf("restore foreign: %v", err)
		}
	}
}
