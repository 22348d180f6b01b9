package durable_test

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/internal/shoptools"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// searchModel searches for a deferred tool, calls what it found, then answers; it keeps the tool names
// of each turn's latest request.
type searchModel struct {
	mu    sync.Mutex
	tools map[int][]string // turn -> loaded tools
	defs  map[int][]string // turn -> deferred tools
	srch  map[int]bool
}

func (m *searchModel) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	turn := 1
	for _, msg := range req.Messages {
		if msg.Role == loop.RoleAssistant {
			turn++
		}
	}
	m.mu.Lock()
	m.tools[turn], m.defs[turn], m.srch[turn] = names(req.Tools), names(req.Deferred), req.Search
	m.mu.Unlock()
	switch turn {
	case 1:
		return loop.Response{ToolCalls: []wink.Call{{ID: "s1", Name: toolsearch.Name, Arguments: []byte(`{"query":"refund an order's payment"}`)}}}, nil
	case 2:
		return loop.Response{ToolCalls: []wink.Call{{ID: "r1", Name: "refund_order", Arguments: []byte(`{"order_id":"o-7","amount_cents":500}`)}}}, nil
	}
	return loop.Response{Text: "Refunded."}, nil
}

func names(ts []*wink.Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name()
	}
	return out
}

func newSearchModel() *searchModel {
	return &searchModel{tools: map[int][]string{}, defs: map[int][]string{}, srch: map[int]bool{}}
}

// A durable run takes Config.Search as loop.Run does: the client search is offered and answered, the
// tools it found are loaded into the next request, and they are kept in the search call's checkpoint,
// so that a worker that takes the run over after the search offers the same tools as an uninterrupted
// loop.Run.
func TestDurableRunSearchesAndKeepsFoundToolsAcrossATakeover(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	agent := func(m *searchModel, sst session.Store) durable.Agent {
		return func(ctx context.Context, r durable.Run) (loop.Config, error) {
			d := &wink.Dispatcher{Registry: wink.MustRegistry(shoptools.WinkTools()),
				Session: session.New(session.WithID(r.Session), session.WithStore(sst))}
			return loop.Config{Provider: m, Dispatcher: d, Search: []*toolsearch.Catalog{shoptools.WinkCatalog}}, nil
		}
	}

	// The reference: loop.Run, uninterrupted.
	ref := newSearchModel()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(shoptools.WinkTools())}
	if _, err := loop.Run(ctx, loop.Config{Provider: ref, Dispatcher: d, Search: []*toolsearch.Catalog{shoptools.WinkCatalog}},
		[]loop.Message{loop.UserMessage("refund o-7")}); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ref.tools[2], "refund_order") || slices.Contains(ref.tools[1], "refund_order") {
		t.Fatalf("reference run: turn 1 %v, turn 2 %v", ref.tools[1], ref.tools[2])
	}

	m := newSearchModel()
	sst, _ := session.NewMemoryStore()
	store := durable.NewMemoryStore()
	var once atomic.Bool
	crashed := make(chan string, 2)
	var wg sync.WaitGroup
	wctx, stop := context.WithCancel(ctx)
	defer func() { stop(); wg.Wait() }()
	for i := range 2 {
		k := &killable{Store: store}
		eng := &durable.Engine{Store: k, Agent: agent(m, sst), Worker: "w" + string(rune('A'+i)),
			Lease: 300 * time.Millisecond, Poll: 10 * time.Millisecond, RetryDelay: 10 * time.Millisecond}
		eng.Observe = func(ev durable.Event) {
			// The worker that checkpointed the search dies before asking for turn 2.
			if ev.Kind == durable.EventToolDone && ev.Turn == 1 && once.CompareAndSwap(false, true) {
				k.dead.Store(true)
				crashed <- eng.WorkerName()
				runtime.Goexit()
			}
		}
		wg.Go(func() { _ = eng.Work(wctx) })
	}
	client := &durable.Engine{Store: store}
	if _, err := client.Start(ctx, "r", []loop.Message{loop.UserMessage("refund o-7")}, durable.StartOptions{Session: "s"}); err != nil {
		t.Fatal(err)
	}
	st, err := client.Wait(ctx, "r")
	if err != nil || st.Stop != loop.StopDone {
		t.Fatalf("%v %+v", err, st)
	}
	select {
	case w := <-crashed:
		if st.Worker == w {
			t.Errorf("the run finished on the worker that died (%s)", w)
		}
	default:
		t.Fatal("no worker died after the search")
	}
	for turn := 1; turn <= 3; turn++ {
		if !slices.Equal(m.tools[turn], ref.tools[turn]) || !slices.Equal(m.defs[turn], ref.defs[turn]) || m.srch[turn] != ref.srch[turn] {
			t.Errorf("turn %d offered tools %v, deferred %v, search %v; loop.Run offered %v, %v, %v", turn,
				m.tools[turn], m.defs[turn], m.srch[turn], ref.tools[turn], ref.defs[turn], ref.srch[turn])
		}
	}
	if f := st.Messages[2].Found; len(f) == 0 || f[0] != "refund_order" {
		t.Errorf("the search's message found %v", f)
	}
	if o := st.Messages[4].Result; !o.Success || o.Name != "refund_order" {
		t.Errorf("refund_order: %+v", o)
	}
}
