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

// callConfig runs one eval call on a dispatcher that binds cfg (eval.ConfigKey), or nothing when cfg is
// nil. The call's own context ends after a minute, so a bound that does not hold fails the test instead
// of hanging it: without the bounds, the programs below run for hours.
func callConfig(t *testing.T, fs vfs.Filesystem, cfg *eval.Config, program string) (wink.Outcome, time.Duration) {
	t.Helper()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(eval.WinkTools()), Filesystem: fs, Session: session.New()}
	if cfg != nil {
		reg, err := resources.NewRegistry(resources.Instance(eval.ConfigKey, cfg))
		if err != nil {
			t.Fatal(err)
		}
		rc, err := reg.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		d.Resources = rc
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: "eval",
		Arguments: []byte(`{"source":` + strconv.Quote(program) + `,"max_steps":100000000}`)})
	if err != nil {
		t.Fatalf("eval: %v", err)
	}
	return out, time.Since(start)
}

// The programs of the class: a few steps each, every one an operation that walks a value built by
// repetition. The value is a few thousand list cells in memory (each level shares one inner list), but
// walking it visits 10^12 elements, in one step the step budget cannot interrupt.
const huge = "a = [[[[0] * 1000] * 1000] * 1000] * 1000\nb = [[[[0] * 1000] * 1000] * 1000] * 1000\n"
const hugeTuple = "t = ((((0,) * 1000,) * 1000,) * 1000,) * 1000\n"

var longSteps = []struct{ name, program string }{
	{"equal", huge + "x = a == b"},
	{"not equal", huge + "x = a != b"},
	{"less", huge + "x = a < b"},
	{"sorted", huge + "x = sorted([a, b])"},
	{"in", huge + "x = a in [b]"},
	{"not in", huge + "x = a not in [b]"},
	{"index", huge + "x = [b].index(a)"},
	{"max", huge + "x = max(a, b)"},
	{"tuple equal", hugeTuple + "u = ((((0,) * 1000,) * 1000,) * 1000,) * 1000\nx = t == u"},
	{"hash", hugeTuple + "x = hash(t)"},
	{"dict key", hugeTuple + "x = {t: 1}"},
	{"set element", hugeTuple + "x = set([t])"},
	{"in dict", hugeTuple + "x = t in {}"},
}

const wroteFirst = "write_file('new.txt', 'x')\nprint('before')\n"

// stoppedWith reports whether out is a failure whose text starts with want and that kept what the program
// printed (wroteFirst's "before").
func stoppedWith(out wink.Outcome, want string) bool {
	return !out.Success && strings.HasPrefix(out.Output, want) && strings.HasSuffix(out.Output, "\n\nbefore\n")
}

// The class: no program runs past the evaluator's time bounds, however few its steps. Each program
// below does about 10^12 operations in one step; each is stopped at the wall-clock bound (here 1 s), its
// write undone and its print output kept, with a text that names the bound and says how to get under
// it. The CPU bound is set high here so that the wall clock is what stops them.
func TestEvalLongStepsStopAtTheWallClockBound(t *testing.T) {
	cfg := &eval.Config{Timeout: time.Second, CPUTime: time.Hour}
	for _, c := range longSteps {
		t.Run(c.name, func(t *testing.T) {
			fs := vfs.NewMemory()
			out, took := callConfig(t, fs, cfg, wroteFirst+c.program)
			want := "The program ran for more than 1s, the evaluator's time bound, and was stopped; everything it wrote was undone. " +
				"A single operation can take that long: comparing, sorting, searching or hashing"
			if !stoppedWith(out, want) || !strings.Contains(out.Output, "Compute with fewer or smaller values") {
				t.Fatalf("after %v: %q", took, short(out.Output))
			}
			if took > cfg.Timeout+5*time.Second { // the bound plus generous room for a loaded machine
				t.Errorf("stopped after %v; the bound is %v", took, cfg.Timeout)
			}
			if _, err := fs.Stat("new.txt"); err == nil {
				t.Error("new.txt survived the failed call")
			}
		})
	}
}

// The class, for CPU time: the same long steps are stopped by the kernel at the CPU bound (here 1 s,
// with a wall-clock bound far away), with the text for that bound.
func TestEvalLongStepsStopAtTheCPUBound(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the CPU bound is RLIMIT_CPU, set on Linux only")
	}
	cfg := &eval.Config{Timeout: time.Hour, CPUTime: time.Second}
	for _, c := range longSteps[:4] {
		t.Run(c.name, func(t *testing.T) {
			fs := vfs.NewMemory()
			out, took := callConfig(t, fs, cfg, wroteFirst+c.program)
			want := "The program used more than 1s of CPU time, the evaluator's bound, and was stopped; everything it wrote was undone. " +
				"A single operation can take that long"
			if !stoppedWith(out, want) {
				t.Fatalf("after %v: %q", took, short(out.Output))
			}
			if _, err := fs.Stat("new.txt"); err == nil {
				t.Error("new.txt survived the failed call")
			}
		})
	}
}

// The earlier bound wins: a call whose own context ends before the evaluator's wall-clock bound is
// stopped then, and says so; an evaluator bound before the context's end stops the program at the bound.
func TestEvalTheEarlierOfTheCallDeadlineAndTheTimeBoundWins(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(eval.WinkTools()), Filesystem: vfs.NewMemory(), Session: session.New()}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: "eval", Arguments: []byte(src(huge + "x = a == b"))})
	if err != nil {
		t.Fatal(err)
	}
	if out.Success || !strings.HasPrefix(out.Output, "The program was stopped because the call was cancelled or ran out of time") ||
		time.Since(start) > 10*time.Second {
		t.Fatalf("after %v: %q", time.Since(start), short(out.Output))
	}
}

// A slow filesystem: each read takes a while.
type slowFS struct {
	fsys
	delay time.Duration
}

func (s slowFS) Read(p string) ([]byte, error) {
	time.Sleep(s.delay)
	return s.fsys.Read(p)
}

// The wall-clock bound is wall-clock time, not CPU time: a program that waits (here on a slow workspace
// read, 200 ms each, in a loop) uses little CPU and is still stopped at the bound.
func TestEvalWaitingProgramStopsAtTheWallClockBound(t *testing.T) {
	mem := vfs.NewMemory()
	if err := mem.Write("a.txt", []byte("a")); err != nil {
		t.Fatal(err)
	}
	fs := slowFS{fsys: mem, delay: 200 * time.Millisecond}
	out, took := callConfig(t, fs, &eval.Config{Timeout: time.Second}, wroteFirst+"for i in range(1000):\n  read_file('a.txt')")
	if !stoppedWith(out, "The program ran for more than 1s, the evaluator's time bound, and was stopped") {
		t.Fatalf("after %v: %q", took, short(out.Output))
	}
	if took > 6*time.Second {
		t.Errorf("stopped after %v; the bound is 1s", took)
	}
	if _, err := mem.Stat("new.txt"); err == nil {
		t.Error("new.txt survived the failed call")
	}
}

// Without a binding the defaults bound every call: DefaultConfig is what applies (set here to a 1 s
// wall-clock bound so that the test is quick).
func TestEvalWithoutAConfigTheDefaultBoundsApply(t *testing.T) {
	if eval.DefaultConfig.Timeout <= 0 || eval.DefaultConfig.CPUTime <= 0 || eval.DefaultConfig.MaxReadBytes <= 0 {
		t.Fatalf("a default bound is missing: %+v", eval.DefaultConfig)
	}
	saved := eval.DefaultConfig
	t.Cleanup(func() { eval.DefaultConfig = saved })
	eval.DefaultConfig.Timeout = time.Second
	out, took := callConfig(t, vfs.NewMemory(), nil, wroteFirst+huge+"x = a == b")
	if !stoppedWith(out, "The program ran for more than 1s, the evaluator's time bound, and was stopped") {
		t.Fatalf("after %v: %q", took, short(out.Output))
	}
}
