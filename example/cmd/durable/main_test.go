package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// workerEnv marks a run of this test binary as a demo worker.
const workerEnv = "WINK_DURABLE_DEMO_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" && len(os.Args) > 1 && os.Args[1] == "worker" {
		os.Exit(workerMain(os.Args[2:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestDemo runs make demo-durable's flow: worker A killed (SIGKILL) after a call's commit, the run
// finished by B or C, every expectation checked.
func TestDemo(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var out strings.Builder
	err := run(ctx, &out, func(args []string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), workerEnv+"=1")
		return cmd
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"Worker A killed (SIGKILL)", "answered from its commit: planning_update_step", "Every expectation held"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
