package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoDepsInstallsBubblewrap runs scripts/demo-deps.sh (what `make demo` runs first) on a machine
// where the sandbox binary is missing: with apt-get available (a fake one that records its arguments and
// "installs" the binary) the script installs it as root; without apt-get it fails, saying how to install
// it. The demo's shell is never run unsandboxed, so there is no third way.
func TestDemoDepsInstallsBubblewrap(t *testing.T) {
	script, err := filepath.Abs("../../../scripts/demo-deps.sh")
	if err != nil {
		t.Fatal(err)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	idPath, err := exec.LookPath("id")
	if err != nil {
		t.Fatal(err)
	}
	chmod, err := exec.LookPath("chmod")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "apt.log")
	fake := "#!" + bash + "\necho \"$*\" >> " + log + "\n" +
		"if [ \"$1\" = install ]; then printf '#!/bin/sh\\n' > " + filepath.Join(bin, "fakebwrap") + "; " + chmod + " +x " + filepath.Join(bin, "fakebwrap") + "; fi\n"
	if err := os.WriteFile(filepath.Join(bin, "apt-get"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(idPath, filepath.Join(bin, "id")); err != nil {
		t.Fatal(err)
	}
	run := func(path string) (string, error) {
		cmd := exec.Command(bash, script)
		cmd.Env = []string{"PATH=" + path, "WINK_BWRAP=fakebwrap"}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	out, err := run(bin)
	if os.Geteuid() == 0 {
		calls, _ := os.ReadFile(log)
		if err != nil || string(calls) != "update -qq\ninstall -y -qq --no-install-recommends bubblewrap\n" {
			t.Fatalf("as root with apt-get: %v\n%s\napt-get calls:\n%s", err, out, calls)
		}
		if _, err := os.Stat(filepath.Join(bin, "fakebwrap")); err != nil {
			t.Fatal("not installed")
		}
		// Present now: nothing more is done.
		if out, err := run(bin); err != nil || out != "" {
			t.Fatalf("already installed: %v %q", err, out)
		}
	} else if err == nil || !strings.Contains(out, "sudo apt-get install bubblewrap") {
		t.Fatalf("not root, no sudo: %v\n%s", err, out)
	}

	// No apt-get at all: the script says how to install it and fails.
	empty := t.TempDir()
	if err := os.Symlink(idPath, filepath.Join(empty, "id")); err != nil {
		t.Fatal(err)
	}
	out, err = run(empty)
	if err == nil || !strings.Contains(out, "install it (Debian/Ubuntu: sudo apt-get install bubblewrap)") {
		t.Fatalf("without apt-get: %v\n%s", err, out)
	}
}
