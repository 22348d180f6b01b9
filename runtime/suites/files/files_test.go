package files_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// fsys is a filesystem that the dispatcher can snapshot.
type fsys interface {
	vfs.WriteFS
	Snapshot() (any, error)
	Restore(any) error
}

// env is one dispatcher over one filesystem.
type env struct {
	d  *wink.Dispatcher
	fs fsys
}

var registry = wink.MustRegistry(files.WinkTools())

// newEnv returns a dispatcher with the suite's tools over fs and a fresh session; rbw attaches the
// read-before-write policy.
func newEnv(fs fsys, rbw bool) *env {
	return &env{fs: fs, d: &wink.Dispatcher{
		Registry:   registry,
		Filesystem: fs,
		Session:    session.New(),
		Policies:   files.Policies(files.ReadBeforeWrite(rbw)),
	}}
}

// filesystems runs f on a vfs.Memory and on a vfs.Host over a temporary directory.
func filesystems(t *testing.T, f func(t *testing.T, mk func(opts ...vfs.Option) fsys)) {
	t.Run("memory", func(t *testing.T) {
		f(t, func(opts ...vfs.Option) fsys { return vfs.NewMemory(opts...) })
	})
	t.Run("host", func(t *testing.T) {
		f(t, func(opts ...vfs.Option) fsys {
			h, err := vfs.NewHost(t.TempDir(), append(opts, vfs.BackupDir(t.TempDir()))...)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { h.Close() })
			return h
		})
	})
}

// call dispatches one call and fails the test on a dispatch error.
func (e *env) call(t *testing.T, tool, args string) wink.Outcome {
	t.Helper()
	out, err := e.d.Dispatch(context.Background(), wink.Call{ID: "c1", Name: tool, Arguments: []byte(args)})
	if err != nil {
		t.Fatalf("%s %s: dispatch error: %v", tool, args, err)
	}
	return out
}

// seed writes the files (path -> content; a path ending in "/" is a directory).
func seed(t *testing.T, fs vfs.WriteFS, tree map[string]string) {
	t.Helper()
	for p, c := range tree {
		var err error
		if strings.HasSuffix(p, "/") {
			err = fs.MkdirAll(strings.TrimSuffix(p, "/"))
		} else {
			err = fs.Write(p, []byte(c))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// content returns the file's content, or "<error>" text.
func content(fs vfs.Filesystem, p string) string {
	b, err := fs.Read(p)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

const (
	pathMsg    = "must be a path in the workspace: 1 to 16 segments separated by /, each 1 to 80 printable ASCII characters, none of them . or .."
	rootMsg    = "must be empty or / for the workspace root, or a path in the workspace: 1 to 16 segments separated by /, each 1 to 80 printable ASCII characters, none of them . or .."
	helloWorld = "hello\nworld\n"
)

// argsErr is the text of an arguments error with one line.
func argsErr(tool, line string) string {
	return "Invalid arguments for tool \"" + tool + "\":\n- " + line + "\nFix the arguments and call " + tool + " again."
}

// deep returns a path of n segments.
func deep(n int) string { return strings.TrimSuffix(strings.Repeat("d/", n), "/") }

type tcase struct {
	name     string
	tree     map[string]string
	tool     string
	args     string
	ok       bool
	want     string
	after    map[string]string // files whose content must be this after the call ("<gone>" for removed)
	hostOnly bool
}

var baseTree = map[string]string{
	"README.md":     "hello world\n",
	"src/a.go":      "package a\n// TODO: a\n",
	"src/b.go":      "package b\n",
	"src/sub/c.txt": "TODO c\n",
	"empty/":        "",
	"three.txt":     "one\ntwo\nthree\n",
	"dup.txt":       "x = 1\nx = 1\nx = 1\n",
	"bin.dat":       "\xff\xfe\x00",
	"e.txt":         "",
}

func TestTools(t *testing.T) {
	longLine := strings.Repeat("é", 1500) // 3000 bytes
	cases := []tcase{
		// ls
		{name: "ls root", tool: "ls", args: `{}`, ok: true,
			want: "/ has 7 entries.\n\nREADME.md (12 bytes)\nbin.dat (3 bytes)\ndup.txt (18 bytes)\ne.txt (0 bytes)\nempty/\nsrc/\nthree.txt (14 bytes)"},
		{name: "ls slash is root", tool: "ls", args: `{"path":"/","limit":2}`, ok: true,
			want: "/ has 7 entries; showing 1-2. To see more, call ls with offset=2.\n\nREADME.md (12 bytes)\nbin.dat (3 bytes)"},
		{name: "ls last page", tool: "ls", args: `{"path":"src","offset":2}`, ok: true,
			want: "src has 3 entries; showing 3-3.\n\nsub/"},
		{name: "ls subdirectory with trailing slash", tool: "ls", args: `{"path":"src/"}`, ok: true,
			want: "src has 3 entries.\n\na.go (21 bytes)\nb.go (10 bytes)\nsub/"},
		{name: "ls empty directory", tool: "ls", args: `{"path":"empty"}`, ok: true, want: "empty is empty."},
		{name: "ls offset past the end", tool: "ls", args: `{"path":"src","offset":3}`,
			want: "Offset 3 is past the end of src, which has 3 entries. Call ls with an offset below 3."},
		{name: "ls missing", tool: "ls", args: `{"path":"nope"}`, want: "'nope' does not exist. Use ls or glob to see what exists."},
		{name: "ls a file", tool: "ls", args: `{"path":"README.md"}`, want: "'README.md' is a file, not a directory. Use read_file to read it."},
		{name: "ls too deep", tool: "ls", args: `{"path":"` + deep(17) + `"}`,
			want: argsErr("ls", `path: `+rootMsg+`; got "`+deep(17)+`"`)},
		{name: "ls escape refused by schema", tool: "ls", args: `{"path":"../x"}`,
			want: argsErr("ls", `path: `+rootMsg+`; got "../x"`)},

		// read_file
		{name: "read whole file", tool: "read_file", args: `{"file_path":"three.txt"}`, ok: true,
			want: "three.txt: lines 1-3 of 3.\n\n   1 | one\n   2 | two\n   3 | three"},
		{name: "read window", tool: "read_file", args: `{"file_path":"three.txt","offset":1,"limit":1}`, ok: true,
			want: "three.txt: lines 2-2 of 3. To read more, call read_file with offset=2.\n\n   2 | two"},
		{name: "read with leading slash", tool: "read_file", args: `{"file_path":"/src/b.go"}`, ok: true,
			want: "src/b.go: lines 1-1 of 1.\n\n   1 | package b"},
		{name: "read without trailing newline", tool: "read_file", args: `{"file_path":"nonl.txt"}`, ok: true,
			tree: map[string]string{"nonl.txt": "a\n\nb"},
			want: "nonl.txt: lines 1-3 of 3.\n\n   1 | a\n   2 | \n   3 | b"},
		{name: "read empty file", tool: "read_file", args: `{"file_path":"e.txt"}`, ok: true, want: "e.txt is empty (0 lines)."},
		{name: "read offset past the end", tool: "read_file", args: `{"file_path":"three.txt","offset":3}`,
			want: "Offset 3 is past the end of three.txt, which has 3 lines. Call read_file with an offset below 3."},
		{name: "read binary", tool: "read_file", args: `{"file_path":"bin.dat"}`,
			want: "'bin.dat' is not UTF-8 text (a binary file?); read_file shows text files only."},
		{name: "read missing", tool: "read_file", args: `{"file_path":"src/nope.go"}`,
			want: "'src/nope.go' does not exist. Use ls or glob to see what exists."},
		{name: "read a directory", tool: "read_file", args: `{"file_path":"src"}`,
			want: "'src' is a directory, not a file. Use ls to list it."},
		{name: "read long line is cut and marked", tool: "read_file", args: `{"file_path":"long.txt"}`, ok: true,
			tree: map[string]string{"long.txt": "short\n" + longLine + "\n"},
			want: "long.txt: lines 1-2 of 2. Lines longer than 2000 bytes are cut and end with \"… [line truncated]\"; use grep to search them.\n\n" +
				"   1 | short\n   2 | " + strings.Repeat("é", 1000) + "… [line truncated]"},
		{name: "read limit above 2000 refused", tool: "read_file", args: `{"file_path":"three.txt","limit":2001}`,
			want: argsErr("read_file", "limit: must be <= 2000; got 2001")},
		{name: "read too deep", tool: "read_file", args: `{"file_path":"` + deep(17) + `"}`,
			want: argsErr("read_file", `file_path: `+pathMsg+`; got "`+deep(17)+`"`)},
		{name: "read segment too long", tool: "read_file", args: `{"file_path":"a/` + strings.Repeat("s", 81) + `"}`,
			want: argsErr("read_file", `file_path: `+pathMsg+`; got "a/`+strings.Repeat("s", 58)+`…"`)},
		{name: "read 16 segments is fine", tool: "read_file", args: `{"file_path":"/` + deep(16) + `/"}`,
			want: "'" + deep(16) + "' does not exist. Use ls or glob to see what exists."},
		{name: "read 80-character segment is fine", tool: "read_file", args: `{"file_path":"a/` + strings.Repeat("s", 80) + `"}`,
			want: "'a/" + strings.Repeat("s", 80) + "' does not exist. Use ls or glob to see what exists."},
		{name: "read too long path gets both messages", tool: "read_file", args: `{"file_path":"` + strings.Repeat("s", 1298) + `"}`,
			want: "Invalid arguments for tool \"read_file\":\n- file_path: must be at most 1297 characters long; got 1298\n" +
				"- file_path: " + pathMsg + "; got \"" + strings.Repeat("s", 60) + "…\"\nFix the arguments and call read_file again."},
		{name: "read dotdot refused", tool: "read_file", args: `{"file_path":"src/../../etc/passwd"}`,
			want: argsErr("read_file", `file_path: `+pathMsg+`; got "src/../../etc/passwd"`)},
		{name: "read non-ASCII refused", tool: "read_file", args: `{"file_path":"café.txt"}`,
			want: argsErr("read_file", `file_path: `+pathMsg+`; got "café.txt"`)},
		{name: "read host absolute path stays in the root", tool: "read_file", args: `{"file_path":"/etc/passwd"}`,
			want: "'etc/passwd' does not exist. Use ls or glob to see what exists."},

		// write_file
		{name: "write creates file and parents", tool: "write_file", args: `{"file_path":"new/dir/f.txt","content":"x\ny\n"}`, ok: true,
			want: "Created new/dir/f.txt (2 lines, 4 bytes).", after: map[string]string{"new/dir/f.txt": "x\ny\n"}},
		{name: "write empty file", tool: "write_file", args: `{"file_path":"z","content":""}`, ok: true,
			want: "Created z (0 lines, 0 bytes).", after: map[string]string{"z": ""}},
		{name: "write existing file refused", tool: "write_file", args: `{"file_path":"three.txt","content":"new"}`,
			want:  "File 'three.txt' already exists; write_file only creates new files. To change it, call read_file and then edit_file; to replace it entirely, call rm first.",
			after: map[string]string{"three.txt": "one\ntwo\nthree\n"}},
		{name: "write over a directory refused", tool: "write_file", args: `{"file_path":"src","content":"x"}`,
			want: "'src' is an existing directory. Choose a file path that does not exist yet."},
		{name: "write below a file refused", tool: "write_file", args: `{"file_path":"README.md/x","content":"x"}`,
			want: "'README.md/x' is not a directory (it, or a directory above it, is a file). Use ls on its parent directory."},
		{name: "write escape refused by schema", tool: "write_file", args: `{"file_path":"../x","content":"x"}`,
			want: argsErr("write_file", `file_path: `+pathMsg+`; got "../x"`)},

		// edit_file
		{name: "edit one occurrence", tool: "edit_file", args: `{"file_path":"three.txt","old_string":"two","new_string":"2"}`, ok: true,
			want: "Replaced 1 occurrence in three.txt.", after: map[string]string{"three.txt": "one\n2\nthree\n"}},
		{name: "edit replace_all", tool: "edit_file", args: `{"file_path":"dup.txt","old_string":"1","new_string":"2","replace_all":true}`, ok: true,
			want: "Replaced 3 occurrences in dup.txt.", after: map[string]string{"dup.txt": "x = 2\nx = 2\nx = 2\n"}},
		{name: "edit ambiguous", tool: "edit_file", args: `{"file_path":"dup.txt","old_string":"x = 1","new_string":"y"}`,
			want:  "old_string occurs 3 times in dup.txt; edit_file replaces exactly one. Include more surrounding lines in old_string to make it unique, or set replace_all to true to replace all 3.",
			after: map[string]string{"dup.txt": "x = 1\nx = 1\nx = 1\n"}},
		{name: "edit no match", tool: "edit_file", args: `{"file_path":"three.txt","old_string":"   2 | two","new_string":"2"}`,
			want:  "old_string was not found in three.txt. Call read_file on 'three.txt' and copy the text exactly as it appears, including whitespace and indentation, without the line-number prefix.",
			after: map[string]string{"three.txt": "one\ntwo\nthree\n"}},
		{name: "edit same strings", tool: "edit_file", args: `{"file_path":"three.txt","old_string":"two","new_string":"two"}`,
			want: "old_string and new_string are the same, so there is nothing to change. Give the new text in new_string."},
		{name: "edit empty old_string refused", tool: "edit_file", args: `{"file_path":"three.txt","old_string":"","new_string":"x"}`,
			want: argsErr("edit_file", "old_string: must be at least 1 character long; got 0")},
		{name: "edit missing file", tool: "edit_file", args: `{"file_path":"nope.txt","old_string":"a","new_string":"b"}`,
			want: "'nope.txt' does not exist. Use ls or glob to see what exists."},

		// glob
		{name: "glob everywhere", tool: "glob", args: `{"pattern":"**/*.go"}`, ok: true,
			want: "2 paths match '**/*.go'.\n\nsrc/a.go\nsrc/b.go"},
		{name: "glob marks directories", tool: "glob", args: `{"pattern":"s*"}`, ok: true,
			want: "1 path matches 's*'.\n\nsrc/"},
		{name: "glob relative to path", tool: "glob", args: `{"pattern":"*","path":"src","limit":2}`, ok: true,
			want: "3 paths match '*' in src. Showing 1-2. To see more, call glob with offset=2, or narrow the pattern.\n\nsrc/a.go\nsrc/b.go"},
		{name: "glob no match", tool: "glob", args: `{"pattern":"*.rs"}`, ok: true,
			want: "No paths match '*.rs'. * matches within one path segment and ** across segments; try a broader pattern, or ls to see what exists."},
		{name: "glob offset past the end", tool: "glob", args: `{"pattern":"**/*.go","offset":2}`,
			want: "Offset 2 is past the end of the 2 matches. Call glob with an offset below 2."},
		{name: "glob escape refused", tool: "glob", args: `{"pattern":"../*"}`,
			want: "'../*' is outside the workspace. Use a path relative to the workspace root, without '..' and without symlinks that lead out of it."},

		// grep
		{name: "grep everywhere", tool: "grep", args: `{"pattern":"TODO"}`, ok: true,
			want: "2 matches for \"TODO\". Skipped 1 file that are not UTF-8 text or are too large.\n\nsrc/a.go:2: // TODO: a\nsrc/sub/c.txt:1: TODO c"},
		{name: "grep with glob", tool: "grep", args: `{"pattern":"^package","glob":"**/*.go"}`, ok: true,
			want: "2 matches for \"^package\".\n\nsrc/a.go:1: package a\nsrc/b.go:1: package b"},
		{name: "grep one file", tool: "grep", args: `{"pattern":"t","path":"three.txt"}`, ok: true,
			want: "2 matches for \"t\" in three.txt.\n\nthree.txt:2: two\nthree.txt:3: three"},
		{name: "grep pages", tool: "grep", args: `{"pattern":"x","path":"dup.txt","limit":1,"offset":1}`, ok: true,
			want: "1 match for \"x\" in dup.txt (after skipping 1). There are more matches: call grep with offset=2 to see them, or narrow the pattern, path or glob.\n\ndup.txt:2: x = 1"},
		{name: "grep no match", tool: "grep", args: `{"pattern":"zzz","path":"src"}`, ok: true,
			want: "No lines match \"zzz\" in src (3 files searched)."},
		{name: "grep invalid RE2", tool: "grep", args: `{"pattern":"a(?=b)"}`,
			want: "Invalid regular expression \"a(?=b)\": error parsing regexp: invalid or unsupported Perl syntax: `(?=`. Fix the pattern (RE2 syntax: no lookaround, no backreferences; escape literal characters such as ( [ . with \\) and call grep again."},
		{name: "grep missing path", tool: "grep", args: `{"pattern":"a","path":"nope"}`,
			want: "'nope' does not exist. Use ls or glob to see what exists."},

		// rm
		{name: "rm file", tool: "rm", args: `{"path":"three.txt"}`, ok: true, want: "Removed three.txt.", after: map[string]string{"three.txt": "<gone>"}},
		{name: "rm directory", tool: "rm", args: `{"path":"src"}`, ok: true,
			want: "Removed the directory src and everything in it.", after: map[string]string{"src/sub/c.txt": "<gone>"}},
		{name: "rm missing", tool: "rm", args: `{"path":"nope"}`, want: "'nope' does not exist. Use ls or glob to see what exists."},
		{name: "rm root refused by schema", tool: "rm", args: `{"path":"/"}`,
			want: argsErr("rm", `path: `+pathMsg+`; got "/"`)},
	}
	filesystems(t, func(t *testing.T, mk func(...vfs.Option) fsys) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e := newEnv(mk(), false)
				seed(t, e.fs, baseTree)
				seed(t, e.fs, c.tree)
				out := e.call(t, c.tool, c.args)
				if out.Success != c.ok || out.Output != c.want {
					t.Errorf("%s %s:\n got (ok=%v) %q\nwant (ok=%v) %q", c.tool, c.args, out.Success, out.Output, c.ok, c.want)
				}
				for p, want := range c.after {
					got := content(e.fs, p)
					if want == "<gone>" {
						if _, err := e.fs.Stat(p); err == nil {
							t.Errorf("%s still exists", p)
						}
						continue
					}
					if got != want {
						t.Errorf("%s = %q, want %q", p, got, want)
					}
				}
			})
		}
	})
}

// TestReadFileOutputLimit checks that a large window stops before MaxOutputBytes and says where to go on.
func TestReadFileOutputLimit(t *testing.T) {
	filesystems(t, func(t *testing.T, mk func(...vfs.Option) fsys) {
		e := newEnv(mk(), false)
		line := strings.Repeat("x", 99) + "\n"
		seed(t, e.fs, map[string]string{"big.txt": strings.Repeat(line, 2000)})
		out := e.call(t, "read_file", `{"file_path":"big.txt"}`)
		msg, body, _ := strings.Cut(out.Output, "\n\n")
		if want := "big.txt: lines 1-934 of 2000. To read more, call read_file with offset=934."; !out.Success || msg != want {
			t.Fatalf("message %q, want %q", msg, want)
		}
		if len(body) > files.MaxOutputBytes || !strings.HasSuffix(body, " 934 | "+line[:99]) {
			t.Errorf("body: %d bytes, ends %q", len(body), body[len(body)-20:])
		}
		out = e.call(t, "read_file", `{"file_path":"big.txt","offset":934,"limit":2}`)
		if want := "big.txt: lines 935-936 of 2000. To read more, call read_file with offset=936.\n\n 935 | " + line[:99] + "\n 936 | " + line[:99]; out.Output != want {
			t.Errorf("next page: %q", out.Output)
		}
	})
}

// TestWriteFileSizeLimits checks the suite's 32 MiB limit and the filesystem's own limit.
func TestWriteFileSizeLimits(t *testing.T) {
	filesystems(t, func(t *testing.T, mk func(...vfs.Option) fsys) {
		e := newEnv(mk(vfs.MaxFileSize(10)), false)
		out := e.call(t, "write_file", `{"file_path":"f.txt","content":"0123456789a"}`)
		if want := "'f.txt': file too large: 11 bytes, the limit is 10 bytes."; out.Success || out.Output != want {
			t.Errorf("got %q, want %q", out.Output, want)
		}
		if _, err := e.fs.Stat("f.txt"); err == nil {
			t.Error("f.txt was created")
		}
		e = newEnv(mk(vfs.MaxFileSize(64<<20)), false)
		e.d.Limits = strictjson.Limits{MaxBytes: 40 << 20}
		args := `{"file_path":"big","content":"` + strings.Repeat("a", files.MaxFileSize+1) + `"}`
		out = e.call(t, "write_file", args)
		if want := "The content is 33554433 bytes; write_file accepts at most 33554432 bytes (32 MiB). Write a smaller file."; out.Success || out.Output != want {
			t.Errorf("got %q", out.Output)
		}
	})
}

// TestFailedEditLeavesFile checks that an edit_file whose call fails after the file was written is rolled
// back by the dispatcher's transaction, and that failed edits never change the file.
func TestFailedEditLeavesFile(t *testing.T) {
	filesystems(t, func(t *testing.T, mk func(...vfs.Option) fsys) {
		e := newEnv(mk(), false)
		seed(t, e.fs, map[string]string{"a.txt": "alpha\nbeta\n"})
		written := ""
		e.d.Hooks.OnResult = func(tc *wink.ToolContext, tool *wink.Tool, _ any, out *wink.Outcome) {
			written = content(tc.Filesystem(), "a.txt")
			out.Success, out.Message, out.Output = false, "refused after writing", "refused after writing"
		}
		out := e.call(t, "edit_file", `{"file_path":"a.txt","old_string":"beta","new_string":"gamma"}`)
		if out.Success || written != "alpha\ngamma\n" {
			t.Fatalf("edit did not write before failing: success=%v written=%q", out.Success, written)
		}
		if got := content(e.fs, "a.txt"); got != "alpha\nbeta\n" {
			t.Errorf("after rollback a.txt = %q", got)
		}
		e.d.Hooks.OnResult = nil
		for _, args := range []string{
			`{"file_path":"a.txt","old_string":"zeta","new_string":"x"}`,
			`{"file_path":"a.txt","old_string":"a","new_string":"x"}`,
		} {
			if out := e.call(t, "edit_file", args); out.Success {
				t.Errorf("%s succeeded", args)
			}
			if got := content(e.fs, "a.txt"); got != "alpha\nbeta\n" {
				t.Errorf("after %s a.txt = %q", args, got)
			}
		}
	})
}

// TestHostSymlinkEscapeRefused checks that a symlink leading out of the host root is refused by every tool.
func TestHostSymlinkEscapeRefused(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s3cret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	h, err := vfs.NewHost(root, vfs.BackupDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	e := newEnv(h, false)
	const refused = "'link/secret' is outside the workspace. Use a path relative to the workspace root, without '..' and without symlinks that lead out of it."
	for _, c := range []struct{ tool, args string }{
		{"read_file", `{"file_path":"link/secret"}`},
		{"write_file", `{"file_path":"link/secret","content":"x"}`},
		{"edit_file", `{"file_path":"link/secret","old_string":"s3cret","new_string":"x"}`},
	} {
		if out := e.call(t, c.tool, c.args); out.Success || out.Output != refused {
			t.Errorf("%s: got %q", c.tool, out.Output)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "s3cret\n" {
		t.Errorf("outside file changed: %q", b)
	}
}

// TestReadBeforeWrite checks the policy's denials and that reading (or listing, or writing) allows the
// write.
func TestReadBeforeWrite(t *testing.T) {
	filesystems(t, func(t *testing.T, mk func(...vfs.Option) fsys) {
		e := newEnv(mk(), true)
		seed(t, e.fs, map[string]string{"a.txt": "one\n", "d/x": "x\n"})
		steps := []struct{ tool, args, want string }{
			{"edit_file", `{"file_path":"a.txt","old_string":"one","new_string":"1"}`,
				"File 'a.txt' must be read before overwriting.\n- Call read_file on 'a.txt' first."},
			{"rm", `{"path":"/a.txt"}`, "File 'a.txt' must be read before removing it.\n- Call read_file on 'a.txt' first."},
			{"rm", `{"path":"d"}`, "Directory 'd' must be listed before removing it.\n- Call ls on 'd' first."},
			{"write_file", `{"file_path":"a.txt","content":"x"}`,
				"File 'a.txt' already exists; write_file only creates new files. To change it, call read_file and then edit_file; to replace it entirely, call rm first."},
			{"read_file", `{"file_path":"/a.txt"}`, "OK"},
			{"edit_file", `{"file_path":"a.txt","old_string":"one","new_string":"1"}`, "Replaced 1 occurrence in a.txt."},
			{"write_file", `{"file_path":"b.txt","content":"b"}`, "Created b.txt (1 line, 1 byte)."},
			{"edit_file", `{"file_path":"b.txt","old_string":"b","new_string":"c"}`, "Replaced 1 occurrence in b.txt."},
			{"ls", `{"path":"d"}`, "OK"},
			{"rm", `{"path":"d"}`, "Removed the directory d and everything in it."},
			{"rm", `{"path":"a.txt"}`, "Removed a.txt."},
		}
		for i, s := range steps {
			out := e.call(t, s.tool, s.args)
			if s.want == "OK" {
				if !out.Success {
					t.Fatalf("step %d %s: %q", i, s.tool, out.Output)
				}
				continue
			}
			if out.Output != s.want {
				t.Fatalf("step %d %s %s:\n got %q\nwant %q", i, s.tool, s.args, out.Output, s.want)
			}
		}
	})
}

// TestReadBeforeWriteNotKeptAfterRollback checks that a read whose call is rolled back does not count.
func TestReadBeforeWriteNotKeptAfterRollback(t *testing.T) {
	e := newEnv(vfs.NewMemory(), true)
	seed(t, e.fs, map[string]string{"a.txt": "one\n"})
	e.d.Hooks.OnResult = func(_ *wink.ToolContext, tool *wink.Tool, _ any, out *wink.Outcome) {
		if tool.Name() == "read_file" {
			out.Success = false
		}
	}
	e.call(t, "read_file", `{"file_path":"a.txt"}`)
	out := e.call(t, "edit_file", `{"file_path":"a.txt","old_string":"one","new_string":"1"}`)
	if out.Success {
		t.Errorf("edit allowed after a rolled-back read: %q", out.Output)
	}
}

// TestReadBeforeWriteOff checks the option that turns the policy off.
func TestReadBeforeWriteOff(t *testing.T) {
	if p := files.Policies(files.ReadBeforeWrite(false)); len(p) != 0 {
		t.Errorf("Policies(ReadBeforeWrite(false)) = %v", p)
	}
	on := files.Policies()
	if len(on) != 1 || on[0].Name() != "read_before_write" || files.Policies()[0] != on[0] {
		t.Errorf("Policies() = %v, want the one read_before_write policy", on)
	}
	e := newEnv(vfs.NewMemory(), false)
	seed(t, e.fs, map[string]string{"a.txt": "one\n"})
	if out := e.call(t, "edit_file", `{"file_path":"a.txt","old_string":"one","new_string":"1"}`); !out.Success {
		t.Errorf("edit denied with the policy off: %q", out.Output)
	}
}

// TestGrepOutputIsPathLineText checks the exact value rendering and the structured value.
func TestGrepStructuredValue(t *testing.T) {
	e := newEnv(vfs.NewMemory(), false)
	seed(t, e.fs, map[string]string{"a": "x\ny\nx\n"})
	var got *wink.ToolInvoked
	e.d.Events = func(ev *wink.ToolInvoked) { got = ev }
	e.call(t, "grep", `{"pattern":"x"}`)
	v, ok := got.Value.(files.GrepResult)
	if !ok || len(v.Matches) != 2 || v.Matches[1] != (files.GrepMatch{Path: "a", Line: 3, Text: "x"}) || v.More {
		t.Errorf("value = %#v", got.Value)
	}
	if r := v.Render(); r != "a:1: x\na:3: x" {
		t.Errorf("Render = %q", r)
	}
}

// TestToolOrderAndNames checks that the suite declares exactly WINK's seven tools.
func TestToolNames(t *testing.T) {
	got := strings.Join(registry.Names(), ",")
	for _, n := range []string{"ls", "read_file", "write_file", "edit_file", "glob", "grep", "rm"} {
		if !strings.Contains(","+got+",", ","+n+",") {
			t.Errorf("missing tool %s in %s", n, got)
		}
	}
	if registry.Len() != 7 {
		t.Errorf("%d tools: %s", registry.Len(), got)
	}
	_ = strconv.Itoa
}
