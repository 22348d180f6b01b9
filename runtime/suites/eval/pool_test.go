package eval_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// warmPid runs a small program so that an evaluator waits in the pool, and returns its process ID.
func warmPid(t *testing.T) int {
	t.Helper()
	eval.DrainPool()
	if out := call(t, vfs.NewMemory(), src("result = 1")); !out.Success {
		t.Fatalf("warming call: %q", out.Output)
	}
	return eval.LastChildPid()
}

// The class: a call served by a waiting evaluator sees nothing of the programs it served before (globals,
// print output, steps, files, the builtins), and gets its bounds whole.
func TestEvalWarmEvaluatorCarriesNothingBetweenCalls(t *testing.T) {
	pid := warmPid(t)
	fs := vfs.NewMemory()
	steps := func(out wink.Outcome) string {
		_, after, _ := strings.Cut(out.Message, "finished after ")
		return after
	}
	first := callSteps(t, fs, "secret = 'abc'\nlen = 3\nprint('first')\nwrite_file('a.txt', secret)\nfor i in range(300):\n  pass\nresult = secret", 5000)
	if !first.Success || eval.LastChildPid() != pid {
		t.Fatalf("first call in evaluator %d (warm: %d): %q", eval.LastChildPid(), pid, first.Output)
	}
	// The same process serves the next program: a global of the last one is undefined, the builtin it
	// shadowed is whole, nothing it printed shows, and its steps are not counted.
	second := callSteps(t, vfs.NewMemory(), "result = len('ab')", 1000)
	if eval.LastChildPid() != pid {
		t.Fatalf("the second call ran in evaluator %d, not the waiting %d", eval.LastChildPid(), pid)
	}
	if !second.Success || strings.Contains(second.Output, "first") || !strings.Contains(second.Output, "result = 2") || steps(second) == steps(first) {
		t.Fatalf("second call: %q (first: %q)", second.Output, first.Output)
	}
	third := callSteps(t, vfs.NewMemory(), "result = secret", 1000)
	if eval.LastChildPid() != pid || third.Success || !strings.Contains(third.Output, "undefined: secret") {
		t.Fatalf("third call in evaluator %d: %q", eval.LastChildPid(), third.Output)
	}
	fourth := callSteps(t, vfs.NewMemory(), "result = read_file('a.txt')", 1000)
	if eval.LastChildPid() != pid || fourth.Success || strings.Contains(fourth.Output, "abc") {
		t.Fatalf("fourth call in evaluator %d read another call's workspace: %q", eval.LastChildPid(), fourth.Output)
	}
}

// The class: the bounds hold in an evaluator that served programs before: memory, steps, CPU time and
// wall-clock time each stop the program in the waiting process with the usual words, and a process
// that hit the memory or a time bound, or lost its call's context, is not given another program.
func TestEvalBoundsHoldInAWarmEvaluator(t *testing.T) {
	t.Run("steps", func(t *testing.T) {
		pid := warmPid(t)
		out := callSteps(t, vfs.NewMemory(), "n = 0\nwhile True:\n  n += 1", 10000)
		if out.Success || !strings.HasPrefix(out.Output, "The program ran out of its 10000 steps") || eval.LastChildPid() != pid {
			t.Fatalf("evaluator %d (warm %d): %q", eval.LastChildPid(), pid, short(out.Output))
		}
		// Running out of steps leaves the process as it was: it serves the next call.
		if out := call(t, vfs.NewMemory(), src("result = 1")); !out.Success || eval.LastChildPid() != pid {
			t.Fatalf("after the steps bound, evaluator %d (warm %d): %q", eval.LastChildPid(), pid, out.Output)
		}
	})
	t.Run("memory", func(t *testing.T) {
		pid := warmPid(t)
		out := callSteps(t, vfs.NewMemory(), "x = []\nfor i in range(100000):\n  x.append('y' * 1000000)", 100000000)
		if out.Success || !strings.HasPrefix(out.Output, "The program used more than 256 MiB of memory") || eval.LastChildPid() != pid {
			t.Fatalf("evaluator %d (warm %d): %q", eval.LastChildPid(), pid, short(out.Output))
		}
		if out := call(t, vfs.NewMemory(), src("result = 1")); !out.Success || eval.LastChildPid() == pid {
			t.Fatalf("after the memory bound, evaluator %d served again: %q", pid, out.Output)
		}
	})
	t.Run("cpu", func(t *testing.T) {
		pid := warmPid(t)
		out, _ := callConfig(t, vfs.NewMemory(), &eval.Config{CPUTime: time.Second, Timeout: time.Hour}, longStep)
		if !stoppedWith(out, "The program used more than 1s of CPU time, the evaluator's bound") || eval.LastChildPid() != pid {
			t.Fatalf("evaluator %d (warm %d): %q", eval.LastChildPid(), pid, short(out.Output))
		}
		if out := call(t, vfs.NewMemory(), src("result = 1")); !out.Success || eval.LastChildPid() == pid {
			t.Fatalf("after the CPU bound, evaluator %d served again: %q", pid, out.Output)
		}
	})
	// (A CPU bound larger than the first program's is served by a fresh process: see limitCPU.)
	t.Run("wall clock", func(t *testing.T) {
		pid := warmPid(t)
		out, took := callConfig(t, vfs.NewMemory(), &eval.Config{Timeout: time.Second}, longStep)
		if !stoppedWith(out, "The program ran for more than 1s, the evaluator's time bound") || eval.LastChildPid() != pid || took > 20*time.Second {
			t.Fatalf("evaluator %d (warm %d) after %v: %q", eval.LastChildPid(), pid, took, short(out.Output))
		}
		if out := call(t, vfs.NewMemory(), src("result = 1")); !out.Success || eval.LastChildPid() == pid {
			t.Fatalf("after the time bound, evaluator %d served again: %q", pid, out.Output)
		}
	})
	// The evaluator's timer, still set for the last program's longer bound, stops this one at its own.
	t.Run("wall clock after a longer bound", func(t *testing.T) {
		pid := warmPid(t)
		if out, _ := callConfig(t, vfs.NewMemory(), &eval.Config{Timeout: time.Hour}, "result = 1"); !out.Success || eval.LastChildPid() != pid {
			t.Fatalf("evaluator %d (warm %d): %q", eval.LastChildPid(), pid, short(out.Output))
		}
		out, took := callConfig(t, vfs.NewMemory(), &eval.Config{Timeout: time.Second}, longStep)
		if !stoppedWith(out, "The program ran for more than 1s, the evaluator's time bound") || eval.LastChildPid() != pid || took > 20*time.Second {
			t.Fatalf("evaluator %d (warm %d) after %v: %q", eval.LastChildPid(), pid, took, short(out.Output))
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		pid := warmPid(t)
		d := &wink.Dispatcher{Registry: wink.MustRegistry(eval.WinkTools()), Filesystem: vfs.NewMemory(), Session: session.New()}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: "eval", Arguments: []byte(src("n = 0\nwhile True:\n  n += 1")[:len(src("n = 0\nwhile True:\n  n += 1"))-1] + `,"max_steps":100000000}`)})
		if err != nil || out.Success || eval.LastChildPid() != pid {
			t.Fatalf("evaluator %d (warm %d): %q, %v", eval.LastChildPid(), pid, short(out.Output), err)
		}
		if out := call(t, vfs.NewMemory(), src("result = 1")); !out.Success || eval.LastChildPid() == pid {
			t.Fatalf("after a cancelled call, evaluator %d served again: %q", pid, out.Output)
		}
	})
}

// longStep is one comparison that walks 10^12 list cells: hours in a single step.
const longStep = "print('before')\na = [[[[0] * 1000] * 1000] * 1000] * 1000\nb = [[[[0] * 1000] * 1000] * 1000] * 1000\nx = a == b"

// barrierFS holds every read until n reads are waiting at once.
type barrierFS struct {
	vfs.Filesystem
	arrived chan struct{}
	all     chan struct{}
	once    *sync.Once
	n       int
}

func (b barrierFS) Read(p string) ([]byte, error) {
	b.arrived <- struct{}{}
	if len(b.arrived) == b.n {
		b.once.Do(func() { close(b.all) })
	}
	select {
	case <-b.all:
	case <-time.After(30 * time.Second):
		return nil, errors.New("the other programs never read at the same time")
	}
	return b.Filesystem.Read(p)
}

// The class: calls at the same time never share an evaluator: four programs each wait inside read_file
// until all four are there, which they can only be in four processes.
func TestEvalConcurrentCallsUseTheirOwnEvaluators(t *testing.T) {
	warmPid(t)
	const n = 4
	mem := vfs.NewMemory()
	if err := mem.Write("a.txt", []byte("a")); err != nil {
		t.Fatal(err)
	}
	fs := barrierFS{Filesystem: mem, arrived: make(chan struct{}, n), all: make(chan struct{}), once: new(sync.Once), n: n}
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out := call(t, fs, src("mine = read_file('a.txt')\nresult = mine")); !out.Success || !strings.Contains(out.Output, `result = "a"`) {
				t.Errorf("%q", out.Output)
			}
		}()
	}
	wg.Wait()
	eval.DrainPool()
}

// An evaluator that has served its last program (MaxPrograms) is replaced off the call's path: a fresh
// one waits in its place, so the next call starts no process.
func TestEvalRetiredEvaluatorIsReplacedAhead(t *testing.T) {
	pid := warmPid(t)
	fs := vfs.NewMemory()
	for n := 1; ; n++ {
		if out := call(t, fs, src("result = 1")); !out.Success {
			t.Fatalf("call %d: %q", n, out.Output)
		}
		if idle := eval.IdlePids(); len(idle) != 1 || idle[0] != pid {
			break // the evaluator was not put back: it has served its last program
		}
		if n > eval.MaxPrograms {
			t.Fatalf("evaluator %d served more than %d programs", pid, eval.MaxPrograms)
		}
	}
	var spare int
	for deadline := time.Now().Add(time.Minute); spare == 0; time.Sleep(time.Millisecond) {
		if idle := eval.IdlePids(); len(idle) == 1 && idle[0] != pid {
			spare = idle[0]
		} else if time.Now().After(deadline) {
			t.Fatalf("no evaluator waits after %d retired (waiting: %v)", pid, idle)
		}
	}
	starts := eval.Starts()
	if out := call(t, fs, src("result = 2")); !out.Success || !strings.Contains(out.Output, "result = 2") {
		t.Fatalf("call after the retirement: %q", out.Output)
	}
	if eval.Starts() != starts || eval.LastChildPid() != spare {
		t.Fatalf("the call after the retirement started %d processes and ran in %d, not in the waiting %d",
			eval.Starts()-starts, eval.LastChildPid(), spare)
	}
}
