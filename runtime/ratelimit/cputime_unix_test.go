//go:build unix

package ratelimit_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used (user and system), and true.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
