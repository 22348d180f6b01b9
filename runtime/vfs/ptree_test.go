package vfs

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// checkBtree verifies the B-tree invariants: keys sorted and within their separators, every leaf at the same
// depth, node sizes within [bmin, bmax] (the root: [1, bmax], an internal root at least 2 children). It
// returns the entries in walk order.
func checkBtree(t *testing.T, b *bnode) []string {
	t.Helper()
	if b == nil {
		return nil
	}
	leafDepth := -1
	var names []string
	var rec func(n *bnode, depth int, lo, hi string, hasHi, root bool)
	rec = func(n *bnode, depth int, lo, hi string, hasHi, root bool) {
		size := len(n.keys)
		switch {
		case size > bmax:
			t.Fatalf("node with %d keys, more than bmax=%d", size, bmax)
		case !root && size < bmin:
			t.Fatalf("non-root node with %d keys, fewer than bmin=%d", size, bmin)
		case root && !n.leaf() && size < 2:
			t.Fatalf("internal root with %d children", size)
		case root && size == 0:
			t.Fatal("empty root node (an empty tree must be nil)")
		}
		for i, bk := range n.keys {
			k := bk.s
			if bk != mkKey(k) {
				t.Fatalf("key %q has prefix %x, want %x", k, bk.pre, mkKey(k).pre)
			}
			if k < lo || (hasHi && k >= hi) {
				t.Fatalf("key %q outside its range [%q, %q)", k, lo, hi)
			}
			if i > 0 && n.keys[i-1].s >= k {
				t.Fatalf("keys out of order: %q then %q", n.keys[i-1].s, k)
			}
		}
		if n.leaf() {
			if len(n.vals) != size {
				t.Fatalf("leaf with %d keys and %d values", size, len(n.vals))
			}
			if leafDepth == -1 {
				leafDepth = depth
			} else if leafDepth != depth {
				t.Fatalf("leaves at depths %d and %d", leafDepth, depth)
			}
			for _, k := range n.keys {
				names = append(names, k.s)
			}
			return
		}
		if len(n.kids) != size || n.vals != nil {
			t.Fatalf("internal node with %d keys, %d children, %d values", size, len(n.kids), len(n.vals))
		}
		for i, c := range n.kids {
			clo := n.keys[i].s
			if i == 0 && root {
				clo = lo
			}
			chi, chasHi := hi, hasHi
			if i+1 < size {
				chi, chasHi = n.keys[i+1].s, true
			}
			rec(c, depth+1, clo, chi, chasHi, false)
		}
	}
	rec(b, 0, "", "", false, true)
	return names
}

type btreeVersion struct {
	tree  *bnode
	model map[string]*mnode
}

func checkVersion(t *testing.T, v btreeVersion) {
	t.Helper()
	names := checkBtree(t, v.tree)
	want := make([]string, 0, len(v.model))
	for k := range v.model {
		want = append(want, k)
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, names, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("entries differ from the model (-want +got):\n%s", diff)
	}
	var walked []string
	bwalk(v.tree, func(name string, n *mnode) bool {
		if v.model[name] != n {
			t.Fatalf("bwalk: %q has the wrong value", name)
		}
		walked = append(walked, name)
		return true
	})
	if !slices.Equal(walked, want) {
		t.Fatalf("bwalk order %v, want %v", walked, want)
	}
	for k, n := range v.model {
		if got := bget(v.tree, k); got != n {
			t.Fatalf("bget(%q) = %p, want %p", k, got, n)
		}
	}
}

// TestBtreeRandomOperationsMatchModelAndKeepOldVersions drives the persistent B-tree through thousands of
// inserts, overwrites (through bput and through a finger) and deletes on a key space large enough to split
// and merge nodes at several levels, checks the invariants and the contents against a map, and checks
// that every earlier version is unchanged at the end (nothing is modified in place).
func TestBtreeRandomOperationsMatchModelAndKeepOldVersions(t *testing.T) {
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 11))
		var tree *bnode
		model := map[string]*mnode{}
		var versions []btreeVersion
		maxHeight := 0
		keySpace := []int{40, 3000, 3000, 600}[seed]
		for step := range 6000 {
			// Half the names share a prefix longer than the 8 bytes keys compare as integers.
			i := r.IntN(keySpace)
			k := []string{"k", "shared-prefix-"}[i%2] + strconv.Itoa(i)
			switch op := r.IntN(10); {
			case op < 5: // insert or overwrite with bput
				n := &mnode{mtime: int64(step)}
				tree = bput(tree, k, n)
				model[k] = n
			case op < 7: // overwrite through a finger when present
				var f finger
				old, exact := f.seek(tree, k)
				if old != model[k] {
					t.Fatalf("seek(%q) = %p, want %p", k, old, model[k])
				}
				if exact {
					n := &mnode{mtime: int64(step)}
					tree = f.set(n)
					model[k] = n
				}
			default:
				var ok bool
				tree, ok = bdel(tree, k)
				if _, had := model[k]; ok != had {
					t.Fatalf("bdel(%q) reported %v, model has it: %v", k, ok, had)
				}
				delete(model, k)
			}
			if step%97 == 0 || step == 5999 {
				versions = append(versions, btreeVersion{tree, maps.Clone(model)})
				maxHeight = max(maxHeight, height(tree))
				checkVersion(t, versions[len(versions)-1])
			}
		}
		// Delete everything: the tree ends empty (nil), through every merge path.
		for _, k := range slices.Sorted(maps.Keys(model)) {
			var ok bool
			if tree, ok = bdel(tree, k); !ok {
				t.Fatalf("bdel(%q) of a present key reported false", k)
			}
		}
		if tree != nil {
			t.Fatalf("tree not empty after deleting every key")
		}
		if want := []int{1, 3, 3, 2}[seed]; maxHeight < want {
			t.Fatalf("the tree never grew to %d levels (max %d): the test does not exercise splits", want, maxHeight)
		}
		for _, v := range versions {
			checkVersion(t, v)
		}
	}
}

func height(b *bnode) int {
	h := 0
	for ; b != nil; h++ {
		if b.leaf() {
			return h + 1
		}
		b = b.kids[0]
	}
	return h
}
