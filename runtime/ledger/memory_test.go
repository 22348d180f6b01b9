package ledger

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// clock is an injected, manually advanced clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: t0} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// waitForWaiters blocks until a run is in flight for key and n callers have
// joined it (n = 0: the run has started). It polls a condition, never a timer.
func waitForWaiters(t *testing.T, fs *flightSet, key string, n int) {
	t.Helper()
	for {
		fs.mu.Lock()
		got := -1
		if fl := fs.m[key]; fl != nil {
			got = fl.waiters
		}
		fs.mu.Unlock()
		if got >= n {
			return
		}
		runtime.Gosched()
	}
}

func entry(key, tool, msg string) Entry {
	return Entry{Key: key, Tool: tool, Message: msg, Value: msg + "-value", Rendered: msg + "\n\n" + msg, Recorded: t0}
}

func TestMemoryLookupMissesThenHitsRecordedEntry(t *testing.T) {
	m := NewMemory()
	if _, ok := m.Lookup("k", t0); ok {
		t.Fatal("Lookup on empty ledger hit")
	}
	want := entry("k", "tool", "done")
	if err := m.Record(want); err != nil {
		t.Fatal(err)
	}
	got, ok := m.Lookup("k", t0.Add(1000*time.Hour))
	if !ok {
		t.Fatal("Lookup missed a recorded entry without expiry")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lookup (-want +got):\n%s", diff)
	}
}

func TestMemoryZeroValueIsUsable(t *testing.T) {
	var m Memory
	if err := m.Record(entry("k", "t", "m")); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Lookup("k", t0); !ok {
		t.Error("zero Memory lost a recorded entry")
	}
	m.Clear()
	if m.Len() != 0 {
		t.Errorf("Len after Clear = %d", m.Len())
	}
}

func TestMemoryRecordRejectsEmptyKey(t *testing.T) {
	m := NewMemory()
	err := m.Record(Entry{Tool: "t"})
	if !errors.Is(err, ErrEmptyKey) || err.Error() != "ledger: entry has an empty key" {
		t.Errorf("Record(empty key) = %v, want ErrEmptyKey", err)
	}
	if m.Len() != 0 {
		t.Errorf("Len = %d after rejected record", m.Len())
	}
}

func TestMemoryRecordReplacesEntry(t *testing.T) {
	m := NewMemory()
	_ = m.Record(entry("k", "t", "first"))
	_ = m.Record(entry("k", "t", "second"))
	got, _ := m.Lookup("k", t0)
	if got.Message != "second" || m.Len() != 1 {
		t.Errorf("after two records: message %q, len %d", got.Message, m.Len())
	}
}

func TestMemoryLookupExpiresAtExpiryInstantAndRemovesEntry(t *testing.T) {
	m := NewMemory()
	e := entry("k", "t", "m")
	e.Expires = t0.Add(time.Hour)
	_ = m.Record(e)
	if _, ok := m.Lookup("k", t0.Add(time.Hour-time.Nanosecond)); !ok {
		t.Error("Lookup missed before expiry")
	}
	if m.Len() != 1 {
		t.Fatalf("Len = %d before expiry", m.Len())
	}
	if _, ok := m.Lookup("k", t0.Add(time.Hour)); ok {
		t.Error("Lookup hit at the expiry instant")
	}
	if m.Len() != 0 {
		t.Errorf("expired entry not removed by Lookup: Len = %d", m.Len())
	}
}

func TestMemoryLookupBeforeExpiryKeepsEntryEvenIfClockGoesBack(t *testing.T) {
	m := NewMemory()
	e := entry("k", "t", "m")
	e.Expires = t0.Add(time.Hour)
	_ = m.Record(e)
	// An expired lookup removes; a later lookup at an earlier time must not resurrect it.
	m.Lookup("k", t0.Add(2*time.Hour))
	if _, ok := m.Lookup("k", t0); ok {
		t.Error("entry removed as expired was returned again")
	}
}

func TestMemoryPruneExpiredRemovesOnlyExpiredAndCounts(t *testing.T) {
	m := NewMemory()
	for i, ttl := range []time.Duration{time.Minute, 2 * time.Minute, time.Hour, 0} {
		e := entry(string(rune('a'+i)), "t", "m")
		if ttl != 0 {
			e.Expires = t0.Add(ttl)
		}
		_ = m.Record(e)
	}
	if n := m.PruneExpired(t0.Add(2 * time.Minute)); n != 2 {
		t.Errorf("PruneExpired = %d, want 2", n)
	}
	if m.Len() != 2 {
		t.Errorf("Len = %d, want 2", m.Len())
	}
	for _, k := range []string{"c", "d"} {
		if _, ok := m.Lookup(k, t0.Add(2*time.Minute)); !ok {
			t.Errorf("live entry %q pruned", k)
		}
	}
	if n := m.PruneExpired(t0.Add(2 * time.Minute)); n != 0 {
		t.Errorf("second PruneExpired = %d, want 0", n)
	}
}

func TestMemoryInvalidateRemovesOnlyThatKey(t *testing.T) {
	m := NewMemory()
	_ = m.Record(entry("k1", "t", "m"))
	_ = m.Record(entry("k2", "t", "m"))
	m.Invalidate("k1")
	m.Invalidate("missing")
	if _, ok := m.Lookup("k1", t0); ok {
		t.Error("invalidated key still found")
	}
	if _, ok := m.Lookup("k2", t0); !ok {
		t.Error("other key removed")
	}
}

func TestMemoryInvalidateToolRemovesOnlyThatToolsEntries(t *testing.T) {
	m := NewMemory()
	_ = m.Record(entry("s:a:1", "a", "m"))
	_ = m.Record(entry("s:a:2", "a", "m"))
	_ = m.Record(entry("s:b:1", "b", "m"))
	m.InvalidateTool("a")
	if m.Len() != 1 {
		t.Errorf("Len = %d, want 1", m.Len())
	}
	if _, ok := m.Lookup("s:b:1", t0); !ok {
		t.Error("other tool's entry removed")
	}
}

func TestMemoryClearRemovesEverything(t *testing.T) {
	m := NewMemory()
	_ = m.Record(entry("k1", "a", "m"))
	_ = m.Record(entry("k2", "b", "m"))
	m.Clear()
	if m.Len() != 0 {
		t.Errorf("Len = %d after Clear", m.Len())
	}
	if _, ok := m.Lookup("k1", t0); ok {
		t.Error("entry found after Clear")
	}
}

func TestDoRecordsSuccessCompletesEntryAndReplays(t *testing.T) {
	m, c := NewMemory(), newClock()
	var runs int
	fn := func() (Entry, bool) {
		runs++
		return Entry{Message: "created", Value: 42, Rendered: "created\n\n42", Key: "ignored", Tool: "ignored"}, true
	}
	e, replayed, err := m.Do(context.Background(), "s:create:k", "create", time.Hour, c.Now, fn)
	if err != nil || replayed {
		t.Fatalf("first Do: replayed=%v err=%v", replayed, err)
	}
	want := Entry{Key: "s:create:k", Tool: "create", Message: "created", Value: 42, Rendered: "created\n\n42",
		Recorded: t0, Expires: t0.Add(time.Hour)}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("first Do entry (-want +got):\n%s", diff)
	}
	c.Advance(time.Minute)
	e2, replayed, err := m.Do(context.Background(), "s:create:k", "create", time.Hour, c.Now, fn)
	if err != nil || !replayed || runs != 1 {
		t.Fatalf("second Do: replayed=%v err=%v runs=%d", replayed, err, runs)
	}
	if diff := cmp.Diff(want, e2); diff != "" {
		t.Errorf("replayed entry (-want +got):\n%s", diff)
	}
}

func TestDoDoesNotRecordFailures(t *testing.T) {
	m, c := NewMemory(), newClock()
	var runs int
	fail := func() (Entry, bool) { runs++; return Entry{Message: "boom"}, false }
	e, replayed, err := m.Do(context.Background(), "k", "t", 0, c.Now, fail)
	if err != nil || replayed || e.Message != "boom" {
		t.Fatalf("failed Do = %+v, %v, %v", e, replayed, err)
	}
	if m.Len() != 0 {
		t.Errorf("failure recorded: Len = %d", m.Len())
	}
	_, replayed, _ = m.Do(context.Background(), "k", "t", 0, c.Now, fail)
	if replayed || runs != 2 {
		t.Errorf("after a failure the handler must run again: replayed=%v runs=%d", replayed, runs)
	}
}

func TestDoExpiredEntryRunsHandlerAgain(t *testing.T) {
	m, c := NewMemory(), newClock()
	var runs int
	fn := func() (Entry, bool) { runs++; return Entry{Message: "ok"}, true }
	m.Do(context.Background(), "k", "t", time.Hour, c.Now, fn)
	c.Advance(59 * time.Minute)
	if _, replayed, _ := m.Do(context.Background(), "k", "t", time.Hour, c.Now, fn); !replayed {
		t.Error("not replayed before expiry")
	}
	c.Advance(time.Minute)
	e, replayed, _ := m.Do(context.Background(), "k", "t", time.Hour, c.Now, fn)
	if replayed || runs != 2 {
		t.Errorf("at expiry: replayed=%v runs=%d, want false 2", replayed, runs)
	}
	if want := t0.Add(2 * time.Hour); !e.Expires.Equal(want) {
		t.Errorf("re-recorded Expires = %v, want %v", e.Expires, want)
	}
}

func TestDoZeroTTLNeverExpires(t *testing.T) {
	m, c := NewMemory(), newClock()
	e, _, _ := m.Do(context.Background(), "k", "t", 0, c.Now, func() (Entry, bool) { return Entry{}, true })
	if !e.Expires.IsZero() {
		t.Errorf("Expires = %v, want zero", e.Expires)
	}
	c.Advance(100 * 365 * 24 * time.Hour)
	if _, ok := m.Lookup("k", c.Now()); !ok {
		t.Error("entry with zero TTL expired")
	}
}

func TestDoNegativeTTLDoesNotRecord(t *testing.T) {
	m, c := NewMemory(), newClock()
	_, _, err := m.Do(context.Background(), "k", "t", -time.Second, c.Now, func() (Entry, bool) { return Entry{}, true })
	if err != nil || m.Len() != 0 {
		t.Errorf("negative TTL: err=%v Len=%d, want nil 0", err, m.Len())
	}
}

func TestDoEmptyKeyAlwaysRunsAndRecordsNothing(t *testing.T) {
	m := NewMemory()
	var runs int
	for range 3 {
		_, replayed, err := m.Do(context.Background(), "", "t", 0, nil, func() (Entry, bool) { runs++; return Entry{}, true })
		if replayed || err != nil {
			t.Fatalf("replayed=%v err=%v", replayed, err)
		}
	}
	if runs != 3 || m.Len() != 0 {
		t.Errorf("runs=%d Len=%d, want 3 0", runs, m.Len())
	}
}

func TestDoNilNowUsesWallClock(t *testing.T) {
	m := NewMemory()
	before := time.Now()
	e, _, _ := m.Do(context.Background(), "k", "t", time.Hour, nil, func() (Entry, bool) { return Entry{}, true })
	if e.Recorded.Before(before) || !e.Expires.Equal(e.Recorded.Add(time.Hour)) {
		t.Errorf("Recorded=%v Expires=%v", e.Recorded, e.Expires)
	}
}

func TestDoConcurrentIdenticalCallsRunHandlerOnce(t *testing.T) {
	const n = 50
	m, c := NewMemory(), newClock()
	var runs atomic.Int32
	release := make(chan struct{})
	fn := func() (Entry, bool) {
		runs.Add(1)
		<-release
		return Entry{Message: "charged", Value: &struct{ ID int }{7}}, true
	}
	type res struct {
		e        Entry
		replayed bool
		err      error
	}
	results := make(chan res, n)
	for range n {
		go func() {
			e, replayed, err := m.Do(context.Background(), "s:charge:k", "charge", time.Hour, c.Now, fn)
			results <- res{e, replayed, err}
		}()
	}
	waitForWaiters(t, &m.fs, "s:charge:k", n-1)
	close(release)
	var replays int
	var first Entry
	for i := range n {
		r := <-results
		if r.err != nil {
			t.Fatalf("Do error: %v", r.err)
		}
		if r.replayed {
			replays++
		}
		if i == 0 {
			first = r.e
		} else if r.e.Value != first.Value || r.e.Message != first.Message || r.e.Recorded != first.Recorded {
			t.Errorf("callers got different entries: %+v vs %+v", r.e, first)
		}
	}
	if got := runs.Load(); got != 1 {
		t.Errorf("handler ran %d times, want 1", got)
	}
	if replays != n-1 {
		t.Errorf("%d results marked replayed, want %d", replays, n-1)
	}
	if m.Len() != 1 {
		t.Errorf("Len = %d, want 1", m.Len())
	}
}

func TestDoDifferentKeysRunConcurrently(t *testing.T) {
	m := NewMemory()
	started := make(chan struct{}, 2)
	release := make(chan struct{})
	fn := func() (Entry, bool) { started <- struct{}{}; <-release; return Entry{}, true }
	done := make(chan struct{}, 2)
	for _, k := range []string{"k1", "k2"} {
		go func() { m.Do(context.Background(), k, "t", 0, nil, fn); done <- struct{}{} }()
	}
	// Both handlers must be running at once; with a global lock the second would never start.
	<-started
	<-started
	close(release)
	<-done
	<-done
}

func TestDoWaitersRetryOneAtATimeAfterFailure(t *testing.T) {
	const n = 10
	m, c := NewMemory(), newClock()
	var runs, running, maxRunning atomic.Int32
	release := make(chan struct{})
	fn := func() (Entry, bool) {
		r := runs.Add(1)
		cur := running.Add(1)
		defer running.Add(-1)
		for {
			mx := maxRunning.Load()
			if cur <= mx || maxRunning.CompareAndSwap(mx, cur) {
				break
			}
		}
		if r == 1 {
			<-release
			return Entry{Message: "failed"}, false
		}
		return Entry{Message: "ok"}, true
	}
	type res struct {
		e        Entry
		replayed bool
	}
	results := make(chan res, n)
	for range n {
		go func() {
			e, replayed, _ := m.Do(context.Background(), "k", "t", 0, c.Now, fn)
			results <- res{e, replayed}
		}()
	}
	waitForWaiters(t, &m.fs, "k", n-1)
	close(release)
	var failed, fresh, replayed int
	for range n {
		r := <-results
		switch {
		case r.e.Message == "failed":
			failed++
		case r.replayed:
			replayed++
		default:
			fresh++
		}
	}
	if failed != 1 || fresh != 1 || replayed != n-2 {
		t.Errorf("failed=%d fresh=%d replayed=%d, want 1 1 %d", failed, fresh, replayed, n-2)
	}
	if runs.Load() != 2 || maxRunning.Load() != 1 {
		t.Errorf("runs=%d max concurrent=%d, want 2 1", runs.Load(), maxRunning.Load())
	}
}

func TestDoFailureThenRetrySucceedsAndRecords(t *testing.T) {
	m, c := NewMemory(), newClock()
	release := make(chan struct{})
	leaderDone := make(chan Entry)
	go func() {
		e, _, _ := m.Do(context.Background(), "k", "t", 0, c.Now, func() (Entry, bool) {
			<-release
			return Entry{Message: "failed"}, false
		})
		leaderDone <- e
	}()
	waitForWaiters(t, &m.fs, "k", 0)
	waiterDone := make(chan bool)
	go func() {
		// waitForWaiters below guarantees this caller joins the failing run.
		_, replayed, _ := m.Do(context.Background(), "k", "t", 0, c.Now, func() (Entry, bool) {
			return Entry{Message: "ok"}, true
		})
		waiterDone <- replayed
	}()
	waitForWaiters(t, &m.fs, "k", 1)
	close(release)
	if e := <-leaderDone; e.Message != "failed" {
		t.Errorf("leader got %q", e.Message)
	}
	if replayed := <-waiterDone; replayed {
		t.Error("waiter of a failed run was marked replayed; it should have run its own handler")
	}
	if e, ok := m.Lookup("k", t0); !ok || e.Message != "ok" {
		t.Errorf("retry not recorded: %+v %v", e, ok)
	}
}

func TestDoContextCancelledWhileWaiting(t *testing.T) {
	m, c := NewMemory(), newClock()
	release := make(chan struct{})
	leaderDone := make(chan error)
	go func() {
		_, _, err := m.Do(context.Background(), "k", "t", 0, c.Now, func() (Entry, bool) {
			<-release
			return Entry{Message: "ok"}, true
		})
		leaderDone <- err
	}()
	waitForWaiters(t, &m.fs, "k", 0)
	ctx, cancel := context.WithCancel(context.Background())
	waiterDone := make(chan error)
	var waiterRan atomic.Bool
	go func() {
		e, replayed, err := m.Do(ctx, "k", "t", 0, c.Now, func() (Entry, bool) { waiterRan.Store(true); return Entry{}, true })
		if replayed || e.Message != "" {
			t.Errorf("cancelled waiter got %+v replayed=%v", e, replayed)
		}
		waiterDone <- err
	}()
	waitForWaiters(t, &m.fs, "k", 1)
	cancel()
	if err := <-waiterDone; !errors.Is(err, context.Canceled) {
		t.Errorf("waiter err = %v, want context.Canceled", err)
	}
	close(release)
	if err := <-leaderDone; err != nil {
		t.Errorf("leader err = %v", err)
	}
	if waiterRan.Load() {
		t.Error("cancelled waiter ran its handler")
	}
	if _, ok := m.Lookup("k", t0); !ok {
		t.Error("leader's result not recorded after a waiter was cancelled")
	}
}

// errOnlyContext reports cancellation through Err but never closes Done, so
// a waiter can only learn of it after its run ends.
type errOnlyContext struct {
	context.Context
	cancelled atomic.Bool
}

func (c *errOnlyContext) Err() error {
	if c.cancelled.Load() {
		return context.Canceled
	}
	return nil
}

func TestDoCancelledWaiterDoesNotRetryAfterFailure(t *testing.T) {
	m := NewMemory()
	release := make(chan struct{})
	go m.Do(context.Background(), "k", "t", 0, nil, func() (Entry, bool) { <-release; return Entry{}, false })
	waitForWaiters(t, &m.fs, "k", 0)
	ctx := &errOnlyContext{Context: context.Background()}
	var waiterRan atomic.Bool
	done := make(chan error)
	go func() {
		_, _, err := m.Do(ctx, "k", "t", 0, nil, func() (Entry, bool) { waiterRan.Store(true); return Entry{}, true })
		done <- err
	}()
	waitForWaiters(t, &m.fs, "k", 1)
	ctx.cancelled.Store(true)
	close(release) // the run fails; the waiter wakes on it and must not retry
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if waiterRan.Load() {
		t.Error("cancelled waiter ran its handler")
	}
}

func TestDoPanicInHandlerReleasesWaitersAndPropagates(t *testing.T) {
	m := NewMemory()
	release := make(chan struct{})
	panicked := make(chan any)
	go func() {
		defer func() { panicked <- recover() }()
		m.Do(context.Background(), "k", "t", 0, nil, func() (Entry, bool) { <-release; panic("handler bug") })
	}()
	waitForWaiters(t, &m.fs, "k", 0)
	waiterDone := make(chan Entry)
	go func() {
		e, _, _ := m.Do(context.Background(), "k", "t", 0, nil, func() (Entry, bool) { return Entry{Message: "ok"}, true })
		waiterDone <- e
	}()
	waitForWaiters(t, &m.fs, "k", 1)
	close(release)
	if p := <-panicked; p != "handler bug" {
		t.Errorf("recovered %v, want the handler's panic", p)
	}
	if e := <-waiterDone; e.Message != "ok" {
		t.Errorf("waiter got %+v, want its own successful run", e)
	}
}

func TestDoInvalidationDuringRunKeepsResultFromBeingRecorded(t *testing.T) {
	tests := []struct {
		name       string
		invalidate func(m *Memory)
	}{
		{"Invalidate", func(m *Memory) { m.Invalidate("s:t:k") }},
		{"InvalidateTool", func(m *Memory) { m.InvalidateTool("t") }},
		{"Clear", func(m *Memory) { m.Clear() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMemory()
			release := make(chan struct{})
			leader := make(chan Entry)
			go func() {
				e, _, _ := m.Do(context.Background(), "s:t:k", "t", 0, nil, func() (Entry, bool) {
					<-release
					return Entry{Message: "ok"}, true
				})
				leader <- e
			}()
			waitForWaiters(t, &m.fs, "s:t:k", 0)
			waiter := make(chan bool)
			go func() {
				_, replayed, _ := m.Do(context.Background(), "s:t:k", "t", 0, nil, nil)
				waiter <- replayed
			}()
			waitForWaiters(t, &m.fs, "s:t:k", 1)
			tt.invalidate(m)
			close(release)
			if e := <-leader; e.Message != "ok" {
				t.Errorf("leader got %+v", e)
			}
			if !<-waiter {
				t.Error("waiter did not share the run's result")
			}
			if _, ok := m.Lookup("s:t:k", time.Now()); ok {
				t.Error("result of an invalidated run was recorded")
			}
		})
	}
}

func TestDoInvalidateOtherToolDoesNotAffectRun(t *testing.T) {
	m := NewMemory()
	release := make(chan struct{})
	done := make(chan struct{})
	go func() {
		m.Do(context.Background(), "s:t:k", "t", 0, nil, func() (Entry, bool) { <-release; return Entry{}, true })
		close(done)
	}()
	waitForWaiters(t, &m.fs, "s:t:k", 0)
	go m.Do(context.Background(), "s:t:k", "t", 0, nil, nil)
	waitForWaiters(t, &m.fs, "s:t:k", 1)
	m.InvalidateTool("other")
	m.Invalidate("s:t:other")
	close(release)
	<-done
	if _, ok := m.Lookup("s:t:k", time.Now()); !ok {
		t.Error("run was kept from recording by an unrelated invalidation")
	}
}

// fakeLedger is a Ledger that counts calls and can fail Record.
type fakeLedger struct {
	memStore
	recordErr error
	records   atomic.Int32
}

func (f *fakeLedger) Record(e Entry) error {
	f.records.Add(1)
	if f.recordErr != nil {
		return f.recordErr
	}
	return f.memStore.Record(e)
}

func TestFlightsAddsDoToAnyLedger(t *testing.T) {
	fl := &fakeLedger{}
	d := NewFlights(fl)
	var runs int
	fn := func() (Entry, bool) { runs++; return Entry{Message: "ok"}, true }
	d.Do(context.Background(), "k", "t", 0, nil, fn)
	_, replayed, _ := d.Do(context.Background(), "k", "t", 0, nil, fn)
	if !replayed || runs != 1 || fl.records.Load() != 1 {
		t.Errorf("replayed=%v runs=%d records=%d, want true 1 1", replayed, runs, fl.records.Load())
	}
	d.InvalidateTool("t")
	if _, ok := d.Lookup("k", time.Now()); ok {
		t.Error("InvalidateTool not forwarded")
	}
	_ = d.Record(Entry{Key: "x", Expires: t0})
	if n := d.PruneExpired(t0); n != 1 {
		t.Errorf("PruneExpired = %d", n)
	}
	_ = d.Record(Entry{Key: "y"})
	d.Invalidate("y")
	_ = d.Record(Entry{Key: "z"})
	d.Clear()
	if len(fl.entries) != 0 {
		t.Errorf("entries left: %v", fl.entries)
	}
}

func TestFlightsRecordErrorReturnsResultAndError(t *testing.T) {
	boom := errors.New("db down")
	fl := &fakeLedger{recordErr: boom}
	d := NewFlights(fl)
	release := make(chan struct{})
	leader := make(chan error)
	go func() {
		e, replayed, err := d.Do(context.Background(), "k", "t", 0, nil, func() (Entry, bool) {
			<-release
			return Entry{Message: "charged"}, true
		})
		if e.Message != "charged" || replayed {
			t.Errorf("leader got %+v replayed=%v", e, replayed)
		}
		leader <- err
	}()
	waitForWaiters(t, &d.fs, "k", 0)
	waiter := make(chan error)
	go func() {
		e, replayed, err := d.Do(context.Background(), "k", "t", 0, nil, nil)
		if e.Message != "charged" || !replayed {
			t.Errorf("waiter got %+v replayed=%v", e, replayed)
		}
		waiter <- err
	}()
	waitForWaiters(t, &d.fs, "k", 1)
	close(release)
	if err := <-leader; !errors.Is(err, boom) {
		t.Errorf("leader err = %v, want %v", err, boom)
	}
	if err := <-waiter; err != nil {
		t.Errorf("waiter err = %v, want nil", err)
	}
}

func TestMemoryDoReplayDoesNotAllocate(t *testing.T) {
	m := NewMemory()
	fn := func() (Entry, bool) { return Entry{Message: "ok"}, true }
	ctx := context.Background()
	m.Do(ctx, "k", "t", 0, nil, fn)
	if n := testing.AllocsPerRun(100, func() { m.Do(ctx, "k", "t", 0, nil, fn) }); n != 0 {
		t.Errorf("replay allocates %v times, want 0", n)
	}
}

func BenchmarkMemoryDoReplay(b *testing.B) {
	m := NewMemory()
	fn := func() (Entry, bool) { return Entry{Message: "ok"}, true }
	m.Do(context.Background(), "session:t:0123456789abcdef", "t", 0, nil, fn)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m.Do(ctx, "session:t:0123456789abcdef", "t", 0, nil, fn)
	}
}

func BenchmarkMemoryDoParallelReplay(b *testing.B) {
	m := NewMemory()
	fn := func() (Entry, bool) { return Entry{Message: "ok"}, true }
	m.Do(context.Background(), "k", "t", 0, nil, fn)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.Do(context.Background(), "k", "t", 0, nil, fn)
		}
	})
}
