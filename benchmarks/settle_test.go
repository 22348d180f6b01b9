package benchmarks

import "runtime/debug"

// settle collects the garbage earlier code left and returns the freed memory to the operating system
// before a measured loop starts, so that the runtime's background work for it (sweeping, scavenging) is
// not billed to whichever benchmark runs next. Without it the first sub-benchmark of a process paid for
// the package's initialisation: 4% of winkgen's decode profile was the scavenger returning the
// initialisation's garbage, a cost the later sub-benchmarks did not carry.
func settle() { debug.FreeOSMemory() }
