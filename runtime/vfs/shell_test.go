package vfs

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// testShell is one sh process that runs a test's scripts in turn in one directory, as `sh -c "cd dir &&
// script"` would run each: the same shell, the same tools, the same system calls on the tree, but without
// a shell started per script. Starting a process is what these tests spend their time on (5-8 ms of CPU
// each on a loaded 2-core machine), and the shell was the one process a script did not ask for.
//
// A script runs in a brace group, not a subshell, so that it costs no fork either: a variable it sets is
// seen by the next script, and a special builtin that fails (`: > dir`) ends the shell, which run reports
// as a failed script. Scripts must not read standard input (it is /dev/null for them) nor change
// directory.
type testShell struct {
	t    testing.TB
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	mark string
	dead bool
}

// newShell starts a shell in dir; it ends with the test.
func newShell(t testing.TB, dir string) *testShell {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = w, w
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	s := &testShell{t: t, cmd: cmd, in: in, out: bufio.NewReader(r), mark: fmt.Sprintf("--- end of script %d ---", cmd.Process.Pid)}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
		r.Close()
	})
	return s
}

// run runs script and returns its output (standard output and error together) and its exit status; a
// shell that ended (a failed special builtin, a syntax error) gives status -1 and fails every later run.
func (s *testShell) run(script string) (out string, status int) {
	s.t.Helper()
	if s.dead {
		return "the shell ended at an earlier script", -1
	}
	// The status is printed on a line of its own after the script's output, even one with no final newline.
	if _, err := io.WriteString(s.in, "{\n"+script+"\n} </dev/null 2>&1\nprintf '\\n%s %d\\n' '"+s.mark+"' $?\n"); err != nil {
		s.dead = true
		return "writing to the shell: " + err.Error(), -1
	}
	var sb strings.Builder
	for {
		line, err := s.out.ReadString('\n')
		if rest, ok := strings.CutPrefix(line, s.mark+" "); ok && err == nil {
			n, _ := strconv.Atoi(strings.TrimSuffix(rest, "\n"))
			return strings.TrimSuffix(sb.String(), "\n"), n
		}
		sb.WriteString(line)
		if err != nil {
			s.dead = true
			return sb.String() + "(the shell ended: " + err.Error() + ")", -1
		}
	}
}

// must runs script and fails the test unless it succeeds.
func (s *testShell) must(script string) {
	s.t.Helper()
	if out, status := s.run(script); status != 0 {
		s.t.Fatalf("%s: exit status %d\n%s", script, status, out)
	}
}
