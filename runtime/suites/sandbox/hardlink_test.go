//go:build unix

package sandbox_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestShellRollbackCoversEveryNameOfAFile: through the shell tool and the dispatcher's transaction, a
// failing command that links a second name to a file and writes through it leaves the file as it was; a
// committed write through a new link survives a later failing call, and the two names still share their
// file. Also run as nobody (TestSandboxAsAnUnprivilegedUser).
func TestShellRollbackCoversEveryNameOfAFile(t *testing.T) {
	e := newEnv(t, nil)
	if err := os.WriteFile(filepath.Join(e.root, "a"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(n string) string {
		b, err := os.ReadFile(filepath.Join(e.root, n))
		if err != nil {
			return "(missing)"
		}
		return string(b)
	}
	if out := e.shell(t, `{"command":"sh","args":["-c","ln a b && echo x > b; exit 1"]}`); out.Success {
		t.Fatalf("outcome %+v", out)
	}
	if read("a") != "old\n" || read("b") != "(missing)" {
		t.Fatalf("after the failed call a=%q b=%q, want a=old and no b", read("a"), read("b"))
	}
	if out := e.shell(t, `{"command":"sh","args":["-c","ln a b && echo committed > b"]}`); !out.Success {
		t.Fatalf("outcome %+v", out)
	}
	if out := e.shell(t, `{"command":"sh","args":["-c","echo lost > a; cp -l a c; mv -f c b; exit 1"]}`); out.Success {
		t.Fatalf("outcome %+v", out)
	}
	if read("a") != "committed\n" || read("b") != "committed\n" {
		t.Fatalf("after the later failed call a=%q b=%q, want both committed (the acknowledged write lost)", read("a"), read("b"))
	}
	fa, _ := os.Stat(filepath.Join(e.root, "a"))
	fb, _ := os.Stat(filepath.Join(e.root, "b"))
	if fa.Sys().(*syscall.Stat_t).Ino != fb.Sys().(*syscall.Stat_t).Ino {
		t.Error("a and b no longer share their file after the rollback")
	}
}
