package eval_test

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// The class: no program ends the process or takes memory past the bound. Each program below either walks a
// value nested 300,000 deep (every walker of go.starlark.net: str, repr, print, %, format, hash, dict keys,
// sets, comparisons, sorting, the result's repr) or allocates far past MaxMemory in one step (repetition,
// replace, join, %, format, range materialised, list/tuple/dict conversion, bytes, extend, sorted...). The
// test process surviving is the first assertion; then each call fails, its write undone, with the reason,
// and the evaluator process stayed within MaxMemory plus the stated margin.

// peakBound is what an evaluator process may hold resident: MaxMemory, the stated margin (64 MiB), and the
// runtime's own start (under 64 MiB; the race detector's shadow memory comes on top).
const peakBound = eval.MaxMemory + 64<<20 + 64<<20

const nested = "write_file('new.txt', 'x')\nprint('before')\n"

func deep(build string) string {
	return nested + build + "\n"
}

// testStackLimit is the evaluators' stack limit in TestEvalDeepValuesFailTheCallNotTheProcess but for its
// first case, which keeps the default (16 MiB): a walk ends the evaluator at any limit the same way, and
// the values there are nested deeply enough to exhaust the default, so the walks stop sooner and the
// collector scans a smaller stack.
const testStackLimit = 1 << 20

func TestEvalDeepValuesFailTheCallNotTheProcess(t *testing.T) {
	eval.DrainPool() // checkPeak reads the last evaluator that ended: none of another test's
	const n = "300000"
	list := "x = []\nfor i in range(" + n + "):\n  x = [x]"
	tuple := "x = ()\nfor i in range(" + n + "):\n  x = (x,)"
	dict := "x = {}\nfor i in range(" + n + "):\n  x = {'k': x}"
	mutated := "a = []\nx = a\nfor i in range(" + n + "):\n  b = []\n  a.append(b)\n  a = b"
	for i, c := range []struct{ name, program string }{
		{"str list", list + "\ns = str(x)"},
		{"repr list", list + "\ns = repr(x)"},
		{"print list", list + "\nprint(x)"},
		{"percent s", list + "\ns = '%s' % (x,)"},
		{"percent r", list + "\ns = '%r' % (x,)"},
		{"format", list + "\ns = '{}'.format(x)"},
		{"result repr", list + "\nresult = x"},
		{"str dict", dict + "\ns = str(x)"},
		{"str mutated list", mutated + "\ns = str(x)"},
		{"str tuple", tuple + "\ns = str(x)"},
		{"dict get", tuple + "\nv = {}.get(x)"},
		{"dict key", tuple + "\nd = {x: 1}"},
		{"set element", tuple + "\ns = set([x])"},
		{"in dict", tuple + "\nb = x in {}"},
		{"equal", list + "\ny = []\nfor i in range(" + n + "):\n  y = [y]\nb = x == y"},
		{"less", tuple + "\ny = ()\nfor i in range(" + n + "):\n  y = (y,)\nb = x < y"},
		{"sorted", tuple + "\ny = ()\nfor i in range(" + n + "):\n  y = (y,)\nz = sorted([x, y])"},
		{"in list", list + "\ny = []\nfor i in range(" + n + "):\n  y = [y]\nb = x in [y]"},
		{"index", list + "\ny = []\nfor i in range(" + n + "):\n  y = [y]\nb = [y].index(x)"},
		{"str of a set of tuples", tuple + "\ns = str(set([x]))"},
		{"string join of str", list + "\ns = ','.join([str(x)])"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if i > 0 {
				defer eval.LowerStackLimit(testStackLimit)()
			}
			fs := vfs.NewMemory()
			out := callSteps(t, fs, deep(c.program), 50_000_000)
			if out.Success {
				return // a walker with its own depth limit (comparisons) refused it cleanly: fine
			}
			if _, err := fs.Stat("new.txt"); err == nil {
				t.Error("new.txt survived the failed call")
			}
			// A walk that exhausts the evaluator's stack says so; comparisons stop at their own depth limit.
			ok := strings.HasPrefix(out.Output, "The program built a value nested too deeply to process") ||
				strings.Contains(out.Output, "comparison exceeded maximum recursion depth") ||
				// Under the race detector a 300,000-deep dict outgrows the memory bound while it is built.
				raceEnabled && strings.HasPrefix(out.Output, "The program used more than 256 MiB of memory")
			if !ok {
				t.Errorf("output %q", short(out.Output))
			}
			if !strings.Contains(out.Output, "before") {
				t.Errorf("the output printed before the failure is lost: %q", short(out.Output))
			}
			checkPeak(t)
		})
	}
}

// testMemoryBound is the evaluators' memory bound in TestEvalOneStepCannotTakeMemoryPastTheBound: every
// step there asks for far more than MaxMemory, and the mechanism that stops it (RLIMIT_AS, the collector's
// limit and the heap watcher, all set from the bound) is the same at any bound, so the evaluators there
// fill an eighth of the heap (the default bound is held in TestEvalFailuresRollBackAndSayWhy and
// TestEvalBoundsHoldInAWarmEvaluator). The texts are the parent's and name MaxMemory.
const testMemoryBound = eval.MaxMemory / 8

func TestEvalOneStepCannotTakeMemoryPastTheBound(t *testing.T) {
	eval.DrainPool() // checkPeak reads the last evaluator that ended: none of another test's
	defer eval.LowerMemoryBound(testMemoryBound)()
	const mb = "s = 'x' * 1000000\n"
	for _, c := range []struct{ name, program string }{
		{"string repetition", "s = 'x' * 900000000"},
		{"bytes repetition", "s = b'x' * 900000000"},
		{"list repetition", "l = [0] * 500000000"},
		{"tuple repetition", "l = (0,) * 500000000"},
		{"replace", mb + "t = s.replace('x', 'yyyyyyyyyy' * 100)"},
		{"join", mb + "t = ''.join([s] * 1000)"},
		{"percent", mb + "t = ('%s' * 1000) % tuple([s] * 1000)"},
		{"format", mb + "t = ('{}' * 1000).format(*([s] * 1000))"},
		{"concatenation loop", mb + "t = s\nfor i in range(12):\n  t = t + t"},
		{"range to list", "l = list(range(500000000))"},
		{"range to tuple", "l = tuple(range(500000000))"},
		{"list extend", "l = []\nl.extend(range(500000000))"},
		{"sorted range", "l = sorted(range(500000000))"},
		{"reversed range", "l = reversed(range(500000000))"},
		{"enumerate", "l = enumerate(range(500000000))"},
		{"zip", "l = zip(range(500000000), range(500000000))"},
		{"dict comprehension", "d = {i: i for i in range(50000000)}"},
		{"dict from pairs", "d = dict([(i, i) for i in range(50000000)])"},
		{"split", mb + "t = (s + ' ') * 500\nl = t.split(' ') * 1000"},
		{"elems", mb + "l = list((s * 100).elems())"},
		{"codepoints", mb + "l = list((s * 100).codepoints())"},
		{"bytes of string", mb + "b = bytes(s * 600)"},
		{"repr of a large list", mb + "l = [s] * 600\nr = repr(l)"},
		{"str of a large dict", mb + "d = {i: s for i in range(600)}\nr = str(d)"},
		{"big int", "n = 1 << 10000\nfor i in range(40):\n  n = n * n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := vfs.NewMemory()
			out := callMemory(t, fs, nested+c.program+"\n")
			if out.Success {
				t.Fatalf("succeeded: %q", short(out.Output))
			}
			ok := strings.HasPrefix(out.Output, "The program used more than 256 MiB of memory and was stopped") ||
				strings.Contains(out.Output, "excessive repeat") || strings.Contains(out.Output, "too large")
			if !ok {
				t.Errorf("output %q", short(out.Output))
			}
			if _, err := fs.Stat("new.txt"); err == nil {
				t.Error("new.txt survived the failed call")
			}
			checkPeakUnder(t, testMemoryBound+64<<20+64<<20)
		})
	}
}

func TestEvalLargeResultIsCapped(t *testing.T) {
	out := call(t, vfs.NewMemory(), src("result = 'é' * 100000"))
	if !out.Success || !strings.Contains(out.Output, "[result truncated at 32768 bytes: return less, or write it to a file with write_file]") {
		t.Fatalf("outcome %q", short(out.Output))
	}
	if len(out.Output) > 34000 || !strings.Contains(out.Output, "result = \"éé") {
		t.Errorf("output of %d bytes: %q", len(out.Output), short(out.Output))
	}
}

func TestEvalDeadlineStopsTheProgram(t *testing.T) {
	fs := vfs.NewMemory()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(eval.WinkTools()), Filesystem: fs, Session: session.New()}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	program := "write_file('new.txt', 'x')\nn = 0\nwhile True:\n  n += 1"
	start := time.Now()
	out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: "eval", Arguments: []byte(`{"source":` + strconv.Quote(program) + `,"max_steps":100000000}`)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Success || time.Since(start) > 10*time.Second {
		t.Fatalf("after %v: %q", time.Since(start), short(out.Output))
	}
	if _, err := fs.Stat("new.txt"); err == nil {
		t.Error("new.txt survived the failed call")
	}
}

func callSteps(t *testing.T, fs vfs.Filesystem, program string, steps int) wink.Outcome {
	t.Helper()
	return call(t, fs, `{"source":`+strconv.Quote(program)+`,"max_steps":`+strconv.Itoa(steps)+`}`)
}

// callMemory runs program with 100,000,000 steps and the default bounds except the wall-clock one, which
// is ten minutes: a program whose live heap nears the memory bound makes the collector thrash (see
// memwatch.go), which on a loaded machine takes longer than the default 30 s of wall-clock time but no
// more CPU time; with the wall-clock bound out of the way, the outcome depends on the program alone.
func callMemory(t *testing.T, fs vfs.Filesystem, program string) wink.Outcome {
	t.Helper()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(eval.WinkTools()), Filesystem: fs, Session: session.New()}
	reg, err := resources.NewRegistry(resources.Instance(eval.ConfigKey, &eval.Config{Timeout: 10 * time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := reg.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	d.Resources = rc
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "eval",
		Arguments: []byte(`{"source":` + strconv.Quote(program) + `,"max_steps":100000000}`)})
	if err != nil {
		t.Fatalf("eval: %v", err)
	}
	return out
}

func checkPeak(t *testing.T) {
	t.Helper()
	checkPeakUnder(t, peakBound)
}

// checkPeakUnder checks that the last call's evaluator stayed under peak bytes resident (3 times as much
// under the race detector). The test must have drained the pool before its calls.
func checkPeakUnder(t *testing.T, peak int64) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return
	}
	eval.DrainPool() // the call's evaluator, if it was kept for the next program, ends now
	bound := peak
	if raceEnabled {
		bound *= 3
	}
	p := eval.LastChildPeak()
	t.Logf("evaluator peak resident memory: %d MiB", p>>20)
	if p <= 0 || p > bound {
		t.Errorf("the evaluator's peak resident memory was %d MiB; the bound is %d MiB", p>>20, bound>>20)
	}
}

func short(s string) string {
	if len(s) > 600 {
		return s[:300] + " … " + s[len(s)-300:]
	}
	return s
}
