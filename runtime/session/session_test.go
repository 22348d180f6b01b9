package session

import (
	"errors"
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type plan struct {
	Objective string
	Steps     int
}

type invoked struct {
	Name string
	OK   bool
}

// ints returns 0..n-1.
func ints(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// sizes crossing the tail (32), one trie level (32+32*32) and two levels.
var sizes = []int{0, 1, 31, 32, 33, 64, 65, 1024, 1056, 1057, 2000, 32*32*32 + 33}

func TestRetentionString(t *testing.T) {
	for _, tc := range []struct {
		p    Retention
		want string
	}{{Rollback, "STATE"}, {NoRollback, "LOG"}, {Retention(7), "Retention(7)"}} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("Retention(%d).String() = %q, want %q", tc.p, got, tc.want)
		}
	}
}

func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			switch v := r.(type) {
			case string:
				msg = v
			case error:
				msg = v.Error()
			default:
				msg = "non-string panic"
			}
		}
	}()
	f()
	return ""
}

func TestMisusePanicsWithMessage(t *testing.T) {
	s := New()
	var zeroSlice Slice[int]
	var zeroEvent Event[int]
	ok := NewSlice[int]("ok", Rollback)
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"unknown retention", func() { NewSlice[int]("x", Retention(2)) }, `session: NewSlice "x": unknown retention Retention(2)`},
		{"zero slice append", func() { Append(s, zeroSlice, 1) }, "session: use of a zero Slice; declare slices with NewSlice"},
		{"zero slice all", func() { All(s, zeroSlice) }, "session: use of a zero Slice; declare slices with NewSlice"},
		{"zero event dispatch", func() { _ = Apply(s, zeroEvent, 1) }, "session: use of a zero Event; declare events with NewEvent"},
		{"nil reducer", func() { On[int, int](s, NewEvent[int]("e"), ok, nil) }, `session: On "e": nil reducer`},
		{"nil item func", func() { OnAppend[int, int](s, NewEvent[int]("e2"), ok, nil) }, `session: OnAppend "e2": nil item function`},
		{"view at out of range", func() { ViewOf(s, ok).At(0) }, "session: View.At index 0 out of range [0:0]"},
		{"restore zero snapshot", func() { s.Restore(Snapshot{}) }, "session: restore of a zero Snapshot"},
		{"restore foreign snapshot", func() { s.Restore(New(WithID("other")).Snapshot()) }, `session: snapshot of session "other" cannot be restored into session "` + s.ID() + `"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := panicMessage(tc.f); got != tc.want {
				t.Errorf("panic = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSliceAndEventAccessors(t *testing.T) {
	sl := NewSlice[plan]("plan", NoRollback)
	ev := NewEvent[int]("tick")
	if sl.Name() != "plan" || sl.Retention() != NoRollback || ev.Name() != "tick" {
		t.Errorf("accessors = %q %v %q", sl.Name(), sl.Retention(), ev.Name())
	}
	other := NewSlice[plan]("plan", NoRollback)
	s := New()
	Append(s, sl, plan{Objective: "a"})
	if Len(s, other) != 0 {
		t.Error("two NewSlice calls with one name share storage")
	}
}

func TestIDIsRandomUUIDUnlessGiven(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	a, b := New(), New()
	if !re.MatchString(a.ID()) {
		t.Errorf("ID %q is not a version 4 UUID", a.ID())
	}
	if a.ID() == b.ID() {
		t.Errorf("two sessions share ID %q", a.ID())
	}
	if got := New(WithID("run-1")).ID(); got != "run-1" {
		t.Errorf("WithID: ID = %q", got)
	}
}

func TestQueriesOnEmptySlice(t *testing.T) {
	s := New()
	sl := NewSlice[int]("empty", Rollback)
	if got := All(s, sl); got != nil {
		t.Errorf("All = %v, want nil", got)
	}
	if v, ok := Latest(s, sl); ok || v != 0 {
		t.Errorf("Latest = %v, %v; want 0, false", v, ok)
	}
	if got := Where(s, sl, func(int) bool { return true }); got != nil {
		t.Errorf("Where = %v, want nil", got)
	}
	if Len(s, sl) != 0 {
		t.Error("Len != 0")
	}
	for range Values(s, sl) {
		t.Error("Values yielded on empty slice")
	}
}

func TestAppendAndQueriesAtEverySize(t *testing.T) {
	for _, n := range sizes {
		s := New()
		sl := NewSlice[int]("n", Rollback)
		for i := range n {
			Append(s, sl, i)
		}
		want := ints(n)
		if n == 0 {
			want = nil
		}
		if diff := cmp.Diff(want, All(s, sl)); diff != "" {
			t.Fatalf("n=%d All mismatch (-want +got):\n%s", n, diff)
		}
		if Len(s, sl) != n {
			t.Fatalf("n=%d Len = %d", n, Len(s, sl))
		}
		v := ViewOf(s, sl)
		for i := range n {
			if v.At(i) != i {
				t.Fatalf("n=%d At(%d) = %d", n, i, v.At(i))
			}
		}
		if l, ok := Latest(s, sl); n > 0 && (!ok || l != n-1) {
			t.Fatalf("n=%d Latest = %d, %v", n, l, ok)
		}
		even := Where(s, sl, func(x int) bool { return x%2 == 0 })
		var wantEven []int
		for i := 0; i < n; i += 2 {
			wantEven = append(wantEven, i)
		}
		if !slices.Equal(even, wantEven) {
			t.Fatalf("n=%d Where(even) has %d items, want %d", n, len(even), len(wantEven))
		}
		var it []int
		for x := range Values(s, sl) {
			it = append(it, x)
		}
		if !slices.Equal(it, want) {
			t.Fatalf("n=%d Values differ", n)
		}
		// Early break stops the iteration.
		count := 0
		for range Values(s, sl) {
			count++
			if count == 40 {
				break
			}
		}
		if count != min(n, 40) {
			t.Fatalf("n=%d Values after break yielded %d", n, count)
		}
	}
}

func TestSeedMatchesAppendsAndCopiesInput(t *testing.T) {
	for _, n := range sizes {
		s := New()
		sl := NewSlice[int]("seed", Rollback)
		in := ints(n)
		Seed(s, sl, in...)
		for i := range in {
			in[i] = -1
		}
		want := ints(n)
		if n == 0 {
			want = nil
		}
		if diff := cmp.Diff(want, All(s, sl)); diff != "" {
			t.Fatalf("n=%d Seed content (-want +got):\n%s", n, diff)
		}
		// A seeded vector must keep growing correctly.
		for i := n; i < n+70; i++ {
			Append(s, sl, i)
		}
		if !slices.Equal(All(s, sl), ints(n+70)) {
			t.Fatalf("n=%d appends after Seed differ", n)
		}
	}
	s := New()
	sl := NewSlice[int]("reseed", Rollback)
	Seed(s, sl, 1, 2, 3)
	Seed(s, sl, 9)
	if got := All(s, sl); !slices.Equal(got, []int{9}) {
		t.Errorf("Seed did not replace: %v", got)
	}
}

func TestAllAndWhereDoNotAliasStorage(t *testing.T) {
	s := New()
	sl := NewSlice[int]("alias", Rollback)
	for i := range 40 {
		Append(s, sl, i)
	}
	got := All(s, sl)
	for i := range got {
		got[i] = -1
	}
	_ = append(got[:10], 99) // writing into spare capacity must not reach storage
	w := Where(s, sl, func(int) bool { return true })
	w[0] = -5
	if !slices.Equal(All(s, sl), ints(40)) {
		t.Error("modifying the result of All or Where changed the session")
	}
	Append(s, sl, 40)
	if !slices.Equal(All(s, sl), ints(41)) {
		t.Error("append after modifying results lost data")
	}
}

func TestClear(t *testing.T) {
	s := New()
	sl := NewSlice[int]("clear", Rollback)
	Seed(s, sl, 1, 2)
	Clear(s, sl)
	if All(s, sl) != nil || Len(s, sl) != 0 {
		t.Errorf("after Clear: %v", All(s, sl))
	}
	Append(s, sl, 3)
	if got := All(s, sl); !slices.Equal(got, []int{3}) {
		t.Errorf("append after Clear: %v", got)
	}
}

func TestReplaceGetsACopyAndStoresACopy(t *testing.T) {
	s := New()
	sl := NewSlice[int]("replace", Rollback)
	Seed(s, sl, 1, 2, 3)
	var kept []int
	Replace(s, sl, func(items []int) []int {
		if !slices.Equal(items, []int{1, 2, 3}) {
			t.Errorf("Replace got %v", items)
		}
		items[0] = 100 // allowed: it is a copy
		kept = append(items, 4)
		return kept
	})
	kept[1] = -1 // the stored result must be a copy
	if got := All(s, sl); !slices.Equal(got, []int{100, 2, 3, 4}) {
		t.Errorf("after Replace: %v", got)
	}
	Replace(s, sl, func([]int) []int { return nil })
	if All(s, sl) != nil {
		t.Error("Replace returning nil did not empty the slice")
	}
	Replace(s, sl, func(items []int) []int {
		if items != nil {
			t.Errorf("Replace on empty slice got %v, want nil", items)
		}
		return []int{7}
	})
	if got := All(s, sl); !slices.Equal(got, []int{7}) {
		t.Errorf("after Replace on empty: %v", got)
	}
}

func TestReplacePanicLeavesSliceUnchangedAndUnlocked(t *testing.T) {
	s := New()
	sl := NewSlice[int]("replace_panic", Rollback)
	Seed(s, sl, 1)
	if msg := panicMessage(func() { Replace(s, sl, func([]int) []int { panic("boom") }) }); msg != "boom" {
		t.Fatalf("panic = %q", msg)
	}
	Append(s, sl, 2) // would deadlock if the lock leaked
	if got := All(s, sl); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("after panicking Replace: %v", got)
	}
}

func TestRestoreRollsBackStateAndKeepsLog(t *testing.T) {
	s := New()
	plans := NewSlice[plan]("plan", Rollback)
	calls := NewSlice[invoked]("tool_invoked", NoRollback)
	untouched := NewSlice[int]("untouched_until_later", Rollback)
	laterLog := NewSlice[int]("log_created_later", NoRollback)
	Append(s, plans, plan{Objective: "a"})
	Append(s, calls, invoked{Name: "first", OK: true})

	sn := s.Snapshot()
	Append(s, plans, plan{Objective: "b"})
	Seed(s, untouched, 1, 2)
	Append(s, calls, invoked{Name: "second", OK: false})
	Append(s, laterLog, 5)
	s.Restore(sn)

	if diff := cmp.Diff([]plan{{Objective: "a"}}, All(s, plans)); diff != "" {
		t.Errorf("STATE slice not rolled back (-want +got):\n%s", diff)
	}
	if got := All(s, untouched); got != nil {
		t.Errorf("STATE slice first used after the snapshot = %v, want empty", got)
	}
	if diff := cmp.Diff([]invoked{{"first", true}, {"second", false}}, All(s, calls)); diff != "" {
		t.Errorf("LOG slice rolled back (-want +got):\n%s", diff)
	}
	if got := All(s, laterLog); !slices.Equal(got, []int{5}) {
		t.Errorf("LOG slice first used after the snapshot = %v, want [5]", got)
	}
	// A cleared LOG slice stays cleared: Restore never touches LOG slices.
	sn2 := s.Snapshot()
	Clear(s, calls)
	s.Restore(sn2)
	if got := All(s, calls); got != nil {
		t.Errorf("cleared LOG slice came back: %v", got)
	}
}

func TestNestedSnapshots(t *testing.T) {
	for _, base := range []int{0, 5, 31, 32, 1023, 1024, 1055} {
		s := New()
		sl := NewSlice[int]("nested", Rollback)
		Seed(s, sl, ints(base)...)
		want := func(what string, exp []int) {
			t.Helper()
			if len(exp) == 0 {
				exp = nil
			}
			if diff := cmp.Diff(exp, All(s, sl)); diff != "" {
				t.Fatalf("base=%d %s (-want +got):\n%s", base, what, diff)
			}
		}
		a := s.Snapshot()
		stateA := ints(base)
		Append(s, sl, 1000)
		Append(s, sl, 1001)
		b := s.Snapshot()
		stateB := append(ints(base), 1000, 1001)
		Append(s, sl, 2000)
		s.Restore(a)
		want("after restore A", stateA)
		// Diverge from A: these writes reuse the tail chunk that B's version
		// also extended; B must not see them.
		Append(s, sl, 3000)
		Append(s, sl, 3001)
		Append(s, sl, 3002)
		want("after changes on A", append(ints(base), 3000, 3001, 3002))
		s.Restore(b)
		want("after restore B", stateB)
		Append(s, sl, 4000)
		want("after change on B", append(slices.Clone(stateB), 4000))
		s.Restore(a)
		want("after second restore A", stateA)
		s.Restore(b)
		want("after second restore B", stateB)
	}
}

func TestViewIsImmutable(t *testing.T) {
	s := New()
	sl := NewSlice[int]("view", Rollback)
	Seed(s, sl, ints(33)...)
	sn := s.Snapshot()
	v := ViewOf(s, sl)
	Append(s, sl, 100)
	s.Restore(sn)
	Append(s, sl, 200) // reuses the tail slot 100 went into for a different version
	Seed(s, sl, 7)
	if !slices.Equal(v.All(), ints(33)) || v.Len() != 33 {
		t.Errorf("view changed: %v", v.All())
	}
	if l, _ := v.Latest(); l != 32 {
		t.Errorf("view Latest = %d", l)
	}
}

func TestTransactionalAdapter(t *testing.T) {
	s := New(WithID("s1"))
	sl := NewSlice[int]("tx", Rollback)
	Append(s, sl, 1)
	tx := Transactional(s)
	snap, err := tx.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := snap.(Snapshot); !ok {
		t.Fatalf("Snapshot() returned %T", snap)
	}
	Append(s, sl, 2)
	if err := tx.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if got := All(s, sl); !slices.Equal(got, []int{1}) {
		t.Errorf("after Restore: %v", got)
	}
	Append(s, sl, 3)
	sn := snap.(Snapshot)
	if err := tx.Restore(&sn); err != nil {
		t.Fatalf("Restore(*Snapshot): %v", err)
	}
	if got := All(s, sl); !slices.Equal(got, []int{1}) {
		t.Errorf("after Restore(*Snapshot): %v", got)
	}
	if sn.Session() != s {
		t.Error("Snapshot.Session() is not the owner")
	}

	other, _ := Transactional(New(WithID("s2"))).Snapshot()
	for _, tc := range []struct {
		name string
		snap any
		want string
	}{
		{"nil", nil, "session: cannot restore a value that is not a session.Snapshot"},
		{"wrong type", 42, "session: cannot restore a value that is not a session.Snapshot"},
		{"nil pointer", (*Snapshot)(nil), "session: cannot restore a value that is not a session.Snapshot"},
		{"zero", Snapshot{}, "session: restore of a zero Snapshot"},
		{"other session", other, `session: snapshot of session "s2" cannot be restored into session "s1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tx.Restore(tc.snap)
			var se *SnapshotError
			if !errors.As(err, &se) || err.Error() != tc.want {
				t.Errorf("Restore(%v) = %v, want SnapshotError %q", tc.snap, err, tc.want)
			}
		})
	}
	if got := All(s, sl); !slices.Equal(got, []int{1}) {
		t.Errorf("failed restores changed state: %v", got)
	}
}

func TestApplyErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		err  *ApplyError
		want string
	}{
		{&ApplyError{Event: "add_step", Slice: "plan", Reducer: 1, Err: errors.New("Step 9 does not exist.")},
			`session: reducer 1 for event "add_step" on slice "plan" failed: Step 9 does not exist.`},
		{&ApplyError{Event: "e", Slice: "s", Panicked: true, Value: "boom"},
			`session: reducer 0 for event "e" on slice "s" panicked: boom`},
		{&ApplyError{Event: "e", Slice: "s", Panicked: true, Value: 42},
			`session: reducer 0 for event "e" on slice "s" panicked: 42`},
		{&ApplyError{Event: "e", Slice: "s", Panicked: true, Value: errors.New("bad"), Err: errors.New("bad")},
			`session: reducer 0 for event "e" on slice "s" panicked: bad`},
		{&ApplyError{Event: "e", Slice: "s", Panicked: true, Value: Rollback},
			`session: reducer 0 for event "e" on slice "s" panicked: STATE`},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}
