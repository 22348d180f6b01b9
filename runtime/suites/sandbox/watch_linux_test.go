package sandbox

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/vfs"
)

// TestFailingMeasuresDoNotTurnTheBoundOff: a measure of the workspace that fails (a race with the command,
// say) does not end the watch: the next ones still stop a command over the bound. Measures that keep
// failing stop the command, with the reason, rather than let it write unmeasured until it ends. The
// measures are injected (the command's growth function), the command is real (sleep in bubblewrap).
func TestFailingMeasuresDoNotTurnTheBoundOff(t *testing.T) {
	bwrap, reason := available(Config{}.withDefaults())
	if bwrap == "" {
		t.Fatal(reason)
	}
	cfg := Config{MaxWorkspaceBytes: 1000}.withDefaults()
	errMeasure := errors.New("injected: the workspace cannot be measured")
	for _, c := range []struct {
		name     string
		measures []error // nil: a measure that succeeds (over the bound from measure overFrom on)
		overFrom int
		over     bool
	}{
		{"a failure, then over the bound", []error{errMeasure, nil, errMeasure, errMeasure, errMeasure, errMeasure, nil}, 3, true},
		// Then the measure after the run succeeds (within the bound).
		{"every measure fails while it runs", []error{errMeasure, errMeasure, errMeasure, errMeasure, errMeasure}, 1000, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			n := 0
			growth := func() (vfs.Growth, error) {
				mu.Lock()
				defer mu.Unlock()
				i := n
				n++
				if i < len(c.measures) && c.measures[i] != nil {
					return vfs.Growth{}, c.measures[i]
				}
				if i >= c.overFrom {
					return vfs.Growth{Bytes: 2000}, nil
				}
				return vfs.Growth{}, nil
			}
			start := time.Now()
			o, err := run(context.Background(), bwrap, cfg, &command{argv: []string{"sleep", "60"}, root: t.TempDir(),
				timeout: 2 * time.Minute, growth: growth})
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Fatalf("the command ran %v: the failing measures turned the bound off", d)
			}
			if o.tooBig != c.over {
				t.Errorf("over the bound: %v, want %v", o.tooBig, c.over)
			}
			if want := !c.over; (o.unmeasured != nil) != want || (want && !errors.Is(o.unmeasured, errMeasure)) {
				t.Errorf("stopped as unmeasurable: %v, want %v", o.unmeasured, want)
			}
		})
	}
}
