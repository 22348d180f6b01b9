// Package storetest is the behaviour every session.Store must have, run by the tests of each
// implementation (the memory store and pgstore) against a store they make.
package storetest

import (
	"context"
	"errors"
	"math"
	"strconv"
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

// The slices the conformance tests store.
var (
	Plan    = session.NewSlice[string]("test.plan", session.State, session.WithCodec(StringCodec))
	Counter = session.NewSlice[int64]("test.counter", session.State, session.WithCodec(IntCodec))
	Events  = session.NewSlice[string]("test.events", session.Log, session.WithCodec(StringCodec))
	Scratch = session.NewSlice[string]("test.scratch", session.State) // memory only
)

// Slices are the slices a store under test must keep.
func Slices() []session.Persistent { return []session.Persistent{Plan, Counter, Events} }

// Run runs the conformance tests against stores made by newStore (a new, empty store each call, keeping
// Slices()).
func Run(t *testing.T, newStore func(t *testing.T) session.Store) {
	t.Run("SessionsShareAndResumeThroughTheStore", func(t *testing.T) { testShare(t, newStore(t)) })
	t.Run("FailedCallCommitsOnlyItsLogEntries", func(t *testing.T) { testFailed(t, newStore(t)) })
	t.Run("ConcurrentWorkersLoseNoAcknowledgedWrite", func(t *testing.T) { testConcurrent(t, newStore(t)) })
	t.Run("CorruptItemIsReportedWithSessionAndSlice", func(t *testing.T) { testCorrupt(t, newStore(t)) })
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
	stx, _, err := st.Begin(ctx, "conv-x", session.ReadWrite, session.Known{Version: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stx.Commit(ctx, session.Write{State: map[string][][]byte{"test.counter": {[]byte(`"not a number"`)}}}); err != nil {
		t.Fatal(err)
	}
	s := session.New(session.WithID("conv-x"), session.WithStore(st))
	_, err = s.Begin(ctx, session.ReadWrite)
	var ce *session.CorruptError
	if !errors.As(err, &ce) || ce.Session != "conv-x" || ce.Slice != "test.counter" {
		t.Fatalf("Begin = %v, want a *session.CorruptError naming the session and the slice", err)
	}
	if want := `session "conv-x": stored slice "test.counter" is corrupt: item 0: expected integer, got string "not a number"`; err.Error() != want {
		t.Errorf("error %q\nwant  %q", err, want)
	}
	// The lock was released: the session can be repaired.
	stx, _, err = st.Begin(ctx, "conv-x", session.ReadWrite, session.Known{Version: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stx.Commit(ctx, session.Write{State: map[string][][]byte{"test.counter": {[]byte(`7`)}}}); err != nil {
		t.Fatal(err)
	}
	InTx(t, s, func() {
		if n, _ := session.Latest(s, Counter); n != 7 {
			t.Fatalf("counter %d after repair", n)
		}
	})
}
