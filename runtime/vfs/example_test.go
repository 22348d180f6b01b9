package vfs_test

import (
	"errors"
	"fmt"

	"github.com/winkgen/wink/runtime/vfs"
)

// A Memory is a WriteFS and a GlobFS; the functions Write, Glob and friends work on any Filesystem.
func Example() {
	fs := vfs.NewMemory()
	if err := vfs.Write(fs, "src/main.go", []byte("package main\n")); err != nil {
		panic(err)
	}
	if err := vfs.Write(fs, "README.md", []byte("# demo\n")); err != nil {
		panic(err)
	}
	entries, _ := fs.List(".")
	for _, e := range entries {
		fmt.Println(e.Name, e.IsDir)
	}
	paths, _ := vfs.Glob(fs, "**/*.go")
	fmt.Println(paths)
	_, err := fs.Read("src/missing.go")
	fmt.Println(err, errors.Is(err, vfs.ErrNotFound))
	// Output:
	// README.md false
	// src true
	// [src/main.go]
	// read "src/missing.go": no such file or directory true
}

// A failed step is undone by restoring the snapshot taken before it, as the dispatcher does around a
// tool call.
func ExampleMemory_Snapshot() {
	fs := vfs.NewMemory()
	_ = fs.Write("notes.txt", []byte("v1"))
	snap, _ := fs.Snapshot()
	_ = fs.Write("notes.txt", []byte("v2"))
	_ = fs.Remove("notes.txt")
	if err := fs.Restore(snap); err != nil {
		panic(err)
	}
	b, _ := fs.Read("notes.txt")
	fmt.Println(string(b))
	// Output: v1
}

// A ReadOnly view reads through and refuses every change; the dispatcher hands one to tools declared
// //wink:tool readonly.
func ExampleReadOnly() {
	fs := vfs.NewMemory()
	_ = fs.Write("a.txt", []byte("one"))
	ro := vfs.ReadOnly(fs)
	b, _ := ro.Read("a.txt")
	fmt.Println(string(b))
	_, writable := ro.(vfs.WriteFS)
	fmt.Println(writable)
	err := vfs.Write(ro, "a.txt", []byte("two"))
	fmt.Println(errors.Is(err, vfs.ErrReadOnly))
	// Output:
	// one
	// false
	// true
}

// Clean gives a path's canonical, root-relative form and refuses one that leaves the root.
func ExampleClean() {
	for _, p := range []string{"/src/./a.go", "", "a/../../etc/passwd"} {
		c, err := vfs.Clean(p)
		fmt.Printf("%q %v\n", c, err)
	}
	// Output:
	// "src/a.go" <nil>
	// "." <nil>
	// "" path escapes the root
}
