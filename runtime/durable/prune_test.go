package durable_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// metered is a session store that keeps the size of the last write of a tool call's transaction (the
// one that changes the accounts' entries), per slice.
type metered struct {
	session.Store
	mu   sync.Mutex
	last map[string]int
}

type meteredTx struct {
	session.StoreTx
	m *metered
}

func (m *metered) Begin(ctx context.Context, id string, access session.Access, known session.Known) (session.StoreTx, session.Loaded, error) {
	tx, l, err := m.Store.Begin(ctx, id, access, known)
	if err != nil {
		return tx, l, err
	}
	return meteredTx{tx, m}, l, nil
}

func (t meteredTx) Commit(ctx context.Context, w session.Write) (int64, error) {
	if _, ok := w.State[durabletest.Entries.Name()]; ok {
		sizes := map[string]int{}
		for name, items := range w.State {
			for _, it := range items {
				sizes[name] += len(it)
			}
		}
		for name, items := range w.Logs {
			for _, it := range items {
				sizes[name] += len(it)
			}
		}
		t.m.mu.Lock()
		t.m.last = sizes
		t.m.mu.Unlock()
	}
	return t.StoreTx.Commit(ctx, w)
}

// snapshotModel has every run call snapshot once (a result with a block of every kind, about 450 bytes
// in a commit), then answer.
type snapshotModel struct{}

func (snapshotModel) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	for _, m := range req.Messages {
		if m.Role == loop.RoleTool {
			return loop.Response{Text: "Seen."}, nil
		}
	}
	return loop.Response{ToolCalls: []wink.Call{{ID: "c1_0", Name: "snapshot", Arguments: []byte(`{"account":"alice"}`)}}}, nil
}

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
		sst := &metered{Store: mem}
		store := durable.NewMemoryStore()
		eng := &durable.Engine{Store: store, Agent: func(ctx context.Context, r durable.Run) (loop.Config, error) {
			d, err := durabletest.Dispatcher(sst, nil, r.Session)
			return loop.Config{Provider: snapshotModel{}, Dispatcher: d}, err
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
		sst.mu.Lock()
		sizes := sst.last
		sst.mu.Unlock()
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
		s := session.New(session.WithID("shared"), session.WithStore(mem))
		tx, err := s.Begin(ctx, session.ReadOnly)
		if err != nil {
			t.Fatal(err)
		}
		left := session.Len(s, durable.CommitSlice)
		_ = tx.End(ctx)
		if left != 0 {
			t.Errorf("after %d ended runs the session keeps %d commits", n+1, left)
		}
	}
}
