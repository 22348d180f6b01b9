package benchmarks

import (
	"context"
	"strconv"
	"testing"

	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// BenchmarkDispatchSearchTxn measures the cost of a transaction: BenchmarkDispatchSearch's dispatch (lookup, strict
// decoding, the no-op handler, the ToolInvoked event, rendering) without ("plain") and with ("txn") a
// transaction and one policy, side by side. The txn dispatcher has a session (snapshotted before the
// handler; it logs every ToolInvoked and PolicyChecked in its LOG slices, as a real agent session does,
// so the logs grow over the run) and an in-memory filesystem of 100 files (snapshotted too), and checks
// a SequentialDependency policy. Both deliver the event to the same sink, so the difference is what the
// transaction and the policy cost.
//
// "txn" starts a new session every 1,000 calls, a long agent session, so that the logs grow as they do
// in use while the heap stays the size of a real process's. "txn_one_session" keeps one session for the
// whole run: its logs stay within their bound (wink.DefaultLogEntries each), dropping their oldest
// half when full, which is what a session of millions of calls pays.
func BenchmarkDispatchSearchTxn(b *testing.B) {
	pol := policy.NewSequentialDependency(map[string][]string{"deploy": {"search_docs"}})
	for _, name := range []string{"plain", "txn", "txn_one_session"} {
		txn := name != "plain"
		perSession := 1000
		if name != "txn" {
			perSession = 0
		}
		b.Run(name, func(b *testing.B) {
			var last *wink.ToolInvoked
			d := &wink.Dispatcher{
				Registry: wink.MustRegistry(WinkTools()),
				Events:   func(e *wink.ToolInvoked) { last = e },
			}
			var s *session.Session
			if txn {
				fs := vfs.NewMemory()
				for i := range 100 {
					if err := fs.Write("src/f"+strconv.Itoa(i)+".go", []byte("package src")); err != nil {
						b.Fatal(err)
					}
				}
				s = session.New()
				d.Session = s
				d.Filesystem = fs
				d.Policies = []wink.Policy{pol}
			}
			call := wink.Call{ID: "call_1", Name: "search_docs", Arguments: payload}
			ctx := context.Background()
			b.ReportAllocs()
			b.SetBytes(int64(len(payload)))
			n := 0 // calls in the current session
			done := cpuPerOp(b)
			for b.Loop() {
				if perSession > 0 && n == perSession {
					s = session.New()
					d.Session = s
					n = 0
				}
				out, err := d.Dispatch(ctx, call)
				if err != nil || !out.Success {
					b.Fatal(out, err)
				}
				n++
			}
			done()
			if last == nil || !last.Success {
				b.Fatalf("last event = %+v", last)
			}
			if txn {
				want := min(n, wink.DefaultLogEntries) // the logs' bound; the oldest go first
				if got := session.Len(s, wink.ToolLog); got > want || got < want/2 {
					b.Fatalf("ToolLog holds %d events after %d calls in the session, want %d or down to half that", got, n, want)
				}
				if got := session.Len(s, wink.PolicyLog); got > want || got < want/2 {
					b.Fatalf("PolicyLog holds %d decisions after %d calls in the session, want %d or down to half that", got, n, want)
				}
			}
		})
	}
}
