package eval

import (
	"os"
	"strconv"
)

// In an evaluator started with memoryBoundEnv or stackBoundEnv (bytes), the memory bound or the stack
// limit is lowered to that (set before childMain runs, as in protocol_internal_test.go): a test of the
// mechanism then has the evaluator fill a smaller heap or stack. The parent's texts still name MaxMemory.
const (
	memoryBoundEnv = "WINK_EVAL_TEST_MAX_MEMORY"
	stackBoundEnv  = "WINK_EVAL_TEST_MAX_STACK"
)

var _ = func() bool {
	lower := func(env string, most uint64) uint64 {
		v := os.Getenv(env)
		if v == "" {
			return most
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 || n > most {
			os.Exit(exitNoLimit)
		}
		return n
	}
	maxMemory = lower(memoryBoundEnv, MaxMemory)
	maxStack = int(lower(stackBoundEnv, childMaxStack))
	return true
}()
