//go:build linux

package eval

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// In an evaluator started with WINK_EVAL_TEST_WIRE, each builtin's request is followed by what the value
// says: "lie-exit" counts a megabyte the child never writes, then exits with status 9; "lie-hang" counts
// it and then waits for an hour; "exit" exits with status 9 without counting anything.
var _ = func() bool {
	mode := os.Getenv("WINK_EVAL_TEST_WIRE")
	if mode == "" {
		return true
	}
	testWire = func(count *uint64) {
		if strings.HasPrefix(mode, "lie-") && count != nil {
			atomic.AddUint64(count, 1<<20)
		}
		if mode == "lie-hang" {
			time.Sleep(time.Hour)
		}
		os.Exit(9)
	}
	return true
}()

// The class: the count of the pipe's bytes the parent spins on is a hint it never trusts. Whatever the
// child's count says (bytes it never wrote, or nothing while it dies), a child that dies is reported as
// such, one that hangs is stopped by the call's deadline, and the call's write is undone either way.
func TestEvalWireCountsAreOnlyAHint(t *testing.T) {
	for _, c := range []struct{ mode, want string }{
		{"lie-exit", "The evaluator stopped unexpectedly (exit status 9)"},
		{"exit", "The evaluator stopped unexpectedly (exit status 9)"},
		{"lie-hang", "The program was stopped because the call was cancelled or ran out of time"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			testChildEnv = []string{"WINK_EVAL_TEST_WIRE=" + c.mode}
			defer func() { testChildEnv = nil }()
			fs := vfs.NewMemory()
			d := &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools()), Filesystem: fs, Session: session.New()}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: "eval",
				Arguments: []byte(`{"source":` + strconv.Quote("write_file('new.txt', 'x')\nprint(read_file('new.txt'))") + `}`)})
			if err != nil {
				t.Fatal(err)
			}
			if out.Success || !strings.HasPrefix(out.Output, c.want) {
				t.Fatalf("outcome %q, want the prefix %q", out.Output, c.want)
			}
			if _, err := fs.Stat("new.txt"); err == nil {
				t.Error("new.txt survived the failed call")
			}
		})
	}
}

// The class: every byte either side writes to its pipe is counted, so a side never spins for a frame
// that came already (which would cost it spinFor for nothing): after calls that send every kind of frame
// (a program, a file's text, an error, an empty reply, a request to read and to write, prints, the
// answer), the waiting evaluator's count is exactly what the parent has read from it.
func TestEvalWireCountsEveryByte(t *testing.T) {
	DrainPool()
	fs := vfs.NewMemory()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools()), Filesystem: fs, Session: session.New()}
	for _, program := range []string{
		"result = 1",
		"write_file('a.txt', 'x' * 70000)\nprint(len(read_file('a.txt')))",
		"print('p' * 100)\nread_file('missing.txt')",
		"result = 'r' * 1000",
	} {
		out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "eval", Arguments: []byte(`{"source":` + strconv.Quote(program) + `}`)})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(program, "missing") && !out.Success {
			t.Fatalf("%q: %q", program, out.Output)
		}
	}
	warm.mu.Lock()
	defer warm.mu.Unlock()
	if len(warm.idle) != 1 {
		t.Fatalf("%d evaluators waiting, want 1", len(warm.idle))
	}
	c := warm.idle[0]
	childCount, _ := c.prints.counts()
	if childCount == nil {
		t.Fatal("no shared counts")
	}
	// The child counts its last frame just after writing it, and the parent may have read it already:
	// wait for the count to catch up (it never passes what was written).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		n := atomic.LoadUint64(childCount)
		if n > c.link.read {
			t.Fatalf("the child counted %d bytes written, more than the %d the parent read", n, c.link.read)
		}
		if n == c.link.read && n > 70000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the child counted %d bytes written, the parent read %d", n, c.link.read)
		}
	}
}

// The class: a wait that runs out makes the next waits at the same point block at once (1, 3, 7, ...
// up to 63 of them) until one succeeds, so that a machine too busy to run both sides at once is not
// also spun on; a wait finds bytes already there, or buffered, without spinning.
func TestWaitsAdapt(t *testing.T) {
	if !spinning {
		t.Skip("one CPU: nobody waits") // await returns at once; the rest of the package covers that
	}
	var peer uint64
	l := newLink(strings.NewReader(""), &peer, nil, nil, nil)
	r := bufio.NewReader(l)
	for i := 1; i <= maxSkip+2; i++ {
		if l.await(r, awaitNext) { // the count never moves: the wait runs out
			t.Fatal("a wait saw bytes that never came")
		}
		misses := min(i, maxSkip)
		if s := l.sites[awaitNext]; int(s.misses) != misses || int(s.skip) != 1<<misses-1 {
			t.Fatalf("after %d waits that ran out: %+v", i, s)
		}
		for range 1<<misses - 1 { // skipped: no spinning, no change but the skip
			l.await(r, awaitNext)
		}
		if s := l.sites[awaitNext]; s.skip != 0 {
			t.Fatalf("skips left: %+v", s)
		}
	}
	if s := l.sites[awaitFirst]; s != (spinSite{}) {
		t.Fatalf("another point of the exchange changed: %+v", s)
	}
	// Bytes there already: no wait, the site unchanged.
	atomic.StoreUint64(&peer, 5)
	before := l.sites[awaitNext]
	if l.await(r, awaitNext) || l.sites[awaitNext] != before {
		t.Fatal("waited for bytes that were there")
	}
	// A wait that sees the bytes come ends the skipping. Another goroutine counts them while the wait
	// spins; on a busy machine it may not run within spinFor, so try until it does.
	deadline := time.Now().Add(time.Minute)
	for {
		l.read = atomic.LoadUint64(&peer)
		l.sites[awaitNext] = spinSite{misses: 3}
		stop := make(chan struct{})
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
					atomic.AddUint64(&peer, 1)
					time.Sleep(10 * time.Microsecond)
				}
			}
		}()
		hit := l.await(r, awaitNext)
		close(stop)
		if hit {
			if s := l.sites[awaitNext]; s.misses != 0 || s.skip != 0 {
				t.Fatalf("after a wait that succeeded: %+v", s)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no wait saw the bytes come in a minute")
		}
	}
}

// The class: an evaluator waiting for its next program uses no CPU time: it blocks in read(2), having
// spun for at most spinForProgram after its answer.
func TestEvalIdleEvaluatorDoesNotSpin(t *testing.T) {
	DrainPool()
	fs := vfs.NewMemory()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools()), Filesystem: fs, Session: session.New()}
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "eval",
		Arguments: []byte(`{"source":` + strconv.Quote("write_file('a.txt', 'x')\nresult = read_file('a.txt')") + `}`)})
	if err != nil || !out.Success {
		t.Fatal(out.Output, err)
	}
	warm.mu.Lock()
	pid := warm.idle[0].cmd.Process.Pid
	warm.mu.Unlock()
	// The CPU time of every thread of the process, in nanoseconds.
	cpu := func() int64 {
		tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
		if err != nil {
			t.Fatal(err)
		}
		var sum int64
		for _, task := range tasks {
			b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + task.Name() + "/schedstat")
			if err != nil {
				continue // the thread ended
			}
			ns, _ := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
			sum += ns
		}
		return sum
	}
	time.Sleep(20 * time.Millisecond)
	before := cpu()
	time.Sleep(500 * time.Millisecond)
	if used := time.Duration(cpu() - before); used > 25*time.Millisecond {
		t.Fatalf("the waiting evaluator used %v of CPU in 500ms", used)
	}
}

// The class: a process just started answers its first program only after the Go runtime and every
// package's initialisation (milliseconds), so the parent does not spin for that answer; it spins for
// the first answer of each later program.
func TestEvalFreshEvaluatorIsNotSpunOn(t *testing.T) {
	c, err := startChild()
	if err != nil {
		t.Fatal(err)
	}
	defer c.kill()
	if s := c.link.sites[awaitFirst]; s.skip != 1 {
		t.Fatalf("a new evaluator's first wait: %+v, want it skipped", s)
	}
	if c.link.await(c.out, awaitFirst) || c.link.sites[awaitFirst].skip != 0 {
		t.Fatalf("the wait for the first program's answer was not skipped: %+v", c.link.sites[awaitFirst])
	}
}

// The class: a call that follows the last within microseconds (a turn's eval calls, dispatched one after
// another) reaches an evaluator that is still waiting for it, not one asleep in read(2): its program
// comes through the mailbox, and the parent writes nothing to the pipe. On a busy machine the evaluator
// may not run within the wait, so try until it does.
func TestEvalNextProgramFindsTheEvaluatorAwake(t *testing.T) {
	DrainPool()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools()), Filesystem: vfs.NewMemory(), Session: session.New()}
	dispatch := func() {
		out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "eval", Arguments: []byte(`{"source":"result = 1"}`)})
		if err != nil || !out.Success {
			t.Fatal(out.Output, err)
		}
	}
	dispatch()
	for deadline := time.Now().Add(time.Minute); ; {
		warm.mu.Lock()
		if len(warm.idle) == 0 { // the evaluator served its last program: the next call starts one
			warm.mu.Unlock()
			dispatch()
			continue
		}
		c := warm.idle[len(warm.idle)-1]
		warm.mu.Unlock()
		piped := atomic.LoadUint64(c.link.own)
		dispatch()
		if atomic.LoadUint64(c.link.own) == piped && LastChildPid() == c.cmd.Process.Pid {
			return // the program, the only frame the parent sent, did not cross the pipe
		}
		if time.Now().After(deadline) {
			t.Fatal("no program came through the mailbox in a minute of calls one after another")
		}
	}
}
