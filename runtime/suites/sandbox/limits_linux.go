package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

const supported = true

// procLimit bounds the processes of one run: a pids cgroup of its own when the controller is writable,
// else RLIMIT_NPROC on bubblewrap (inherited by everything it starts; the kernel does not apply it to root).
type procLimit struct {
	max     int
	cgroup  string // the run's cgroup directory; "" when none
	prlimit string // util-linux's prlimit, when installed
	fsize   int64  // RLIMIT_FSIZE for the run (the largest file it may write); 0 for none
}

var cgroupSeq atomic.Int64

// pidsRoots are where the pids controller may be mounted (cgroup v1, then v2).
var pidsRoots = []string{"/sys/fs/cgroup/pids", "/sys/fs/cgroup/unified", "/sys/fs/cgroup"}

func newProcLimit(max int) (*procLimit, error) {
	l := &procLimit{max: max}
	name := "wink-sandbox-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(cgroupSeq.Add(1), 10)
	for _, root := range pidsRoots {
		if _, err := os.Stat(filepath.Join(root, "cgroup.procs")); err != nil {
			continue // not a cgroup hierarchy
		}
		dir := filepath.Join(root, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			continue
		}
		// A child of a hierarchy with the pids controller has pids.max (cgroup v1's pids hierarchy, or v2
		// with pids in the parent's subtree_control).
		if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(max)), 0o644); err != nil {
			os.Remove(dir)
			continue
		}
		l.cgroup = dir
		l.prlimit, _ = exec.LookPath("prlimit")
		return l, nil
	}
	l.prlimit, _ = exec.LookPath("prlimit")
	if os.Geteuid() == 0 {
		return nil, errors.New("no process limit is available: running as root, the sandbox needs a writable pids cgroup " +
			"(the kernel does not apply RLIMIT_NPROC to root)")
	}
	return l, nil
}

// prepare sets what must be set before the start: the process group (so that a kill reaches bubblewrap's
// helpers) and the parent-death signal.
func (l *procLimit) prepare(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// command is the command that runs bubblewrap, limited before bubblewrap starts anything: in the run's
// cgroup, through /bin/sh, which writes its own PID to the cgroup before it becomes bubblewrap; else under
// RLIMIT_NPROC, through util-linux's prlimit, which sets it before it becomes bubblewrap.
// RLIMIT_FSIZE (the largest file the run may write) is set the same way, through prlimit.
func (l *procLimit) command(bwrap string, args []string) *exec.Cmd {
	argv := append([]string{bwrap}, args...)
	if l.prlimit != "" {
		var lim []string
		if l.cgroup == "" {
			n := strconv.Itoa(l.nproc())
			lim = append(lim, "--nproc="+n+":"+n)
		}
		if l.fsize > 0 {
			n := strconv.FormatInt(l.fsize, 10)
			lim = append(lim, "--fsize="+n+":"+n)
		}
		if len(lim) > 0 {
			argv = append(append(append([]string{l.prlimit}, lim...), "--"), argv...)
		}
	}
	if l.cgroup != "" {
		script := `echo $$ > "$1" && shift && exec "$@"`
		return exec.Command("/bin/sh", append([]string{"-c", script, "sh", filepath.Join(l.cgroup, "cgroup.procs")}, argv...)...)
	}
	return exec.Command(argv[0], argv[1:]...)
}

// started sets RLIMIT_NPROC (without a cgroup) and RLIMIT_FSIZE on bubblewrap when prlimit could not
// before it started (a race with bubblewrap's first fork: the weakest way; the workspace bound is still
// enforced by measuring, see run).
func (l *procLimit) started(cmd *exec.Cmd) {
	if l.prlimit != "" {
		return
	}
	if l.cgroup == "" {
		n := uint64(l.nproc())
		lim := unix.Rlimit{Cur: n, Max: n}
		_ = unix.Prlimit(cmd.Process.Pid, unix.RLIMIT_NPROC, &lim, nil)
	}
	if l.fsize > 0 {
		lim := unix.Rlimit{Cur: uint64(l.fsize), Max: uint64(l.fsize)}
		_ = unix.Prlimit(cmd.Process.Pid, unix.RLIMIT_FSIZE, &lim, nil)
	}
}

// nproc is the RLIMIT_NPROC that lets the run start l.max processes. The kernel counts every process and
// thread of the user on the machine against it, the agent's own threads among them (a Go program's grow
// with its blocking system calls and never shrink), so the limit is l.max above what the user runs when
// the command starts: otherwise an agent with sixty threads could not start a command under a limit of 64.
// Tasks the user ends meanwhile leave the run that much more room.
func (l *procLimit) nproc() int {
	return l.max + userTasks(os.Getuid())
}

// userTasks counts the processes and threads of uid (the owners of /proc/PID), 0 when /proc cannot be read.
func userTasks(uid int) int {
	d, err := os.Open("/proc")
	if err != nil {
		return 0
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	n := 0
	for _, name := range names {
		if name == "" || name[0] < '0' || name[0] > '9' {
			continue
		}
		var st unix.Stat_t
		if unix.Stat("/proc/"+name, &st) != nil || int(st.Uid) != uid {
			continue
		}
		var ts unix.Stat_t
		if unix.Stat("/proc/"+name+"/task", &ts) == nil && ts.Nlink > 2 {
			n += int(ts.Nlink) - 2 // a directory's links: ".", its parent's entry, and one per subdirectory
		} else {
			n++
		}
	}
	return n
}

// close kills what is left in the run's cgroup and removes it. Processes of the sandbox may still be
// exiting when bubblewrap has been reaped, so it tries for up to two seconds.
func (l *procLimit) close() {
	if l.cgroup == "" {
		return
	}
	for i := 0; i < 200; i++ {
		if err := os.Remove(l.cgroup); err == nil || os.IsNotExist(err) {
			return
		}
		if b, err := os.ReadFile(filepath.Join(l.cgroup, "cgroup.procs")); err == nil {
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		}
		time.Sleep(10 * time.Millisecond)
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
