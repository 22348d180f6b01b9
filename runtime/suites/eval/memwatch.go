package eval

// DESIGN-notes: the heap watcher.
//
// The child's memory bound has three parts: RLIMIT_AS (a single step's huge request fails in the kernel),
// debug.SetMemoryLimit at the process's memory at the program's start + MaxMemory (the collector works
// hard before the bound, so garbage does not count as use), and this watcher, which samples the heap
// every millisecond while a program runs and cancels the program cleanly (its print output kept) when
// the heap's objects grew by more than MaxMemory since the program began.
//
// A program whose live heap nears the bound makes the collector run ever more often under the memory
// limit (the runtime caps the collector at half the CPU, so the program still advances) until the heap
// passes the bound or RLIMIT_AS refuses a mapping. That costs CPU time, which the CPU bound counts, and on
// a busy machine much more wall-clock time, so there the wall-clock bound (Config.Timeout) may end it
// first, with the text about time; either way the memory never passes the bound and the call is undone.
//
// The watcher is a timer, not a goroutine, and it is not stopped when a program ends: setting a timer
// sooner than every other wakes the runtime's poller thread (a context switch), so programs that follow
// each other within a tick share it. A tick that finds no program running leaves the timer unset, and the
// next program sets it; a tick of the last program that comes early in the next one samples the heap
// against that program's base, as any tick. So a program shorter than a tick costs no goroutine and at
// most one timer setting.

import (
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"go.starlark.net/starlark"
)

// memTick is the heap watcher's sampling period.
const memTick = time.Millisecond

// The samples the watcher reads.
const (
	sampleHeap  = iota // the heap's objects, live or not yet swept
	sampleTotal        // all the memory the runtime has mapped
	nSamples
)

// memWatch watches the heap of the program running in this process (one at a time).
type memWatch struct {
	mu      sync.Mutex
	samples [nSamples]metrics.Sample
	thread  *starlark.Thread
	active  bool
	// base is the heap at the program's start, peak the most seen since; over says the watcher cancelled
	// the program.
	base, peak uint64
	over       bool
	timer      *time.Timer
	// timerSet says the timer is pending.
	timerSet bool
}

// newMemWatch returns a watcher, not yet watching.
func newMemWatch() *memWatch {
	w := &memWatch{}
	w.samples[sampleHeap].Name = "/memory/classes/heap/objects:bytes"
	w.samples[sampleTotal].Name = "/memory/classes/total:bytes"
	return w
}

// read samples the runtime's metrics (w.mu held).
func (w *memWatch) read() (heap, total uint64) {
	metrics.Read(w.samples[:])
	v := func(i int) uint64 {
		if w.samples[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return w.samples[i].Value.Uint64()
	}
	return v(sampleHeap), v(sampleTotal)
}

// start sets the memory limit for a program and watches thread until stop.
func (w *memWatch) start(thread *starlark.Thread) {
	w.mu.Lock()
	heap, total := w.read()
	if total > 0 {
		debug.SetMemoryLimit(int64(total + maxMemory)) // collect hard before the watcher's bound
	}
	w.thread, w.active, w.over = thread, true, false
	w.base, w.peak = heap, heap
	if !w.timerSet {
		w.timerSet = true
		if w.timer == nil {
			w.timer = time.AfterFunc(memTick, w.tick)
		} else {
			w.timer.Reset(memTick)
		}
	}
	w.mu.Unlock()
}

// tick samples the heap and cancels the program past the bound; otherwise it comes again.
func (w *memWatch) tick() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.active || w.over {
		w.timerSet = false
		return
	}
	if w.check() {
		w.thread.Cancel("memory limit")
		w.timerSet = false
		return
	}
	w.timer.Reset(memTick)
}

// check samples the heap and reports whether the program is past the bound (w.mu held).
func (w *memWatch) check() bool {
	heap, _ := w.read()
	w.peak = max(w.peak, heap)
	if heap > w.base+maxMemory {
		w.over = true
	}
	return w.over
}

// stop ends the watch and reports whether the program went past the bound and how much the heap grew
// at most (as sampled, and now).
func (w *memWatch) stop() (over bool, grew uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.active = false
	if !w.over {
		w.check()
	}
	w.thread = nil
	return w.over, w.peak - w.base
}
