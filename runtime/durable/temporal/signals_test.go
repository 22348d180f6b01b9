package temporal_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/winkgen/wink/runtime/durable/temporal"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
)

// script is a run whose activities are mocked: turn t's model response makes calls[t] calls, and
// call i of turn t is held (as held[t][i]) until a decision for it is recorded.
type script struct {
	calls []int
	held  map[[2]int]string

	mu      sync.Mutex
	decided map[string][]temporal.Decision
}

func (s *script) env(t *testing.T) *testsuite.TestWorkflowEnvironment {
	var suite testsuite.WorkflowTestSuite
	env := newEnv(&suite)
	temporal.Register(env, &temporal.Activities{})
	s.decided = map[string][]temporal.Decision{}
	env.OnActivity(temporal.ActivityModel, mock.Anything, mock.Anything).Return(func(_ context.Context, ref temporal.StepRef) (temporal.ModelResult, error) {
		if ref.Turn > len(s.calls) {
			return temporal.ModelResult{}, nil
		}
		return temporal.ModelResult{Calls: s.calls[ref.Turn-1]}, nil
	})
	env.OnActivity(temporal.ActivityTool, mock.Anything, mock.Anything).Return(func(_ context.Context, ref temporal.StepRef) (temporal.ToolResult, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if id, ok := s.held[[2]int{ref.Turn, ref.Index}]; ok && len(s.decided[id]) == 0 {
			return temporal.ToolResult{Held: true, CallID: "gemini-0", Call: temporal.HeldCall{Hold: id, CallID: "gemini-0", Tool: "t"}}, nil
		}
		return temporal.ToolResult{}, nil
	})
	env.OnActivity(temporal.ActivityForget, mock.Anything, mock.Anything).Return(nil)
	env.OnActivity(temporal.ActivityDecide, mock.Anything, mock.Anything, mock.Anything).Return(func(_ context.Context, _ temporal.StepRef, d temporal.Decision) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		if d.Call.Hold != d.Hold { // the decision is recorded bound to the held call itself
			return errors.New("decision for " + d.Hold + " bound to " + d.Call.Hold)
		}
		s.decided[d.Hold] = append(s.decided[d.Hold], d)
		return nil
	})
	return env
}

func approve(id string) temporal.Decision { return temporal.Decision{Hold: id, Approved: true} }

func (s *script) finish(t *testing.T, env *testsuite.TestWorkflowEnvironment, in temporal.Input) {
	t.Helper()
	env.ExecuteWorkflow(temporal.WorkflowName, in)
	if !env.IsWorkflowCompleted() {
		t.Fatal("the workflow did not complete (a decision was lost)")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
}

// TestSignalBeforeHold: approvals sent before the workflow holds their calls (one before the run
// starts, one for the next turn's call while this turn's call waits) are kept until the calls are held.
func TestSignalBeforeHold(t *testing.T) {
	s := &script{calls: []int{2, 1}, held: map[[2]int]string{{1, 1}: "h1", {2, 0}: "h2"}}
	env := s.env(t)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(temporal.SignalApproval, approve("h2")) }, 0)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(temporal.SignalApproval, approve("h1")) }, time.Hour)
	s.finish(t, env, temporal.NewInput("r", temporal.Options{}))
	if len(s.decided["h1"]) != 1 || len(s.decided["h2"]) != 1 {
		t.Fatalf("decisions recorded: %v", s.decided)
	}
}

// TestSignalForLaterCallWhileHeld: while turn 1's call waits, the approval of turn 2's call arrives
// first; it is kept, and turn 2 resumes without waiting.
func TestSignalForLaterCallWhileHeld(t *testing.T) {
	s := &script{calls: []int{1, 1}, held: map[[2]int]string{{1, 0}: "h1", {2, 0}: "h2"}}
	env := s.env(t)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(temporal.SignalApproval, approve("h2"))
		env.SignalWorkflow(temporal.SignalApproval, approve("h1"))
	}, time.Hour)
	s.finish(t, env, temporal.NewInput("r", temporal.Options{}))
	if len(s.decided["h1"]) != 1 || len(s.decided["h2"]) != 1 {
		t.Fatalf("decisions recorded: %v", s.decided)
	}
}

// TestDuplicateAndLateSignals: an approval sent twice is recorded once; of a Deny and an Approve waiting
// together for a held call, the latest is recorded (as the embedded engine reads the latest decision);
// a decision for a call already resolved (an Approve after a Deny that ran, a duplicate sent later) is
// dropped.
func TestDuplicateAndLateSignals(t *testing.T) {
	s := &script{calls: []int{2, 1, 1}, held: map[[2]int]string{{1, 0}: "h1", {1, 1}: "h2", {2, 0}: "h3", {3, 0}: "h4"}}
	env := s.env(t)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(temporal.SignalApproval, approve("h1"))
		env.SignalWorkflow(temporal.SignalApproval, approve("h1"))
		env.SignalWorkflow(temporal.SignalApproval, temporal.Decision{Hold: "h2", Reason: "no"})
		env.SignalWorkflow(temporal.SignalApproval, approve("h2"))
	}, time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(temporal.SignalApproval, approve("h1")) // h1 was resolved an hour ago
		env.SignalWorkflow(temporal.SignalApproval, temporal.Decision{Hold: "h3", Reason: "no"})
	}, 2*time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(temporal.SignalApproval, approve("h3")) // after the Deny ran, while h4 waits
	}, 3*time.Hour)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(temporal.SignalApproval, approve("h4")) }, 4*time.Hour)
	s.finish(t, env, temporal.NewInput("r", temporal.Options{}))
	if len(s.decided["h1"]) != 1 || len(s.decided["h2"]) != 1 || !s.decided["h2"][0].Approved ||
		len(s.decided["h3"]) != 1 || s.decided["h3"][0].Approved || len(s.decided["h4"]) != 1 {
		t.Fatalf("decisions recorded: %v", s.decided)
	}
}

// TestSignalNamingTheProviderIDIsNotApplied: every held call has the provider id "gemini-0"; a decision
// names a held call by its hold id only, so an approval signalled with the provider id approves nothing
// and the run waits until the right call is named.
func TestSignalNamingTheProviderIDIsNotApplied(t *testing.T) {
	s := &script{calls: []int{1, 1}, held: map[[2]int]string{{1, 0}: "h1", {2, 0}: "h2"}}
	env := s.env(t)
	var heldAfterProviderID []temporal.HeldCall
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(temporal.SignalApproval, approve("gemini-0")) }, time.Hour)
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(temporal.QueryStatus)
		var ws temporal.WorkflowStatus
		if err == nil {
			err = v.Get(&ws)
		}
		if err != nil {
			t.Error(err)
		}
		heldAfterProviderID = ws.Held
		env.SignalWorkflow(temporal.SignalApproval, approve("h1"))
		env.SignalWorkflow(temporal.SignalApproval, approve("h2"))
	}, 2*time.Hour)
	s.finish(t, env, temporal.NewInput("r", temporal.Options{}))
	if len(heldAfterProviderID) != 1 || heldAfterProviderID[0].Hold != "h1" || len(s.decided["gemini-0"]) != 0 {
		t.Fatalf("after the provider id's signal: held %+v, decided %v", heldAfterProviderID, s.decided)
	}
	if len(s.decided["h1"]) != 1 || len(s.decided["h2"]) != 1 {
		t.Fatalf("decisions recorded: %v", s.decided)
	}
}

// TestContinueAsNewCarriesSignals: a signal in the channel when the run continues as new (for a call
// of a later turn) is carried in the next run's input, not lost.
func TestContinueAsNewCarriesSignals(t *testing.T) {
	s := &script{calls: []int{1, 1}, held: map[[2]int]string{{2, 0}: "h2"}}
	env := s.env(t)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(temporal.SignalApproval, approve("h2")) }, 0)
	env.ExecuteWorkflow(temporal.WorkflowName, temporal.NewInput("r", temporal.Options{TurnsPerRun: 1}))
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("want continue-as-new, got %v", err)
	}
	var next temporal.Input
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil || next.Turn != 2 ||
		len(next.Pending) != 1 || next.Pending[0].Hold != "h2" || !next.Pending[0].Approved {
		t.Fatalf("continued input %+v %v", next, err)
	}
	next.TurnsPerRun = 50
	env2 := s.env(t)
	s.finish(t, env2, next)
	if len(s.decided["h2"]) != 1 {
		t.Fatalf("decisions recorded: %v", s.decided)
	}
}
