package ledger

import (
	"context"
	"sync"
	"testing"
	"time"
)

// fakeTxn is a transaction that ends when the test says, committing or not.
type fakeTxn struct {
	mu sync.Mutex
	ps []Participant
}

func (t *fakeTxn) Join(p Participant) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ps = append(t.ps, p)
}

func (t *fakeTxn) end(committed bool) error {
	t.mu.Lock()
	ps := t.ps
	t.mu.Unlock()
	var err error
	if committed {
		for _, p := range ps {
			if err = p.Prepare(context.Background(), nil); err != nil {
				committed = false
				break
			}
		}
	}
	for _, p := range ps {
		p.Done(context.Background(), committed)
	}
	return err
}

// A success whose transaction does not commit is not recorded, and the callers that waited on it run
// the call again; one whose transaction commits is recorded, and the waiters are answered with it only
// then. Memory and Flights alike.
func TestDoTxRecordsOnlyWhatItsTransactionKept(t *testing.T) {
	for _, c := range []struct {
		name string
		d    TxDoer
	}{{"memory", NewMemory()}, {"flights", NewFlights(&memStore{})}} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			txn := &fakeTxn{}
			e, replayed, err := c.d.DoTx(ctx, "k", "tool", 0, nil, func() (Entry, bool, Txn) {
				return Entry{Message: "first"}, true, txn
			})
			if err != nil || replayed || e.Message != "first" {
				t.Fatalf("%+v %v %v", e, replayed, err)
			}
			if _, ok := c.d.Lookup("k", time.Now()); ok {
				t.Fatal("recorded before its transaction committed")
			}
			// A waiter is answered only once the transaction has ended.
			waited := make(chan Entry, 1)
			go func() {
				e, _, _ := c.d.DoTx(ctx, "k", "tool", 0, nil, func() (Entry, bool, Txn) {
					return Entry{Message: "waiter ran"}, true, nil
				})
				waited <- e
			}()
			select {
			case e := <-waited:
				t.Fatalf("the waiter was answered %+v before the transaction ended", e)
			case <-time.After(50 * time.Millisecond):
			}
			_ = txn.end(false)
			if e := <-waited; e.Message != "waiter ran" {
				t.Fatalf("after a rolled-back transaction the waiter got %+v, want to run the call itself", e)
			}
			if got, ok := c.d.Lookup("k", time.Now()); !ok || got.Message != "waiter ran" {
				t.Fatalf("lookup %+v %v", got, ok)
			}
			// Committed: recorded, replayed.
			txn = &fakeTxn{}
			if _, _, err := c.d.DoTx(ctx, "k2", "tool", 0, nil, func() (Entry, bool, Txn) { return Entry{Message: "kept"}, true, txn }); err != nil {
				t.Fatal(err)
			}
			if err := txn.end(true); err != nil {
				t.Fatal(err)
			}
			if e, replayed, _ := c.d.DoTx(ctx, "k2", "tool", 0, nil, func() (Entry, bool, Txn) {
				t.Error("ran again after a committed success")
				return Entry{}, false, nil
			}); !replayed || e.Message != "kept" {
				t.Fatalf("%+v %v", e, replayed)
			}
		})
	}
}
