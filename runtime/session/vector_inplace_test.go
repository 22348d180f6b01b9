package session

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// An unpublished LOG head grows its trie in place: appending allocates the 32-item chunks and, once
// per 1,024 items, a new interior node, and no path copy of a 512-byte node per chunk.
func TestLogTrieGrowsInPlace(t *testing.T) {
	sl := NewSlice[int]("log_trie_in_place", NoRollback)
	s := New()
	Append(s, sl, 0)
	i := 0
	const n = 3 * 32 * 1024 // the trie grows to three levels
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		i++
		Append(s, sl, i)
	}
	runtime.ReadMemStats(&after)
	allocs := float64(after.Mallocs-before.Mallocs) / n
	t.Logf("%.4f allocations per append", allocs)
	if max := 1.0/32 + 2.0/1024; allocs > max {
		t.Errorf("%.4f allocations per append, want <= %.4f (one chunk per 32 items)", allocs, max)
	}
	v := ViewOf(s, sl)
	if v.Len() != n+1 {
		t.Fatalf("%d items, want %d", v.Len(), n+1)
	}
	for k := range v.Len() {
		if v.At(k) != k {
			t.Fatalf("item %d = %d", k, v.At(k))
		}
	}
}

// Versions that share trie nodes never see each other's in-place growth: a model run of in-place
// appends, pushes from the head (whose result shares its nodes: a stored session's log load), going
// back to an older head (a failed load puts the table back), publishing (a View) and trims, across
// three trie levels, with every version ever made checked against its own items at the end.
func TestVectorInPlaceGrowthKeepsSharedVersionsIntact(t *testing.T) {
	type version struct {
		v    *vector[int]
		want []int
	}
	rng := rand.New(rand.NewPCG(1, 2))
	cur := version{}
	var kept []version
	next := 0
	for range 60000 {
		switch r := rng.IntN(1000); {
		case r < 3 && len(kept) > 0: // back to an older version that nobody published
			k := rng.IntN(len(kept))
			if !kept[k].v.published.Load() {
				cur = version{kept[k].v, slices.Clone(kept[k].want)}
				kept[k].want = cur.want // the version itself grows from here: its model follows it
				kept = slices.Delete(kept, k, k+1)
			}
		case r < 8: // push from the head; keep the old head as it is
			if cur.v != nil {
				kept = append(kept, version{cur.v, slices.Clone(cur.want)})
			}
			cur = version{cur.v.push(next), append(slices.Clone(cur.want), next)}
			next++
		case r < 10 && cur.v != nil: // publish: appends now make a new head
			cur.v.publish()
		case r < 11 && cur.v.len() > 64: // trim the oldest items
			k := rng.IntN(cur.v.len() / 2)
			kept = append(kept, version{cur.v, slices.Clone(cur.want)})
			cur = version{cur.v.dropFront(k), slices.Clone(cur.want[k:])}
		default: // append as a LOG slice does
			if cur.v != nil && cur.v.count > 0 && !cur.v.published.Load() {
				cur.v.pushInPlace(next)
			} else {
				if cur.v != nil {
					kept = append(kept, version{cur.v, slices.Clone(cur.want)})
				}
				cur.v = cur.v.push(next)
			}
			cur.want = append(cur.want, next)
			next++
		}
	}
	if cur.v.shift < 2*bits {
		t.Fatalf("the trie reached shift %d, want three levels", cur.v.shift)
	}
	for k, ver := range append(kept, cur) {
		if got := ver.v.appendTo(nil); !slices.Equal(got, ver.want) {
			t.Fatalf("version %d of %d: %d items differ from its %d", k, len(kept)+1, len(got), len(ver.want))
		}
		for i := range ver.want {
			if ver.v.at(i) != ver.want[i] {
				t.Fatalf("version %d: at(%d) = %d, want %d", k, i, ver.v.at(i), ver.want[i])
			}
		}
	}
}
