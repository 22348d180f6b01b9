package temporal_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/durable/temporal"
	"go.temporal.io/sdk/testsuite"
)

// suiteIdleTimeout is how long a test workflow environment may wait, on the wall clock, for its next
// event (an activity's end, a signal, a timer) before it gives up.
//
// The SDK's default is 3 s, and giving up is a panic in the test's goroutine: the whole test binary
// dies, with the buffered output (the failure lines) of every other test. An activity attempt that
// takes 3 s is slow but not stuck on a 2-core machine under load running this package with -race
// beside other packages' tests (its intentional panic logs a full stack, which was the only thing left
// of such a run). Two minutes still fails a workflow that is really stuck, long before go test's
// -timeout.
const suiteIdleTimeout = 2 * time.Minute

// newEnv returns a test workflow environment with the suite's idle timeout. Every test that runs the
// workflow in the SDK's test environment makes it here, never with s.NewTestWorkflowEnvironment alone.
func newEnv(s *testsuite.WorkflowTestSuite) *testsuite.TestWorkflowEnvironment {
	env := s.NewTestWorkflowEnvironment()
	env.SetTestTimeout(suiteIdleTimeout)
	return env
}

// TestSlowStepInTestEnvironment is a step attempt that stalls past the SDK's default idle timeout (3 s of
// wall clock, what a starved -race run can take), right after its intentional panic was retried: the
// run still completes in the test environment, every change once, instead of the environment panicking
// and taking the test binary down.
func TestSlowStepInTestEnvironment(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	f := newFixture(t)
	f.start(t, "r", "s")
	var died, stalled atomic.Bool
	f.acts.Observe, _ = durabletest.CrashAt(durabletest.BeforeModel, func() bool { return died.CompareAndSwap(false, true) }, func() {
		panic("worker killed at " + durabletest.BeforeModel)
	})
	crash := f.acts.Observe
	f.acts.Observe = func(ev durable.Event) {
		if died.Load() && stalled.CompareAndSwap(false, true) {
			time.Sleep(4 * time.Second) // a starved machine: longer than the SDK's default idle timeout
		}
		crash(ev)
	}
	env := f.env(&s)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(temporal.SignalApproval, temporal.Decision{Hold: durable.HoldID("r", 2, 0), Approved: true})
	}, time.Minute)
	env.ExecuteWorkflow(temporal.WorkflowName, temporal.NewInput("r", temporal.Options{Session: "s", RetryInterval: time.Millisecond}))
	if err := env.GetWorkflowError(); err != nil || !env.IsWorkflowCompleted() {
		t.Fatalf("workflow: completed %v, %v", env.IsWorkflowCompleted(), err)
	}
	if !stalled.Load() {
		t.Fatal("no attempt stalled")
	}
	verify(t, f, "r", "s", durabletest.BeforeModel)
}
