package eval_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

type fsys interface {
	vfs.WriteFS
	Snapshot() (any, error)
	Restore(any) error
}

// filesystems runs f on a vfs.Memory and on a vfs.Host over a temporary directory.
func filesystems(t *testing.T, f func(t *testing.T, fs fsys)) {
	t.Run("memory", func(t *testing.T) { f(t, vfs.NewMemory()) })
	t.Run("host", func(t *testing.T) {
		h, err := vfs.NewHost(t.TempDir(), vfs.BackupDir(t.TempDir()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		f(t, h)
	})
}

func call(t *testing.T, fs vfs.Filesystem, args string) wink.Outcome {
	t.Helper()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(eval.WinkTools()), Filesystem: fs, Session: session.New()}
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "eval", Arguments: []byte(args)})
	if err != nil {
		t.Fatalf("eval %s: %v", args, err)
	}
	return out
}

func src(program string) string {
	return `{"source":` + strconv.Quote(program) + `}`
}

func TestEvalPrintsAndReturns(t *testing.T) {
	filesystems(t, func(t *testing.T, fs fsys) {
		if err := fs.Write("data.txt", []byte("a\nb\nc\n")); err != nil {
			t.Fatal(err)
		}
		out := call(t, fs, src("lines = read_file('data.txt').splitlines()\nprint(len(lines))\nwrite_file('out/summary.txt', ','.join(lines))\nresult = {'n': len(lines), 'first': lines[0]}"))
		want := "The program finished after "
		if !out.Success || !strings.HasPrefix(out.Output, want) || !strings.HasSuffix(out.Output, " steps.\n\n3\nresult = {\"n\": 3, \"first\": \"a\"}") {
			t.Fatalf("outcome %q", out.Output)
		}
		if b, err := fs.Read("out/summary.txt"); err != nil || string(b) != "a,b,c" {
			t.Errorf("out/summary.txt = %q, %v", b, err)
		}
		// The same program over the same files prints the same text (deterministic); write_file then
		// refuses the existing file.
		again := call(t, fs, src("print(sorted({'b': 1, 'a': 2}.items()))\nprint(hash('x'))"))
		again2 := call(t, fs, src("print(sorted({'b': 1, 'a': 2}.items()))\nprint(hash('x'))"))
		if again.Output != again2.Output {
			t.Errorf("not deterministic: %q vs %q", again.Output, again2.Output)
		}
	})
}

func TestEvalFailuresRollBackAndSayWhy(t *testing.T) {
	filesystems(t, func(t *testing.T, fs fsys) {
		if err := fs.Write("keep.txt", []byte("k")); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ name, program, want string }{
			{"runtime error", "write_file('new.txt', 'x')\nx = 1\ny = x + 'a'",
				"Error at line 3, column 7: unknown binary op: int + string\nEverything the program wrote was undone; fix it and call eval again."},
			{"syntax error", "write_file('new.txt', 'x')\nif True print(1)",
				"Syntax error at line 2, column 14: got identifier, want ':'\nEverything the program wrote was undone; fix it and call eval again."},
			{"steps", "write_file('new.txt', 'x')\ndef f():\n  for i in range(100000000):\n    pass\nf()",
				"The program ran out of its 1000000 steps and was stopped; everything it wrote was undone. Raise max_steps or compute less."},
			{"existing file", "write_file('new.txt', 'x')\nwrite_file('keep.txt', 'y')",
				"Error at line 2, column 11: write_file: 'keep.txt' already exists; write_file only creates files (use edit_file to change one)"},
			{"bad path", "write_file('new.txt', 'x')\nread_file('../etc/passwd')",
				"Error at line 2, column 10: read_file: path must be a path in the workspace: 1 to 16 segments separated by /, each 1 to 80 printable ASCII characters, none of them . or ..; got \"../etc/passwd\""},
			{"missing file", "write_file('new.txt', 'x')\nread_file('nope.txt')", "Error at line 2, column 10: read_file: "},
			{"load", "write_file('new.txt', 'x')\nload('x.star', 'y')", "Error at line 2, column 1: cannot load x.star: load is not available: write the program in one source"},
			{"recursion", "write_file('new.txt', 'x')\ndef f(n):\n  return f(n)\nf(1)", "Error at line 3, column 10: function f called recursively"},
			{"memory", "write_file('new.txt', 'x')\ns = 'x' * 1000000\nl = []\ndef f():\n  for i in range(100000):\n    l.append(s + str(i))\nf()",
				"The program used more than 256 MiB of memory and was stopped; everything it wrote was undone. Build smaller values, or read and process the files in parts."},
		} {
			t.Run(c.name, func(t *testing.T) {
				args := src(c.program)
				if c.name == "steps" {
					args = `{"source":` + strconv.Quote(c.program) + `,"max_steps":1000000}`
				}
				out := call(t, fs, args)
				if out.Success || !strings.HasPrefix(out.Output, c.want) {
					t.Errorf("output %q\nwant prefix %q", out.Output, c.want)
				}
				if _, err := fs.Stat("new.txt"); err == nil {
					t.Error("new.txt survived the failed call")
				}
				if b, _ := fs.Read("keep.txt"); string(b) != "k" {
					t.Errorf("keep.txt = %q", b)
				}
			})
		}
	})
}

func TestEvalOutputIsCapped(t *testing.T) {
	out := call(t, vfs.NewMemory(), src("for i in range(20000):\n  print('line', i)"))
	if !out.Success || !strings.Contains(out.Output, "[output truncated at 32768 bytes: print less, or write it to a file with write_file]") {
		t.Errorf("outcome %q", out.Output[max(0, len(out.Output)-300):])
	}
	if len(out.Output) > 34000 {
		t.Errorf("output of %d bytes", len(out.Output))
	}
}
