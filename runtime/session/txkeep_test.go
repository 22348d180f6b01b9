package session_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/winkgen/wink/runtime/session"
)

// counted records what a transaction did with a participant.
type counted struct{ prepared, done, committed atomic.Int32 }

func (c *counted) Prepare(context.Context, any) error { c.prepared.Add(1); return nil }
func (c *counted) Done(_ context.Context, committed bool) {
	c.done.Add(1)
	if committed {
		c.committed.Add(1)
	}
}

func sessions(t *testing.T) map[string]*session.Session {
	st, err := session.NewMemoryStore()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*session.Session{"memory": session.New(), "stored": session.New(session.WithID("s"), session.WithStore(st))}
}

// TestTxJoinAfterEndChangesNothing: a Tx kept past End refuses Join with ErrTxEnded and runs nothing of
// the refused participant; StoreTx is nil; a second End does nothing; a zero Tx refuses Join with
// ErrTxNotBegun.
func TestTxJoinAfterEndChangesNothing(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			tx, err := s.Begin(ctx, session.ReadWrite)
			if err != nil {
				t.Fatal(err)
			}
			if name == "stored" && tx.StoreTx() == nil {
				t.Fatal("StoreTx() = nil during the transaction")
			}
			in, late := &counted{}, &counted{}
			if err := tx.Join(in); err != nil {
				t.Fatal(err)
			}
			if err := tx.End(ctx); err != nil {
				t.Fatal(err)
			}
			err = tx.Join(late)
			if !errors.Is(err, session.ErrTxEnded) {
				t.Fatalf("Join after End = %v, want an error matching ErrTxEnded", err)
			}
			if err := tx.End(ctx); err != nil {
				t.Fatalf("second End = %v", err)
			}
			if in.prepared.Load() != 1 || in.committed.Load() != 1 || in.done.Load() != 1 {
				t.Errorf("joined participant: prepared %d, done %d, committed %d; want 1 each", in.prepared.Load(), in.done.Load(), in.committed.Load())
			}
			if late.prepared.Load() != 0 || late.done.Load() != 0 {
				t.Errorf("refused participant: prepared %d, done %d; want 0", late.prepared.Load(), late.done.Load())
			}
			if stx := tx.StoreTx(); stx != nil {
				t.Errorf("StoreTx() after End = %v, want nil", stx)
			}
			if tx.Session() == nil {
				t.Error("Session() after End = nil")
			}
		})
	}
	var zero session.Tx
	if err := zero.Join(&counted{}); !errors.Is(err, session.ErrTxNotBegun) {
		t.Errorf("Join on a zero Tx = %v, want ErrTxNotBegun", err)
	}
}

// TestTxJoinConcurrentWithEnd: goroutines keep joining while two others end the transaction at once.
// Every accepted participant is prepared, done and committed exactly once; every refused one is never
// called; the transaction commits once. Run under -race.
func TestTxJoinConcurrentWithEnd(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			for round := range 30 {
				tx, err := s.Begin(ctx, session.ReadWrite)
				if err != nil {
					t.Fatal(err)
				}
				const joiners = 8
				type result struct {
					p  *counted
					ok bool
				}
				results := make([][]result, joiners)
				var wg sync.WaitGroup
				start := make(chan struct{})
				for j := range joiners {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						for {
							p := &counted{}
							err := tx.Join(p)
							_ = tx.StoreTx()
							results[j] = append(results[j], result{p, err == nil})
							if err != nil {
								if !errors.Is(err, session.ErrTxEnded) {
									t.Errorf("Join = %v", err)
								}
								return
							}
							runtime.Gosched()
						}
					}()
				}
				var ends atomic.Int32
				for range 2 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						for range round % 5 {
							runtime.Gosched()
						}
						if err := tx.End(ctx); err != nil {
							t.Errorf("End = %v", err)
						}
						ends.Add(1)
					}()
				}
				close(start)
				wg.Wait()
				for j, rs := range results {
					for i, r := range rs {
						pr, dn, cm := r.p.prepared.Load(), r.p.done.Load(), r.p.committed.Load()
						if r.ok && (pr != 1 || dn != 1 || cm != 1) || !r.ok && (pr != 0 || dn != 0) {
							t.Fatalf("round %d, joiner %d, join %d (accepted %v): prepared %d, done %d, committed %d",
								round, j, i, r.ok, pr, dn, cm)
						}
					}
				}
				if ends.Load() != 2 {
					t.Fatal("an End did not return")
				}
			}
		})
	}
}
