package wink_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// TestPolicyLogKeepsEveryFieldOfEveryDecision appends decisions whose fields vary in every way the
// log's packed storage encodes (names repeated and fresh, call ids shared across policies, empty and
// long reasons, both decisions, times with and without a monotonic reading, in UTC, in time.Local
// and in other zones, the zero time) and reads them back with every reader: each comes back equal
// (==, which compares a Time's wall clock, monotonic reading and location), and its Time keeps its
// location and its monotonic reading (a duration measured from it is the same).
func TestPolicyLogKeepsEveryFieldOfEveryDecision(t *testing.T) {
	now := time.Now()
	zone := time.FixedZone("X", 3600)
	times := []time.Time{
		now, now.Round(0), now.UTC(), now.In(zone), now.Add(90 * time.Minute), now.Add(-time.Nanosecond),
		{}, time.Date(1850, 1, 1, 0, 0, 0, 1, time.UTC), time.Date(2300, 12, 31, 23, 59, 59, 999999999, time.Local),
		time.Unix(1<<40, 0), now.Add(48 * time.Hour).Round(0).Local(),
	}
	long := strings.Repeat("a reason that is long enough to matter ", 50)
	var want []wink.PolicyChecked
	for i := range 32*9 + 7 {
		pc := wink.PolicyChecked{
			Tool:    []string{"search_docs", "deploy", "", "t" + strconv.Itoa(i)}[i%4],
			CallID:  "call_" + strconv.Itoa(i/3), // three decisions per call
			Policy:  []string{"sequential_dependency", "read_before_write", "p" + strconv.Itoa(i%40)}[i%3],
			Allowed: i%5 != 0,
			Time:    times[(i/7)%len(times)],
		}
		if !pc.Allowed {
			pc.Reason = []string{"denied", long, "", "no " + strconv.Itoa(i)}[i%4]
		}
		if i >= 32*4 && i < 32*5 { // a group in other zones only: kept as values
			pc.Time = now.In(zone).Add(time.Duration(i))
		}
		want = append(want, pc)
	}
	s := session.New()
	for _, pc := range want {
		session.Append(s, wink.PolicyLog, pc)
	}
	check := func(how string, got []wink.PolicyChecked) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d decisions, want %d", how, len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g != w {
				t.Fatalf("%s: decision %d = %+v, want %+v", how, i, g, w)
			}
			if g.Time.Location() != w.Time.Location() || g.Time.Sub(now) != w.Time.Sub(now) || g.Time.String() != w.Time.String() {
				t.Fatalf("%s: decision %d's time is %v, want %v", how, i, g.Time, w.Time)
			}
		}
	}
	check("All", session.All(s, wink.PolicyLog))
	v := session.ViewOf(s, wink.PolicyLog)
	var at, vals []wink.PolicyChecked
	for i := range v.Len() {
		at = append(at, v.At(i))
	}
	for pc := range v.Values() {
		vals = append(vals, pc)
	}
	check("View.At", at)
	check("Values", vals)
	if l, ok := session.Latest(s, wink.PolicyLog); !ok || l != want[len(want)-1] {
		t.Fatalf("Latest = %+v", l)
	}
	// More decisions after the view: the view keeps its own.
	for _, pc := range want {
		session.Append(s, wink.PolicyLog, pc)
	}
	check("a view after more appends", v.All())
	check("the newest half", session.All(s, wink.PolicyLog)[len(want):])
}

// TestPolicyLogBoundKeepsTheNewestDecisions fills PolicyLog through AppendBounded well past its
// bound, as the dispatcher does: it holds the newest half to all of the bound, in order, every field
// intact.
func TestPolicyLogBoundKeepsTheNewestDecisions(t *testing.T) {
	s := session.New()
	start := time.Now()
	const n = 5000
	b := session.Bound{Entries: wink.DefaultLogEntries, Bytes: wink.DefaultLogBytes}
	for i := range n {
		pc := wink.PolicyChecked{Tool: "search_docs", CallID: "call_" + strconv.Itoa(i), Policy: "sequential_dependency",
			Allowed: i%2 == 0, Time: start.Add(time.Duration(i))}
		session.AppendBounded(s, wink.PolicyLog, pc, wink.PolicyCheckedSize(pc), b, wink.PolicyCheckedSize)
	}
	got := session.All(s, wink.PolicyLog)
	if len(got) < wink.DefaultLogEntries/2 || len(got) > wink.DefaultLogEntries {
		t.Fatalf("PolicyLog holds %d decisions", len(got))
	}
	for k, pc := range got {
		i := n - len(got) + k
		want := wink.PolicyChecked{Tool: "search_docs", CallID: "call_" + strconv.Itoa(i), Policy: "sequential_dependency",
			Allowed: i%2 == 0, Time: start.Add(time.Duration(i))}
		if pc != want {
			t.Fatalf("decision %d = %+v, want %+v", k, pc, want)
		}
	}
}
