package vfs

import (
	"errors"
	"testing"
)

func TestReadOnlyViewRefusesEveryChange(t *testing.T) {
	for name, fs := range map[string]rwFS{"memory": NewMemory(), "host": mustHost(t)} {
		t.Run(name, func(t *testing.T) {
			if err := fs.Write("a.txt", []byte("one")); err != nil {
				t.Fatal(err)
			}
			ro := ReadOnly(fs)
			if ReadOnly(ro) != ro || ReadOnly(nil) != nil {
				t.Fatal("view identity")
			}
			if _, ok := ro.(WriteFS); ok {
				t.Fatal("the view is a WriteFS")
			}
			if _, ok := ro.(GlobFS); !ok {
				t.Fatal("the view of a GlobFS is not one")
			}
			const why = "the workspace is read-only in this call (the tool is declared read-only); use a tool that may change files"
			for _, c := range []struct {
				err  error
				want string
			}{
				{Write(ro, "a.txt", []byte("x")), `write "a.txt": ` + why},
				{Write(ro, "new.txt", []byte("x")), `write "new.txt": ` + why},
				{Remove(ro, "a.txt"), `rm "a.txt": ` + why},
				{MkdirAll(ro, "d"), `mkdir "d": ` + why},
			} {
				if c.err == nil || c.err.Error() != c.want || !errors.Is(c.err, ErrReadOnly) {
					t.Errorf("got %v, want %q", c.err, c.want)
				}
			}
			if b, err := ro.Read("a.txt"); err != nil || string(b) != "one" {
				t.Fatalf("read through the view: %q %v", b, err)
			}
			if es, err := ro.List("."); err != nil || len(es) != 1 {
				t.Fatalf("list through the view: %v %v", es, err)
			}
			if g, err := Glob(ro, "*.txt"); err != nil || len(g) != 1 || g[0] != "a.txt" {
				t.Fatalf("glob through the view: %v %v", g, err)
			}
			if _, err := fs.Stat("new.txt"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("new.txt was created: %v", err)
			}
		})
	}
}

// TestWriteHelpersUseWriteFS: the functions change a WriteFS and refuse any other Filesystem with
// ErrReadOnly.
func TestWriteHelpersUseWriteFS(t *testing.T) {
	m := NewMemory()
	if err := MkdirAll(m, "d"); err != nil {
		t.Fatal(err)
	}
	if err := Write(m, "d/a.txt", []byte("a")); err != nil {
		t.Fatal(err)
	}
	if b, err := m.Read("d/a.txt"); err != nil || string(b) != "a" {
		t.Fatalf("read %q %v", b, err)
	}
	core := coreOnly{m}
	for _, c := range []struct {
		err  error
		want string
	}{
		{Write(core, "d/a.txt", []byte("b")), `write "d/a.txt": read-only filesystem`},
		{Remove(core, "d"), `rm "d": read-only filesystem`},
		{MkdirAll(core, "e"), `mkdir "e": read-only filesystem`},
		{Write(nil, "x", nil), `write "x": read-only filesystem`},
	} {
		if c.err == nil || c.err.Error() != c.want || !errors.Is(c.err, ErrReadOnly) {
			t.Errorf("got %v, want %q", c.err, c.want)
		}
	}
	if err := Remove(m, "d"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Stat("d"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("d after Remove: %v", err)
	}
}

func mustHost(t *testing.T) rwFS {
	t.Helper()
	h, err := NewHost(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}
