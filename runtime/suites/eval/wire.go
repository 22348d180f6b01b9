package eval

// DESIGN-notes: answers that come within microseconds need no wakeup.
//
// Each frame that crosses a pipe to a process blocked in read(2) wakes it: a context switch on both
// sides (on a virtual machine, an interrupt to another virtual CPU, often a halted one) and a round
// through each Go runtime's scheduler, which together cost more than a small program's evaluation. Many
// frames come within microseconds: a builtin's reply (read_file's text) reaches a child that has just
// asked for it, and a short program's request or answer reaches the parent that has just sent it what
// it needs. So, where the two processes share memory (Linux: the print buffer's file, prints_linux.go),
// each side counts the bytes it has written to its pipe in a word of the shared mapping, after each
// write(2) returns; and a side about to read a frame, with nothing buffered, first waits for at most
// spinFor, spinning on the other side's count, until the other side has written bytes that it has not
// read yet. Then it reads the pipe as before: the bytes are there, so read(2) returns at once, and the
// writer found nobody to wake. When the wait runs out, it blocks in read(2), as it would without the
// count. While it waits, an answer that fits comes through shared memory instead, with no system call
// (mailbox.go).
//
// What the wait changes and what it does not:
//   - The frames, their order, their checks and their bounds are the pipe's, unchanged: the count says
//     when to call read(2), never what was sent. A count that lies (a child made to write the mapping)
//     makes the parent wait spinFor for nothing or read early, no more: read(2) blocks until the bytes
//     come or the pipe ends.
//   - A dead peer is seen as before: its pipe ends, and read(2), reached within spinFor, reports it.
//   - An idle side spins not at all: a side waits only for the answer to a frame it has just sent (the
//     parent for the child's next frame while a program runs, the child for a builtin's or a tool's
//     reply), and the child, once it has answered a program, for the next program, for spinForProgram
//     only: waking a child asleep in read(2) was the largest part of a warm call that follows another
//     (the parent's write(2) of the program, then the child's wakeup: about 40 µs of the 80 to 140 µs
//     of such a call on the 2-core virtual machine this was measured on), which is what a turn's eval
//     calls, dispatched one after another, are. A child whose calls come further apart skips that wait
//     but for one program in up to 64 (spinSite), and then blocks. Nobody waits with a single CPU, where
//     the other side cannot run meanwhile.
//   - The wait adapts (spinSite): after a wait that ran out, the next waits at the same point of the
//     exchange block at once, 1, 3, 7 ... up to 63 of them, until a wait succeeds again; on a machine
//     too busy to run both sides at once, the waits mostly stop.
//   - A waiting side yields its CPU every few microseconds (yieldCPU, sched_yield(2) on Linux): the
//     kernel tends to put a woken task on the waker's CPU, so a child woken by the parent's write would
//     otherwise queue behind the parent's spin for its answer (after an idle pause, a call took 318 µs
//     instead of 166; back-to-back calls, where nobody sleeps, are unchanged).
//   - Nothing of one program reaches the next through the counts: they count the pipes' bytes since the
//     process started, carry no content and do not depend on what a program computed.
//   - A Starlark program cannot write the counts: it runs in go.starlark.net's interpreter, which has no
//     pointers, no unsafe access and no system calls; only the child's own Go code writes the mapping.
//
// The wait trades CPU time for latency: a side that waits while the other computes uses up to spinFor
// of CPU time where it would have slept, and saves both sides the wakeup when the frame comes in time.

import (
	"bufio"
	"io"
	"runtime"
	"sync/atomic"
	"time"
)

// spinFor bounds a wait for the other side's next frame before it blocks in read(2). It covers the
// wakeup of a child that waited for its program (on a virtual machine, of a halted virtual CPU) and a
// short program's compilation, after which the program's first request or its answer comes. On the
// 2-core virtual machine this was measured on (BenchmarkEval's warm call, the two processes given the
// CPUs), a call took 355 µs of wall clock and 500 µs of CPU time with 75 µs, 241 and 416 with 150 µs,
// 191 and 367 with 300 µs, and 500 µs gained nothing more. A wait that runs out costs that much CPU
// time once; then the waits there are skipped (spinSite).
const spinFor = 300 * time.Microsecond

// spinForProgram bounds the child's wait for its next program after it has answered one: it catches a
// call that follows the last within microseconds (a turn's eval calls, dispatched one after another),
// which would otherwise wake the child; a call that comes later finds it blocked, as before, and after
// such waits the site skips most of them (spinSite), so an evaluator whose calls come seconds apart spins
// for at most this once in 64 programs.
const spinForProgram = 50 * time.Microsecond

// maxSkip bounds the number of waits skipped after a wait that ran out (spinSite), as a power of two.
const maxSkip = 6

// spinning says that a side waits at all: not with a single CPU.
var spinning = runtime.NumCPU() > 1

// The points of the exchange where a side waits (link.await).
const (
	// awaitFirst: the parent waits for the first frame of a program it has just sent.
	awaitFirst = iota
	// awaitNext: the parent waits for the child's next frame after a reply, the child for a reply.
	awaitNext
	// awaitProgram: the child, having answered a program, waits for the next one (for spinForProgram).
	awaitProgram
	nSites
)

// spinSite adapts the waits at one point of the exchange: after misses waits in a row that ran out,
// the next 2^misses - 1 waits there block at once.
type spinSite struct {
	misses, skip uint8
}

// link is the reading side of a pipe whose writer counts its bytes in shared memory.
type link struct {
	r io.Reader
	// peer is the other side's count of the bytes it has written: a hint, never trusted; own is this
	// side's. Both nil when there are none.
	peer, own *uint64
	// read counts the bytes read from r.
	read  uint64
	sites [nSites]spinSite
	// in is the mailbox this side receives in, out the other side's (mailbox.go); pending is what
	// came through in and is read before r, pendBuf its storage (grown to the largest message).
	in, out          *mailbox
	pending, pendBuf []byte
}

// newLink returns the link reading r, with the counts peer and own and the mailboxes in and out (nil
// where there are none).
func newLink(r io.Reader, peer, own *uint64, in, out *mailbox) *link {
	return &link{r: r, peer: peer, own: own, in: in, out: out}
}

// writer returns w, counting into own and writing through out where they exist.
func (l *link) writer(w io.Writer) io.Writer {
	if l.own == nil {
		return w
	}
	return wireWriter{w, l.own, l.out}
}

func (l *link) Read(p []byte) (int, error) {
	if len(l.pending) > 0 {
		n := copy(p, l.pending)
		l.pending = l.pending[n:]
		return n, nil
	}
	n, err := l.r.Read(p)
	l.read += uint64(n)
	return n, err
}

// await waits, spinning for at most spinFor, until the pipe holds bytes that neither r (which reads
// from l) nor l has taken, and reports whether it spun and saw them come. It returns at once when r has
// bytes buffered, the pipe has bytes already, there is no shared count, or the site skips this wait.
func (l *link) await(r *bufio.Reader, site int) bool {
	if l == nil || l.peer == nil || !spinning || r.Buffered() > 0 || len(l.pending) > 0 || atomic.LoadUint64(l.peer) != l.read {
		return false
	}
	s := &l.sites[site]
	if s.skip > 0 {
		s.skip--
		return false
	}
	bound := spinFor
	if site == awaitProgram {
		bound = spinForProgram
	}
	l.offer() // the answer may come through the mailbox (mailbox.go)
	start := time.Now()
	came := false
	for i := 1; ; i++ {
		if l.full() || atomic.LoadUint64(l.peer) != l.read {
			came = true
			break
		}
		if i%64 == 0 {
			if time.Since(start) > bound {
				break
			}
			yieldCPU() // the other side may have been woken on this CPU (proc_linux.go)
		}
	}
	if l.withdraw() {
		came = true
	}
	if !came {
		s.misses = min(s.misses+1, maxSkip)
		s.skip = 1<<s.misses - 1
		return false
	}
	s.misses = 0
	return true
}
