package wink_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// TestElicitOutsideMCPHoldsTheCall: without a client, Elicit holds the call (Dispatch returns a
// *HeldError carrying the form); AnswerElicitation records the user's answer; dispatching the same call
// again (the held call, which carries its hold id) runs the handler, whose Elicit now returns the
// answers in order (a decline, then an accept decoded strictly, defaults applied).
func TestElicitOutsideMCPHoldsTheCall(t *testing.T) {
	ctx := context.Background()
	s := session.New()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools()), Session: s}
	call := wink.Call{ID: "c1", Name: "sign_up", Arguments: []byte(`{}`)}

	_, err := d.Dispatch(ctx, call)
	held, ok := errors.AsType[*wink.HeldError](err)
	if !ok || held.Elicitation == nil || held.Call.ID != "c1" || string(held.Call.Arguments) != "{}" || held.Policy != "elicitation" ||
		held.Elicitation.Message != "Please sign up." || held.Elicitation.Seq != 0 || string(held.Elicitation.Schema) != string(clienttest.WinkFormSignUp.Schema) {
		t.Fatalf("first dispatch: %v %+v", err, held)
	}
	if p := wink.PendingElicitations(s); len(p) != 1 || p[0].Call.ID != "c1" || p[0].Call.Name != "sign_up" || p[0].Elicitation.Seq != 0 ||
		p[0].Elicitation.Message != "Please sign up." || string(p[0].Elicitation.Schema) != string(clienttest.WinkFormSignUp.Schema) {
		t.Fatalf("pending: %+v", p)
	}
	if err := wink.AnswerElicitation(ctx, s, held, wink.ElicitDecline, nil); err != nil {
		t.Fatal(err)
	}
	call = held.Call
	_, err = d.Dispatch(ctx, call)
	held, ok = errors.AsType[*wink.HeldError](err)
	if !ok || held.Elicitation.Seq != 1 || held.Elicitation.Message != "Are you sure? Please sign up." {
		t.Fatalf("second dispatch: %v", err)
	}
	if err := wink.AnswerElicitation(ctx, s, held, wink.ElicitAccept, []byte(`{"name":"Bo","age":40,"topics":["updates"]}`)); err != nil {
		t.Fatal(err)
	}
	out, err := d.Dispatch(ctx, call)
	if err != nil || !out.Success || !strings.Contains(out.Output, `"summary":"Bo, 40, free, [updates], newsletter false"`) {
		t.Fatalf("third dispatch: %v %+v", err, out)
	}

	if p := wink.PendingElicitations(s); len(p) != 0 {
		t.Errorf("pending after the answers: %+v", p)
	}
}

// TestElicitAnswerIsDecodedStrictly: an answer outside the form (a value not in the enum, a wrong type, an
// unknown key, a missing required field) fails the call with every problem named; without a client or a
// session Elicit is not available.
func TestElicitAnswerIsDecodedStrictly(t *testing.T) {
	ctx := context.Background()
	s := session.New()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools()), Session: s}
	call := wink.Call{ID: "c2", Name: "sign_up", Arguments: []byte(`{}`)}
	_, err := d.Dispatch(ctx, call)
	held, _ := errors.AsType[*wink.HeldError](err)
	if held == nil {
		t.Fatal(err)
	}
	if err := wink.AnswerElicitation(ctx, s, held, wink.ElicitAccept, []byte(`{"plan":"gold","age":"old","colour":"red"}`)); err != nil {
		t.Fatal(err)
	}
	out, err := d.Dispatch(ctx, held.Call)
	if err != nil || out.Success {
		t.Fatalf("got %v %+v", err, out)
	}
	for _, want := range []string{`the answer to form SignUp does not fit it`, `age: expected integer, got string "old"`, `plan:`, `"gold"`, `colour`, `name: missing required field`} {
		if !strings.Contains(out.Output, want) {
			t.Errorf("output %q lacks %q", out.Output, want)
		}
	}

	if _, err := wink.DecodeForm(clienttest.WinkFormSignUp, []byte(`{"name":"A","topics":["news","spam"]}`)); err == nil || !strings.Contains(err.Error(), "topics[1]") {
		t.Errorf("multi-select outside the enum: %v", err)
	}
	v, err := wink.DecodeForm(clienttest.WinkFormSignUp, []byte(`{"name":"A"}`))
	if err != nil || v.Age != 30 || v.Plan != clienttest.Free {
		t.Errorf("defaults: %+v %v", v, err)
	}

	noSession := &wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())}
	out, err = noSession.Dispatch(ctx, call)
	if err != nil || out.Success || !strings.Contains(out.Output, "elicitation is not available: no client is connected to this call and the dispatcher has no session") {
		t.Errorf("no session: %v %q", err, out.Output)
	}
	if err := wink.AnswerElicitation(ctx, s, &wink.HeldError{Call: call}, wink.ElicitAccept, nil); err == nil {
		t.Error("AnswerElicitation took a policy hold")
	}
}

// TestClientCallsWithoutAClient: Log does nothing, Sample says it is not available; a Blocks value and
// WithContent keep results comparable and carry the blocks to the Outcome on success only.
func TestClientCallsWithoutAClient(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())}
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "1", Name: "chatty", Arguments: []byte(`{}`)})
	if err != nil || !out.Success || out.Output != "Logged." {
		t.Fatalf("chatty: %v %+v", err, out)
	}
	out, err = d.Dispatch(context.Background(), wink.Call{ID: "2", Name: "ask_model", Arguments: []byte(`{"prompt":"x"}`)})
	if err != nil || out.Success || out.Output != `Tool "ask_model" failed: sampling is not available: no client is connected to this call` {
		t.Fatalf("ask_model: %v %+v", err, out)
	}
	tc := wink.NewToolContext(nil, "x", "1")
	if _, err := tc.Sample(wink.SampleRequest{}); !errors.Is(err, wink.ErrNotAvailable) {
		t.Errorf("Sample: %v", err)
	}
	out, _ = d.Dispatch(context.Background(), wink.Call{ID: "3", Name: "showcase", Arguments: []byte(`{}`)})
	if got := out.Content.All(); len(got) != 6 || got[1].Kind != wink.KindImage || got[4].IsBinary() != true || got[5].Kind != wink.KindResourceLink {
		t.Fatalf("showcase content: %+v", got)
	}
	out, _ = d.Dispatch(context.Background(), wink.Call{ID: "4", Name: "fails", Arguments: []byte(`{}`)})
	if out.Content.Len() != 0 || out.Success {
		t.Errorf("a failure carried content: %+v", out)
	}
	r := wink.WithContent(wink.Done[int]("x"), wink.Text("a"))
	r2 := wink.WithContent(r, wink.Text("b"))
	if r.Content.Len() != 1 || r2.Content.Len() != 2 || r == r2 {
		t.Errorf("WithContent: %d %d", r.Content.Len(), r2.Content.Len())
	}
	if s := wink.ContentText("Chat Completions", wink.Audio("audio/wav", clienttest.WAV)); s != "[audio/wav, 44 bytes: not shown, Chat Completions takes no audio in tool results]" {
		t.Errorf("ContentText: %q", s)
	}
}
