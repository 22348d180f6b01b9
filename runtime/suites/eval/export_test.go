package eval

import "strconv"

// LastChildPeak returns the peak resident memory, in bytes, of the last evaluator process that ended (0
// where the platform does not report it).
func LastChildPeak() int64 { return lastChildPeak.Load() }

// LastChildPid returns the process ID of the last evaluator process started.
func LastChildPid() int { return int(lastChildPid.Load()) }

// Programs returns the number of programs begun (each in a waiting evaluator or a new one).
func Programs() int64 { return programs.Load() }

// MaxIdle is the most evaluators the pool keeps waiting.
const MaxIdle = maxIdle

// DrainPool ends every evaluator waiting for a program.
func DrainPool() {
	replacing.Wait()
	warm.mu.Lock()
	idle := warm.idle
	warm.idle = nil
	warm.mu.Unlock()
	for _, c := range idle {
		c.idle.Stop()
		c.kill()
	}
}

// IdlePids returns the process IDs of the evaluators waiting for a program.
func IdlePids() []int {
	warm.mu.Lock()
	defer warm.mu.Unlock()
	pids := make([]int, 0, len(warm.idle))
	for _, c := range warm.idle {
		pids = append(pids, c.cmd.Process.Pid)
	}
	return pids
}

// FramesRead returns the number of frames read from evaluators so far.
func FramesRead() int64 { return framesRead.Load() }

// Starts returns the number of evaluator processes started so far.
func Starts() int64 { return starts.Load() }

// MaxPrograms is the most programs one evaluator serves.
const MaxPrograms = maxPrograms

// LowerMemoryBound makes the evaluators started from now on bound a program's memory at n bytes instead
// of MaxMemory, until the returned function is called. They are fresh processes, never pooled (as every
// evaluator started with a test's environment), so no evaluator of the default bound serves a program
// meanwhile, and none of the lower bound serves one after.
func LowerMemoryBound(n uint64) (restore func()) { return lower(memoryBoundEnv, n, MaxMemory) }

// LowerStackLimit is LowerMemoryBound for the evaluators' stack limit (16 MiB).
func LowerStackLimit(n uint64) (restore func()) { return lower(stackBoundEnv, n, childMaxStack) }

func lower(env string, n, most uint64) func() {
	if n == 0 || n > most {
		panic("eval: a test bound must be positive and at most the default")
	}
	testChildEnv = []string{env + "=" + strconv.FormatUint(n, 10)}
	return func() { testChildEnv = nil }
}
