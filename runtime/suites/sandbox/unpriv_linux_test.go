package sandbox_test

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/winkgen/wink/internal/unpriv"
)

// TestSandboxAsAnUnprivilegedUser re-runs the sandbox tests as the user nobody when run as root (as CI
// is): there bubblewrap needs unprivileged user namespaces, no cgroup can be created, and the process
// limit is RLIMIT_NPROC, which the kernel enforces for every user but root.
func TestSandboxAsAnUnprivilegedUser(t *testing.T) {
	if os.Getenv("WINK_SANDBOX_UNPRIV") != "" {
		return // the child: the other tests are the scenario
	}
	if os.Geteuid() != 0 {
		t.Skip("already unprivileged: the other tests of this run are the unprivileged run")
	}
	requireBwrap(t)
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Fatalf("no nobody user to run as: %v", err)
	}
	uid, _ := strconv.Atoi(nobody.Uid)
	gid, _ := strconv.Atoi(nobody.Gid)
	base, err := os.MkdirTemp("", "wink-sandbox-unpriv-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "sandbox.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(base, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(tmp, uid, gid); err != nil {
		t.Fatal(err)
	}
	tests := []string{"TestShellRunsInTheWorkspace", "TestFailedCommandRollsBackItsWrites", "TestShellFailureTexts", "TestSandboxRefusesEscapes",
		"TestSandboxLeavesNothingThatGrantsPrivileges", "TestWorkspaceGrowthIsBounded", "TestShellRollbackCoversEveryNameOfAFile",
		"TestPrivilegeBitsAreTakenWhileTheCommandRuns", "TestSpaceCannotBeReservedPastAFilesEnd", "TestShellRollbackScenariosWithLinks"}
	cmd := exec.Command(bin, "-test.run", "^("+strings.Join(tests, "|")+")$", "-test.v")
	cmd.Dir = tmp
	cmd.Env = []string{"WINK_SANDBOX_UNPRIV=1", "TMPDIR=" + tmp, "HOME=" + tmp, "PATH=" + os.Getenv("PATH")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	unpriv.Lock(t) // one run as nobody at a time on the machine: RLIMIT_NPROC counts them together
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the sandbox tests failed as nobody: %v\n%s", err, out)
	}
	// Each must have run and passed: a renamed test would otherwise match nothing and pass unseen.
	for _, name := range tests {
		if !strings.Contains("\n"+string(out), "\n--- PASS: "+name+" ") {
			t.Errorf("%s did not pass as nobody:\n%s", name, out)
		}
	}
	t.Logf("as nobody:\n%s", out)
}
