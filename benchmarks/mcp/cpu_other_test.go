//go:build !unix

package mcpbench_test

import "time"

// processCPU returns 0: the server's CPU time is measured on Unix systems only (getrusage).
func processCPU() time.Duration { return 0 }
