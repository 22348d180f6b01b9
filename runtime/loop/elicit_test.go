package loop_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// TestElicitationHoldsTheRunUntilTheUserAnswers: outside MCP a handler's wink.Elicit holds the call: the
// run stops with StopHeld; the question is read from the stored session on another worker
// (wink.PendingElicitations) and answered there (wink.AnswerElicitation); a third worker resumes, the
// handler runs again with the answer (a second question holds the run again), and the model reads the
// result.
func TestElicitationHoldsTheRunUntilTheUserAnswers(t *testing.T) {
	ctx := context.Background()
	store, err := session.NewMemoryStore(wink.ElicitationSlice)
	if err != nil {
		t.Fatal(err)
	}
	reg := wink.MustRegistry(clienttest.WinkTools())
	worker := func() *wink.Dispatcher {
		return &wink.Dispatcher{Registry: reg, Session: session.New(session.WithID("conv"), session.WithStore(store))}
	}
	p := &turns{resps: []loop.Response{
		{ToolCalls: []wink.Call{{ID: "c1", Name: "sign_up", Arguments: []byte(`{}`)}}},
		{Text: "You are signed up."},
	}}
	res, err := loop.Run(ctx, loop.Config{Provider: p, Dispatcher: worker()}, []loop.Message{loop.UserMessage("Sign me up.")})
	if !errors.Is(err, loop.ErrHeld) || len(res.Held) != 1 || res.Held[0].Call.ID != "c1" {
		t.Fatalf("run: %v %+v", err, res.Held)
	}
	answer := func(action wink.ElicitAction, content string, wantMsg string) {
		t.Helper()
		s := worker().Session
		tx, err := s.Begin(ctx, session.ReadOnly)
		if err != nil {
			t.Fatal(err)
		}
		pending := wink.PendingElicitations(tx.Session())
		if err := tx.End(ctx); err != nil {
			t.Fatal(err)
		}
		if len(pending) != 1 || pending[0].Call.ID != "c1" || pending[0].Elicitation.Message != wantMsg {
			t.Fatalf("pending: %+v", pending)
		}
		if err := wink.AnswerElicitation(ctx, s, pending[0], action, []byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	answer(wink.ElicitDecline, "", "Please sign up.")
	res, err = loop.Resume(ctx, loop.Config{Provider: p, Dispatcher: worker()}, res.Messages)
	if !errors.Is(err, loop.ErrHeld) || len(p.seen) != 1 {
		t.Fatalf("resume after the decline: %v, %d model requests", err, len(p.seen))
	}
	answer(wink.ElicitAccept, `{"name":"Cy","plan":"pro"}`, "Are you sure? Please sign up.")
	res, err = loop.Resume(ctx, loop.Config{Provider: p, Dispatcher: worker()}, res.Messages)
	if err != nil || res.Stop != loop.StopDone {
		t.Fatalf("resume after the answer: %v %v", err, res.Stop)
	}
	var tool *wink.Outcome
	for i := range res.Messages {
		if res.Messages[i].Role == loop.RoleTool {
			tool = &res.Messages[i].Result
		}
	}
	if tool == nil || !tool.Success || !strings.Contains(tool.Output, `"summary":"Cy, 30, pro, [], newsletter false"`) {
		t.Fatalf("tool message: %+v", tool)
	}
}
