package main

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// workerEnv marks a run of this test binary as a demo worker.
const workerEnv = "WINK_CODEMODE_DEMO_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" && len(os.Args) > 1 && os.Args[1] == "worker" {
		os.Exit(workerMain(os.Args[2:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func spawnWorker(args []string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	return cmd
}

// TestInProcessTranscript runs the demo's first part: the program, each inner call with its policy
// decision, the result, and the counts.
func TestInProcessTranscript(t *testing.T) {
	var out strings.Builder
	if err := inProcess(context.Background(), &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"Model calls run_program with this program:", "leg = route_leg(city=city)",
		`inner call call_1/11 route_leg {"city":"Copenhagen"}  policy route_guard allowed`,
		`result = {"end": "Stockholm", "total_km": 5221, "longest": "Copenhagen to Stockholm"}`,
		"By program: 2 model turns", "call by call: 13 turns"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestDurableProgramSurvivesKillAtRandomPoints kills worker A (SIGKILL, a real process) at random points
// inside the program of a durable run on PostgreSQL: in a random inner call before its effect, in
// another after its effect (before its commit), and after the program returned (before the engine's
// checkpoint). Each time worker B finishes the run, every inner call that had completed on A is answered
// from its checkpoint (its handler never runs again), and the run's answer is right.
func TestDurableProgramSurvivesKillAtRandomPoints(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	kills := []kill{
		{cities[r.IntN(len(cities))], "before"},
		{cities[r.IntN(len(cities))], "after"},
		{"-", "end"},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var out strings.Builder
	if err := durableRuns(ctx, &out, spawnWorker, kills); err != nil {
		t.Fatalf("kills %v: %v\n%s", kills, err, out.String())
	}
	if !strings.Contains(out.String(), "answered from its checkpoint (not run again)") || !strings.Contains(out.String(), "12 answered from their checkpoints") {
		t.Errorf("no replayed inner call shown:\n%s", out.String())
	}
	t.Log(out.String())
}
