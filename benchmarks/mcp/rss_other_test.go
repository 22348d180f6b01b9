//go:build !linux

package mcpbench_test

// residentMemory returns 0, 0: the server's resident memory is measured on Linux only (/proc/self/status).
func residentMemory() (rss, peak uint64) { return 0, 0 }
