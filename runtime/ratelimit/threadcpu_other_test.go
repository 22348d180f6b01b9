//go:build !linux

package ratelimit_test

import "time"

// threadCPU returns the wall clock elsewhere: only Linux tells a thread's CPU time here.
func threadCPU() time.Duration { return time.Duration(time.Now().UnixNano()) }
