package session

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

type setupPlan struct{ Objective string }
type addStep struct{ Title string }

func TestReducersRunInRegistrationOrderAndSeeEarlierChanges(t *testing.T) {
	s := New()
	ev := NewEvent[string]("note")
	sl := NewSlice[string]("notes", Rollback)
	var order []string
	On(s, ev, sl, func(v View[string], e string) (Op[string], error) {
		order = append(order, "first")
		return Appended("1:" + e), nil
	})
	On(s, ev, sl, func(v View[string], e string) (Op[string], error) {
		order = append(order, "second")
		l, _ := v.Latest()
		return Appended("2 saw " + l), nil
	})
	On(s, ev, sl, func(v View[string], e string) (Op[string], error) {
		order = append(order, "third")
		return Appended("3 saw " + strings.Join(v.All(), ",")), nil
	})
	if err := Apply(s, ev, "x"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(order, []string{"first", "second", "third"}) {
		t.Errorf("order = %v", order)
	}
	want := []string{"1:x", "2 saw 1:x", "3 saw 1:x,2 saw 1:x"}
	if got := All(s, sl); !slices.Equal(got, want) {
		t.Errorf("slice = %q, want %q", got, want)
	}
}

func TestTypedEventsReachOnlyTheirReducers(t *testing.T) {
	s := New()
	plans := NewSlice[plan]("plan", Rollback)
	setup := NewEvent[setupPlan]("setup_plan")
	add := NewEvent[addStep]("add_step")
	other := NewEvent[addStep]("other_add_step") // same payload type, different event
	On(s, setup, plans, func(_ View[plan], e setupPlan) (Op[plan], error) {
		return Replaced(plan{Objective: e.Objective}), nil
	})
	On(s, add, plans, func(v View[plan], e addStep) (Op[plan], error) {
		p, ok := v.Latest()
		if !ok {
			return Op[plan]{}, errors.New("no plan")
		}
		p.Steps++
		return Replaced(p), nil
	})
	if err := Apply(s, add, addStep{"early"}); err == nil || !strings.HasSuffix(err.Error(), "failed: no plan") {
		t.Fatalf("add before setup: %v", err)
	}
	if err := Apply(s, setup, setupPlan{"ship"}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := Apply(s, add, addStep{"s"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := Apply(s, other, addStep{"ignored"}); err != nil {
		t.Fatalf("event without reducers: %v", err)
	}
	if got := All(s, plans); !slices.Equal(got, []plan{{Objective: "ship", Steps: 2}}) {
		t.Errorf("plans = %+v", got)
	}
}

func TestOps(t *testing.T) {
	ev := NewEvent[Op[int]]("op")
	sl := NewSlice[int]("ops", Rollback)
	s := New()
	On(s, ev, sl, func(_ View[int], op Op[int]) (Op[int], error) { return op, nil })
	for _, tc := range []struct {
		name string
		op   Op[int]
		want []int
	}{
		{"append many", Appended(1, 2, 3), []int{1, 2, 3}},
		{"append none", Appended[int](), []int{1, 2, 3}},
		{"unchanged", Unchanged[int](), []int{1, 2, 3}},
		{"zero op", Op[int]{}, []int{1, 2, 3}},
		{"replace", Replaced(9, 8), []int{9, 8}},
		{"clear", Cleared[int](), nil},
		{"replace empty", Replaced[int](), nil},
		{"append after", Appended(5), []int{5}},
	} {
		if err := Apply(s, ev, tc.op); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := All(s, sl); !slices.Equal(got, tc.want) {
			t.Errorf("%s: slice = %v, want %v", tc.name, got, tc.want)
		}
	}
	// Replaced copies its argument.
	in := []int{1, 2}
	if err := Apply(s, ev, Replaced(in...)); err != nil {
		t.Fatal(err)
	}
	in[0] = 100
	if got := All(s, sl); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("Replaced aliases its input: %v", got)
	}
}

func TestOnAppend(t *testing.T) {
	s := New()
	ev := NewEvent[invoked]("tool_invoked")
	lg := NewSlice[string]("names", NoRollback)
	OnAppend(s, ev, lg, func(e invoked) string { return e.Name })
	_ = Apply(s, ev, invoked{Name: "a"})
	_ = Apply(s, ev, invoked{Name: "b"})
	if got := All(s, lg); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("OnAppend: %v", got)
	}
}

// A failing reducer must leave every slice (LOG included) as before, even
// when earlier reducers of the same dispatch already changed them.
func TestApplyIsAtomic(t *testing.T) {
	sentinel := errors.New("rejected")
	for _, tc := range []struct {
		name     string
		fail     func() (Op[int], error)
		want     string
		panicked bool
		wraps    bool // errors.Is(err, sentinel)
	}{
		{"error", func() (Op[int], error) { return Appended(1), sentinel },
			`session: reducer 2 for event "ev" on slice "st" failed: rejected`, false, true},
		{"panic string", func() (Op[int], error) { panic("kaboom") },
			`session: reducer 2 for event "ev" on slice "st" panicked: kaboom`, true, false},
		{"panic error", func() (Op[int], error) { panic(sentinel) },
			`session: reducer 2 for event "ev" on slice "st" panicked: rejected`, true, true},
		{"runtime panic", func() (Op[int], error) { var m map[string]int; m["x"] = 1; return Op[int]{}, nil },
			`session: reducer 2 for event "ev" on slice "st" panicked: assignment to entry in nil map`, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			ev := NewEvent[int]("ev")
			st := NewSlice[int]("st", Rollback)
			lg := NewSlice[int]("lg", NoRollback)
			Seed(s, st, ints(32)...) // full tail: the append goes through the trie
			Append(s, lg, 0)
			On(s, ev, lg, func(_ View[int], e int) (Op[int], error) { return Appended(e), nil })
			On(s, ev, st, func(_ View[int], e int) (Op[int], error) { return Appended(e), nil })
			On(s, ev, st, func(View[int], int) (Op[int], error) { return tc.fail() })
			sn := s.Snapshot() // an outstanding snapshot must not be disturbed either
			err := Apply(s, ev, 7)
			var de *ApplyError
			if !errors.As(err, &de) {
				t.Fatalf("Apply error = %v (%T), want *ApplyError", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("message = %q, want %q", err.Error(), tc.want)
			}
			if de.Panicked != tc.panicked || (tc.panicked && len(de.Stack) == 0) {
				t.Errorf("Panicked = %v, stack %d bytes", de.Panicked, len(de.Stack))
			}
			if de.Event != "ev" || de.Slice != "st" || de.Reducer != 2 {
				t.Errorf("fields = %q %q %d", de.Event, de.Slice, de.Reducer)
			}
			if errors.Is(err, sentinel) != tc.wraps {
				t.Errorf("errors.Is(err, sentinel) = %v, want %v", !tc.wraps, tc.wraps)
			}
			if got := All(s, st); !slices.Equal(got, ints(32)) {
				t.Errorf("STATE slice changed: len %d", len(got))
			}
			if got := All(s, lg); !slices.Equal(got, []int{0}) {
				t.Errorf("LOG slice changed: %v", got)
			}
			// The session still works and the snapshot still restores.
			if err := Apply(s, NewEvent[int]("unused"), 1); err != nil {
				t.Fatal(err)
			}
			Append(s, st, 99)
			s.Restore(sn)
			if got := All(s, st); !slices.Equal(got, ints(32)) {
				t.Errorf("after restore: len %d", len(got))
			}
		})
	}
}

func TestDispatchWithoutChangesKeepsSnapshotSharing(t *testing.T) {
	s := New()
	ev := NewEvent[int]("noop")
	sl := NewSlice[int]("noop_slice", Rollback)
	On(s, ev, sl, func(View[int], int) (Op[int], error) { return Unchanged[int](), nil })
	Append(s, sl, 1)
	sn := s.Snapshot()
	if err := Apply(s, ev, 0); err != nil {
		t.Fatal(err)
	}
	Append(s, sl, 2) // must copy the shared table, not write into the snapshot's
	s.Restore(sn)
	if got := All(s, sl); !slices.Equal(got, []int{1}) {
		t.Errorf("after restore: %v", got)
	}
}
