//go:build unix

package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/suites/sandbox"
	"github.com/winkgen/wink/runtime/wink"
)

// TestSandboxLeavesNothingThatGrantsPrivileges: a command copies a shell and makes it setuid and setgid
// (as the host's root, when the agent runs as root, that would be a root shell for anyone), makes a setgid
// directory, a fifo and a socket's file, and chmods a file that was there before; the call succeeds, and
// what it left carries no privilege: bits cleared, special files removed, and the model is told. Inside
// the sandbox the workspace is mounted nosuid and nodev. Also run as nobody (TestSandboxAsAnUnprivilegedUser).
func TestSandboxLeavesNothingThatGrantsPrivileges(t *testing.T) {
	e := newEnv(t, nil)
	if err := os.WriteFile(filepath.Join(e.root, "before"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "cp /bin/sh x && chmod 6755 x && mkdir d && chmod 2775 d && cp /bin/sh d/y && chmod 4755 d/y && " +
		"chmod u+s before && mkfifo f && python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"s\")' 2>/dev/null || mknod s p; " +
		"stat -c '%A %n' x d d/y before f; grep ' /workspace ' /proc/self/mountinfo"
	out := e.shell(t, `{"command":"sh","args":["-c",`+strconv.Quote(script)+`]}`)
	if !out.Success {
		t.Fatalf("outcome %+v", out)
	}
	// Inside, every chmod succeeded (the && chain ran to the fifo); the mount grants nothing there.
	if !strings.Contains(out.Output, "prw-r--r-- f") {
		t.Errorf("inside the sandbox the chain stopped early:\n%s", out.Output)
	}
	var mount string
	for _, l := range strings.Split(out.Output, "\n") {
		if strings.Contains(l, " /workspace ") {
			mount = l
		}
	}
	if !strings.Contains(mount, "nosuid") || !strings.Contains(mount, "nodev") {
		t.Errorf("the workspace is not mounted nosuid,nodev inside the sandbox: %q", mount)
	}
	// Outside, nothing grants a privilege.
	for _, n := range []string{"x", "d", "d/y", "before"} {
		fi, err := os.Lstat(filepath.Join(e.root, n))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0 {
			t.Errorf("%s was left with mode %v (owner uid %d)", n, fi.Mode(), fi.Sys().(*syscall.Stat_t).Uid)
		}
	}
	for _, n := range []string{"f", "s"} {
		if _, err := os.Lstat(filepath.Join(e.root, n)); err == nil {
			t.Errorf("%s (a fifo or socket) was left in the workspace", n)
		}
	}
	for _, w := range []string{`removed the setuid/setgid bits of "x"`, `removed the setuid/setgid bits of "d"`,
		`removed the setuid/setgid bits of "d/y"`, `removed the setuid/setgid bits of "before"`, `removed "f"`, `removed "s"`} {
		if !strings.Contains(out.Output, w) {
			t.Errorf("the model is not told %q:\n%s", w, out.Output)
		}
	}
	// A setuid file left below directories that forbid reaching it (mode 000 and 600) loses its bit too,
	// and the call succeeds (as nobody, reaching it needs the directories opened for the scrub).
	out = e.shell(t, `{"command":"sh","args":["-c","mkdir -p h/i && cp /bin/sh h/i/z && chmod 4755 h/i/z && chmod 600 h/i && chmod 000 h"]}`)
	if !out.Success || !strings.Contains(out.Output, `removed the setuid/setgid bits of "h/i/z"`) {
		t.Fatalf("outcome %+v", out)
	}
	if fi, err := os.Lstat(filepath.Join(e.root, "h")); err != nil || fi.Mode().Perm() != 0 {
		t.Errorf("h: %v %v, want mode 000 as the command left it", fi, err)
	}
	if err := os.Chmod(filepath.Join(e.root, "h"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(e.root, "h/i"), 0o700); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(e.root, "h/i/z")); err != nil || fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0 {
		t.Errorf("h/i/z: %v %v", fi.Mode(), err)
	}
	// The next command finds them as they were left (and a failing one rolls back to that).
	out = e.shell(t, `{"command":"sh","args":["-c","chmod 4755 x; exit 1"]}`)
	if out.Success {
		t.Fatalf("outcome %+v", out)
	}
	if fi, _ := os.Lstat(filepath.Join(e.root, "x")); fi.Mode()&os.ModeSetuid != 0 {
		t.Errorf("x has mode %v after a failed call", fi.Mode())
	}
}

// TestWorkspaceGrowthIsBounded: one command may add at most Config.MaxWorkspaceBytes of data and
// MaxWorkspaceEntries entries to the workspace; past either it is stopped (a command that would never
// end too, long before its timeout), the call fails with a text naming the bounds, and what it wrote is
// rolled back. Hard links to a file count as entries, not as data again. Within the bounds, it succeeds.
func TestWorkspaceGrowthIsBounded(t *testing.T) {
	e := newEnv(t, &sandbox.Config{MaxWorkspaceBytes: 1 << 20, MaxWorkspaceEntries: 50})
	note := "The command added more to the workspace than one command may (1048576 bytes of file data and 50 new files and directories;"
	for _, c := range []struct{ name, script string }{
		{"one large file", "head -c 2000000 /dev/zero > big; echo done"},
		{"a file that grows forever", "cat /dev/zero > big"},
		{"many small files", "mkdir many && cd many && for i in $(seq 80); do echo $i > f$i; done"},
		{"files forever", "mkdir many && cd many && i=0; while :; do i=$((i+1)); echo $i > f$i; done"},
		{"many files of data", "for i in $(seq 10); do head -c 200000 /dev/zero > f$i; done"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			out := e.shell(t, `{"command":"sh","args":["-c",`+strconv.Quote(c.script)+`],"timeout_seconds":120}`)
			if out.Success || !strings.HasPrefix(out.Output, note) {
				t.Fatalf("outcome %+v\nwant a failure starting %q", out, note)
			}
			if d := time.Since(start); d > 60*time.Second {
				t.Errorf("stopped after %v", d)
			}
			es, err := os.ReadDir(e.root)
			if err != nil {
				t.Fatal(err)
			}
			if len(es) != 0 {
				t.Errorf("left in the workspace after the rollback: %v", es)
			}
		})
	}
	out := e.shell(t, `{"command":"sh","args":["-c","head -c 900000 /dev/zero > ok && mkdir d && for i in $(seq 40); do : > d/f$i; done"]}`)
	if !out.Success {
		t.Fatalf("within the bounds: %+v", out)
	}
	// The bound is per call: the next one may add as much again.
	out = e.shell(t, `{"command":"sh","args":["-c","head -c 900000 /dev/zero > ok2"]}`)
	if !out.Success {
		t.Fatalf("a second call within the bounds: %+v", out)
	}
	// Hard links add names, not data: three more names of a 900,000-byte file are within the bound.
	out = e.shell(t, `{"command":"sh","args":["-c","ln ok2 l1 && cp -l ok2 l2 && mkdir ld && ln ok2 ld/l3"]}`)
	if !out.Success {
		t.Fatalf("links to a file that was there: %+v", out)
	}
}

// TestPrivilegeBitsAreTakenWhileTheCommandRuns: a setuid file made by a command that goes on running
// loses the bit within a poll (not only when the command ends), and the model is told once. The command
// records that its chmod succeeded (file "set"), so the test need not catch the bit in the short time it
// lives; it does not record the mode it reads back, as a poll may take the bit between the chmod and a stat
// (as one CI run saw). The message, told once, shows the bit was set and taken.
func TestPrivilegeBitsAreTakenWhileTheCommandRuns(t *testing.T) {
	e := newEnv(t, nil)
	done := make(chan string, 1)
	go func() {
		o, err := e.d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "shell",
			Arguments: []byte(`{"command":"sh","args":["-c","cp /bin/sh x && chmod 4755 x && echo chmod-ok > set.tmp && mv set.tmp set && while [ ! -e stop ]; do sleep 0.05; done"]}`)})
		if err != nil {
			done <- err.Error()
			return
		}
		done <- o.Output
	}()
	x := filepath.Join(e.root, "x")
	var set []byte
	clearedWhileRunning := false
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if set == nil {
			if set, _ = os.ReadFile(filepath.Join(e.root, "set")); set == nil {
				continue
			}
		}
		if fi, err := os.Lstat(x); err == nil && fi.Mode()&os.ModeSetuid == 0 {
			clearedWhileRunning = true
			break
		}
	}
	if string(set) != "chmod-ok\n" {
		t.Fatalf("inside the sandbox chmod 4755 x did not succeed (%q)", set)
	}
	select {
	case out := <-done:
		t.Fatalf("the command ended before the check: %q", out)
	default:
	}
	if !clearedWhileRunning {
		t.Errorf("the setuid bit of x was not taken while the command ran")
	}
	if err := os.WriteFile(filepath.Join(e.root, "stop"), nil, 0o644); err != nil { // the command ends
		t.Fatal(err)
	}
	out := <-done
	if n := strings.Count(out, `removed the setuid/setgid bits of "x"`); n != 1 {
		t.Errorf("the model is told %d times:\n%s", n, out)
	}
}

// TestSpaceCannotBeReservedPastAFilesEnd: fallocate --keep-size reserves disk space without changing the
// size, so RLIMIT_FSIZE does not bound it and one system call could take the whole disk before the next
// measure: the sandbox refuses it (EOPNOTSUPP, as a filesystem without preallocation does; the file
// takes no space), at any size and whatever the offset, while fallocate that sets the size (bounded by
// RLIMIT_FSIZE) and punching holes still work. (vfs counts reserved space as growth as well:
// TestGrowthCountsDiskSpaceNotNames.)
func TestSpaceCannotBeReservedPastAFilesEnd(t *testing.T) {
	e := newEnv(t, &sandbox.Config{MaxWorkspaceBytes: 1 << 20})
	script := "head -c 100000 /dev/zero > r; " +
		"fallocate --keep-size -l 1G r; echo keep=$?; fallocate --keep-size -o 4096 -l 8k r; echo keepoffset=$?; " +
		"fallocate --keep-size --zero-range -l 2M r; echo zero=$?; " +
		"stat -c 'r %s %b' r; " +
		"fallocate -l 200000 s; echo plain=$?; fallocate --punch-hole -o 0 -l 65536 r; echo punch=$?; " +
		"fallocate -l 2M big; echo over=$?"
	out := e.shell(t, `{"command":"sh","args":["-c",`+strconv.Quote(script)+`],"allow_failure":true}`)
	if !out.Success {
		t.Fatalf("outcome %+v", out)
	}
	for _, w := range []string{"keep=1", "keepoffset=1", "zero=1", "plain=0", "punch=0", "over=153"} {
		if !strings.Contains(out.Output, w+"\n") {
			t.Errorf("want %q in the output:\n%s", w, out.Output)
		}
	}
	var size, blocks int64
	for _, l := range strings.Split(out.Output, "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "r" {
			size, _ = strconv.ParseInt(f[1], 10, 64)
			blocks, _ = strconv.ParseInt(f[2], 10, 64)
		}
	}
	if size != 100000 || blocks*512 > 200000 {
		t.Errorf("r has size %d and %d blocks inside the sandbox: space was reserved past its end", size, blocks)
	}
}
