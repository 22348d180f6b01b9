package durable_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
)

// TestSessionWriteDoesNotGrowWithRunsServed: one session serves N runs one after another (N = 1, 10,
// 100), each making one tool call; the write of the next run's tool call is the same size whatever N,
// the session keeps no commit of an ended run, and a run that has not ended keeps its own. Before, every
// ended run's last commit stayed in the session and every tool call rewrote them all.
func TestSessionWriteDoesNotGrowWithRunsServed(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// commitBytes is what one tool call writes of the durable machinery's own slices: the commits and
	// the approvals (the rest is the tool's own state, which snapshot keeps at one entry).
	commitBytes := func(sizes map[string]int) int {
		return sizes[durable.CommitSlice.Name()] + sizes[policy.ApprovalSlice.Name()]
	}
	var first, firstTotal int
	for _, n := range []int{1, 10, 100} {
		mem, _ := session.NewMemoryStore(durabletest.Slices()...)
		sst := &durabletest.MeteredStore{Store: mem}
		store := durable.NewMemoryStore()
		eng := &durable.Engine{Store: store, Agent: func(ctx context.Context, r durable.Run) (loop.Config, error) {
			d, err := durabletest.Dispatcher(sst, nil, r.Session)
			return loop.Config{Provider: durabletest.SnapshotModel{}, Dispatcher: d}, err
		}}
		for i := range n + 1 {
			id := "run-" + strconv.Itoa(100000+i) // ids of one length: the figures compare
			if _, err := eng.Start(ctx, id, []loop.Message{loop.UserMessage("look")}, durable.StartOptions{Session: "shared"}); err != nil {
				t.Fatal(err)
			}
			if ran, err := eng.RunOne(ctx); !ran || err != nil {
				t.Fatal(ran, err)
			}
			if st, err := eng.Status(ctx, id); err != nil || st.State != durable.Done {
				t.Fatalf("run %d: %v %+v", i, err, st)
			}
		}
		sizes := sst.Last()
		got := commitBytes(sizes)
		total := 0
		for _, b := range sizes {
			total += b
		}
		t.Logf("after %3d runs served: the next run's tool call writes %d bytes, %d of them commits and approvals (%v)", n, total, got, sizes)
		if n == 1 {
			first, firstTotal = got, total
		} else if got != first || total != firstTotal {
			t.Errorf("after %d runs the tool call writes %d bytes (%d of commits), after 1 it wrote %d (%d): it grows with the runs served", n, total, got, firstTotal, first)
		}
		left, err := durabletest.CommitsLeft(ctx, mem, "shared")
		if err != nil {
			t.Fatal(err)
		}
		if left != 0 {
			t.Errorf("after %d ended runs the session keeps %d commits", n+1, left)
		}
	}
}

// failingAfterTools calls snapshot, then fails (a provider error ends the run Failed).
type failingAfterTools struct{}

func (failingAfterTools) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	for _, m := range req.Messages {
		if m.Role == loop.RoleTool {
			return loop.Response{}, errors.New("the provider refuses")
		}
	}
	return durabletest.SnapshotModel{}.Complete(ctx, req)
}

// TestEveryEndForgetsTheRunsCommits: however a run ends after a committed call (Done when the model
// answers, Done at the turn limit, Failed on a provider error), its session keeps no commit of it; a
// run still going (held) keeps its own.
func TestEveryEndForgetsTheRunsCommits(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, c := range []struct {
		name     string
		model    loop.Provider
		maxTurns int
		state    durable.State
		stop     loop.StopReason
	}{
		{"done", durabletest.SnapshotModel{}, 0, durable.Done, loop.StopDone},
		{"max-turns", durabletest.SnapshotModel{}, 1, durable.Done, loop.StopMaxTurns},
		{"failed", failingAfterTools{}, 0, durable.Failed, loop.StopError},
	} {
		t.Run(c.name, func(t *testing.T) {
			sst, _ := session.NewMemoryStore(durabletest.Slices()...)
			eng := &durable.Engine{Store: durable.NewMemoryStore(), Agent: func(ctx context.Context, r durable.Run) (loop.Config, error) {
				d, err := durabletest.Dispatcher(sst, nil, r.Session)
				return loop.Config{Provider: c.model, Dispatcher: d}, err
			}}
			if _, err := eng.Start(ctx, "r", []loop.Message{loop.UserMessage("look")}, durable.StartOptions{Session: "s", MaxTurns: c.maxTurns}); err != nil {
				t.Fatal(err)
			}
			if ran, err := eng.RunOne(ctx); !ran || err != nil {
				t.Fatal(ran, err)
			}
			st, err := eng.Status(ctx, "r")
			if err != nil || st.State != c.state || st.Stop != c.stop || st.Steps < 2 {
				t.Fatalf("%v %+v", err, st)
			}
			if left, err := durabletest.CommitsLeft(ctx, sst, "s"); err != nil || left != 0 {
				t.Errorf("the ended run left %d commits (%v)", left, err)
			}
		})
	}
	// A held run keeps its commit: its held call's siblings may be answered from it after a takeover.
	sst, _ := session.NewMemoryStore(durabletest.Slices()...)
	model, _ := durabletest.NewCaptureModel()
	eng := &durable.Engine{Store: durable.NewMemoryStore(), Agent: durabletest.Agent(sst, nil, model)}
	if _, err := eng.Start(ctx, "r", durabletest.CaptureInput, durable.StartOptions{Session: "s"}); err != nil {
		t.Fatal(err)
	}
	if ran, err := eng.RunOne(ctx); !ran || err != nil {
		t.Fatal(ran, err)
	}
	if st, _ := eng.Status(ctx, "r"); st.State != durable.Held {
		t.Fatalf("want held: %+v", st)
	}
	if left, err := durabletest.CommitsLeft(ctx, sst, "s"); err != nil || left != 1 {
		t.Errorf("the held run keeps %d commits (%v), want its one", left, err)
	}
}
