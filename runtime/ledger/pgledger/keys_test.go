package pgledger_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/winkgen/wink/internal/pgtest"
)

// Session ids and custom keys holding the key separator, the escape character, its escapes and
// non-ASCII text, called concurrently by separate workers' sessions (each its own Session value, as
// fleet workers have) on a pool of one and two connections shared by the store and the ledger: every
// (session, key) pair runs once and is replayed to the others, no pair is answered with another's
// record, and each session stores each of its titles once.
func TestKeysWithSeparatorsStayApartUnderConcurrencyOnASmallSharedPool(t *testing.T) {
	ids := []string{"conv:a", "conv", "conv%3Aa", "é:", "conv:a:add", "session.conv"}
	titles := []string{"x", "x:y", "é", "a%3Ab", ":"}
	for _, conns := range []int32{1, 2} {
		t.Run(strconv.Itoa(int(conns))+" connections", func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a stall fails, not hangs
			defer cancel()
			r := mustRig(t, openPool(t, pgtest.DSN(t), conns))
			const callsPerPair = 3
			var wg sync.WaitGroup
			var mu sync.Mutex
			runs := map[string]int{}
			for i := range len(ids) * len(titles) * callsPerPair {
				wg.Add(1)
				go func() {
					defer wg.Done()
					id, title := ids[i%len(ids)], titles[(i/len(ids))%len(titles)]
					out, err := r.add(ctx, r.dispatcher(id), title)
					mu.Lock()
					defer mu.Unlock()
					if err != nil || !out.Success {
						t.Errorf("%q %q: %+v %v", id, title, out, err)
						return
					}
					if !out.Replayed {
						runs[id+"\x00"+title]++
					}
				}()
			}
			wg.Wait()
			if len(runs) != len(ids)*len(titles) {
				t.Errorf("%d pairs ran, want %d", len(runs), len(ids)*len(titles))
			}
			for k, n := range runs {
				if n != 1 {
					t.Errorf("%q ran %d times", k, n)
				}
			}
			for _, id := range ids {
				seen := map[string]int{}
				for _, s := range r.steps(t, id) {
					seen[s]++
				}
				for _, title := range titles {
					if seen[title] != 1 {
						t.Errorf("session %q stored %q %d times", id, title, seen[title])
					}
				}
				if len(seen) != len(titles) {
					t.Errorf("session %q stored %v", id, seen)
				}
			}
		})
	}
}
