package vfs

import (
	"errors"
	"testing"
)

func TestReadOnlyViewRefusesEveryChange(t *testing.T) {
	for name, fs := range map[string]Filesystem{"memory": NewMemory(), "host": mustHost(t)} {
		t.Run(name, func(t *testing.T) {
			if err := fs.Write("a.txt", []byte("one")); err != nil {
				t.Fatal(err)
			}
			ro := ReadOnly(fs)
			if ReadOnly(ro) != ro || !IsReadOnly(ro) || IsReadOnly(fs) || ReadOnly(nil) != nil {
				t.Fatal("view identity")
			}
			const why = "the workspace is read-only in this call (the tool is declared read-only); use a tool that may change files"
			_, editErr := ro.Edit("a.txt", "one", "two", false)
			for _, c := range []struct {
				err  error
				want string
			}{
				{ro.Write("a.txt", []byte("x")), `write "a.txt": ` + why},
				{ro.Write("new.txt", []byte("x")), `write "new.txt": ` + why},
				{editErr, `edit "a.txt": ` + why},
				{ro.Remove("a.txt"), `rm "a.txt": ` + why},
				{ro.MkdirAll("d"), `mkdir "d": ` + why},
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
			if _, err := fs.Stat("new.txt"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("new.txt was created: %v", err)
			}
		})
	}
}

func mustHost(t *testing.T) Filesystem {
	t.Helper()
	h, err := NewHost(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}
