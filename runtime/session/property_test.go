package session

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// model is the naive reference: deep copies of every slice.
type model struct {
	items     [3][]int
	retention [3]Retention
}

func (m model) clone() model {
	c := m
	for i := range c.items {
		c.items[i] = slices.Clone(m.items[i])
	}
	return c
}

type taken struct {
	sn    Snapshot
	state model
}

type heldView struct {
	v    View[int]
	want []int
}

// TestPropertyAgainstModel runs random operations, snapshots and restores
// (of any earlier snapshot, any number of times) against a model made of deep
// copies, and checks that Views taken along the way never change.
func TestPropertyAgainstModel(t *testing.T) {
	for seed := range uint64(12) {
		t.Run("seed="+strconv.FormatUint(seed, 10), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 99))
			s := New()
			sls := [3]Slice[int]{
				NewSlice[int]("a", Rollback),
				NewSlice[int]("b", Rollback),
				NewSlice[int]("log", NoRollback),
			}
			m := model{retention: [3]Retention{Rollback, Rollback, NoRollback}}
			ev := NewEvent[int]("ev")
			// Reducers: append e to a, and to b when e is even; fail when e%7 == 0
			// after having appended (checks atomicity).
			On(s, ev, sls[0], func(_ View[int], e int) (Op[int], error) { return Appended(e), nil })
			On(s, ev, sls[2], func(_ View[int], e int) (Op[int], error) { return Appended(e, e), nil })
			On(s, ev, sls[1], func(v View[int], e int) (Op[int], error) {
				if e%7 == 0 {
					panic("seven")
				}
				if e%2 == 0 {
					return Appended(e), nil
				}
				return Unchanged[int](), nil
			})
			var snaps []taken
			var views []heldView
			next, longest := 0, 0
			for step := range 2500 {
				k := r.IntN(3)
				switch op := r.IntN(100); {
				case op < 55:
					n := 1 + r.IntN(40)
					for range n {
						next++
						Append(s, sls[k], next)
						m.items[k] = append(m.items[k], next)
					}
				case op < 60:
					n := r.IntN(70)
					if r.IntN(3) == 0 {
						n = 1000 + r.IntN(1200) // straddle the second trie level
					}
					vs := make([]int, n)
					for i := range vs {
						next++
						vs[i] = next
					}
					Seed(s, sls[k], vs...)
					m.items[k] = slices.Clone(vs)
				case op < 62:
					Clear(s, sls[k])
					m.items[k] = nil
				case op < 65:
					cut := r.IntN(len(m.items[k]) + 1)
					Replace(s, sls[k], func(items []int) []int { return items[:cut] })
					m.items[k] = m.items[k][:cut]
				case op < 75:
					next++
					err := Apply(s, ev, next)
					if next%7 == 0 {
						if err == nil {
							t.Fatalf("step %d: failing reducer did not fail", step)
						}
					} else {
						if err != nil {
							t.Fatalf("step %d: %v", step, err)
						}
						m.items[0] = append(m.items[0], next)
						m.items[2] = append(m.items[2], next, next)
						if next%2 == 0 {
							m.items[1] = append(m.items[1], next)
						}
					}
				case op < 85:
					snaps = append(snaps, taken{s.Snapshot(), m.clone()})
				case op < 95:
					if len(snaps) == 0 {
						continue
					}
					tk := snaps[r.IntN(len(snaps))]
					s.Restore(tk.sn)
					for i := range m.items {
						if m.retention[i] == Rollback {
							m.items[i] = slices.Clone(tk.state.items[i])
						}
					}
				default:
					views = append(views, heldView{ViewOf(s, sls[k]), slices.Clone(m.items[k])})
				}
				for i, sl := range sls {
					want := m.items[i]
					if len(want) == 0 {
						want = nil
					}
					got := All(s, sl)
					if !slices.Equal(want, got) || (want == nil) != (got == nil) {
						t.Fatalf("step %d slice %s (-model +session):\n%s", step, sl.Name(), cmp.Diff(want, got))
					}
					longest = max(longest, len(want))
					if Len(s, sl) != len(want) {
						t.Fatalf("step %d slice %s: Len %d, want %d", step, sl.Name(), Len(s, sl), len(want))
					}
				}
			}
			if longest <= 32*32+32 {
				t.Errorf("slices reached only %d items; the test must exercise two trie levels", longest)
			}
			for i, hv := range views {
				want := hv.want
				if len(want) == 0 {
					want = nil
				}
				// As cmp.Diff compares (a nil slice differs from an empty one), which is called only to show
				// a difference: under -race it costs more than the session's own work.
				if got := hv.v.All(); !slices.Equal(want, got) || (want == nil) != (got == nil) {
					t.Fatalf("view %d changed (-want +got):\n%s", i, cmp.Diff(want, got))
				}
			}
		})
	}
}

// TestConcurrentUse is meant for -race: appenders, dispatchers, snapshotters
// and readers on one session (restores would undo appends, so none here). Every read must be a prefix-consistent list of
// what the writers produced.
func TestConcurrentUse(t *testing.T) {
	s := New()
	st := NewSlice[int]("conc_state", Rollback)
	lg := NewSlice[int]("conc_log", NoRollback)
	ev := NewEvent[int]("conc_ev")
	OnAppend(s, ev, lg, func(e int) int { return e })
	const writers, per = 4, 300
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range per {
				Append(s, st, w*per+i)
				if err := Apply(s, ev, w*per+i); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				v := ViewOf(s, lg)
				all := v.All()
				if len(all) != v.Len() {
					t.Errorf("view All has %d items, Len %d", len(all), v.Len())
					return
				}
				seen := map[int]bool{}
				for _, x := range all {
					if seen[x] || x < 0 || x >= writers*per {
						t.Errorf("bad item %d", x)
						return
					}
					seen[x] = true
				}
				_ = Where(s, st, func(x int) bool { return x%3 == 0 })
				_, _ = Latest(s, st)
			}
		})
	}
	readers.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			_ = s.Snapshot() // shares the table with writers' copy-on-write
		}
	})
	wg.Wait()
	close(stop)
	readers.Wait()
	if got := Len(s, lg); got != writers*per {
		t.Errorf("log has %d items, want %d", got, writers*per)
	}
	got := All(s, st)
	slices.Sort(got)
	if !slices.Equal(got, ints(writers*per)) {
		t.Errorf("state has %d items, want all %d", len(got), writers*per)
	}
}
