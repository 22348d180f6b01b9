package pgcluster

import (
	"errors"
	"os"
	"os/user"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// processAttr is how initdb and the server run: as the postgres user (or nobody) when the process is
// root, since PostgreSQL refuses root, owning dir; the server (server true) also dies with its parent.
func processAttr(dir string, server bool) (*syscall.SysProcAttr, error) {
	attr := &syscall.SysProcAttr{}
	if server {
		attr.Pdeathsig = syscall.SIGKILL
		attr.Setpgid = true
	}
	if os.Geteuid() != 0 {
		return attr, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		if u, err = user.Lookup("nobody"); err != nil {
			return nil, errors.New("pgcluster: running as root and neither a postgres nor a nobody user exists to run the server as")
		}
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, err
	}
	attr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	return attr, nil
}

// Kill stops the server at once, as a crash would, without removing the directory: SIGKILL to the
// postmaster and to every backend it forked (backends lead process groups of their own, so they are
// found through /proc). Tests use it to take the database down under a running client.
func (c *Cluster) Kill() {
	if c.cmd == nil || c.cmd.Process == nil {
		return
	}
	pid := c.cmd.Process.Pid
	children := childrenOf(pid)
	_ = syscall.Kill(pid, syscall.SIGKILL)
	for _, ch := range children {
		_ = syscall.Kill(ch, syscall.SIGKILL)
	}
	<-c.done
	for _, ch := range children { // wait until they are gone
		for i := 0; i < 500 && syscall.Kill(ch, 0) == nil; i++ {
			time.Sleep(2 * time.Millisecond)
		}
	}
}

// childrenOf lists the processes whose parent is pid (Linux /proc).
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, n)
		}
	}
	return out
}

// chownLike gives path the owner and group of the file info describes (the cluster's files belong to the
// user the server runs as; a copy made as root must too).
func chownLike(path string, info os.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || os.Geteuid() != 0 {
		return nil
	}
	return os.Lchown(path, int(st.Uid), int(st.Gid))
}
