package eval

import (
	"time"

	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/wink"
)

// Config tunes the bounds of one evaluation that a step budget cannot express. The zero value of a field
// means its DefaultConfig value.
type Config struct {
	// Timeout bounds the wall-clock time of one evaluation, from the evaluator's start to its answer; past
	// it the evaluator is killed and the call fails. The call's own deadline (its context) still applies:
	// the earlier of the two stops the program.
	Timeout time.Duration
	// CPUTime bounds the CPU time the evaluator process may use (all its threads, the garbage collector
	// included), rounded up to whole seconds. Past it the evaluator is killed and the call fails. Enforced
	// by the kernel (RLIMIT_CPU) on Linux only; elsewhere Timeout alone bounds time.
	CPUTime time.Duration
	// MaxReadBytes bounds the bytes one evaluation may read through read_file, all files and repeated
	// reads together: each read is a copy the calling process makes, outside the evaluator's memory bound.
	MaxReadBytes int64
}

// DefaultConfig is the configuration without a ConfigKey binding.
var DefaultConfig = Config{
	// 100,000,000 steps of ordinary code (the most max_steps allows: loops over arithmetic, appends,
	// dict updates) took 0.5 to 3.6 s of CPU where this was measured; ten seconds leaves room for that on
	// a slower machine, and stops a program that spends its time inside single steps (comparing, sorting
	// or searching huge values) or in steps that each process long strings.
	CPUTime: 10 * time.Second,
	// Three times the CPU bound: room for a loaded machine and for slow workspace reads.
	Timeout: 30 * time.Second,
	// Twice the most one call may write (MaxWriteBytes), twice the largest file a filesystem reads by
	// default (vfs.DefaultMaxFileSize).
	MaxReadBytes: 2 * int64(MaxWriteBytes),
}

// ConfigKey is the resource a dispatcher binds to configure the evaluator
// (resources.Instance(eval.ConfigKey, &cfg)).
var ConfigKey = resources.NewKey[*Config]("eval.Config")

// withDefaults fills c's zero (or negative) fields from DefaultConfig.
func (c Config) withDefaults() Config {
	d := DefaultConfig
	if c.Timeout > 0 {
		d.Timeout = c.Timeout
	}
	if c.CPUTime > 0 {
		d.CPUTime = c.CPUTime
	}
	if c.MaxReadBytes > 0 {
		d.MaxReadBytes = c.MaxReadBytes
	}
	return d
}

// cpuSeconds is the CPU bound in whole seconds, rounded up (RLIMIT_CPU counts seconds).
func (c Config) cpuSeconds() uint64 {
	return uint64((c.CPUTime + time.Second - 1) / time.Second)
}

// config is the dispatcher's ConfigKey binding, else DefaultConfig.
func config(tc *wink.ToolContext) Config {
	if rc := tc.Resources(); rc != nil {
		if c, err := resources.Get(rc, ConfigKey); err == nil && c != nil {
			return c.withDefaults()
		}
	}
	return Config{}.withDefaults()
}
