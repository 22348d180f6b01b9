package eval_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/vfs"
)

// The class: print() costs the call no exchange with the evaluator (each frame wakes the calling
// process): a program that prints and calls no builtin sends two frames, whatever it prints, and the
// output is whole and in order, also around the builtins' requests.
func TestEvalPrintsTakeNoRoundTrips(t *testing.T) {
	warmPid(t)
	before := eval.FramesRead()
	out := call(t, vfs.NewMemory(), src("for i in range(500):\n  print(i)\nresult = 1"))
	if frames := eval.FramesRead() - before; !out.Success || frames != 2 {
		t.Fatalf("%d frames for 500 prints (want 2: accepted, done): %q", frames, short(out.Output))
	}
	var want strings.Builder
	for i := range 500 {
		want.WriteString(strconv.Itoa(i) + "\n")
	}
	if !strings.Contains(out.Output, want.String()) {
		t.Fatalf("output %q", short(out.Output))
	}
	fs := vfs.NewMemory()
	out = call(t, fs, src("print('a')\nwrite_file('x.txt', 'x')\nprint('b')\nprint(read_file('x.txt'))\nprint('c')"))
	if !out.Success || !strings.Contains(out.Output, "a\nb\nx\nc\n") {
		t.Fatalf("output %q", short(out.Output))
	}
}
