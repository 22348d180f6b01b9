package tools

import (
	"context"
	"testing"

	"github.com/winkgen/wink/runtime/ledger"
	"github.com/winkgen/wink/runtime/wink"
)

// TestIdempotencyKeysComeFromCanonicalValues checks that equal params give one key whatever way the model
// wrote them: the same instant at different offsets (and with a different number of fraction digits)
// replays the first call instead of running the handler again.
func TestIdempotencyKeysComeFromCanonicalValues(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools()), Ledger: ledger.NewMemory()}
	ctx := context.Background()
	spellings := []string{
		`{"title":"Review","at":"2026-11-23T09:00:00Z"}`,
		`{"title":"Review","at":"2026-11-23T10:00:00+01:00"}`,
		`{"title":"Review","at":"2026-11-23T04:30:00.000-04:30"}`,
		`{"title":"Review","at":"2026-11-23T09:00:00.0Z"}`,
	}
	for i, args := range spellings {
		out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: "schedule_task", Arguments: []byte(args)})
		if err != nil || !out.Success {
			t.Fatalf("call %d: %v %+v", i, err, out)
		}
		if want := i > 0; out.Replayed != want {
			t.Errorf("call %d (%s): replayed = %v, want %v", i, args, out.Replayed, want)
		}
	}
	out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: "schedule_task", Arguments: []byte(`{"title":"Review","at":"2026-11-23T09:00:01Z"}`)})
	if err != nil || !out.Success || out.Replayed {
		t.Fatalf("a different instant must not replay: %v %+v", err, out)
	}
}
