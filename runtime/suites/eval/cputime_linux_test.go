package eval_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/suites/eval"
)

// evalCPU is the CPU time used so far by this process, by its evaluators that have ended (and were
// waited for), and by the evaluators waiting in the pool (every thread of each, from
// /proc/PID/task/*/schedstat, in nanoseconds).
func evalCPU() time.Duration {
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return 0
	}
	d := time.Duration(self.Utime.Nano() + self.Stime.Nano() + children.Utime.Nano() + children.Stime.Nano())
	for _, pid := range eval.IdlePids() {
		tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/schedstat")
		for _, t := range tasks {
			b, err := os.ReadFile(t)
			if err != nil {
				continue
			}
			f := strings.Fields(string(b))
			if len(f) > 0 {
				ns, _ := strconv.ParseInt(f[0], 10, 64)
				d += time.Duration(ns)
			}
		}
	}
	return d
}

// cpuPerOp reports, when the loop ends, the CPU time per op of this process and of its evaluators as
// "cpu-ns/op": on a shared machine the wall clock counts the time other processes held the cores.
func cpuPerOp(b *testing.B) func() {
	start := evalCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(evalCPU()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
