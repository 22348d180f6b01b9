package eval_test

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/vfs"
)

// The class: what a program hands the calling process is bounded there too, not only in the evaluator.
// Files written live in the host (a memory workspace) or on its disk: before MaxWriteBytes, a three-line
// program writing 100 files of 32 MiB made the test process hold 4 GiB resident.
func TestEvalWrittenBytesAreBoundedTogether(t *testing.T) {
	filesystems(t, func(t *testing.T, fs fsys) {
		for _, c := range []struct{ name, program string }{
			{"many large files", "s = 'x' * (8 << 20)\nfor i in range(100):\n  write_file('f%d.txt' % i, s)"},
			{"one file past the rest", "write_file('a.txt', 'x' * (" + strconv.Itoa(eval.MaxWriteBytes-10) + "))\nwrite_file('b.txt', 'y' * 11)"},
			{"many small files past the total", "s = 'x' * (" + strconv.Itoa(eval.MaxWriteBytes/eval.MaxWrites+1) + ")\nfor i in range(" + strconv.Itoa(eval.MaxWrites) + "):\n  write_file('f%d.txt' % i, s)"},
		} {
			t.Run(c.name, func(t *testing.T) {
				out := callSteps(t, fs, "write_file('new.txt', 'x')\n"+c.program, 100_000_000)
				if out.Success || !strings.Contains(out.Output, "write_file: the files one call writes may hold at most "+strconv.Itoa(eval.MaxWriteBytes)+" bytes together") {
					t.Fatalf("outcome %q", short(out.Output))
				}
				for _, p := range []string{"new.txt", "a.txt", "f0.txt"} {
					if _, err := fs.Stat(p); err == nil {
						t.Errorf("%s survived the failed call", p)
					}
				}
			})
		}
		// Up to the bound exactly, the writes succeed.
		half := strconv.Itoa(eval.MaxWriteBytes / 2)
		out := callSteps(t, fs, "write_file('a.txt', 'x' * "+half+")\nwrite_file('b.txt', 'y' * "+half+")", 100_000_000)
		if !out.Success {
			t.Fatalf("outcome %q", short(out.Output))
		}
		if b, err := fs.Read("b.txt"); err != nil || len(b) != eval.MaxWriteBytes/2 {
			t.Errorf("b.txt: %d bytes, %v", len(b), err)
		}
	})
}

// The class: every text the model reads from eval is UTF-8, whatever bytes a program's strings hold (a
// Starlark string is bytes: slicing cuts a character).
func TestEvalTextIsUTF8(t *testing.T) {
	for _, program := range []string{
		"print('é'[:1])",
		"print('a', 'é'[:1], 'b')",
		"print(('é' * 20000)[:" + strconv.Itoa(eval.MaxOutputBytes+1) + "])",
		"fail('é'[:1])",
		"x = {}['é'[:1]]",
		"result = 'é'[:1]",
		"result = ['é'[:1], {'é'[1:]: 1}]",
		"print(str(b'\\xff'))",
	} {
		out := call(t, vfs.NewMemory(), src(program))
		if !utf8.ValidString(out.Output) {
			t.Errorf("%s: not UTF-8: %q", program, short(out.Output))
		}
	}
}
