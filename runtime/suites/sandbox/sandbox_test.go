package sandbox_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/sandbox"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// requireBwrap fails (never skips) when bubblewrap is missing: CI installs it (.ci/run).
func requireBwrap(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Fatal("bubblewrap (bwrap) is not installed: apt-get install bubblewrap (.ci/run does)")
	}
}

type env struct {
	d    *wink.Dispatcher
	host *vfs.Host
	root string
}

func newEnv(t *testing.T, cfg *sandbox.Config) *env {
	t.Helper()
	requireBwrap(t)
	root := t.TempDir()
	h, err := vfs.NewHost(root, vfs.BackupDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	d := &wink.Dispatcher{Registry: wink.MustRegistry(sandbox.WinkTools()), Filesystem: h, Session: session.New()}
	if cfg != nil {
		reg, err := resources.NewRegistry(resources.Instance(sandbox.ConfigKey, cfg))
		if err != nil {
			t.Fatal(err)
		}
		rc, err := reg.Open()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rc.Close() })
		d.Resources = rc
	}
	return &env{d: d, host: h, root: root}
}

func (e *env) shell(t *testing.T, args string) wink.Outcome {
	t.Helper()
	out, err := e.d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "shell", Arguments: []byte(args)})
	if err != nil {
		t.Fatalf("shell %s: %v", args, err)
	}
	return out
}

func (e *env) exists(name string) bool {
	_, err := os.Stat(filepath.Join(e.root, name))
	return err == nil
}

func TestShellRunsInTheWorkspace(t *testing.T) {
	e := newEnv(t, nil)
	if err := os.WriteFile(filepath.Join(e.root, "in.txt"), []byte("alpha\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := e.shell(t, `{"command":"sh","args":["-c","pwd; wc -l < in.txt; echo made > out.txt; id -u"]}`)
	want := "The command exited with status 0.\n\n/workspace\n2\n1000\nexit status 0"
	if !out.Success || out.Output != want {
		t.Fatalf("outcome %+v\nwant output %q", out, want)
	}
	if b, _ := os.ReadFile(filepath.Join(e.root, "out.txt")); string(b) != "made\n" {
		t.Errorf("out.txt = %q", b)
	}
	if err := os.Mkdir(filepath.Join(e.root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out := e.shell(t, `{"command":"pwd","workdir":"sub"}`); out.Output != "The command exited with status 0.\n\n/workspace/sub\nexit status 0" {
		t.Errorf("workdir: %q", out.Output)
	}
}

func TestFailedCommandRollsBackItsWrites(t *testing.T) {
	e := newEnv(t, nil)
	if err := os.WriteFile(filepath.Join(e.root, "keep.txt"), []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := e.shell(t, `{"command":"sh","args":["-c","echo new > new.txt; echo changed > keep.txt; echo oops; exit 3"]}`)
	want := "The command exited with status 3; everything it wrote was undone. Set allow_failure to keep its " +
		"effects when a non-zero status is expected.\n\noops\nexit status 3"
	if out.Success || out.Output != want {
		t.Fatalf("outcome %+v\nwant %q", out, want)
	}
	if e.exists("new.txt") {
		t.Error("new.txt survived the failed call")
	}
	if b, _ := os.ReadFile(filepath.Join(e.root, "keep.txt")); string(b) != "original" {
		t.Errorf("keep.txt = %q after the rollback", b)
	}
	// allow_failure: the status is a result and the writes stay.
	out = e.shell(t, `{"command":"sh","args":["-c","echo new > new.txt; exit 3"],"allow_failure":true}`)
	if !out.Success || out.Output != "The command exited with status 3.\n\nexit status 3" || !e.exists("new.txt") {
		t.Errorf("allow_failure: %+v, new.txt exists %v", out, e.exists("new.txt"))
	}
}

func TestShellFailureTexts(t *testing.T) {
	e := newEnv(t, &sandbox.Config{EnvAllow: []string{"GOFLAGS"}, MaxTimeout: time.Minute})
	for _, c := range []struct{ name, args, want string }{
		{"missing workdir", `{"command":"ls","workdir":"nope"}`,
			"Directory 'nope' does not exist in the workspace; create it or pick another workdir."},
		{"env not allowed", `{"command":"env","env":{"SECRET":"x"}}`,
			`Environment variable "SECRET" may not be set. Allowed: GOFLAGS.`},
		{"timeout above the maximum", `{"command":"true","timeout_seconds":120}`,
			"timeout_seconds must be at most 60 here."},
		{"unknown program", `{"command":"no-such-program"}`, "The command exited with status 1;"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := e.shell(t, c.args)
			if out.Success || !strings.HasPrefix(out.Output, c.want) {
				t.Errorf("output %q, want it to start with %q", out.Output, c.want)
			}
		})
	}
	out := e.shell(t, `{"command":"sh","args":["-c","echo $GOFLAGS; echo $HOME; echo ${SECRET:-none}"],"env":{"GOFLAGS":"-mod=mod"}}`)
	if out.Output != "The command exited with status 0.\n\n-mod=mod\n/workspace\nnone\nexit status 0" {
		t.Errorf("environment: %q", out.Output)
	}
	mem := &wink.Dispatcher{Registry: wink.MustRegistry(sandbox.WinkTools()), Filesystem: vfs.NewMemory()}
	o, err := mem.Dispatch(context.Background(), wink.Call{ID: "c", Name: "shell", Arguments: []byte(`{"command":"true"}`)})
	if err != nil || o.Output != "The shell needs a workspace on the host filesystem (vfs.Host); this one is not." {
		t.Errorf("memory filesystem: %q %v", o.Output, err)
	}
}

func TestShellWithoutBubblewrapIsDisabled(t *testing.T) {
	cfg := sandbox.Config{Bwrap: "/nonexistent/bwrap"}
	sec, err := sandbox.Section(cfg)
	if err != nil {
		t.Fatal(err)
	}
	text, tools := render(t, sec)
	if len(tools) != 0 || !strings.Contains(text, "The shell is not available: bubblewrap cannot create a sandbox here") {
		t.Errorf("section %q offers %d tools", text, len(tools))
	}
	e := newEnv(t, &cfg)
	if out := e.shell(t, `{"command":"true"}`); out.Success || !strings.HasPrefix(out.Output, "The shell is not available: ") {
		t.Errorf("outcome %+v", out)
	}
	sec, err = sandbox.Section()
	if err != nil {
		t.Fatal(err)
	}
	if _, tools := render(t, sec); len(tools) != 1 {
		t.Errorf("with bubblewrap the section offers %d tools", len(tools))
	}
}

// Escapes tried and refused: writing outside the workspace, reaching the network, a fork bomb, a command
// that never ends, gigabytes of output.
func TestSandboxRefusesEscapes(t *testing.T) {
	e := newEnv(t, &sandbox.Config{MaxProcs: 64, MaxOutputBytes: 1000, HardOutputBytes: 1 << 20})
	outside := t.TempDir()
	t.Run("write outside the workspace", func(t *testing.T) {
		target := filepath.Join(outside, "escaped")
		for _, p := range []string{target, "/usr/escaped", "/etc/escaped", "../escaped"} {
			out := e.shell(t, `{"command":"sh","args":["-c","echo x > `+p+`"]}`)
			if out.Success {
				t.Errorf("writing %s succeeded", p)
			}
		}
		if _, err := os.Stat(target); err == nil {
			t.Error("a file appeared outside the workspace")
		}
		out := e.shell(t, `{"command":"sh","args":["-c","cat /etc/shadow"]}`)
		if out.Success {
			t.Errorf("/etc/shadow is readable: %q", out.Output)
		}
	})
	t.Run("network", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		out := e.shell(t, `{"command":"sh","args":["-c","exec 3<>/dev/tcp/127.0.0.1/`+port+` && echo connected"]}`)
		if strings.Contains(out.Output, "connected") {
			t.Errorf("reached the host's network: %q", out.Output)
		}
		out = e.shell(t, `{"command":"cat","args":["/proc/net/dev"]}`)
		if strings.Contains(out.Output, "eth") || !strings.Contains(out.Output, "lo:") {
			t.Errorf("network devices visible: %q", out.Output)
		}
	})
	t.Run("a command that never ends", func(t *testing.T) {
		start := time.Now()
		out := e.shell(t, `{"command":"sh","args":["-c","echo started > slow.txt; sleep 1000"],"timeout_seconds":1}`)
		if out.Success || !strings.HasPrefix(out.Output, "The command did not finish within 1 s and was stopped; everything it wrote was undone.") {
			t.Errorf("outcome %q", out.Output)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("took %v", d)
		}
		if e.exists("slow.txt") {
			t.Error("the stopped command's write survived")
		}
	})
	t.Run("fork bomb", func(t *testing.T) {
		// First a bounded attempt (100 processes, harmless if the limit failed): the limit must stop it,
		// or the real fork bomb does not run.
		probe := e.shell(t, `{"command":"sh","args":["-c","for i in $(seq 100); do sleep 3 & done; wait; echo all-started"],"timeout_seconds":20}`)
		if probe.Success || strings.Contains(probe.Output, "all-started") {
			t.Fatalf("100 processes started under a limit of 64: %q", probe.Output)
		}
		start := time.Now()
		out := e.shell(t, `{"command":"sh","args":["-c","b() { b | b & }; b; sleep 2; echo alive"],"timeout_seconds":5}`)
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("took %v", d)
		}
		// The machine survives: a new command still runs.
		if out2 := e.shell(t, `{"command":"echo","args":["ok"]}`); !out2.Success {
			t.Errorf("after the fork bomb (%q): %q", out.Output, out2.Output)
		}
	})
	t.Run("gigabytes of output", func(t *testing.T) {
		start := time.Now()
		out := e.shell(t, `{"command":"sh","args":["-c","echo x > big.txt; yes 0123456789"]}`)
		want := "The command wrote more than 1048576 bytes of output and was stopped; everything it wrote was undone."
		if out.Success || !strings.HasPrefix(out.Output, want) || !strings.Contains(out.Output, "[output truncated: 1000 of ") {
			t.Errorf("outcome %q", out.Output)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("took %v", d)
		}
		if e.exists("big.txt") {
			t.Error("the stopped command's write survived")
		}
	})
	t.Run("long output is truncated with a hint", func(t *testing.T) {
		out := e.shell(t, `{"command":"sh","args":["-c","seq 1 2000"]}`)
		if !out.Success || !strings.Contains(out.Output, "[output truncated: 1000 of 8893 bytes shown; to see the rest, redirect it to a file") {
			t.Errorf("outcome %q", out.Output)
		}
	})
}

func render(t *testing.T, sec *prompt.Section) (string, []*wink.Tool) {
	t.Helper()
	r, err := prompt.Must("p", sec).Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.Text, r.Tools
}
