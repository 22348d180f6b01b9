package durable_test

import (
	"context"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// geminiTurns answers like Gemini: the first call of every turn is "gemini-0". Turn 1 and turn 2 both
// call transfer, the second time taking more.
type geminiTurns struct{}

func (geminiTurns) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	turn := 1
	for _, m := range req.Messages {
		if m.Role == loop.RoleAssistant {
			turn++
		}
	}
	switch turn {
	case 1:
		return loop.Response{ToolCalls: []wink.Call{{ID: "gemini-0", Name: "transfer", Arguments: []byte(`{"from":"alice","cents":1}`)}}}, nil
	case 2:
		return loop.Response{ToolCalls: []wink.Call{{ID: "gemini-0", Name: "transfer", Arguments: []byte(`{"from":"alice","cents":9000}`)}}}, nil
	}
	return loop.Response{Text: "done"}, nil
}

// TestDurableApprovalIsBoundToTheStep: in a durable run, approving turn 1's gemini-0 lets that call run
// (on the worker that takes the run after the approval) and nothing else: turn 2's gemini-0 is held
// with a hold id of its own and does not run until it is approved in turn; the approval of turn 1
// recorded again (a replayed decision) changes nothing.
func TestDurableApprovalIsBoundToTheStep(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sst, _ := session.NewMemoryStore(durabletest.Slices()...)
	store := durable.NewMemoryStore()
	eng := &durable.Engine{Store: store, Agent: durabletest.Agent(sst, ledger.NewMemory(), geminiTurns{}), HeldPoll: time.Hour}
	if _, err := eng.Start(ctx, "r", []loop.Message{loop.UserMessage("go")}, durable.StartOptions{Session: "s"}); err != nil {
		t.Fatal(err)
	}
	held := func(turn int) *wink.HeldError {
		t.Helper()
		if ran, err := eng.RunOne(ctx); !ran || err != nil {
			t.Fatal(ran, err)
		}
		st, err := (&durable.Engine{Store: store}).Status(ctx, "r")
		if err != nil || st.State != durable.Held || len(st.Held) != 1 {
			t.Fatalf("want turn %d's call held: %v %+v", turn, err, st)
		}
		h := st.Held[0]
		if h.Call.ID != "gemini-0" || h.Binding.Hold != durable.HoldID("r", turn, 0) || h.Binding.Session != "s" || h.Binding.Run != "r" {
			t.Fatalf("turn %d held: %+v", turn, h)
		}
		return h
	}
	first := held(1)
	if err := durabletest.Approve(ctx, sst, "s", first); err != nil {
		t.Fatal(err)
	}
	_ = eng.Wake(ctx, "r")
	second := held(2) // turn 1's call ran; turn 2's gemini-0 is held, not run on turn 1's approval
	if second.Binding.Hold == first.Binding.Hold || second.Binding.Digest == first.Binding.Digest {
		t.Fatalf("the two calls share a binding: %+v %+v", first.Binding, second.Binding)
	}
	if err := durabletest.Approve(ctx, sst, "s", first); err != nil { // turn 1's decision again
		t.Fatal(err)
	}
	_ = eng.Wake(ctx, "r")
	held(2)
	if err := durabletest.Approve(ctx, sst, "s", second); err != nil {
		t.Fatal(err)
	}
	_ = eng.Wake(ctx, "r")
	if ran, err := eng.RunOne(ctx); !ran || err != nil {
		t.Fatal(ran, err)
	}
	st, _ := eng.Status(ctx, "r")
	if st.State != durable.Done || st.Text != "done" {
		t.Fatalf("after both approvals: %s %q %s", st.State, st.Text, st.Err)
	}
	var ran []string
	for _, m := range st.Messages {
		if m.Role == loop.RoleTool && m.Result.Success {
			ran = append(ran, m.Result.Output)
		}
	}
	if len(ran) != 2 {
		t.Fatalf("transfers run: %q", ran)
	}
}
