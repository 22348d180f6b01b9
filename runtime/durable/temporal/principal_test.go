package temporal_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/scopetest"
	"github.com/winkgen/wink/runtime/durable/temporal"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/wink"
	"go.temporal.io/sdk/testsuite"
)

// principalRun runs the scopetest script as a workflow for principal p, the Tool activity's first
// attempt dying before its dispatch (its retry is another attempt, as on another worker); the
// activities' own context carries no principal, so what they act for comes from the store.
func principalRun(t *testing.T, p *wink.Principal, reauth durable.Reauthorize) (*testsuite.TestWorkflowEnvironment, *scopetest.Model, *durable.MemoryStore) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	st := durable.NewMemoryStore()
	m := &scopetest.Model{}
	var died atomic.Bool
	acts := &temporal.Activities{Store: st, Agent: scopetest.Agent(m, nil), Worker: "suite", Reauthorize: reauth,
		Observe: func(ev durable.Event) {
			if ev.Kind == durable.EventToolStart && died.CompareAndSwap(false, true) {
				panic("worker killed before the tool call")
			}
		}}
	if _, err := st.Create(context.Background(), durable.Record{ID: "r", Input: durable.EncodeMessages([]loop.Message{loop.UserMessage("Close ticket 7.")}),
		Principal: durable.EncodePrincipal(p)}); err != nil {
		t.Fatal(err)
	}
	env := newEnv(&s)
	temporal.Register(env, acts)
	env.ExecuteWorkflow(temporal.WorkflowName, temporal.NewInput("r", temporal.Options{RetryInterval: time.Millisecond}))
	if !env.IsWorkflowCompleted() {
		t.Fatal("workflow not completed")
	}
	return env, m, st
}

// TestWorkflowActsForItsPrincipal: a run stored with a principal lacking tickets:write has its model
// offered only read_ticket and its close_ticket call refused with the scope error, on the retried
// attempt too; the handler never runs.
func TestWorkflowActsForItsPrincipal(t *testing.T) {
	before := scopetest.Closed.Load()
	env, m, st := principalRun(t, &wink.Principal{Subject: "alice", Scopes: []string{"tickets:read"}, Expires: time.Now().Add(time.Hour)}, nil)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	rec, steps, err := st.Load(context.Background(), "r")
	if err != nil {
		t.Fatal(err)
	}
	s, err := durable.Rebuild(rec, steps)
	if err != nil {
		t.Fatal(err)
	}
	if out := s.Messages[2].Result; out.Success || !strings.Contains(out.Output, `lacks the scope "tickets:write"`) {
		t.Fatalf("close_ticket for a principal without tickets:write: %+v", out)
	}
	if n := scopetest.Closed.Load() - before; n != 0 {
		t.Fatalf("close_ticket's handler ran %d times", n)
	}
	for i, names := range m.Offered {
		if strings.Join(names, ",") != "read_ticket" {
			t.Errorf("model request %d offered %v, want only read_ticket", i+1, names)
		}
	}
}

// TestWorkflowPrincipalExpired: a principal past its expiry with no Reauthorize fails the workflow at
// its first step, without a retry and without a model call; a Reauthorize renews it.
func TestWorkflowPrincipalExpired(t *testing.T) {
	old := &wink.Principal{Subject: "alice", Scopes: []string{"tickets:read"}, Expires: time.Now().Add(-time.Minute)}
	env, m, _ := principalRun(t, old, nil)
	if err := env.GetWorkflowError(); err == nil || !strings.Contains(err.Error(), "whose token expired at") || len(m.Offered) != 0 {
		t.Fatalf("workflow error %v after %d model calls; want the expiry, no model call", err, len(m.Offered))
	}
	before := scopetest.Closed.Load()
	env, _, _ = principalRun(t, old, func(_ context.Context, _ durable.Run, p *wink.Principal) (*wink.Principal, error) {
		return &wink.Principal{Subject: p.Subject, Scopes: []string{"tickets:write"}}, nil
	})
	if err := env.GetWorkflowError(); err != nil || scopetest.Closed.Load() != before+1 {
		t.Fatalf("renewed: %v, %d calls", err, scopetest.Closed.Load()-before)
	}
}
