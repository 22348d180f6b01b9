package eval

// LastChildPeak returns the peak resident memory, in bytes, of the last evaluator process that ended (0
// where the platform does not report it).
func LastChildPeak() int64 { return lastChildPeak.Load() }

// LastChildPid returns the process ID of the last evaluator process started.
func LastChildPid() int { return int(lastChildPid.Load()) }
