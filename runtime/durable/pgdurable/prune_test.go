package pgdurable_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/durable/pgdurable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session/pgstore"
)

// TestSessionWriteDoesNotGrowWithRunsServedPostgres is durable's TestSessionWriteDoesNotGrowWithRunsServed
// on PostgreSQL (pgstore sessions, pgdurable runs), as a fleet is wired: one session serves N runs (N =
// 1, 10, 100), each making one tool call; the next run's tool call writes as many bytes to the session
// store whatever N, and the stored session keeps no commit of an ended run.
func TestSessionWriteDoesNotGrowWithRunsServedPostgres(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	pool, _ := open(t)
	pgs, err := pgstore.New(ctx, pool, durabletest.Slices()...)
	if err != nil {
		t.Fatal(err)
	}
	store, err := pgdurable.New(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	var first, firstTotal int
	for _, n := range []int{1, 10, 100} {
		sst := &durabletest.MeteredStore{Store: pgs}
		sess := "shared-" + strconv.Itoa(1000+n) // ids of one length: the figures compare
		eng := &durable.Engine{Store: store, Agent: func(ctx context.Context, r durable.Run) (loop.Config, error) {
			d, err := durabletest.Dispatcher(sst, nil, r.Session)
			return loop.Config{Provider: durabletest.SnapshotModel{}, Dispatcher: d}, err
		}}
		for i := range n + 1 {
			id := sess + "-run-" + strconv.Itoa(100000+i)
			if _, err := eng.Start(ctx, id, []loop.Message{loop.UserMessage("look")}, durable.StartOptions{Session: sess}); err != nil {
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
		got := sizes[durable.CommitSlice.Name()] + sizes[policy.ApprovalSlice.Name()]
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
		if left, err := durabletest.CommitsLeft(ctx, pgs, sess); err != nil || left != 0 {
			t.Errorf("after %d ended runs the session keeps %d commits (%v)", n+1, left, err)
		}
	}
}
