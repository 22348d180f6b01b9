package temporal_test

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/temporal"
	"github.com/winkgen/wink/runtime/internal/shoptools"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
	"go.temporal.io/sdk/testsuite"
)

// searchModel searches for a deferred tool, calls what it found, then answers; it keeps what each
// turn's latest request offered.
type searchModel struct {
	mu              sync.Mutex
	tools, deferred map[int][]string
	search          map[int]bool
}

func newSearchModel() *searchModel {
	return &searchModel{tools: map[int][]string{}, deferred: map[int][]string{}, search: map[int]bool{}}
}

func toolNames(ts []*wink.Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name()
	}
	return out
}

func (m *searchModel) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	turn := 1
	for _, msg := range req.Messages {
		if msg.Role == loop.RoleAssistant {
			turn++
		}
	}
	m.mu.Lock()
	m.tools[turn], m.deferred[turn], m.search[turn] = toolNames(req.Tools), toolNames(req.Deferred), req.Search
	m.mu.Unlock()
	switch turn {
	case 1:
		return loop.Response{ToolCalls: []wink.Call{{ID: "s1", Name: toolsearch.Name, Arguments: []byte(`{"query":"refund an order's payment"}`)}}}, nil
	case 2:
		return loop.Response{ToolCalls: []wink.Call{{ID: "r1", Name: "refund_order", Arguments: []byte(`{"order_id":"o-7","amount_cents":500}`)}}}, nil
	}
	return loop.Response{Text: "Refunded."}, nil
}

// The workflow takes loop.Config.Search as loop.Run does: the Tool activity answers the client search,
// its checkpoint keeps what it found, and the Model activity of the next turn, retried after its first
// attempt died (as on another worker), offers the same tools as an uninterrupted loop.Run.
func TestWorkflowSearchesAndKeepsFoundTools(t *testing.T) {
	cats := []*toolsearch.Catalog{shoptools.WinkCatalog}
	ref := newSearchModel()
	if _, err := loop.Run(context.Background(), loop.Config{Provider: ref, Search: cats,
		Dispatcher: &wink.Dispatcher{Registry: wink.MustRegistry(shoptools.WinkTools())}}, []loop.Message{loop.UserMessage("refund o-7")}); err != nil {
		t.Fatal(err)
	}

	var s testsuite.WorkflowTestSuite
	st := durable.NewMemoryStore()
	sst, _ := session.NewMemoryStore(durable.CommitSlice)
	m := newSearchModel()
	var died atomic.Bool
	acts := &temporal.Activities{Store: st, Worker: "suite",
		Agent: func(ctx context.Context, r durable.Run) (loop.Config, error) {
			return loop.Config{Provider: m, Search: cats, Dispatcher: &wink.Dispatcher{Registry: wink.MustRegistry(shoptools.WinkTools()),
				Session: session.New(session.WithID(r.Session), session.WithStore(sst))}}, nil
		},
		Observe: func(ev durable.Event) {
			if ev.Kind == durable.EventModelStart && ev.Turn == 2 && died.CompareAndSwap(false, true) {
				panic("worker killed before turn 2's request")
			}
		}}
	if _, err := st.Create(context.Background(), durable.Record{ID: "r", Session: "s",
		Input: durable.EncodeMessages([]loop.Message{loop.UserMessage("refund o-7")})}); err != nil {
		t.Fatal(err)
	}
	env := newEnv(&s)
	temporal.Register(env, acts)
	env.ExecuteWorkflow(temporal.WorkflowName, temporal.NewInput("r", temporal.Options{Session: "s", RetryInterval: time.Millisecond}))
	if err := env.GetWorkflowError(); err != nil || !env.IsWorkflowCompleted() {
		t.Fatalf("workflow: completed %v, %v", env.IsWorkflowCompleted(), err)
	}
	if !died.Load() {
		t.Fatal("no attempt died")
	}
	for turn := 1; turn <= 3; turn++ {
		if !slices.Equal(m.tools[turn], ref.tools[turn]) || !slices.Equal(m.deferred[turn], ref.deferred[turn]) || m.search[turn] != ref.search[turn] {
			t.Errorf("turn %d offered %v, deferred %v, search %v; loop.Run offered %v, %v, %v", turn,
				m.tools[turn], m.deferred[turn], m.search[turn], ref.tools[turn], ref.deferred[turn], ref.search[turn])
		}
	}
	rec, steps, err := st.Load(context.Background(), "r")
	if err != nil {
		t.Fatal(err)
	}
	status, err := durable.Rebuild(rec, steps)
	if err != nil {
		t.Fatal(err)
	}
	if f := status.Messages[2].Found; len(f) == 0 || f[0] != "refund_order" {
		t.Errorf("the search's checkpoint found %v", f)
	}
	if o := status.Messages[4].Result; !o.Success || o.Name != "refund_order" {
		t.Errorf("refund_order: %+v", o)
	}
}
