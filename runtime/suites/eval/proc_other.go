//go:build !linux

package eval

import (
	"os"
	"runtime"
	"syscall"
)

// selfPath is the executable the child runs.
func selfPath() (string, error) { return os.Executable() }

// answerPipe is the pipe the child answers through.
func answerPipe() (r, w *os.File, err error) { return os.Pipe() }

func childAttr() *syscall.SysProcAttr { return nil }

// yieldCPU lets the Go scheduler run another goroutine: outside Linux a spinning wait yields nothing
// else (see proc_linux.go).
func yieldCPU() { runtime.Gosched() }

// preferOOMKill does nothing outside Linux.
func preferOOMKill() {}

// limitData does nothing outside Linux: the heap watcher alone bounds memory there (see the package doc).
func limitData(uint64) {}

func peakRSS(*os.ProcessState) int64 { return 0 }

// cpuLimitEnforced says that limitCPU sets no limit here: the wall-clock bound alone bounds time.
const cpuLimitEnforced = false

// limitCPU does nothing outside Linux (see the package doc); every program is accepted.
func limitCPU(uint64) bool { return true }
