//go:build unix

package benchmarks

import (
	"syscall"
	"testing"
	"time"
)

// processCPU is the CPU time the process has used so far, every thread (the garbage collector's
// included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuPerOp reports the process's CPU time per op as "cpu-ns/op" when the loop ends: on a shared machine
// the wall clock counts the time other processes held the cores, the CPU time only the work of this one
// (its garbage collection included), so it is the steadier figure to compare.
func cpuPerOp(b *testing.B) func() {
	settle()
	start := processCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
