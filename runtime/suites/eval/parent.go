package eval

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// child is one evaluator process. It serves programs one at a time: the fields after prog are those
// of the program it is serving (begin sets them); between programs it waits in the warm pool (pool.go).
type child struct {
	cmd    *exec.Cmd
	in     *bufio.Writer
	stdin  io.Closer
	out    *bufio.Reader
	stdout io.Closer
	// link counts what the parent reads of the child's pipe (wire.go); await says what the parent waits
	// for next: the program's first frame (awaitFirst) or a later one.
	link   *link
	await  int
	stderr *stderrCapture
	// prints is the buffer the child prints into (prints.go); nil where there is none.
	prints *printBuf
	once   sync.Once
	// served counts the programs the process has been given; idle stops it when it waits too long in the
	// pool (pool.go): it waits there since idleSince, and idleSet says idle is pending (warm.mu held).
	served    int
	idle      *time.Timer
	idleSet   bool
	idleSince time.Time

	// The program being served.
	ctx context.Context
	// outOfProtocol says the parent stopped the child for what it sent.
	outOfProtocol bool
	// cfg holds the bounds of this evaluation; timedOut says the parent killed the child at cfg.Timeout,
	// stopped that it killed it for the call's context or the time bound.
	cfg      Config
	timedOut atomic.Bool
	stopped  atomic.Bool
	// watching says the program's watches (timer, stopCtx) may still kill the process; end clears it.
	// deadline is the program's wall-clock bound; timerSet says timer is pending, to fire at timerAt (it
	// may be set for an earlier program and fire sooner: onTimeout then sets it again for the rest).
	watchMu  sync.Mutex
	watching bool
	deadline time.Time
	timer    *time.Timer
	timerSet bool
	timerAt  time.Time
	stopCtx  func() bool
}

// startChild starts an evaluator process, which waits for its first program.
func startChild() (*child, error) {
	path, err := selfPath()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path)
	cmd.Env = append([]string{childEnv + "=" + childMagic, "GOTRACEBACK=none"}, testChildEnv...)
	if root := os.Getenv("SYSTEMROOT"); root != "" { // Windows needs it to start a process
		cmd.Env = append(cmd.Env, "SYSTEMROOT="+root)
	}
	cmd.SysProcAttr = childAttr()
	c := &child{cmd: cmd, stderr: &stderrCapture{}}
	cmd.Stderr = c.stderr
	prints, printsFile, err := newPrints()
	if err != nil {
		return nil, err
	}
	if printsFile != nil {
		cmd.ExtraFiles = []*os.File{printsFile}
		cmd.Env = append(cmd.Env, printsEnv+"="+childMagic)
		defer printsFile.Close() // the child's copy and the parent's mapping are all they need
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		prints.unmap()
		return nil, err
	}
	stdout, childOut, err := answerPipe()
	if err != nil {
		stdin.Close()
		prints.unmap()
		return nil, err
	}
	cmd.Stdout = childOut
	err = cmd.Start()
	childOut.Close() // the child's copy is all it needs
	if err != nil {
		stdin.Close()
		stdout.Close()
		prints.unmap()
		return nil, err
	}
	starts.Add(1)
	c.prints = prints
	c.stdin, c.stdout = stdin, stdout
	childCount, parentCount := prints.counts()
	toParent, toChild := prints.mailboxes()
	c.link = newLink(stdout, childCount, parentCount, toParent, toChild)
	c.link.sites[awaitFirst].skip = 1 // a new process answers its first program only once it has started
	c.in, c.out = bufio.NewWriter(c.link.writer(stdin)), bufio.NewReader(c.link)
	return c, nil
}

// begin makes c serve a program with the bounds cfg: the process is killed when ctx ends or cfg.Timeout
// has passed, whichever comes first, until end. Neither watch starts a goroutine unless it fires: a timer
// and a context.AfterFunc. end disarms both, but leaves the timer pending: setting a timer sooner than
// every other wakes the runtime's poller thread, a context switch per call, so the timer of an evaluator
// serving one program after another is set again only when it fires (for the rest of the current
// program's bound, if one runs), not for each program.
func (c *child) begin(ctx context.Context, cfg Config) {
	c.served++
	c.ctx, c.cfg, c.outOfProtocol = ctx, cfg, false
	c.prints.reset() // before the program is sent: the child is waiting and writes nothing now
	c.timedOut.Store(false)
	c.stopped.Store(false)
	c.watchMu.Lock()
	c.watching = true
	c.deadline = time.Now().Add(cfg.Timeout)
	if !c.timerSet || c.timerAt.After(c.deadline) { // none pending, or one too late for this bound
		c.timerSet, c.timerAt = true, c.deadline
		if c.timer == nil {
			c.timer = time.AfterFunc(cfg.Timeout, c.onTimeout)
		} else {
			c.timer.Reset(cfg.Timeout)
		}
	}
	c.watchMu.Unlock()
	lastChildPid.Store(int64(c.cmd.Process.Pid))
	programs.Add(1)
	c.stopCtx = context.AfterFunc(ctx, c.onCancel)
}

// onTimeout kills the process at the program's time bound, unless end came first; fired sooner (set for
// an earlier program), it waits for the rest of the bound.
func (c *child) onTimeout() {
	c.watchMu.Lock()
	defer c.watchMu.Unlock()
	if !c.watching {
		c.timerSet = false
		return
	}
	if rest := time.Until(c.deadline); rest > 0 {
		c.timerAt = c.deadline
		c.timer.Reset(rest)
		return
	}
	c.timedOut.Store(true) // before the kill: the parent reads it once the child's pipe closes
	c.stopped.Store(true)
	c.cmd.Process.Kill()
}

// onCancel kills the process when the call's context ends, unless end came first.
func (c *child) onCancel() {
	c.watchMu.Lock()
	defer c.watchMu.Unlock()
	if c.watching {
		c.stopped.Store(true)
		c.cmd.Process.Kill()
	}
}

// end ends the program's watch and reports whether the process is untouched by it (not killed for the
// call's context or the time bound). Once it returns, neither watch kills the process.
func (c *child) end() bool {
	c.watchMu.Lock()
	was := c.watching
	c.watching = false
	c.watchMu.Unlock()
	if !was {
		return false
	}
	c.stopCtx() // the timer stays pending: onTimeout does nothing once watching is false
	return !c.stopped.Load()
}

// retired ends c, a waiting evaluator that did not answer its program, and reports whether the program
// never began in it: sending it failed (the process had exited), or the process exited with exitRetired,
// refusing a program it could not bound.
func (c *child) retired(sendFailed bool) bool {
	stopped := c.stopped.Load()
	c.kill()
	if stopped { // killed for the call's context or the time bound: the call ends
		return false
	}
	return sendFailed || c.cmd.ProcessState.ExitCode() == exitRetired
}

// send writes a frame to the child; the parent's next wait (wire.go) is for the program's first frame
// after a program ('S', 'C'), for the next one after a reply.
func (c *child) send(kind byte, parts ...[]byte) error {
	c.await = awaitNext
	if kind == 'S' || kind == 'C' {
		c.await = awaitFirst
	}
	return writeFrame(c.in, kind, parts...)
}

// next reads the child's next frame, after passing to out what the program printed before it (or before
// the child died: then err is the read's error). A print buffer that does not parse is out of protocol
// (errFrameTooLarge, as a frame too large).
func (c *child) next(out *printed) (byte, []byte, error) {
	c.link.await(c.out, c.await)
	c.await = awaitNext // a frame that follows another without a reply comes soon, or the site adapts
	kind, b, err := readFrame(c.out, frameLimit)
	if err == nil {
		framesRead.Add(1)
	}
	if !c.prints.drain(out) && err == nil {
		err = errFrameTooLarge
	}
	return kind, b, err
}

// kill ends the process (a no-op once it has exited) and waits for it.
func (c *child) kill() {
	c.end()
	c.once.Do(func() {
		c.watchMu.Lock()
		if c.timer != nil {
			c.timer.Stop()
		}
		c.watchMu.Unlock()
		c.stdin.Close()
		c.cmd.Process.Kill()
		c.cmd.Wait()
		c.stdout.Close()
		c.prints.unmap()
		if c.cmd.ProcessState != nil {
			lastChildPeak.Store(peakRSS(c.cmd.ProcessState))
		}
	})
}

// garbled ends a process that answered out of protocol (a frame too large, malformed or of no known
// kind) and says so: the parent killed it, so its exit status tells nothing.
func (c *child) garbled(tc *wink.ToolContext, out *printed, steps int64) (wink.ToolResult[EvalResult], error) {
	c.outOfProtocol = true
	return c.crashed(tc, out, steps)
}

// crashed ends the process and explains why the program stopped without its answer.
func (c *child) crashed(tc *wink.ToolContext, out *printed, steps int64) (wink.ToolResult[EvalResult], error) {
	c.kill()
	var res EvalResult
	res.Output, res.Truncated = out.text()
	stderr := c.stderr.String()
	var text string
	switch {
	case c.timedOut.Load(): // the bound fired first, whatever the call's context did since
		text = "The program ran for more than " + c.cfg.Timeout.String() + ", the evaluator's time bound, and was stopped; " +
			"everything it wrote was undone. " + tooLongHint
	case c.cmd.ProcessState.ExitCode() == exitCPU, c.ctx.Err() == nil && c.killedAtCPULimit():
		text = "The program used more than " + c.cpuBound().String() + " of CPU time, the evaluator's bound, and was stopped; " +
			"everything it wrote was undone. " + tooLongHint
	case c.ctx.Err() != nil:
		text = "The program was stopped because the call was cancelled or ran out of time; everything it wrote was undone."
	case c.outOfProtocol:
		text = "The evaluator process answered out of protocol and was stopped; everything the program wrote was undone. " +
			"(For the host's developers: something in the executable writes to standard output when it starts, an init function say; the evaluator's answers travel there.)"
	case strings.Contains(stderr, "stack overflow") || strings.Contains(stderr, "stack exceeds"):
		text = "The program built a value nested too deeply to process (lists, dicts or tuples inside each other) and was stopped; " +
			"everything it wrote was undone. Nest values less deeply."
	case c.cmd.ProcessState.ExitCode() == -1: // a signal from outside: the OOM killer's SIGKILL, say
		text = "The evaluator process was stopped from outside (" + c.cmd.ProcessState.String() +
			"; the machine may be short of memory); everything the program wrote was undone. Try again, or compute less."
	case c.cmd.ProcessState.ExitCode() == exitNoLimit:
		text = "The evaluator could not limit its memory or CPU time (it reads /proc/self/status and sets RLIMIT_AS and RLIMIT_CPU), so the program was not run."
	case strings.HasPrefix(stderr, "panic: ") || !runtimeFatal(c.cmd.ProcessState.ExitCode(), stderr):
		text = "The evaluator stopped unexpectedly (exit status " + strconv.Itoa(c.cmd.ProcessState.ExitCode()) + "); everything the program wrote was undone."
	default:
		// A fatal error of the Go runtime: the child's address-space limit refused a mapping. The runtime
		// says "out of memory" when the heap could not grow, and may fault when its own structures could
		// not (the GC's work queues); either way the program asked for more than the bound.
		text = memoryText
	}
	return failure(text, res), nil
}

// tooLongHint tells the model how to get under the time bounds. One step can take hours: ==, <, in,
// index, sorted, hashing and the like walk whole values, and repetition builds values that are huge to
// walk but small in memory ([[0] * 1000] * 1000 shares one inner list a thousand times).
const tooLongHint = "A single operation can take that long: comparing, sorting, searching or hashing (==, <, in, index, sorted, " +
	"dict keys, sets) large values, nested lists built by repetition ([x] * n) included. Compute with fewer or smaller values, " +
	"or split the work over several calls."

// cpuBound is the CPU bound as the kernel enforces it (whole seconds).
func (c *child) cpuBound() time.Duration { return time.Duration(c.cfg.cpuSeconds()) * time.Second }

// killedAtCPULimit reports whether a signal ended the child with its CPU time at the bound: the kernel's
// SIGKILL at the hard limit, when the child's own exit on SIGXCPU (exitCPU) did not come first.
func (c *child) killedAtCPULimit() bool {
	ps := c.cmd.ProcessState
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return cpuLimitEnforced && ok && ws.Signaled() && ps.UserTime()+ps.SystemTime() >= c.cpuBound()
}

// runtimeFatal reports whether the child ended in a fatal error of the Go runtime (exit status 2), or of
// the race detector's runtime when the executable was built with -race (exit status 66).
func runtimeFatal(code int, stderr string) bool {
	return code == 2 || code == 66 && strings.Contains(stderr, "ThreadSanitizer")
}

// testChildEnv is added to the child's environment (tests make a child misbehave with it).
var testChildEnv []string

// lastChildPid is the process ID of the evaluator serving the last program begun (tests signal it);
// programs counts the programs begun.
var (
	lastChildPid atomic.Int64
	programs     atomic.Int64
)

// starts counts the evaluator processes started (tests read it).
var starts atomic.Int64

// framesRead counts the frames read from evaluators (tests read it).
var framesRead atomic.Int64

// lastChildPeak is the peak resident memory of the last evaluator process that ended (tests read it).
var lastChildPeak atomic.Int64

// stderrCapture keeps the start of the child's standard error and discards the rest.
type stderrCapture struct {
	mu sync.Mutex
	b  []byte
}

const stderrKeep = 4 << 10

func (s *stderrCapture) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if room := stderrKeep - len(s.b); room > 0 {
		s.b = append(s.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (s *stderrCapture) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.b)
}
