package ledger_test

import (
	"context"
	"fmt"
	"time"

	"github.com/winkgen/wink/runtime/ledger"
)

// Do runs a call once per key: the second call with the same key replays the recorded entry instead of
// running the handler again.
func ExampleMemory_Do() {
	l := ledger.NewMemory()
	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	key := ledger.AutoKey(ledger.SessionScope("s1"), "send_invoice", []byte(`{"order":42}`))
	runs := 0
	send := func() (ledger.Entry, bool) {
		runs++
		return ledger.Entry{Message: "Invoice sent."}, true
	}
	for range 2 {
		e, replayed, err := l.Do(context.Background(), key, "send_invoice", time.Hour, now, send)
		fmt.Println(e.Message, replayed, err)
	}
	fmt.Println("runs:", runs)
	// Output:
	// Invoice sent. false <nil>
	// Invoice sent. true <nil>
	// runs: 1
}

// Keys name their scope and tool; the Params strategy hashes only the selected fields, so calls that
// differ elsewhere share a key.
func ExampleParamsKey() {
	a := ledger.ParamsKey("orders", "refund", []ledger.Field{{Name: "order_id", JSON: []byte(`"A-17"`)}})
	b := ledger.ParamsKey("orders", "refund", []ledger.Field{{Name: "order_id", JSON: []byte(`"A-17"`)}})
	c := ledger.ParamsKey("orders", "refund", []ledger.Field{{Name: "order_id", JSON: []byte(`"B-3"`)}})
	fmt.Println(a == b, a == c)
	fmt.Println(ledger.CustomKey("orders", "refund", "A-17"))
	// Output:
	// true false
	// orders:refund:A-17
}
