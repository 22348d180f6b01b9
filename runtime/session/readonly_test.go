package session

import (
	"errors"
	"testing"
)

var (
	roPlan   = NewSlice[string]("plan", Rollback)
	roLog    = NewSlice[string]("log", NoRollback)
	roSet    = NewEvent[string]("set_plan")
	roNoted  = NewEvent[string]("noted")
	roHybrid = NewEvent[string]("hybrid")
)

func roSession() *Session {
	s := New(WithID("s1"))
	On(s, roSet, roPlan, func(_ View[string], e string) (Op[string], error) { return Replaced(e), nil })
	OnAppend(s, roNoted, roLog, func(e string) string { return e })
	OnAppend(s, roHybrid, roLog, func(e string) string { return e })
	On(s, roHybrid, roPlan, func(_ View[string], e string) (Op[string], error) { return Appended(e), nil })
	Seed(s, roPlan, "a")
	return s
}

// mustPanicReadOnly runs f and checks that it panics with a *ReadOnlyError whose text is want.
func mustPanicReadOnly(t *testing.T, what, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		e, ok := r.(*ReadOnlyError)
		if !ok {
			t.Fatalf("%s: panic %v, want a *ReadOnlyError", what, r)
		}
		if e.Error() != want {
			t.Errorf("%s: %q, want %q", what, e.Error(), want)
		}
	}()
	f()
}

func TestReadOnlyViewRefusesEveryStateChangeAndChangesNothing(t *testing.T) {
	s := roSession()
	v := s.ReadOnly()
	if v.ReadOnly() != v || s.ReadOnly() != v || !v.IsReadOnly() || s.IsReadOnly() || v.ID() != "s1" {
		t.Fatal("view identity")
	}
	const slice = `the session is read-only in this call: cannot change STATE slice "plan" (the tool is declared read-only)`
	mustPanicReadOnly(t, "Seed", slice, func() { Seed(v, roPlan, "x") })
	mustPanicReadOnly(t, "Clear", slice, func() { Clear(v, roPlan) })
	mustPanicReadOnly(t, "Replace", slice, func() { Replace(v, roPlan, func(x []string) []string { return nil }) })
	mustPanicReadOnly(t, "Append", slice, func() { Append(v, roPlan, "x") })
	mustPanicReadOnly(t, "Restore", `the session is read-only in this call: cannot restore a snapshot (the tool is declared read-only)`,
		func() { v.Restore(s.Snapshot()) })
	for _, ev := range []Event[string]{roSet, roHybrid} {
		err := Apply(v, ev, "x")
		var ro *ReadOnlyError
		if !errors.As(err, &ro) || ro.Event != ev.Name() {
			t.Fatalf("Apply(%s) on the view = %v", ev.Name(), err)
		}
		if want := `the session is read-only in this call: cannot dispatch event "` + ev.Name() +
			`", which changes session state (the tool is declared read-only)`; err.Error() != want {
			t.Errorf("got %q, want %q", err, want)
		}
	}
	if got := All(s, roPlan); len(got) != 1 || got[0] != "a" {
		t.Fatalf("plan changed: %v", got)
	}
	if n := Len(s, roLog); n != 0 {
		t.Fatalf("log changed: %d", n)
	}
}

func TestReadOnlyViewReadsLiveStateAndMayLog(t *testing.T) {
	s := roSession()
	v := s.ReadOnly()
	if got, _ := Latest(v, roPlan); got != "a" {
		t.Fatalf("Latest = %q", got)
	}
	Seed(s, roPlan, "b") // a change through the session shows in the view
	if got, _ := Latest(v, roPlan); got != "b" {
		t.Fatalf("Latest after change = %q", got)
	}
	Append(v, roLog, "direct")
	if err := Apply(v, roNoted, "event"); err != nil {
		t.Fatal(err)
	}
	if got := All(s, roLog); len(got) != 2 || got[0] != "direct" || got[1] != "event" {
		t.Fatalf("log = %v", got)
	}
}
