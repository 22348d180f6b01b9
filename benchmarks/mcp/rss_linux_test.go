//go:build linux

package mcpbench_test

import (
	"bytes"
	"os"
	"strconv"
)

// residentMemory returns the process's resident set size and its peak (VmRSS and VmHWM of
// /proc/self/status), in bytes.
func residentMemory() (rss, peak uint64) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	field := func(name string) uint64 {
		i := bytes.Index(b, []byte("\n"+name+":"))
		if i < 0 {
			return 0
		}
		rest := b[i+len(name)+2:]
		if j := bytes.IndexByte(rest, '\n'); j >= 0 {
			rest = rest[:j]
		}
		kb, _ := strconv.ParseUint(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("kB")))), 10, 64)
		return kb << 10
	}
	return field("VmRSS"), field("VmHWM")
}
