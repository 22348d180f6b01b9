package durable_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// everyBlock is an outcome carrying one content block of every kind.
func everyBlock() wink.Outcome {
	return wink.Outcome{CallID: "c1", Name: "snapshot", Success: true, Message: "m", Output: "m",
		Content: wink.BlocksOf(durabletest.SnapshotBlocks("alice")...)}
}

func sameOutcome(t *testing.T, what string, got, want wink.Outcome) {
	t.Helper()
	gc, wc := got.Content, want.Content
	got.Content, want.Content = wink.Blocks{}, wink.Blocks{}
	if got != want || !gc.Equal(wc) {
		t.Errorf("%s: got %+v %+v, want %+v %+v", what, got, gc.All(), want, wc.All())
	}
}

// TestCheckpointCodecKeepsEveryContentBlock: a tool outcome's content blocks of every kind (text, image,
// audio, embedded text resource, embedded blob, empty blob, resource link with every field) come back
// from each checkpoint payload that carries an outcome: the tool step, the run's input messages and the
// session's commit (through a session store and a fresh session). A version-1 payload (before blocks
// were kept) still decodes.
func TestCheckpointCodecKeepsEveryContentBlock(t *testing.T) {
	want := everyBlock()
	got, err := durable.DecodeOutcome(durable.EncodeOutcome(want))
	if err != nil {
		t.Fatal(err)
	}
	sameOutcome(t, "tool step", got, want)
	if !got.Content.All()[5].IsBinary() || got.Content.All()[3].IsBinary() {
		t.Error("an empty blob must stay binary and a text resource textual")
	}
	ms, err := durable.DecodeMessages(durable.EncodeMessages([]loop.Message{loop.UserMessage("hi"), {Role: loop.RoleTool, Result: want}}))
	if err != nil || len(ms) != 2 {
		t.Fatal(ms, err)
	}
	sameOutcome(t, "input messages", ms[1].Result, want)

	ctx := context.Background()
	sst, _ := session.NewMemoryStore(durabletest.Slices()...)
	d, err := durabletest.Dispatcher(sst, nil, "s")
	if err != nil {
		t.Fatal(err)
	}
	call := wink.Call{ID: "c1", Name: "snapshot", Arguments: []byte(`{"account":"alice"}`)}
	first, err := durable.DispatchStep(ctx, d, durable.ToolStep{Run: "r", Turn: 1}, call)
	if err != nil || first.Content.Len() != 7 {
		t.Fatal(first, err)
	}
	d2, _ := durabletest.Dispatcher(sst, nil, "s") // another worker: the session is loaded from the store
	again, err := durable.DispatchStep(ctx, d2, durable.ToolStep{Run: "r", Turn: 1}, call)
	if err != nil {
		t.Fatal(err)
	}
	sameOutcome(t, "session commit", again, first)

	// Version 1: call id "c", name "t", success, message "", output "ok", not replayed; no blocks.
	old, err := durable.DecodeOutcome([]byte{1, 1, 'c', 1, 't', 1, 0, 2, 'o', 'k', 0})
	if err != nil || old.Output != "ok" || old.Content.Len() != 0 {
		t.Fatalf("version 1: %+v %v", old, err)
	}
	b := durable.EncodeOutcome(want)
	for i := range b {
		if _, err := durable.DecodeOutcome(b[:i]); err == nil {
			t.Fatalf("a payload cut at %d of %d decoded", i, len(b))
		}
	}
}

// TestTakeoverShowsTheModelEveryContentBlock: the model's request after a takeover or a resume is
// byte for byte the request of a run that was never interrupted (and of the plain loop), content blocks
// included, as the Anthropic and OpenAI Responses providers would send it. The first call returns a
// block of every kind; the second is held for approval. The worker holding the run is killed after the
// first call committed (its outcome then comes from the session's commit), after its checkpoint, or
// once the run is held; the run is resumed after the approval.
func TestTakeoverShowsTheModelEveryContentBlock(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	want, err := durabletest.UninterruptedBody(ctx)
	if err != nil {
		t.Fatal(err)
	}
	png := base64.StdEncoding.EncodeToString(durabletest.SnapshotBlocks("alice")[1].Data)
	if !bytes.Contains(want, []byte(png)) {
		t.Fatalf("the reference request does not show the image:\n%s", want)
	}

	for _, point := range []string{"none", "after-commit", "after-checkpoint", "while-held"} {
		t.Run(point, func(t *testing.T) {
			model, err := durabletest.NewCaptureModel()
			if err != nil {
				t.Fatal(err)
			}
			sst, _ := session.NewMemoryStore(durabletest.Slices()...)
			store := durable.NewMemoryStore()
			var once atomic.Bool
			crashed := make(chan string, 3)
			var wg sync.WaitGroup
			wctx, stop := context.WithCancel(ctx)
			defer func() { stop(); wg.Wait() }()
			for i := range 2 {
				k := &killable{Store: store}
				eng := &durable.Engine{Store: k, Agent: durabletest.Agent(sst, nil, model), Worker: "w" + string(rune('A'+i)),
					Lease: 300 * time.Millisecond, Poll: 10 * time.Millisecond, HeldPoll: 50 * time.Millisecond, RetryDelay: 10 * time.Millisecond}
				eng.Observe = func(ev durable.Event) {
					hit := false
					switch point {
					case "after-commit":
						hit = ev.Kind == durable.EventToolDispatched && ev.Turn == 1 && ev.Index == 0
					case "after-checkpoint":
						hit = ev.Kind == durable.EventToolDone && ev.Turn == 1 && ev.Index == 0
					case "while-held":
						hit = ev.Kind == durable.EventReleased && ev.State == durable.Held
					}
					if hit && once.CompareAndSwap(false, true) {
						k.dead.Store(true)
						crashed <- eng.WorkerName()
						runtime.Goexit()
					}
				}
				wg.Go(func() { _ = eng.Work(wctx) })
			}
			client := &durable.Engine{Store: store}
			if _, err := client.Start(ctx, "r", durabletest.CaptureInput, durable.StartOptions{Session: "s"}); err != nil {
				t.Fatal(err)
			}
			st, err := client.WaitFor(ctx, "r", func(s durable.Status) bool { return s.State == durable.Held || s.State.Terminal() })
			if err != nil || st.State != durable.Held {
				t.Fatalf("want the run held: %v %+v", err, st)
			}
			if point == "while-held" {
				select {
				case <-crashed:
					crashed <- "again"
				case <-time.After(10 * time.Second):
					t.Fatal("no worker crashed while held")
				}
			}
			if err := durabletest.Approve(ctx, sst, "s", st.Held[0]); err != nil {
				t.Fatal(err)
			}
			if err := client.Wake(ctx, "r"); err != nil {
				t.Fatal(err)
			}
			if st, err = client.Wait(ctx, "r"); err != nil || st.Stop != loop.StopDone {
				t.Fatalf("%v %+v", err, st)
			}
			if point != "none" && len(crashed) == 0 {
				t.Fatal("no worker crashed at " + point)
			}
			if got := model.Body(2); !bytes.Equal(got, want) {
				t.Errorf("the request after the %s takeover differs from the uninterrupted one:\n got %s\nwant %s", point, got, want)
			}
			if model.Sent(1) != 1 {
				t.Errorf("turn 1 sent %d times", model.Sent(1))
			}
			if tr := st.Messages[2].Result; tr.CallID != "c1_0" || tr.Content.Len() != 7 {
				t.Errorf("the status transcript lost the blocks: %+v", st.Messages)
			}
		})
	}
}
