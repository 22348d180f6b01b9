package wink_test

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// dispatchN dispatches n successful build calls with ids c0..c<n-1> (args is their arguments).
func dispatchN(t testing.TB, d *wink.Dispatcher, n int, args string) {
	t.Helper()
	for i := range n {
		out, err := d.Dispatch(context.Background(), wink.Call{ID: "c" + strconv.Itoa(i), Name: "build", Arguments: []byte(args)})
		if err != nil || !out.Success {
			t.Fatalf("call %d: %+v %v", i, out, err)
		}
	}
}

// checkNewest fails unless ids are the last len(ids) of c0..c<n-1>, in order.
func checkNewest(t *testing.T, what string, ids []string, n int) {
	t.Helper()
	for i, id := range ids {
		if want := "c" + strconv.Itoa(n-len(ids)+i); id != want {
			t.Fatalf("%s entry %d is %s, want %s (the newest entries, in order)", what, i, id, want)
		}
	}
}

func toolIDs(s *session.Session) []string {
	var ids []string
	for ev := range session.Values(s, wink.ToolLog) {
		ids = append(ids, ev.CallID)
	}
	return ids
}

func TestLogsKeepTheNewestEntriesWithinTheEntryLimit(t *testing.T) {
	s := session.New()
	d := &wink.Dispatcher{Registry: registry, Session: s, LogLimits: wink.LogLimits{Entries: 16},
		Policies: []wink.Policy{policy.NewSequentialDependency(deps)}}
	for _, n := range []int{16, 17, 100, 1000} {
		dispatchN(t, d, n, `{}`)
		ids := toolIDs(s)
		// At most the limit; after a trim half of it (8), then growing back to 16.
		if len(ids) > 16 || len(ids) < 8 {
			t.Fatalf("after %d calls ToolLog holds %d entries, want 8 to 16", n, len(ids))
		}
		checkNewest(t, "ToolLog", ids, n)
		var pids []string
		for pc := range session.Values(s, wink.PolicyLog) {
			pids = append(pids, pc.CallID)
		}
		if len(pids) > 16 || len(pids) < 8 {
			t.Fatalf("after %d calls PolicyLog holds %d entries, want 8 to 16", n, len(pids))
		}
		checkNewest(t, "PolicyLog", pids, n)
		session.Clear(s, wink.ToolLog) // a user's change is taken into account at the next trim
		session.Clear(s, wink.PolicyLog)
	}
}

func TestToolLogStaysWithinTheByteLimit(t *testing.T) {
	s := session.New()
	const limit = 20_000
	d := &wink.Dispatcher{Registry: registry, Session: s, LogLimits: wink.LogLimits{Entries: -1, Bytes: limit}}
	args := `{"fail":false` + strings.Repeat(" ", 1000) + `}`
	dispatchN(t, d, 200, args)
	var held int64
	var ids []string
	for ev := range session.Values(s, wink.ToolLog) {
		held += wink.ToolInvokedSize(ev)
		ids = append(ids, ev.CallID)
	}
	if held > limit || held < limit/2-wink.ToolInvokedSize(&wink.ToolInvoked{Arguments: []byte(args)}) {
		t.Fatalf("ToolLog holds %d bytes in %d entries, want at most %d and not much less", held, len(ids), limit)
	}
	checkNewest(t, "ToolLog", ids, 200)
	if ev, _ := session.Latest(s, wink.ToolLog); wink.ToolInvokedSize(ev) < 2*int64(len(args)) {
		t.Fatalf("ToolInvokedSize %d does not count the arguments twice (%d bytes)", wink.ToolInvokedSize(ev), len(args))
	}

	// An event larger than the limit is kept, alone: the newest entry always is.
	d.LogLimits.Bytes = 100
	dispatchN(t, d, 3, args)
	if ids := toolIDs(s); len(ids) != 1 || ids[0] != "c2" {
		t.Fatalf("with a limit below one event the log holds %v, want the newest alone", ids)
	}
}

func TestLogsAreBoundedByDefaultAndKeptWholeOnRequest(t *testing.T) {
	n := wink.DefaultLogEntries * 3
	s := session.New()
	d := &wink.Dispatcher{Registry: registry, Session: s, Policies: []wink.Policy{policy.NewSequentialDependency(deps)}}
	dispatchN(t, d, n, `{}`)
	if got := session.Len(s, wink.ToolLog); got > wink.DefaultLogEntries || got < wink.DefaultLogEntries/2 {
		t.Fatalf("by default ToolLog holds %d of %d events, want at most DefaultLogEntries (%d)", got, n, wink.DefaultLogEntries)
	}
	if got := session.Len(s, wink.PolicyLog); got > wink.DefaultLogEntries {
		t.Fatalf("by default PolicyLog holds %d decisions", got)
	}

	var events int
	kept := session.New()
	d = &wink.Dispatcher{Registry: registry, Session: kept, LogLimits: wink.KeepAllLogs,
		Policies: []wink.Policy{policy.NewSequentialDependency(deps)}, Events: func(*wink.ToolInvoked) { events++ }}
	dispatchN(t, d, n, `{}`)
	if got := session.Len(kept, wink.ToolLog); got != n {
		t.Fatalf("with KeepAllLogs ToolLog holds %d of %d events", got, n)
	}
	if got := session.Len(kept, wink.PolicyLog); got != n {
		t.Fatalf("with KeepAllLogs PolicyLog holds %d of %d decisions", got, n)
	}
	if events != n {
		t.Fatalf("Events received %d of %d events", events, n)
	}
}

// TestBuiltinPoliciesWorkPastTheLogBound: what read_before_write and sequential_dependency know lives in
// their own slices, so a file read (a prerequisite done) long before the log's window still counts.
func TestBuiltinPoliciesWorkPastTheLogBound(t *testing.T) {
	fs := vfs.NewMemory()
	if err := fs.Write("a.txt", []byte("old")); err != nil {
		t.Fatal(err)
	}
	s := session.New()
	d := &wink.Dispatcher{Registry: registry, Session: s, Filesystem: fs, LogLimits: wink.LogLimits{Entries: 8},
		Policies: []wink.Policy{policy.NewReadBeforeWrite(policy.ReadBeforeWriteConfig{}), policy.NewSequentialDependency(deps)}}
	runSteps(t, d, []pstep{
		{"write_file", `{"path":"a.txt","content":"x"}`, "", false},
		{"read_file", `{"path":"a.txt"}`, "", true},
		{"build", `{}`, "", true},
	})
	dispatchN(t, d, 100, `{}`)
	for ev := range session.Values(s, wink.ToolLog) {
		if ev.Name != "build" {
			t.Fatalf("the log still holds %s: the test needs the read out of its window", ev.Name)
		}
	}
	runSteps(t, d, []pstep{
		{"write_file", `{"path":"a.txt","content":"new"}`, "Written.", true},
		{"test", `{}`, "test done.", true},
		{"deploy", `{}`, "deploy done.", true},
	})
}

// TestSessionHeapIsBoundedAfterManyCalls measures the live heap a session keeps after 10,000 calls of
// 2 KB arguments: within the default bound (2 MiB of estimated bytes for both logs) plus a margin, where
// keeping every event holds tens of megabytes.
func TestSessionHeapIsBoundedAfterManyCalls(t *testing.T) {
	args := `{"fail":false` + strings.Repeat(" ", 2000) + `}`
	live := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	grow := func(limits wink.LogLimits) (int64, *session.Session) {
		before := live()
		s := session.New()
		d := &wink.Dispatcher{Registry: registry, Session: s, LogLimits: limits}
		for i := range 10_000 {
			// Fresh arguments per call, as a server decoding requests has.
			call := wink.Call{ID: "c" + strconv.Itoa(i), Name: "build", Arguments: []byte(args)}
			if out, err := d.Dispatch(context.Background(), call); err != nil || !out.Success {
				t.Fatal(out, err)
			}
		}
		return int64(live()) - int64(before), s
	}
	bounded, s := grow(wink.LogLimits{})
	runtime.KeepAlive(s)
	all, s := grow(wink.KeepAllLogs)
	runtime.KeepAlive(s)
	t.Logf("live heap after 10,000 calls: %d KiB bounded, %d KiB keeping every event", bounded>>10, all>>10)
	if limit := int64(3 << 20); bounded > limit {
		t.Fatalf("a session holds %d bytes after 10,000 calls, more than %d", bounded, limit)
	}
	if all < 20<<20 {
		t.Fatalf("keeping every event holds only %d bytes: the measurement does not see the log", all)
	}
}
