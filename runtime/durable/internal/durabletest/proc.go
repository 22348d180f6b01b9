package durabletest

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// Proc is a worker process: the test binary run again with env=1 in its environment (its TestMain
// then runs the worker), killed by a crash point or stopped by closing its standard input.
type Proc struct {
	cmd    *exec.Cmd
	stdin  io.Closer
	out    bytes.Buffer
	done   chan struct{}
	killed bool
}

// StartProc starts the test binary as a worker process with env=1 and args.
func StartProc(t testing.TB, env string, args ...string) *Proc {
	t.Helper()
	p := &Proc{done: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], args...)
	p.cmd.Env = append(os.Environ(), env+"=1")
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	in, err := p.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.stdin = in
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = p.cmd.Wait()
		if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			p.killed = true
		}
		close(p.done)
	}()
	return p
}

// Signal sends sig to the process (SIGCONT to resume a stopped worker, say).
func (p *Proc) Signal(sig os.Signal) error { return p.cmd.Process.Signal(sig) }

// Killed reports whether the process has ended by SIGKILL.
func (p *Proc) Killed() bool {
	select {
	case <-p.done:
		return p.killed
	default:
		return false
	}
}

// Stop closes the process's standard input (a worker's signal to finish) and waits for it to end,
// killing it after 15s.
func (p *Proc) Stop() {
	_ = p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// Output is what the process wrote to its standard output and error; call it once the process has
// ended (after Stop).
func (p *Proc) Output() string {
	<-p.done
	return p.out.String()
}
