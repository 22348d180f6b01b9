package durable_test

import (
	"context"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/internal/durabletest"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// A call a provider's program made (wink.Call.Caller) is a program's call to the dispatcher, but its
// step is its own: it commits with the step's checkpoint, another worker dispatching the step again is
// answered from that checkpoint (the handler does not run twice), and its durable idempotency key is
// the step's.
func TestProviderProgramCallIsCommittedAsItsStep(t *testing.T) {
	ctx := context.Background()
	sst, _ := session.NewMemoryStore(durabletest.Slices()...)
	call := wink.Call{ID: "toolu_p", Name: "deposit", Arguments: []byte(`{"account":"alice","cents":5}`),
		Caller: []byte(`{"type":"code_execution_20250825","tool_id":"srvtoolu_1"}`)}
	var programs []string
	for range 2 { // two workers over one store
		d, err := durabletest.Dispatcher(sst, nil, "s")
		if err != nil {
			t.Fatal(err)
		}
		d.Events = func(ev *wink.ToolInvoked) { programs = append(programs, ev.Program) }
		o, err := durable.DispatchStep(ctx, d, durable.ToolStep{Run: "r", Turn: 1}, call)
		if err != nil || !o.Success || !strings.Contains(o.Output, "Balance of alice: 5 cents.") {
			t.Fatalf("%+v %v", o, err)
		}
	}
	d, _ := durabletest.Dispatcher(sst, nil, "s")
	tx, err := d.Session.Begin(ctx, session.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	var entries []durabletest.Entry
	for e := range session.Values(tx.Session(), durabletest.Entries) {
		entries = append(entries, e)
	}
	_ = tx.End(ctx)
	if len(entries) != 1 || strings.Contains(entries[0].Key, "/") {
		t.Errorf("entries %+v: want one deposit under the step's own key", entries)
	}
	if len(programs) == 0 || programs[0] != "srvtoolu_1" {
		t.Errorf("the call's event names programs %q, want srvtoolu_1", programs)
	}
}
