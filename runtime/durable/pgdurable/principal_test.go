package pgdurable_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/scopetest"
	"github.com/winkgen/wink/runtime/durable/pgdurable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/wink"
)

// TestRunKeepsItsPrincipalOnAnotherWorker: a run started for a principal that lacks tickets:write (its
// Start context carries it, as an MCP request's does) makes its model call on worker A, which stops
// before the call; worker B, whose own context carries no principal, takes the run over from
// PostgreSQL and still refuses close_ticket with the scope error the model reads; the handler never
// runs, neither worker's model was offered close_ticket, and what is stored is the principal without
// its claims.
func TestRunKeepsItsPrincipalOnAnotherWorker(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, _ := open(t)
	st, err := pgdurable.New(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	m := &scopetest.Model{}
	var told []*wink.Principal
	agent := scopetest.Agent(m, func(r durable.Run, p *wink.Principal) {
		if r.Principal != p {
			t.Errorf("Run.Principal %v, the Agent's context %v", r.Principal, p)
		}
		told = append(told, p)
	})
	caller := &wink.Principal{Subject: "alice", Issuer: "https://as.example", ClientID: "app", Scopes: []string{"tickets:read"},
		Expires: time.Now().Add(time.Hour), Claims: map[string]any{"secret": "claims are not stored"}}
	reqCtx := wink.WithPrincipal(ctx, caller)
	if _, err := (&durable.Engine{Store: st}).Start(reqCtx, "r1", []loop.Message{loop.UserMessage("Close ticket 7.")}, durable.StartOptions{}); err != nil {
		t.Fatal(err)
	}

	// Worker A: the model call, then A stops before the call is dispatched.
	actx, stopA := context.WithCancel(ctx)
	a := &durable.Engine{Store: st, Agent: agent, Worker: "A", Observe: func(ev durable.Event) {
		if ev.Kind == durable.EventModelDone {
			stopA()
		}
	}}
	if ran, err := a.RunOne(actx); !ran || err != nil {
		t.Fatalf("worker A: %v %v", ran, err)
	}
	if s, err := a.Status(ctx, "r1"); err != nil || s.State != durable.Running || s.Steps != 1 {
		t.Fatalf("after worker A: %+v %v", s, err)
	}

	// Worker B, in a fresh context, takes it over.
	before := scopetest.Closed.Load()
	b := &durable.Engine{Store: st, Agent: agent, Worker: "B"}
	if ran, err := b.RunOne(context.Background()); !ran || err != nil {
		t.Fatalf("worker B: %v %v", ran, err)
	}
	s, err := b.Status(ctx, "r1")
	if err != nil || s.State != durable.Done || s.Worker != "B" {
		t.Fatalf("after worker B: %s by %s, %v (%s)", s.State, s.Worker, err, s.Err)
	}
	out := s.Messages[2].Result
	if out.Success || !strings.Contains(out.Output, `lacks the scope "tickets:write"`) {
		t.Fatalf("close_ticket on worker B, for a principal without tickets:write: %+v", out)
	}
	if n := scopetest.Closed.Load() - before; n != 0 {
		t.Fatalf("close_ticket's handler ran %d times", n)
	}
	for i, names := range m.Offered {
		if strings.Join(names, ",") != "read_ticket" {
			t.Errorf("model request %d offered %v, want only read_ticket", i+1, names)
		}
	}
	if len(m.Offered) != 2 || len(told) != 2 {
		t.Fatalf("%d model requests, %d wirings; want 2 and 2", len(m.Offered), len(told))
	}
	p := s.Principal
	if p == nil || p.Subject != "alice" || p.Issuer != caller.Issuer || p.ClientID != "app" || strings.Join(p.Scopes, " ") != "tickets:read" ||
		!p.Expires.Equal(caller.Expires) || p.Claims != nil {
		t.Fatalf("stored principal %+v", p)
	}
}
