package fleet_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/example/fleet"
)

// workerEnv marks a run of this test binary as a fleet worker.
const workerEnv = "WINK_FLEET_TEST_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" && len(os.Args) > 1 && os.Args[1] == "worker" {
		os.Exit(fleet.WorkerMain(os.Args[2:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestFleet runs the demo's flow (make demo-fleet): three worker processes (this test binary) sharing a
// throwaway PostgreSQL cluster.
func TestFleet(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var out strings.Builder
	err := fleet.Run(ctx, &out, func(args []string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), workerEnv+"=1")
		return cmd
	})
	t.Log("\n" + out.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"[ok  ] the three workers return the same receipt",
		"[ok  ] the payment was made once (1 made)",
		"[ok  ] worker B sees the note worker A wrote",
		"[ok  ] worker C continues the conversation (2 notes)",
		"[ok  ] another conversation sees none of it",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
}
