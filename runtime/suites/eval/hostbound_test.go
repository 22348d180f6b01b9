package eval_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// The class: what a program hands the calling process is bounded there too, not only in the evaluator.
// Files written live in the host (a memory workspace) or on its disk: before MaxWriteBytes, a three-line
// program writing 100 files of 32 MiB made the test process hold 4 GiB resident.
func TestEvalWrittenBytesAreBoundedTogether(t *testing.T) {
	filesystems(t, func(t *testing.T, fs fsys) {
		for _, c := range []struct{ name, program string }{
			{"many large files", "s = 'x' * (4 << 20)\nfor i in range(100):\n  write_file('f%d.txt' % i, s)"},
			{"one file past the rest", "s = 'x' * " + strconv.Itoa(eval.MaxWriteBytes/8) + "\nfor i in range(8):\n  write_file('f%d.txt' % i, s)\nwrite_file('b.txt', 'y')"},
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
		// Up to the bound exactly, the writes succeed (in eighths: light enough for the race detector).
		eighth := strconv.Itoa(eval.MaxWriteBytes / 8)
		out := callSteps(t, fs, "s = 'x' * "+eighth+"\nfor i in range(8):\n  write_file('f%d.txt' % i, s)", 100_000_000)
		if !out.Success {
			t.Fatalf("outcome %q", short(out.Output))
		}
		if b, err := fs.Read("f7.txt"); err != nil || len(b) != eval.MaxWriteBytes/8 {
			t.Errorf("f7.txt: %d bytes, %v", len(b), err)
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

// The class: the evaluator ending from outside mid-call (the OOM killer's SIGKILL, an operator's kill)
// fails the call cleanly, its writes undone, with the reason; the host goes on and the next call works.
func TestEvalChildKilledMidCallFailsCleanly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGKILL on Windows") // os.Process.Kill is TerminateProcess there; same path, other wording
	}
	filesystems(t, func(t *testing.T, fs fsys) {
		before := eval.Programs()
		done := make(chan wink.Outcome, 1)
		go func() {
			d := &wink.Dispatcher{Registry: wink.MustRegistry(eval.WinkTools()), Filesystem: fs, Session: session.New()}
			out, _ := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "eval",
				Arguments: []byte(`{"source":` + strconv.Quote("write_file('new.txt', 'x')\nn = 0\nwhile True:\n  n += 1") + `,"max_steps":100000000}`)})
			done <- out
		}()
		deadline := time.Now().Add(10 * time.Second)
		for {
			if _, err := fs.Stat("new.txt"); err == nil && eval.Programs() != before {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the program never wrote new.txt")
			}
			time.Sleep(time.Millisecond)
		}
		if runtime.GOOS == "linux" { // the OOM killer would choose the evaluator before the host
			if adj, err := os.ReadFile("/proc/" + strconv.Itoa(eval.LastChildPid()) + "/oom_score_adj"); err != nil || strings.TrimSpace(string(adj)) != "1000" {
				t.Errorf("the evaluator's oom_score_adj is %q (%v), want 1000", adj, err)
			}
		}
		p, err := os.FindProcess(eval.LastChildPid())
		if err != nil {
			t.Fatal(err)
		}
		defer p.Release() // its pidfd, which TestEvalLeavesNoProcessOrDescriptorBehind would count otherwise
		if err := p.Kill(); err != nil {
			t.Fatal(err)
		}
		out := <-done
		if out.Success || !strings.HasPrefix(out.Output, "The evaluator process was stopped from outside (signal: killed;") {
			t.Fatalf("outcome %q", short(out.Output))
		}
		if _, err := fs.Stat("new.txt"); err == nil {
			t.Error("new.txt survived the failed call")
		}
		if out := call(t, fs, src("write_file('new.txt', 'y')")); !out.Success {
			t.Fatalf("the next call: %q", out.Output)
		}
	})
}

// How the child gets control: the executable started again. That holds when the executable was run by
// a relative path, the working directory changed since, and the file was deleted (go run deletes its
// temporary binary; a deploy replaces the file): the child is /proc/self/exe, the running file itself.
func TestEvalFromADeletedExecutableRunByARelativePath(t *testing.T) {
	if os.Getenv("EVAL_TEST_DELETED_SELF") != "" {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(exe); err != nil {
			t.Fatal(err)
		}
		if err := os.Chdir(os.TempDir()); err != nil {
			t.Fatal(err)
		}
		if out := call(t, vfs.NewMemory(), src("print(1)\nresult = 2")); !out.Success || !strings.HasSuffix(out.Output, "1\nresult = 2") {
			t.Fatalf("outcome %q", out.Output)
		}
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("a running executable's file is deleted and re-executed through /proc/self/exe on Linux only")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "copy.test"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("./copy.test", "-test.run=^TestEvalFromADeletedExecutableRunByARelativePath$", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "EVAL_TEST_DELETED_SELF=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "copy.test")); err == nil {
		t.Fatal("the copy was not deleted: the case was not tried")
	}
}

// The class: a call cancelled at any moment, a write in flight included, keeps all of its writes or
// none: a failed call leaves the workspace as it was, a successful one has every file.
func TestEvalCancelledAtAnyMomentKeepsAllOrNothing(t *testing.T) {
	filesystems(t, func(t *testing.T, fs fsys) {
		const n = 20
		program := "s = 'x' * 100000\nfor i in range(" + strconv.Itoa(n) + "):\n  write_file('d/f%d.txt' % i, s)"
		kept, undone := 0, 0
		for i := range 40 {
			d := &wink.Dispatcher{Registry: wink.MustRegistry(eval.WinkTools()), Filesystem: fs, Session: session.New()}
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i)*time.Millisecond)
			out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: "eval", Arguments: []byte(`{"source":` + strconv.Quote(program) + `}`)})
			cancel()
			files := 0
			for j := range n {
				if _, serr := fs.Stat("d/f" + strconv.Itoa(j) + ".txt"); serr == nil {
					files++
				}
			}
			switch {
			case err == nil && out.Success && files == n:
				kept++
				for j := range n {
					if err := fs.Remove("d/f" + strconv.Itoa(j) + ".txt"); err != nil {
						t.Fatal(err)
					}
				}
			case (err != nil || !out.Success) && files == 0:
				undone++
			default:
				t.Fatalf("run %d: success %v, error %v, %d of %d files: %q", i, out.Success, err, files, n, short(out.Output))
			}
		}
		t.Logf("%d calls kept their writes, %d were cancelled and undone", kept, undone)
	})
}

// The class: no evaluator process, zombie or descriptor outlives its call, whether the call finished,
// failed or was cancelled, with many at once, except the evaluators waiting in the pool for the next
// call (at most eval.MaxIdle), which leave nothing behind when they end.
func TestEvalLeavesNoProcessOrDescriptorBehind(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts /proc entries")
	}
	fds := func() int {
		e, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(e)
	}
	children := func() int {
		ents, _ := os.ReadDir("/proc")
		n := 0
		for _, e := range ents {
			b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
			if err != nil {
				continue
			}
			// pid (comm) state ppid ...: comm may hold spaces, so read after its last ')'.
			if f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:])); len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) {
				n++
			}
		}
		return n
	}
	call(t, vfs.NewMemory(), src("print(1)")) // the first call's one-time setup is no leak
	eval.DrainPool()
	before := fds()
	programs := []string{
		"for i in range(100):\n  print('x' * 1000)\nwrite_file('a.txt', 'y' * 100000)\nresult = read_file('a.txt')",
		"x = 1 + 'a'",
		"n = 0\nwhile True:\n  n += 1",
		"s = 'x' * 900000000",
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i%7)*5*time.Millisecond+time.Millisecond)
			defer cancel()
			if i%3 == 0 {
				ctx = context.Background()
			}
			d := &wink.Dispatcher{Registry: wink.MustRegistry(eval.WinkTools()), Filesystem: vfs.NewMemory(), Session: session.New()}
			_, _ = d.Dispatch(ctx, wink.Call{ID: "c", Name: "eval", Arguments: []byte(`{"source":` + strconv.Quote(programs[i%len(programs)]) + `,"max_steps":2000000}`)})
		}()
	}
	wg.Wait()
	if n := children(); n > eval.MaxIdle {
		t.Errorf("%d child processes left after the calls; the pool keeps at most %d", n, eval.MaxIdle)
	}
	eval.DrainPool()
	if after := fds(); after != before {
		t.Errorf("%d descriptors open before 200 calls, %d after", before, after)
	}
	if n := children(); n != 0 {
		t.Errorf("%d child processes (or zombies) left after the calls", n)
	}
}
