package scripttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestDepsInstallsOrNamesWhatIsMissing runs scripts/test-deps.sh (what `make test` runs before it
// builds anything) on a machine that lacks bubblewrap, PostgreSQL and npm: with apt-get (a fake that
// records its arguments and "installs" them) as root, everything is installed in one apt-get call; with
// none, it fails at once, naming every missing package; with everything present it says nothing.
func TestTestDepsInstallsOrNamesWhatIsMissing(t *testing.T) {
	script, err := filepath.Abs("../../scripts/test-deps.sh")
	if err != nil {
		t.Fatal(err)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	link := func(dir string, names ...string) {
		for _, name := range names {
			p, err := exec.LookPath(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(p, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "apt.log")
	fake := "#!" + bash + "\necho \"$*\" >> " + log + "\n" +
		"if [ \"$1\" = install ]; then for b in fakebwrap fakeinitdb fakenpm; do printf '#!/bin/sh\\n' > " + bin + "/$b; chmod +x " + bin + "/$b; done; fi\n"
	if err := os.WriteFile(filepath.Join(bin, "apt-get"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	link(bin, "id", "chmod")
	run := func(path string) (string, error) {
		cmd := exec.Command(bash, script)
		cmd.Env = []string{"PATH=" + path, "WINK_BWRAP=fakebwrap", "WINK_INITDB=fakeinitdb", "WINK_NPM=fakenpm",
			"WINK_PGLIB=" + filepath.Join(bin, "nopg")}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	out, err := run(bin)
	if os.Geteuid() == 0 {
		calls, _ := os.ReadFile(log)
		want := "update -qq\ninstall -y -qq --no-install-recommends bubblewrap postgresql npm\n"
		if err != nil || string(calls) != want {
			t.Fatalf("as root with apt-get: %v\n%s\napt-get calls:\n%s", err, out, calls)
		}
		if out, err := run(bin); err != nil || out != "" {
			t.Fatalf("already installed: %v %q", err, out)
		}
	} else if err == nil || !strings.Contains(out, "sudo apt-get install bubblewrap postgresql npm") {
		t.Fatalf("not root, no sudo: %v\n%s", err, out)
	}

	empty := t.TempDir()
	link(empty, "id")
	out, err = run(empty)
	if err == nil || !strings.Contains(out, "make test needs bubblewrap postgresql npm") ||
		!strings.Contains(out, "(Debian/Ubuntu: sudo apt-get install bubblewrap postgresql npm)") {
		t.Fatalf("without apt-get: %v\n%s", err, out)
	}
}
