//go:build !unix

package benchmarks

import "testing"

// cpuPerOp reports nothing where getrusage is not available.
func cpuPerOp(b *testing.B) func() {
	settle()
	return func() {}
}
