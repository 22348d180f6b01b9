package eval

// DESIGN-notes: warm evaluators.
//
// Starting an evaluator costs a process start, a Go runtime's start and every package initialiser of the
// executable (milliseconds), tens of times a small program's evaluation. So an evaluator that has served
// a program cleanly waits in a pool for the next one, and a call takes a waiting evaluator when there is
// one; only the first call (and a call finding every evaluator busy) starts a process.
//
// Nothing of one program reaches the next in the same process:
//   - Starlark state is per program: the thread, its step count, the globals, the predeclared builtins
//     (read_file, write_file, print) are made anew for each; the universe (len, range, ...) is frozen and
//     a program cannot change it, and go.starlark.net keeps no other mutable state between executions.
//   - The workspace, the read and write counts and the print output are the parent's, per call; the
//     parent empties the print buffer before it sends a program, and the child again when it reads it.
//   - The wire is quiet between programs: the child sends its 'D' last, after its watcher has stopped,
//     and the parent reuses a process only after reading that 'D', with nothing else pending.
//   - The bounds are set again for each program: the step budget (the thread), the heap watcher's base
//     (the heap when the program starts), the CPU limit (RLIMIT_CPU's soft limit: the CPU time used so far
//     plus the bound), the parent's wall-clock timer and the call's context. The address-space limit and
//     the stack limit are the process's, as before.
//   - A process is reused only when its program ended cleanly (finished, failed with an error, or ran out
//     of steps), its heap grew by less than reuseHeap during it, the CPU limit can still give the next
//     program its whole bound (see limitCPU), and it has served fewer than maxPrograms. A process that
//     hit a bound, was killed, crashed, answered out of protocol or lost its call's context is ended, so
//     the next call starts afresh.
//
// The pool keeps at most maxIdle processes; one waiting longer than idleTimeout is ended. A process whose
// CPU limit cannot give the next program its bound exits before reading it (exitRetired), and the call
// starts a fresh one. A process that has served maxPrograms is ended after its last program, and a fresh
// one is started to wait in its place, on a goroutine of its own: so the call after it does not pay for
// a process start, nor for the old process's exit, on its own path (that was one call in every
// maxPrograms paying a few milliseconds: BenchmarkEval's warm calls at 1000 a run saw one).

import (
	"sync"
	"time"
)

const (
	// maxIdle bounds the evaluators waiting for a program.
	maxIdle = 4
	// idleTimeout ends an evaluator that waited this long.
	idleTimeout = time.Minute
	// maxPrograms bounds the programs one evaluator serves.
	maxPrograms = 1000
	// reuseHeap: an evaluator whose heap grew by this much during a program is not reused (its heap and
	// address space stay as they were for a fresh one's next program).
	reuseHeap = 32 << 20
)

// warm is the pool of evaluators waiting for a program.
var warm struct {
	mu   sync.Mutex
	idle []*child
}

// getChild returns an evaluator for a program: a waiting one (reused true), else a new one.
func getChild() (c *child, reused bool, err error) {
	if testChildEnv == nil { // a test's misbehaving evaluators are never pooled, nor given a pooled one
		warm.mu.Lock()
		if n := len(warm.idle); n > 0 {
			c = warm.idle[n-1]
			warm.idle = warm.idle[:n-1]
		}
		warm.mu.Unlock()
		if c != nil {
			return c, true, nil
		}
	}
	c, err = startChild()
	return c, false, err
}

// putChild puts an evaluator that served a program cleanly back in the pool, or ends it. Its idle timer
// is set only when none is pending (see begin: setting a timer is a context switch): a pending one,
// set when the evaluator waited before, finds it busy or waiting less than idleTimeout and waits again.
// An evaluator that has served maxPrograms is ended, and replaced, off the call's path (replace).
func putChild(c *child) {
	if testChildEnv != nil {
		c.kill()
		return
	}
	if c.served >= maxPrograms {
		replacing.Add(1)
		go replace(c)
		return
	}
	if !addIdle(c) {
		c.kill()
	}
}

// addIdle adds c to the pool of waiting evaluators, and reports false when the pool is full.
func addIdle(c *child) bool {
	warm.mu.Lock()
	defer warm.mu.Unlock()
	if len(warm.idle) >= maxIdle {
		return false
	}
	warm.idle = append(warm.idle, c)
	c.idleSince = time.Now()
	if !c.idleSet {
		c.idleSet = true
		if c.idle == nil {
			c.idle = time.AfterFunc(idleTimeout, func() { retireIdle(c) })
		} else {
			c.idle.Reset(idleTimeout)
		}
	}
	return true
}

// replacing counts the replacements under way (DrainPool waits for them).
var replacing sync.WaitGroup

// replace ends c, an evaluator that has served maxPrograms, and, when no other evaluator waits, starts
// a fresh one to wait in its place: the next call takes it as it would have taken c, instead of paying
// the process start (and c's exit) itself. A fresh evaluator serves nothing before its first program; if
// it cannot be started, the next call starts one and says why it cannot.
func replace(c *child) {
	defer replacing.Done()
	c.kill()
	warm.mu.Lock()
	waiting := len(warm.idle)
	warm.mu.Unlock()
	if waiting > 0 {
		return
	}
	fresh, err := startChild()
	if err != nil {
		return
	}
	if !addIdle(fresh) {
		fresh.kill()
	}
}

// retireIdle ends c if it has been waiting in the pool for idleTimeout; if it waits, for less, its timer
// is set for the rest; if it is busy or gone, the timer is left unset.
func retireIdle(c *child) {
	warm.mu.Lock()
	for i, w := range warm.idle {
		if w == c {
			if rest := idleTimeout - time.Since(c.idleSince); rest > 0 {
				c.idle.Reset(rest)
				warm.mu.Unlock()
				return
			}
			warm.idle = append(warm.idle[:i], warm.idle[i+1:]...)
			c.idleSet = false
			warm.mu.Unlock()
			c.kill()
			return
		}
	}
	c.idleSet = false
	warm.mu.Unlock()
}
