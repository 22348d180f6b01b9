package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

const supported = true

// procLimit bounds the processes of one run: a pids cgroup of its own when the controller is writable,
// else RLIMIT_NPROC on bubblewrap (inherited by everything it starts; the kernel does not apply it to root).
type procLimit struct {
	max    int
	cgroup string // the run's cgroup directory; "" when none
}

var cgroupSeq atomic.Int64

// pidsRoots are where the pids controller may be mounted (cgroup v1, then v2).
var pidsRoots = []string{"/sys/fs/cgroup/pids", "/sys/fs/cgroup/unified", "/sys/fs/cgroup"}

func newProcLimit(max int) (*procLimit, error) {
	l := &procLimit{max: max}
	name := "wink-sandbox-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(cgroupSeq.Add(1), 10)
	for _, root := range pidsRoots {
		if _, err := os.Stat(filepath.Join(root, "pids.max")); err != nil && !hasPidsController(root) {
			continue
		}
		dir := filepath.Join(root, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(max)), 0o644); err != nil {
			os.Remove(dir)
			continue
		}
		l.cgroup = dir
		break
	}
	return l, nil
}

// hasPidsController reports whether root is a cgroup v1 pids hierarchy or a v2 one with pids enabled.
func hasPidsController(root string) bool {
	b, err := os.ReadFile(filepath.Join(root, "cgroup.controllers"))
	if err == nil {
		for _, c := range splitFields(string(b)) {
			if c == "pids" {
				return true
			}
		}
		return false
	}
	_, err = os.Stat(filepath.Join(root, "pids.current"))
	return err == nil
}

func splitFields(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' || s[i] == '\n' || s[i] == '\t' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return out
}

// prepare sets what must be set before the start: the process group (so that a kill reaches bubblewrap's
// helpers) and the parent-death signal.
func (l *procLimit) prepare(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// started moves the process into the run's cgroup (bubblewrap is still setting up the sandbox then:
// the command has not started) or sets its RLIMIT_NPROC.
func (l *procLimit) started(cmd *exec.Cmd) {
	pid := cmd.Process.Pid
	if l.cgroup != "" {
		if err := os.WriteFile(filepath.Join(l.cgroup, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err == nil {
			return
		}
	}
	lim := unix.Rlimit{Cur: uint64(l.max), Max: uint64(l.max)}
	_ = unix.Prlimit(pid, unix.RLIMIT_NPROC, &lim, nil)
}

// close removes the run's cgroup (its processes are gone by then).
func (l *procLimit) close() {
	if l.cgroup != "" {
		os.Remove(l.cgroup)
	}
}

// killTree kills bubblewrap's process group; the PID namespace's processes die with its init.
func killTree(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}

// signalOf names the signal that ended the process, or "".
func signalOf(ps *os.ProcessState) string {
	if ps == nil {
		return ""
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
