package temporal_test

import (
	"flag"
	"testing"

	"github.com/winkgen/wink/runtime/durable/temporal"
	"github.com/winkgen/wink/runtime/durable/temporal/internal/devserver"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// recordHistory: go test -run TestCrashWorkersTemporal -record-history DIR writes each crash run's
// history there (testdata/replay holds one, for TestReplayRecorded).
var recordHistory = flag.String("record-history", "", "directory to write the crash runs' histories to")

func replayer(t *testing.T) worker.WorkflowReplayer {
	t.Helper()
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(temporal.Workflow, workflow.RegisterOptions{Name: temporal.WorkflowName})
	return r
}

// TestReplayRecorded replays histories recorded on the development server (crash tests' runs: a worker
// killed inside a handler, the held call approved by signal; the steps as activities, and as local
// activities) against the workflow code: a change of the code that would make running workflows
// nondeterministic fails here, without a server.
func TestReplayRecorded(t *testing.T) {
	for _, name := range []string{"run-in-handler.json", "run-local-in-handler.json"} {
		if err := replayer(t).ReplayWorkflowHistoryFromJSONFile(devserver.Quiet(), "testdata/replay/"+name); err != nil {
			t.Error(name, err)
		}
	}
}
