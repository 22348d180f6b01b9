package eval

import (
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// selfPath is the executable the child runs: this very file, even if it was replaced on disk since.
func selfPath() (string, error) {
	if _, err := os.Stat("/proc/self/exe"); err != nil {
		return os.Executable()
	}
	return "/proc/self/exe", nil
}

// answerPipe is the pipe the child answers through. The parent's end blocks in read(2) rather than
// waiting in the runtime's poller (as exec.Cmd.StdoutPipe's does): the parent waits for each answer of a
// short program, and a blocked read is woken straight away, with no poller round on the way.
func answerPipe() (r, w *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}

// childAttr kills the child when the parent dies (strictly: when the OS thread that started it exits,
// which the Go runtime does not do to threads running ordinary goroutines), so a program computing for
// its step budget does not outlive a host that was killed.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }

// yieldCPU gives this thread's CPU to another task waiting for it (sched_yield(2); it returns at once
// when none waits). A side that spins for the other's answer calls it every few microseconds (link.await):
// the kernel tends to wake a task on the CPU of the task that woke it, so an evaluator woken by the
// parent's write could otherwise wait behind the parent's own spin for that answer until the scheduler
// moved it (a call after an idle evaluator, BenchmarkEval/warm_after_idle, 8 alternated rounds:
// 318 -> 166 µs of wall clock and 714 -> 537 µs of CPU; back-to-back calls unchanged).
func yieldCPU() { _, _, _ = syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }

// preferOOMKill makes the kernel's OOM killer choose this process first (oom_score_adj 1000, which any
// process may set for itself): when evaluators running at once exhaust the machine's memory, an
// evaluator dies, which fails its call, rather than the host.
func preferOOMKill() { _ = os.WriteFile("/proc/self/oom_score_adj", []byte("1000"), 0) }

// limitData caps the process's address space at its size now plus extra bytes: past it the kernel refuses
// a new mapping and the Go runtime ends the process ("out of memory"). RLIMIT_AS rather than RLIMIT_DATA:
// the Go heap grows by mapping over address space it reserved at start, which Linux does not charge
// against RLIMIT_DATA (an evaluator was measured at 554 MiB of data under a 395 MiB RLIMIT_DATA).
func limitData(extra uint64) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		os.Exit(exitNoLimit) // no limit can be set: refuse to run the program rather than run it unbounded
	}
	var kb uint64
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err = strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				os.Exit(exitNoLimit)
			}
		}
	}
	if kb == 0 {
		os.Exit(exitNoLimit)
	}
	lim := kb<<10 + extra
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
		os.Exit(exitNoLimit)
	}
}

// peakRSS is the process's peak resident memory in bytes.
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}

// exitOnXCPU says that the child exits on SIGXCPU (tests turn it off to see the kernel's SIGKILL at the
// hard limit).
var exitOnXCPU = true

// cpuLimitEnforced says that limitCPU sets a kernel limit here.
const cpuLimitEnforced = true

// limitCPU has the kernel stop this process once it has used secs more seconds of CPU time (its use so
// far rounded to the nearest second): at the soft limit SIGXCPU, on which the process exits with exitCPU;
// at the hard limit SIGKILL, should the handler not have run. A hard limit set by the administrator
// (ulimit -t) is kept when it is lower.
//
// An unprivileged process can lower its hard limit but never raise it again, and a process serving
// several programs needs the soft limit to move up with each: so the first program sets the hard limit
// to its soft limit + 1 + cpuReuseSlack, and each later program only moves the soft limit. limitCPU
// returns false when the soft limit the program needs would come within a second of the hard limit (the
// process has used more than cpuReuseSlack since its first program, or a later program asks for a larger
// bound): the process must not run it (exitRetired). So the kernel's SIGKILL comes 1 to 1 +
// cpuReuseSlack seconds after the soft limit.
func limitCPU(secs uint64) bool {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		os.Exit(exitNoLimit)
	}
	used := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	soft := secs + uint64((used+time.Second/2)/time.Second)
	if cpuLimited && soft == cpuSoft && soft+1 <= cpuHard {
		return true // the limit the program needs is the one set already
	}
	hard := cpuHard
	if !cpuLimited {
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_CPU, &lim); err != nil {
			os.Exit(exitNoLimit)
		}
		hard = min(soft+1+cpuReuseSlack, lim.Max)
		soft = min(soft, hard)
		if exitOnXCPU {
			xcpu := make(chan os.Signal, 1)
			signal.Notify(xcpu, syscall.SIGXCPU)
			go func() {
				<-xcpu
				os.Exit(exitCPU)
			}()
		}
		cpuLimited = true
	} else if soft+1 > hard {
		return false
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: soft, Max: hard}); err != nil {
		os.Exit(exitNoLimit)
	}
	cpuSoft, cpuHard = soft, hard
	return true
}

// cpuLimited says that limitCPU has set the hard limit (for the process's first program); cpuSoft and
// cpuHard are the limits it set last.
var (
	cpuLimited       bool
	cpuSoft, cpuHard uint64
)

// cpuReuseSlack is the CPU time, in seconds, an evaluator may use over its programs after the first
// before it is retired (see limitCPU).
const cpuReuseSlack = 2
