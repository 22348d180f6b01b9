// Package storetest is the behaviour every session.Store must have, run by the tests of each
// implementation (the memory store and pgstore) against a store they make.
package storetest

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
)

// IntCodec and StringCodec are codecs written by hand the way winkgen emits them.
var (
	IntCodec = session.Codec[int64]{
		Encode: func(dst []byte, v *int64) []byte { return strconv.AppendInt(dst, *v, 10) },
		Decode: func(data []byte) (int64, error) {
			var d strictjson.Decoder
			d.Reset(data, strictjson.Limits{})
			n, _ := d.Int(math.MinInt64, math.MaxInt64)
			if errs := d.Finish(); errs != nil {
				return 0, errs
			}
			return n, nil
		},
	}
	StringCodec = session.Codec[string]{
		Encode: func(dst []byte, v *string) []byte { return strictjson.AppendString(dst, *v) },
		Decode: func(data []byte) (string, error) {
			var d strictjson.Decoder
			d.Reset(data, strictjson.Limits{})
			s, _ := d.String()
			if errs := d.Finish(); errs != nil {
				return "", errs
			}
			return s, nil
		},
	}
)

// Doc is a JSON document kept as its text.
type Doc string

// DocCodec stores a Doc as itself and reads it back with the limits winkgen's state decoders apply
// (session.MaxItemBytes, session.MaxItemDepth).
var DocCodec = session.Codec[Doc]{
	Encode: func(dst []byte, v *Doc) []byte { return append(dst, *v...) },
	Decode: func(data []byte) (Doc, error) {
		var d strictjson.Decoder
		d.Reset(data, strictjson.Limits{MaxBytes: session.MaxItemBytes, MaxDepth: session.MaxItemDepth})
		raw, _ := d.Raw()
		if errs := d.Finish(); errs != nil {
			return "", errs
		}
		return Doc(raw), nil
	},
}

// upgradeLegacy reads the old form of a counter, the string "n=<number>"; "drop" is dropped.
func upgradeLegacy(stored []byte, err error) (int64, error) {
	s := string(stored)
	if s == `"drop"` {
		return 0, session.ErrDropItem
	}
	if len(s) > 4 && s[:3] == `"n=` && s[len(s)-1] == '"' {
		return strconv.ParseInt(s[3:len(s)-1], 10, 64)
	}
	return 0, err
}

// The slices the conformance tests store.
var (
	Plan    = session.NewSlice[string]("test.plan", session.Rollback, session.WithCodec(StringCodec))
	Counter = session.NewSlice[int64]("test.counter", session.Rollback, session.WithCodec(IntCodec))
	Events  = session.NewSlice[string]("test.events", session.NoRollback, session.WithCodec(StringCodec))
	Scratch = session.NewSlice[string]("test.scratch", session.Rollback) // memory only
	Docs    = session.NewSlice[Doc]("test.docs", session.Rollback, session.WithCodec(DocCodec))
	DocLog  = session.NewSlice[Doc]("test.doclog", session.NoRollback, session.WithCodec(DocCodec))
	// Legacy and LegacyLog hold counters whose stored form changed (WithUpgrade reads the old one).
	Legacy    = session.NewSlice[int64]("test.legacy", session.Rollback, session.WithCodec(IntCodec), session.WithUpgrade(upgradeLegacy))
	LegacyLog = session.NewSlice[int64]("test.legacylog", session.NoRollback, session.WithCodec(IntCodec), session.WithUpgrade(upgradeLegacy))
	// Lax and LaxLog keep Docs through LaxCodec, which reads back whatever it wrote.
	Lax    = session.NewSlice[Doc]("test.lax", session.Rollback, session.WithCodec(LaxCodec))
	LaxLog = session.NewSlice[Doc]("test.laxlog", session.NoRollback, session.WithCodec(LaxCodec))
	// Pruned keeps Docs and drops, at load, the stored items that no longer read back (the recovery a
	// release declares for values an earlier release stored past today's limits).
	Pruned = session.NewSlice[Doc]("test.pruned", session.Rollback, session.WithCodec(DocCodec),
		session.WithUpgrade(func([]byte, error) (Doc, error) { return "", session.ErrDropItem }))
)

// LaxCodec is a hand-written codec whose Decode accepts any bytes: a commit must still refuse what the
// store's own reader could not take (not one JSON value, too deep), whatever the codec says.
var LaxCodec = session.Codec[Doc]{
	Encode: func(dst []byte, v *Doc) []byte { return append(dst, *v...) },
	Decode: func(data []byte) (Doc, error) { return Doc(data), nil },
}

// Slices are the slices a store under test must keep.
func Slices() []session.Persistent {
	return []session.Persistent{Plan, Counter, Events, Docs, DocLog, Legacy, LegacyLog, Lax, LaxLog, Pruned}
}

// Run runs the conformance tests against stores made by newStore (a new, empty store each call, keeping
// Slices()).
func Run(t *testing.T, newStore func(t *testing.T) session.Store) {
	t.Run("SessionsShareAndResumeThroughTheStore", func(t *testing.T) { testShare(t, newStore(t)) })
	t.Run("FailedCallCommitsOnlyItsLogEntries", func(t *testing.T) { testFailed(t, newStore(t)) })
	t.Run("ConcurrentWorkersLoseNoAcknowledgedWrite", func(t *testing.T) { testConcurrent(t, newStore(t)) })
	t.Run("CorruptItemIsReportedWithSessionAndSlice", func(t *testing.T) { testCorrupt(t, newStore(t)) })
	t.Run("UnreadableValueIsNeverCommitted", func(t *testing.T) { testUnstorable(t, newStore(t)) })
	t.Run("LaxCodecCannotCommitWhatTheStoreCannotRead", func(t *testing.T) { testLaxCodec(t, newStore(t)) })
	t.Run("UndecodableSliceIsUpgradedKeepingTheRest", func(t *testing.T) { testUpgrade(t, newStore(t)) })
}

// Nested returns a JSON value nesting depth arrays.
func Nested(depth int) Doc {
	b := make([]byte, 0, 2*depth+1)
	for range depth {
		b = append(b, '[')
	}
	b = append(b, '1')
	for range depth {
		b = append(b, ']')
	}
	return Doc(b)
}

// A value the store could not read back (too deep, too large, not decodable by its own codec) fails the
// commit with an error naming the session and the slice: nothing is written, the STATE slices are back
// to their content before the transaction, and the transaction's LOG entries are dropped; the limits at
// which a commit refuses are exactly those at which a load would fail.
func testUnstorable(t *testing.T, st session.Store) {
	ctx := context.Background()
	s := session.New(session.WithID("conv-u"), session.WithStore(st))
	InTx(t, s, func() {
		session.Seed(s, Docs, `{"a":1}`)
		session.Append(s, DocLog, "1")
		session.Seed(s, Plan, "kept")
	})
	huge := Doc(`"` + string(make([]byte, session.MaxItemBytes)) + `"`)
	for _, c := range []struct {
		name   string
		change func()
		slice  string
		item   int
		reason string
	}{
		{"state too deep", func() { session.Seed(s, Docs, `{"a":1}`, Nested(session.MaxItemDepth+1)) }, "test.docs", 1, "nesting deeper than 64 levels"},
		{"log too deep", func() { session.Append(s, DocLog, Nested(session.MaxItemDepth+1)) }, "test.doclog", 1, "nesting deeper than 64 levels"},
		{"state too large", func() { session.Seed(s, Docs, huge) }, "test.docs", 0, "more than MaxItemBytes"},
		{"not decodable", func() { session.Seed(s, Docs, `{"a":`) }, "test.docs", 0, "unexpected end"},
	} {
		tx, err := s.Begin(ctx, session.ReadWrite)
		if err != nil {
			t.Fatal(err)
		}
		session.Seed(s, Plan, "changed by the refused transaction")
		c.change()
		err = tx.End(ctx)
		ue, ok := errors.AsType[*session.UnstorableError](err)
		if !ok || ue.Session != "conv-u" || ue.Slice != c.slice || ue.Item != c.item || !strings.Contains(err.Error(), c.reason) {
			t.Fatalf("%s: End = %v, want an *UnstorableError naming session conv-u, slice %s, item %d (%s)", c.name, err, c.slice, c.item, c.reason)
		}
		if got := session.All(s, Plan); !eq(got, []string{"kept"}) {
			t.Fatalf("%s: plan %v right after the refused commit, want it rolled back", c.name, got)
		}
		for _, w := range []*session.Session{s, session.New(session.WithID("conv-u"), session.WithStore(st))} {
			InTx(t, w, func() {
				if got := session.All(w, Docs); len(got) != 1 || got[0] != `{"a":1}` {
					t.Fatalf("%s: docs %q", c.name, got)
				}
				if got := session.All(w, DocLog); len(got) != 1 || got[0] != "1" {
					t.Fatalf("%s: doc log %q", c.name, got)
				}
				if got := session.All(w, Plan); !eq(got, []string{"kept"}) {
					t.Fatalf("%s: plan %v", c.name, got)
				}
			})
		}
	}
	// Around the limit, a commit succeeds exactly when a load would.
	for depth := session.MaxItemDepth - 3; depth <= session.MaxItemDepth+3; depth++ {
		doc := Nested(depth)
		_, loadErr := DocCodec.Decode([]byte(doc))
		tx, err := s.Begin(ctx, session.ReadWrite)
		if err != nil {
			t.Fatal(err)
		}
		session.Seed(s, Docs, doc)
		if err := tx.End(ctx); (err == nil) != (loadErr == nil) {
			t.Fatalf("depth %d: commit error %v, load error %v", depth, err, loadErr)
		}
	}
	// At the limit, the value is committed and reads back.
	InTx(t, s, func() {
		session.Seed(s, Docs, Nested(session.MaxItemDepth))
		session.Append(s, DocLog, Nested(session.MaxItemDepth))
	})
	fresh := session.New(session.WithID("conv-u"), session.WithStore(st))
	InTx(t, fresh, func() {
		if got := session.All(fresh, Docs); len(got) != 1 || got[0] != Nested(session.MaxItemDepth) {
			t.Fatalf("docs %q", got)
		}
		if n := session.Len(fresh, DocLog); n != 2 {
			t.Fatalf("%d log entries", n)
		}
	})
}

// The class of testUnstorable for a codec that checks nothing (a hand-written one): the store's own
// reader is the bound. Every kind of slice, every way an encoding can fail to be one readable JSON value;
// and a string whose escapes make its encoding larger than MaxItemBytes though its value is not.
func testLaxCodec(t *testing.T, st session.Store) {
	ctx := context.Background()
	s := session.New(session.WithID("conv-lax"), session.WithStore(st))
	InTx(t, s, func() {
		session.Seed(s, Lax, `{"a":1}`)
		session.Append(s, LaxLog, "1")
		session.Seed(s, Plan, "kept")
	})
	for _, bad := range []Doc{Nested(session.MaxItemDepth + 1), `{"a":` + Nested(session.MaxItemDepth) + `}`, "abc", "1 2", `"x`, "", " ", `{"a":1,}`, "[1]]", `"\u12"`, "\"\xff\""} {
		for _, kind := range []string{"test.lax", "test.laxlog"} {
			tx, err := s.Begin(ctx, session.ReadWrite)
			if err != nil {
				t.Fatal(err)
			}
			if kind == "test.lax" {
				session.Seed(s, Lax, `{"a":1}`, bad)
			} else {
				session.Append(s, LaxLog, bad)
			}
			err = tx.End(ctx)
			if ue, ok := errors.AsType[*session.UnstorableError](err); !ok || ue.Slice != kind || ue.Item != 1 {
				t.Fatalf("%s %.20q: End = %v, want an *UnstorableError naming the slice and item 1", kind, bad, err)
			}
		}
	}
	// An escaped string: its value fits MaxItemBytes, its encoding does not.
	tx, err := s.Begin(ctx, session.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	session.Seed(s, Plan, strings.Repeat("\"", session.MaxItemBytes/2+1))
	if err := tx.End(ctx); !strings.Contains(fmt(err), "more than MaxItemBytes") {
		t.Fatalf("escaped string: End = %v", err)
	}
	fresh := session.New(session.WithID("conv-lax"), session.WithStore(st))
	InTx(t, fresh, func() {
		if got := session.All(fresh, Lax); len(got) != 1 || got[0] != `{"a":1}` {
			t.Fatalf("lax %q", got)
		}
		if got := session.All(fresh, LaxLog); len(got) != 1 || got[0] != "1" {
			t.Fatalf("lax log %q", got)
		}
		if got := session.All(fresh, Plan); !eq(got, []string{"kept"}) {
			t.Fatalf("plan %q", got)
		}
		// At the limit, and with whitespace around it, a value is committed.
		session.Seed(fresh, Lax, Nested(session.MaxItemDepth), " 2 ")
		session.Append(fresh, LaxLog, Nested(session.MaxItemDepth))
	})
	again := session.New(session.WithID("conv-lax"), session.WithStore(st))
	InTx(t, again, func() {
		if got := session.All(again, Lax); len(got) != 2 || got[0] != Nested(session.MaxItemDepth) {
			t.Fatalf("lax %.40q", got)
		}
		if n := session.Len(again, LaxLog); n != 2 {
			t.Fatalf("%d lax log entries", n)
		}
	})
}

func fmt(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// A slice whose stored items no longer decode (its type changed in a redeploy) is loaded through its
// WithUpgrade function: migrated items load, dropped STATE items are left out, and every other slice
// of the session is untouched. Without the upgrade the error names the slice and the reason.
func testUpgrade(t *testing.T, st session.Store) {
	ctx := context.Background()
	// What the previous release stored: counters as "n=<number>" strings.
	put(t, st, "conv-g", session.Write{
		State:   map[string][][]byte{"test.legacy": {[]byte(`"n=5"`), []byte(`"drop"`), []byte(`6`)}, "test.plan": {[]byte(`"kept"`)}},
		Logs:    map[string][][]byte{"test.legacylog": {[]byte(`"n=1"`), []byte(`2`)}, "test.events": {[]byte(`"e1"`)}},
		LogFrom: map[string]int{"test.legacylog": 0, "test.events": 0},
	})
	s := session.New(session.WithID("conv-g"), session.WithStore(st))
	InTx(t, s, func() {
		if got := session.All(s, Legacy); len(got) != 2 || got[0] != 5 || got[1] != 6 {
			t.Fatalf("legacy %v, want [5 6]", got)
		}
		if got := session.All(s, LegacyLog); len(got) != 2 || got[0] != 1 || got[1] != 2 {
			t.Fatalf("legacy log %v, want [1 2]", got)
		}
		if got := session.All(s, Plan); !eq(got, []string{"kept"}) {
			t.Fatalf("plan %v", got)
		}
		session.Append(s, Legacy, 7) // written in the new form
		session.Append(s, LegacyLog, 3)
	})
	fresh := session.New(session.WithID("conv-g"), session.WithStore(st))
	InTx(t, fresh, func() {
		if got := session.All(fresh, Legacy); len(got) != 3 || got[2] != 7 {
			t.Fatalf("legacy %v after the rewrite", got)
		}
		if got := session.All(fresh, LegacyLog); len(got) != 3 || got[0] != 1 || got[2] != 3 {
			t.Fatalf("legacy log %v", got)
		}
		if got := session.All(fresh, Events); !eq(got, []string{"e1"}) {
			t.Fatalf("events %v", got)
		}
	})
	// What an earlier release stored past today's limits (an item nested deeper than MaxItemDepth, as
	// releases before the read-back at commit did): the item is handed to the upgrade, which drops it,
	// and the slice's other items load; without an upgrade, the error names the slice and the item.
	deep := []byte(Nested(session.MaxItemDepth + 10))
	put(t, st, "conv-g3", session.Write{State: map[string][][]byte{
		"test.pruned": {[]byte(`"a"`), deep, []byte(`"b"`)}, "test.docs": {[]byte(`"c"`), deep}, "test.plan": {[]byte(`"kept"`)},
	}})
	_, err := session.New(session.WithID("conv-g3"), session.WithStore(st)).Begin(ctx, session.ReadWrite)
	if ce, ok := errors.AsType[*session.CorruptError](err); !ok || ce.Slice != "test.docs" || !strings.Contains(err.Error(), "item 1") ||
		!strings.Contains(err.Error(), "nesting deeper than 64 levels") {
		t.Fatalf("Begin = %v, want a *CorruptError naming slice test.docs, item 1, and the depth", err)
	}
	put(t, st, "conv-g3", session.Write{State: map[string][][]byte{"test.docs": {[]byte(`"c"`)}}})
	s = session.New(session.WithID("conv-g3"), session.WithStore(st))
	InTx(t, s, func() {
		if got := session.All(s, Pruned); len(got) != 2 || got[0] != `"a"` || got[1] != `"b"` {
			t.Fatalf("pruned %q, want the two items that read back", got)
		}
		if got := session.All(s, Plan); !eq(got, []string{"kept"}) {
			t.Fatalf("plan %v", got)
		}
	})
	// An item the upgrade cannot read either is reported with the slice and both reasons' last word.
	put(t, st, "conv-g2", session.Write{Logs: map[string][][]byte{"test.legacylog": {[]byte(`"drop"`)}}, LogFrom: map[string]int{"test.legacylog": 0}})
	_, err = session.New(session.WithID("conv-g2"), session.WithStore(st)).Begin(ctx, session.ReadWrite)
	if ce, ok := errors.AsType[*session.CorruptError](err); !ok || ce.Slice != "test.legacylog" || !strings.Contains(err.Error(), "a LOG item cannot be dropped") {
		t.Fatalf("Begin = %v", err)
	}
}

// put commits w to the conversation id of st directly, as an earlier release (or another process) would
// have stored it.
func put(t *testing.T, st session.Store, id string, w session.Write) {
	t.Helper()
	ctx := context.Background()
	stx, _, err := st.Begin(ctx, id, session.ReadWrite, session.Known{Version: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stx.Commit(ctx, w); err != nil {
		t.Fatal(err)
	}
}

// InTx runs f in a transaction of s and ends it.
func InTx(t testing.TB, s *session.Session, f func()) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.Begin(ctx, session.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	f()
	if err := tx.End(ctx); err != nil {
		t.Fatal(err)
	}
}

func eq(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func testShare(t *testing.T, st session.Store) {
	a := session.New(session.WithID("conv-1"), session.WithStore(st))
	b := session.New(session.WithID("conv-1"), session.WithStore(st))
	InTx(t, a, func() {
		session.Seed(a, Plan, "step one")
		session.Append(a, Events, "a1")
		session.Seed(a, Scratch, "not stored")
	})
	InTx(t, b, func() {
		if got := session.All(b, Plan); !eq(got, []string{"step one"}) {
			t.Fatalf("worker B sees plan %v", got)
		}
		if got := session.All(b, Events); !eq(got, []string{"a1"}) {
			t.Fatalf("worker B sees events %v", got)
		}
		if n := session.Len(b, Scratch); n != 0 {
			t.Fatalf("a slice without codec crossed workers")
		}
		session.Append(b, Plan, "step two")
		session.Append(b, Events, "b1")
	})
	InTx(t, a, func() {
		if got := session.All(a, Plan); !eq(got, []string{"step one", "step two"}) {
			t.Fatalf("worker A sees plan %v after B's turn", got)
		}
		if got := session.All(a, Events); !eq(got, []string{"a1", "b1"}) {
			t.Fatalf("worker A sees events %v after B's turn", got)
		}
	})
	// A restarted worker resumes from the last commit.
	c := session.New(session.WithID("conv-1"), session.WithStore(st))
	InTx(t, c, func() {
		if got := session.All(c, Events); !eq(got, []string{"a1", "b1"}) {
			t.Fatalf("restarted worker sees events %v", got)
		}
	})
	// Another session is separate.
	other := session.New(session.WithID("conv-2"), session.WithStore(st))
	InTx(t, other, func() {
		if n := session.Len(other, Plan); n != 0 {
			t.Fatalf("another session sees %d plan items", n)
		}
	})
}

func testFailed(t *testing.T, st session.Store) {
	s := session.New(session.WithID("conv-f"), session.WithStore(st))
	InTx(t, s, func() { session.Seed(s, Plan, "kept") })
	InTx(t, s, func() {
		snap := s.Snapshot()
		session.Seed(s, Plan, "rolled back")
		s.Restore(snap)
		session.Append(s, Events, "the failed call's log entry")
	})
	fresh := session.New(session.WithID("conv-f"), session.WithStore(st))
	InTx(t, fresh, func() {
		if got := session.All(fresh, Plan); !eq(got, []string{"kept"}) {
			t.Fatalf("plan %v, want [kept]", got)
		}
		if got := session.All(fresh, Events); !eq(got, []string{"the failed call's log entry"}) {
			t.Fatalf("events %v", got)
		}
	})
}

func testConcurrent(t *testing.T, st session.Store) {
	const workers, each = 4, 25
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := session.New(session.WithID("conv-c"), session.WithStore(st)) // a worker of its own
			for i := range each {
				InTx(t, s, func() {
					n, _ := session.Latest(s, Counter)
					session.Seed(s, Counter, n+1)
					session.Append(s, Events, "w"+strconv.Itoa(w)+"-"+strconv.Itoa(i))
				})
			}
		}()
	}
	wg.Wait()
	s := session.New(session.WithID("conv-c"), session.WithStore(st))
	InTx(t, s, func() {
		if n, _ := session.Latest(s, Counter); n != workers*each {
			t.Fatalf("counter %d, want %d: an acknowledged write was lost", n, workers*each)
		}
		if n := session.Len(s, Events); n != workers*each {
			t.Fatalf("%d log entries, want %d", n, workers*each)
		}
	})
}

func testCorrupt(t *testing.T, st session.Store) {
	ctx := context.Background()
	put(t, st, "conv-x", session.Write{State: map[string][][]byte{"test.counter": {[]byte(`"not a number"`)}}})
	s := session.New(session.WithID("conv-x"), session.WithStore(st))
	_, err := s.Begin(ctx, session.ReadWrite)
	var ce *session.CorruptError
	if !errors.As(err, &ce) || ce.Session != "conv-x" || ce.Slice != "test.counter" {
		t.Fatalf("Begin = %v, want a *session.CorruptError naming the session and the slice", err)
	}
	if want := `session "conv-x": stored slice "test.counter" is corrupt: item 0: expected integer, got string "not a number"`; err.Error() != want {
		t.Errorf("error %q\nwant  %q", err, want)
	}
	// The lock was released: the session can be repaired.
	put(t, st, "conv-x", session.Write{State: map[string][][]byte{"test.counter": {[]byte(`7`)}}})
	InTx(t, s, func() {
		if n, _ := session.Latest(s, Counter); n != 7 {
			t.Fatalf("counter %d after repair", n)
		}
	})
}
