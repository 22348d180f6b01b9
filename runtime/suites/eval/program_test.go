package eval_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/suites/eval/internal/programtest"
	"github.com/winkgen/wink/runtime/wink"
)

// denyNotes denies note calls whose text starts with "secret".
type denyNotes struct{}

func (denyNotes) Name() string { return "deny_notes" }
func (denyNotes) Check(tc *wink.ToolContext, tool *wink.Tool, params any) wink.Decision {
	if p, ok := params.(programtest.NoteParams); ok && strings.HasPrefix(p.Text, "secret") {
		return wink.Deny("Notes may not hold secrets.", "Leave the secret out.")
	}
	return wink.Allow()
}
func (denyNotes) OnResult(*wink.ToolContext, *wink.Tool, any, *wink.Outcome) {}

// programEnv is a dispatcher over the test tools and the program tool, with a session, a ledger, the
// approval policy on pay and the denyNotes policy, and the events it recorded.
type programEnv struct {
	d      *wink.Dispatcher
	events []*wink.ToolInvoked
}

func newProgramEnv(t *testing.T) *programEnv {
	t.Helper()
	e := &programEnv{}
	tools := append(programtest.WinkTools(), eval.Program)
	e.d = &wink.Dispatcher{
		Registry: wink.MustRegistry(tools),
		Session:  session.New(session.WithID("s1")),
		Ledger:   ledger.NewMemory(),
		Policies: []wink.Policy{policy.NewRequireApproval("pay"), denyNotes{}},
		Events:   func(ev *wink.ToolInvoked) { e.events = append(e.events, ev) },
	}
	return e
}

func (e *programEnv) dispatch(t *testing.T, name, args string) (wink.Outcome, error) {
	t.Helper()
	return e.d.Dispatch(context.Background(), wink.Call{ID: "c-" + name, Name: name, Arguments: []byte(args)})
}

func (e *programEnv) program(t *testing.T, source string) (wink.Outcome, error) {
	t.Helper()
	return e.d.Dispatch(context.Background(), wink.Call{ID: "p1", Name: "run_program", Arguments: []byte(src(source))})
}

func entries(s *session.Session) []string {
	var out []string
	for e := range session.Values(s, programtest.Entries) {
		out = append(out, e.Text)
	}
	return out
}

func TestProgramCallsToolsAndReturnsTheirValues(t *testing.T) {
	e := newProgramEnv(t)
	// Tracing's hook (otelwink plugs in here): each inner call starts in the program call's context.
	type spanKey struct{}
	var parents []string
	e.d.Hooks.Start = func(ctx context.Context, tool *wink.Tool, call wink.Call) (context.Context, func(*wink.ToolInvoked)) {
		parent, _ := ctx.Value(spanKey{}).(string)
		parents = append(parents, call.Name+"<"+parent)
		return context.WithValue(ctx, spanKey{}, call.Name), nil
	}
	before := programtest.Runs.Lookup.Load()
	out, err := e.program(t, "total = 0\nfor i in range(12):\n    r = lookup(id=i, field='price')\n    total += r['price']\nresult = {'total': total, 'first': lookup(id=0)['name']}")
	if err != nil || !out.Success {
		t.Fatalf("program: %v %q", err, out.Output)
	}
	want := 0
	for i := 0; i < 12; i++ {
		want += 100 + 7*i
	}
	if !strings.Contains(out.Output, `result = {"total": `+strconv.Itoa(want)+`, "first": "item-0"}`) || !strings.Contains(out.Message, "13 tool calls") {
		t.Fatalf("output %q", out.Output)
	}
	if n := programtest.Runs.Lookup.Load() - before; n != 13 {
		t.Errorf("lookup ran %d times, want 13", n)
	}
	// Every inner call is an event like a direct call's, then the program's own.
	var inner int
	for _, ev := range e.events {
		if ev.Name == "lookup" {
			inner++
			if !ev.Success || ev.Params == nil || !strings.HasPrefix(ev.CallID, "p1/") {
				t.Errorf("inner event %+v", ev)
			}
		}
	}
	if len(parents) != 14 || parents[0] != "run_program<" || parents[1] != "lookup<run_program" || parents[13] != "lookup<run_program" {
		t.Errorf("trace parents %q", parents)
	}
	if inner != 13 || e.events[len(e.events)-1].Name != "run_program" {
		t.Errorf("%d inner events, last %q", inner, e.events[len(e.events)-1].Name)
	}
}

func TestProgramArgumentErrorsAreTheDirectCallsText(t *testing.T) {
	for _, args := range []string{`{"id":"seven"}`, `{"id":120,"field":"color"}`, `{"idd":1}`} {
		e := newProgramEnv(t)
		direct, err := e.dispatch(t, "lookup", args)
		if err != nil || direct.Success {
			t.Fatalf("direct %s: %v %+v", args, err, direct)
		}
		// The same arguments written as keyword arguments (JSON objects are Starlark dict literals).
		out, err := e.program(t, "r = attempt(lookup, **"+args+")\nprint(r.error)\nlookup(**"+args+")")
		if err != nil || out.Success {
			t.Fatalf("program %s: %v %+v", args, err, out)
		}
		if !strings.Contains(out.Output, direct.Output+"\n") {
			t.Errorf("attempt's error for %s is not the direct call's text %q:\n%s", args, direct.Output, out.Output)
		}
		if !strings.Contains(out.Output, "tool lookup failed: "+direct.Output) {
			t.Errorf("the stopped program's error for %s does not carry the direct call's text:\n%s", args, out.Output)
		}
	}
}

func TestProgramDenialIsTheDirectCallsDenial(t *testing.T) {
	e := newProgramEnv(t)
	direct, err := e.dispatch(t, "note", `{"text":"secret code"}`)
	if err != nil || direct.Success {
		t.Fatalf("direct: %v %+v", err, direct)
	}
	directErr := e.events[len(e.events)-1].Err
	noteChecks := func() (n int) {
		for pc := range session.Values(e.d.Session, wink.PolicyLog) {
			if pc.Tool == "note" {
				n++
			}
		}
		return n
	}
	directLog := noteChecks()
	out, err := e.program(t, "r = attempt(note, text='secret code')\nprint(r.ok, r.error)")
	if err != nil || !out.Success {
		t.Fatalf("program: %v %+v", err, out)
	}
	if !strings.Contains(out.Output, "False "+direct.Output+"\n") {
		t.Errorf("program saw %q, direct %q", out.Output, direct.Output)
	}
	var innerErr error
	for _, ev := range e.events {
		if ev.Name == "note" && strings.HasPrefix(ev.CallID, "p1/") {
			innerErr = ev.Err
		}
	}
	var d1, d2 *wink.Denial
	if !errors.As(directErr, &d1) || !errors.As(innerErr, &d2) || d1.Reason != d2.Reason || d1.Policy != d2.Policy {
		t.Errorf("denials differ: direct %v, inner %v", directErr, innerErr)
	}
	// Each call logged the same policy decisions (two policies).
	if n := noteChecks() - directLog; n != directLog {
		t.Errorf("the inner call logged %d policy decisions, the direct call %d", n, directLog)
	}
	if got := entries(e.d.Session); len(got) != 0 {
		t.Errorf("entries %q", got)
	}
}

func TestProgramHeldCallHoldsTheProgramAndResumesIt(t *testing.T) {
	e := newProgramEnv(t)
	// A direct call is held, with this question.
	_, derr := e.dispatch(t, "pay", `{"cents":500}`)
	var dheld *wink.HeldError
	if !errors.As(derr, &dheld) {
		t.Fatalf("direct pay: %v", derr)
	}
	lookups, pays := programtest.Runs.Lookup.Load(), programtest.Runs.Pay.Load()
	source := "a = lookup(id=1)['price']\nb = lookup(id=2)['price']\nnote(text='before')\np = pay(cents=a+b)\nresult = p['cents']"
	_, err := e.program(t, source)
	var held *wink.HeldError
	if !errors.As(err, &held) {
		t.Fatalf("program: %v, want a *wink.HeldError", err)
	}
	if held.Call.Name != "run_program" || held.Call.ID != "p1" || held.Binding.Tool != "pay" || held.Call.Hold != held.Binding.Hold ||
		held.Policy != dheld.Policy || held.Reason != dheld.Reason || held.Arguments != `{"cents":221}` {
		t.Fatalf("held %+v (direct %+v)", held, dheld)
	}
	if got := programtest.Runs.Pay.Load() - pays; got != 0 {
		t.Fatalf("pay ran %d times before the approval", got)
	}
	if got := entries(e.d.Session); len(got) != 1 || got[0] != "before" {
		t.Fatalf("entries before the approval %q", got)
	}
	// Dispatched again before a decision: held again, nothing ran again.
	again, err := e.d.Dispatch(context.Background(), held.Call)
	var held2 *wink.HeldError
	if !errors.As(err, &held2) || held2.Binding != held.Binding || again.Success {
		t.Fatalf("undecided: %v", err)
	}
	if err := policy.Approve(context.Background(), e.d.Session, held); err != nil {
		t.Fatal(err)
	}
	out, err := e.d.Dispatch(context.Background(), held.Call)
	if err != nil || !out.Success || !strings.Contains(out.Output, "result = 221") {
		t.Fatalf("resumed: %v %+v", err, out)
	}
	if programtest.Runs.Lookup.Load()-lookups != 2 || programtest.Runs.Pay.Load()-pays != 1 {
		t.Errorf("lookup ran %d times, pay %d: the completed calls must be answered from their checkpoints",
			programtest.Runs.Lookup.Load()-lookups, programtest.Runs.Pay.Load()-pays)
	}
	if got := entries(e.d.Session); strings.Join(got, ",") != "before,paid 221" {
		t.Errorf("entries %q", got)
	}
	if !strings.Contains(out.Message, "4 tool calls") {
		t.Errorf("message %q", out.Message)
	}
}

func TestProgramFailedCallIsRolledBackAsADirectOne(t *testing.T) {
	e := newProgramEnv(t)
	direct, err := e.dispatch(t, "broken", `{"text":"x"}`)
	if err != nil || direct.Success || len(entries(e.d.Session)) != 0 {
		t.Fatalf("direct: %v %+v %q", err, direct, entries(e.d.Session))
	}
	out, err := e.program(t, "note(text='kept')\nr = attempt(broken, text='x')\nprint(r.ok, r.error)\nbroken(text='y')\nnote(text='never')")
	if err != nil || out.Success {
		t.Fatalf("program: %v %+v", err, out)
	}
	if !strings.Contains(out.Output, "False "+direct.Output+"\n") || !strings.Contains(out.Output, "tool broken failed: "+direct.Output) ||
		!strings.Contains(out.Output, "The tool calls the program made before it stopped stand") {
		t.Errorf("output %q", out.Output)
	}
	if got := entries(e.d.Session); strings.Join(got, ",") != "kept" {
		t.Errorf("entries %q: the failed calls must be rolled back, the completed one kept", got)
	}
}

func TestProgramIdempotentReplayIsTheDirectCallsReplay(t *testing.T) {
	e := newProgramEnv(t)
	runs := programtest.Runs.Note.Load()
	first, err := e.dispatch(t, "note", `{"text":"once"}`)
	if err != nil || !first.Success || first.Replayed {
		t.Fatalf("first: %v %+v", err, first)
	}
	direct, err := e.dispatch(t, "note", `{"text":"once"}`)
	if err != nil || !direct.Replayed {
		t.Fatalf("direct replay: %v %+v", err, direct)
	}
	out, err := e.program(t, "result = note(text='once')")
	if err != nil || !out.Success || !strings.Contains(out.Output, `result = {"count": 1}`) {
		t.Fatalf("program: %v %+v", err, out)
	}
	if n := programtest.Runs.Note.Load() - runs; n != 1 {
		t.Errorf("note ran %d times, want once", n)
	}
	var keys []string
	for _, ev := range e.events {
		if ev.Name == "note" {
			keys = append(keys, ev.IdempotencyKey+" "+strconv.FormatBool(ev.Replayed))
		}
	}
	if len(keys) != 3 || keys[1] != keys[2] || !strings.HasSuffix(keys[2], " true") {
		t.Errorf("ledger keys and replays %q: the inner call must replay under the direct call's key", keys)
	}
}

func TestProgramCallersAreEnforced(t *testing.T) {
	e := newProgramEnv(t)
	// wipe is destructive: not callable from programs by default, so not a function there.
	out, err := e.program(t, "wipe()")
	if err != nil || out.Success || !strings.Contains(out.Output, "undefined: wipe") {
		t.Errorf("wipe from a program: %v %q", err, out.Output)
	}
	direct, err := e.dispatch(t, "secret", `{}`)
	if err != nil || direct.Success || !strings.Contains(direct.Output, `Tool "secret" can only be called from a program`) {
		t.Errorf("secret called directly: %v %q", err, direct.Output)
	}
	out, err = e.program(t, "result = secret()['name']")
	if err != nil || !out.Success || !strings.Contains(out.Output, `result = "secret"`) {
		t.Errorf("secret from a program: %v %q", err, out.Output)
	}
	// The guide shows the callable tools with their generated signatures, and only them.
	guide := eval.ProgramGuide(eval.CallableTools(e.d.Registry))
	for _, want := range []string{`- lookup(id: int, field: "name"|"price" = "name") -> {id: int, name: str, price: int}`, "- note(text: str)", "- secret()"} {
		if !strings.Contains(guide, want) {
			t.Errorf("guide lacks %q:\n%s", want, guide)
		}
	}
	if strings.Contains(guide, "wipe") || strings.Contains(guide, "run_program(") {
		t.Errorf("guide shows a tool programs may not call:\n%s", guide)
	}
}

func TestProgramCallsAreBounded(t *testing.T) {
	e := newProgramEnv(t)
	out, err := e.d.Dispatch(context.Background(), wink.Call{ID: "p1", Name: "run_program",
		Arguments: []byte(`{"source":"for i in range(10):\n    lookup(id=i)","max_calls":3}`)})
	if err != nil || out.Success || !strings.Contains(out.Output, "more than its 3 tool calls (max_calls)") {
		t.Fatalf("%v %q", err, out.Output)
	}
}
