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

// rwFS is what the tests use of both implementations.
type rwFS interface {
	WriteFS
	GlobFS
}

type impl struct {
	name string
	new  func(t testing.TB, opts ...Option) rwFS
}

var impls = []impl{
	{"memory", func(t testing.TB, opts ...Option) rwFS { return NewMemory(opts...) }},
	{"host", func(t testing.TB, opts ...Option) rwFS {
		h, err := NewHost(t.TempDir(), append([]Option{BackupDir(t.TempDir())}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		return h
	}},
}

func forEach(t *testing.T, f func(t *testing.T, fsys rwFS)) {
	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) { f(t, im.new(t)) })
	}
}

func mustWrite(t testing.TB, fsys rwFS, p, data string) {
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
	forEach(t, func(t *testing.T, fsys rwFS) {
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
	forEach(t, func(t *testing.T, fsys rwFS) {
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
	forEach(t, func(t *testing.T, fsys rwFS) {
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

func TestGlob(t *testing.T) {
	forEach(t, func(t *testing.T, fsys rwFS) {
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
			// The Glob function's own walk (for a Filesystem that is not a GlobFS) agrees.
			got, err = Glob(coreOnly{fsys}, tt.pattern)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("Glob(core only, %q) = %v, %v; want %v", tt.pattern, got, err, tt.want)
			}
		}
		for _, g := range []Filesystem{fsys, coreOnly{fsys}} {
			if _, err := Glob(g, "src/[a"); !errors.Is(err, ErrInvalid) {
				t.Errorf("bad pattern: %v", err)
			}
			if _, err := Glob(g, "../*"); !errors.Is(err, ErrEscapesRoot) {
				t.Errorf("escaping pattern: %v", err)
			}
		}
	})
}

// coreOnly hides every method but the core Filesystem's.
type coreOnly struct{ fs Filesystem }

func (c coreOnly) Read(p string) ([]byte, error)    { return c.fs.Read(p) }
func (c coreOnly) Stat(p string) (Entry, error)     { return c.fs.Stat(p) }
func (c coreOnly) List(dir string) ([]Entry, error) { return c.fs.List(dir) }

func TestRemoveFileAndDirectoryRecursively(t *testing.T) {
	forEach(t, func(t *testing.T, fsys rwFS) {
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
	forEach(t, func(t *testing.T, fsys rwFS) {
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
		})
	}
}

// TestErrorMessages pins the texts of the errors (the files suite words what a model reads).
func TestErrorMessages(t *testing.T) {
	forEach(t, func(t *testing.T, fsys rwFS) {
		mustWrite(t, fsys, "src/x.go", "a a")
		mustWrite(t, fsys, "file", "x")
		tests := []struct {
			name string
			run  func() error
			is   error
			want string
		}{
			{"read missing", func() error { _, err := fsys.Read("src/y.go"); return err }, ErrNotFound,
				`read "src/y.go": no such file or directory`},
			{"read dir", func() error { _, err := fsys.Read("src"); return err }, ErrIsDir,
				`read "src": is a directory, not a file`},
			{"write dir", func() error { return fsys.Write("src", nil) }, ErrIsDir,
				`write "src": is a directory, not a file`},
			{"write root", func() error { return fsys.Write(".", nil) }, ErrIsDir,
				`write ".": is a directory, not a file`},
			{"write under file", func() error { return fsys.Write("file/x", nil) }, ErrNotDir,
				`write "file/x": not a directory (a path element is a file)`},
			{"ls missing", func() error { _, err := fsys.List("nope"); return err }, ErrNotFound,
				`ls "nope": no such directory`},
			{"ls file", func() error { _, err := fsys.List("file"); return err }, ErrNotDir,
				`ls "file": not a directory (a path element is a file)`},
			{"mkdir over file", func() error { return fsys.MkdirAll("file") }, ErrExists,
				`mkdir "file": already exists as a file`},
			{"mkdir under file", func() error { return fsys.MkdirAll("file/sub") }, ErrNotDir,
				`mkdir "file/sub": not a directory (a path element is a file)`},
			{"rm root", func() error { return fsys.Remove(".") }, ErrInvalid,
				`rm ".": cannot remove the root directory`},
			{"rm missing", func() error { return fsys.Remove("ghost") }, ErrNotFound,
				`rm "ghost": no such file or directory`},
			{"escape", func() error { _, err := fsys.Read("a/../../x"); return err }, ErrEscapesRoot,
				`read "a/../../x": path escapes the root`},
			{"nul", func() error { _, err := fsys.Read("a\x00b"); return err }, ErrInvalid,
				`read "a\x00b": path contains a NUL byte`},
			{"stat missing", func() error { _, err := fsys.Stat("src/none"); return err }, ErrNotFound,
				`stat "src/none": no such file or directory`},
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
	forEach(t, func(t *testing.T, fsys rwFS) {
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
