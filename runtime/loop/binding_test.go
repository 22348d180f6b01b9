package loop_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/loop/internal/approvaltest"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// bindingWorker is one process over the shared store's session id, holding pay and wipe for approval,
// with what the store holds loaded (as loop.Resume and the durable engines load it before dispatching).
func bindingWorker(store session.Store, id, run string) *wink.Dispatcher {
	opts := []session.Option{session.WithID(id)}
	if store != nil {
		opts = append(opts, session.WithStore(store))
	}
	s := session.New(opts...)
	if tx, err := s.Begin(context.Background(), session.ReadOnly); err == nil {
		_ = tx.End(context.Background())
	}
	return &wink.Dispatcher{Registry: wink.MustRegistry(approvaltest.WinkTools()), Session: s,
		Policies: []wink.Policy{policy.NewRequireApproval("pay", "wipe")}, RunContext: wink.RunContext{RunID: run}}
}

func bcall(id, name, args string) wink.Call {
	return wink.Call{ID: id, Name: name, Arguments: []byte(args)}
}

// TestApprovalIsBoundToTheHeldCall: Gemini names the first call of every turn gemini-0. A person approves
// a payment held as gemini-0; the payment runs once on Resume. The model's next turn calls the
// destructive wipe, again as gemini-0: it is held, never run, however the approval was recorded (a
// decision is bound to the held call's hold id, tool, canonical arguments, session and run). The same
// payment called anew (same id, tool and arguments) is held too: the approval was for one call.
func TestApprovalIsBoundToTheHeldCall(t *testing.T) {
	ctx := context.Background()
	store, _ := session.NewMemoryStore(policy.ApprovalSlice)
	approvaltest.Runs.Pay.Store(0)
	approvaltest.Runs.Wipe.Store(0)
	p := &turns{resps: []loop.Response{
		{ToolCalls: []wink.Call{bcall("gemini-0", "pay", `{"to":"bob","cents":500}`)}},
		{ToolCalls: []wink.Call{bcall("gemini-0", "wipe", `{"path":"/"}`)}},
	}}
	res, err := loop.Run(ctx, loop.Config{Provider: p, Dispatcher: bindingWorker(store, "conv", "")}, []loop.Message{loop.UserMessage("Pay bob.")})
	if !errors.Is(err, loop.ErrHeld) || len(res.Held) != 1 {
		t.Fatalf("run: %v %+v", err, res.Held)
	}
	h := res.Held[0]
	if h.Binding.Hold == "" || h.Binding.Hold == "gemini-0" || h.Call.Hold != h.Binding.Hold || h.Binding.Tool != "pay" || h.Binding.Session != "conv" ||
		!strings.HasPrefix(h.Binding.Digest, "sha256:") {
		t.Fatalf("binding: %+v", h)
	}
	if got := res.Messages[1].ToolCalls[0].Hold; got != h.Binding.Hold {
		t.Fatalf("the held call in the messages carries hold %q, want %q", got, h.Binding.Hold)
	}
	if p.resps[0].ToolCalls[0].Hold != "" {
		t.Fatal("the provider's response was modified")
	}
	if err := policy.Approve(ctx, bindingWorker(store, "conv", "").Session, h); err != nil {
		t.Fatal(err)
	}
	res, err = loop.Resume(ctx, loop.Config{Provider: p, Dispatcher: bindingWorker(store, "conv", "")}, res.Messages)
	if !errors.Is(err, loop.ErrHeld) || len(res.Held) != 1 || res.Held[0].Call.Name != "wipe" {
		t.Fatalf("the next turn's gemini-0 (wipe) was not held: %v %+v", err, res.Held)
	}
	if approvaltest.Runs.Pay.Load() != 1 || approvaltest.Runs.Wipe.Load() != 0 {
		t.Fatalf("pay ran %d times, wipe %d", approvaltest.Runs.Pay.Load(), approvaltest.Runs.Wipe.Load())
	}
	if res.Held[0].Binding.Hold == h.Binding.Hold {
		t.Fatal("the wipe got the payment's hold id")
	}
	// Dispatching wipe with the payment's hold id (a forged or confused caller) still holds it.
	forged := bcall("gemini-0", "wipe", `{"path":"/"}`)
	forged.Hold = h.Binding.Hold
	if _, err := bindingWorker(store, "conv", "").Dispatch(ctx, forged); !isHeld(err) || approvaltest.Runs.Wipe.Load() != 0 {
		t.Fatalf("wipe under the payment's hold id: %v (wipe ran %d times)", err, approvaltest.Runs.Wipe.Load())
	}
	// The same payment again, as a new call: held.
	if _, err := bindingWorker(store, "conv", "").Dispatch(ctx, bcall("gemini-0", "pay", `{"to":"bob","cents":500}`)); !isHeld(err) {
		t.Fatalf("a new call with the approved call's id, tool and arguments: %v", err)
	}
	// The approved call with other arguments under its hold id: held.
	other := bcall("gemini-0", "pay", `{"to":"mallory","cents":500}`)
	other.Hold = h.Binding.Hold
	if _, err := bindingWorker(store, "conv", "").Dispatch(ctx, other); !isHeld(err) {
		t.Fatalf("other arguments under the approved hold id: %v", err)
	}
	// In another session, or another run, the same held call is not approved.
	again := h.Call
	if _, err := bindingWorker(store, "other-conv", "").Dispatch(ctx, again); !isHeld(err) {
		t.Fatalf("the approved call in another session: %v", err)
	}
	if _, err := bindingWorker(store, "conv", "run-2").Dispatch(ctx, again); !isHeld(err) {
		t.Fatalf("the approved call in another run: %v", err)
	}
	if n := approvaltest.Runs.Pay.Load(); n != 1 {
		t.Fatalf("pay ran %d times, want once", n)
	}
	// A decision cannot be recorded in another session than the call's.
	if err := policy.Approve(ctx, bindingWorker(store, "other-conv", "").Session, res.Held[0]); err == nil {
		t.Fatal("approved a call held in conv through session other-conv")
	}
}

func isHeld(err error) bool { _, ok := errors.AsType[*wink.HeldError](err); return ok }

// TestApprovalSurvivesRespellingAndRestart: the binding's digest is of the canonical arguments, so the
// held call's arguments spelled otherwise (members reordered, whitespace, escapes, 5e2) are the same
// call; a decision recorded in the stored session is applied by a new process (a restart) that resumes
// from the kept messages; and what the person is shown is the same for every spelling.
func TestApprovalSurvivesRespellingAndRestart(t *testing.T) {
	ctx := context.Background()
	store, _ := session.NewMemoryStore(policy.ApprovalSlice)
	approvaltest.Runs.Pay.Store(0)
	spellings := []string{
		`{"to":"bob","cents":500,"memo":{"ref":"inv-7","lines":[1,2]}}`,
		"{ \"memo\" : {\"lines\":[1.0,2e0], \"\\u0072ef\":\"inv\\u002d7\"},\n\t\"cents\":5e2, \"to\":\"bob\" }",
	}
	var first *wink.HeldError
	for i, args := range spellings {
		_, err := bindingWorker(store, "conv", "r1").Dispatch(ctx, bcall("c1", "pay", args))
		h, ok := errors.AsType[*wink.HeldError](err)
		if !ok {
			t.Fatalf("%s: %v", args, err)
		}
		if i == 0 {
			first = h
			continue
		}
		if h.Binding.Digest != first.Binding.Digest || h.Arguments != first.Arguments || h.Question() != first.Question() {
			t.Fatalf("spellings differ:\n%+v\n%+v", h, first)
		}
	}
	if !strings.Contains(first.Question(), `{"cents":500,"memo":{"lines":[1,2],"ref":"inv-7"},"to":"bob"}`) {
		t.Fatalf("question: %s", first.Question())
	}
	if err := policy.Approve(ctx, bindingWorker(store, "conv", "r1").Session, first); err != nil {
		t.Fatal(err)
	}
	// A new process: a fresh dispatcher over the store, the held call spelled the second way.
	respelled := bcall("c1", "pay", spellings[1])
	respelled.Hold = first.Binding.Hold
	out, err := bindingWorker(store, "conv", "r1").Dispatch(ctx, respelled)
	if err != nil || !out.Success || approvaltest.Runs.Pay.Load() != 1 {
		t.Fatalf("after the restart: %v %+v (pay ran %d times)", err, out, approvaltest.Runs.Pay.Load())
	}
}

// TestQuestionShowsWhatTheCallDoes: padding the arguments with whitespace or a long string cannot push
// what the call does out of the question: it shows the arguments in canonical form, each string cut
// after wink.MaxShownString bytes and the whole bounded, with what was cut said; text that prints
// nothing or reorders the line is escaped.
func TestQuestionShowsWhatTheCallDoes(t *testing.T) {
	ctx := context.Background()
	d := bindingWorker(nil, "conv", "")
	pad := strings.Repeat(" ", 100000)
	for _, args := range []string{
		`{"memo":"` + strings.Repeat("x", 5000) + `","to":"mallory","cents":99999}`,
		`{"memo":{"note":"` + pad + `"},` + pad + `"to":"mallory",` + pad + `"cents":99999}`,
		`{"memo":[` + strings.Repeat(`"aaaaaaaaaa",`, 1000) + `"z"],"to":"mallory","cents":99999}`,
		`{"memo":{` + manyMembers(3000) + `},"to":"mallory","cents":99999}`,
		`{"memo":"\u202e` + "evil" + `\u200b","to":"mallory","cents":99999}`,
	} {
		_, err := d.Dispatch(ctx, bcall("c1", "pay", args))
		h, ok := errors.AsType[*wink.HeldError](err)
		if !ok {
			t.Fatalf("%.80s: %v", args, err)
		}
		q := h.Question()
		if len(h.Arguments) > wink.MaxShownArguments+64 {
			t.Errorf("%.80s: %d bytes shown", args, len(h.Arguments))
		}
		if !strings.Contains(q, `"cents":99999`) {
			t.Errorf("%.80s: the amount is out of sight: %.300s", args, q)
		}
		if strings.Contains(args, "5000") || strings.Contains(args, "xxxx") {
			if !strings.Contains(q, `"to":"mallory"`) || !strings.Contains(q, "more bytes]") {
				t.Errorf("the payee is out of sight, or the cut is not said: %.400s", q)
			}
		}
		if !strings.Contains(q, `"to":"mallory"`) {
			t.Errorf("%.80s: the payee is out of sight: %.400s", args, q)
		}
		if strings.Contains(args, "aaaaaaaaaa") && !strings.Contains(q, "more items]") {
			t.Errorf("the cut is not said: %.400s", q[len(q)-200:])
		}
		if strings.ContainsRune(q, '\u202e') || strings.ContainsRune(q, '\u200b') {
			t.Errorf("invisible or reordering characters shown as is: %q", q)
		}
	}
}

// manyMembers returns n distinct object members, "aNNNN":"vvvvvvvv", joined by commas.
func manyMembers(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"a` + strconv.Itoa(10000+i) + `":"vvvvvvvv"`)
	}
	return b.String()
}
