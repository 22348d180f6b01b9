package session

import (
	"slices"
	"testing"
)

// build (bottom-up) and push (incremental) must produce the same layout:
// a built vector is extended with push, and a pushed one is read with at.
func TestVectorBuildAndPushAgree(t *testing.T) {
	for _, n := range sizes {
		var pushed *vector[int]
		for i := range n {
			pushed = pushed.push(i)
		}
		built := build(ints(n))
		if pushed.len() != n || built.len() != n {
			t.Fatalf("n=%d len pushed %d built %d", n, pushed.len(), built.len())
		}
		if n > 0 && (pushed.shift != built.shift) {
			t.Fatalf("n=%d shift pushed %d built %d", n, pushed.shift, built.shift)
		}
		for i := range n {
			if pushed.at(i) != i || built.at(i) != i {
				t.Fatalf("n=%d at(%d): pushed %d built %d", n, i, pushed.at(i), built.at(i))
			}
		}
		if !slices.Equal(pushed.appendTo(nil), built.appendTo(nil)) {
			t.Fatalf("n=%d appendTo differs", n)
		}
	}
}

// Two pushes from one version must not see each other (the tail claim).
func TestVectorForksDoNotInterfere(t *testing.T) {
	for _, n := range []int{0, 5, 31, 32, 33, 1024, 1056} {
		base := build(ints(n))
		a := base.push(-1)
		b := base.push(-2)
		a2 := a.push(-3)
		b2 := b.push(-4)
		c := base.push(-5) // third fork; also reuses the memoised trie at n%32 == 0
		check := func(name string, v *vector[int], extra ...int) {
			t.Helper()
			want := append(ints(n), extra...)
			if got := v.appendTo(nil); !slices.Equal(got, want) {
				t.Fatalf("n=%d %s: tail %v, want tail %v", n, name, got[max(0, len(got)-3):], want[max(0, len(want)-3):])
			}
		}
		check("base", base)
		check("a", a, -1)
		check("b", b, -2)
		check("a2", a2, -1, -3)
		check("b2", b2, -2, -4)
		check("c", c, -5)
	}
}

// dropFront then push, at, each and further drops agree with a plain slice, at every size and
// alignment (leaves dropped whole, the trie's leaves all gone, a drop inside the tail), and the
// version dropped from is unchanged.
func TestVectorDropFrontAgreesWithASlice(t *testing.T) {
	for _, n := range []int{1, 5, 31, 32, 33, 63, 64, 65, 100, 1023, 1024, 1025, 1056, 3000} {
		for _, k := range []int{0, 1, 31, 32, 33, n / 2, n - 33, n - 32, n - 31, n - 1, n} {
			if k < 0 || k > n {
				continue
			}
			base := build(ints(n))
			v := base.dropFront(k)
			model := ints(n)[k:]
			for round := range 3 {
				if got := v.appendTo(nil); !slices.Equal(got, model) && (len(got) > 0 || len(model) > 0) {
					t.Fatalf("n=%d k=%d round %d: appendTo has %d items, want %d", n, k, round, len(got), len(model))
				}
				if v.len() != len(model) {
					t.Fatalf("n=%d k=%d round %d: len %d, want %d", n, k, round, v.len(), len(model))
				}
				for i := range model {
					if v.at(i) != model[i] {
						t.Fatalf("n=%d k=%d round %d: at(%d) = %d, want %d", n, k, round, i, v.at(i), model[i])
					}
				}
				// grow past a leaf and a level, then drop again
				for i := range 1100 {
					x := 100000*(round+1) + i
					if i%2 == 0 {
						v = v.push(x)
					} else if v != nil {
						v.pushInPlace(x)
					} else {
						v = v.push(x)
					}
					model = append(model, x)
				}
				d := len(model) / 2
				v = v.dropFront(d)
				model = model[d:]
			}
			if !slices.Equal(base.appendTo(nil), ints(n)) {
				t.Fatalf("n=%d k=%d: the version dropped from changed", n, k)
			}
		}
	}
}

// A dropped leaf is referenced no more: after dropping every item but the tail's, the trie holds
// no leaf; after dropping half, the leaves from the first kept item's on, and the trie is as deep as
// for what it keeps.
func TestVectorDropFrontReleasesLeaves(t *testing.T) {
	v := build(ints(2000)).dropFront(2000 - 16)
	if v.root != nil {
		t.Fatalf("root = %T, want nil (every leaf below the kept items dropped)", v.root)
	}
	v = build(ints(2000)).dropFront(1000)
	leaves := 0
	var walk func(n any, shift uint)
	walk = func(n any, shift uint) {
		if n == nil {
			return
		}
		if shift == 0 {
			leaves++
			return
		}
		for _, k := range n.(*inner).kids {
			walk(k, shift-bits)
		}
	}
	walk(v.root, v.shift)
	if want := 62 - 1000/32; leaves != want { // 1984 items in 62 leaves, then the tail
		t.Fatalf("%d leaves kept, want %d", leaves, want)
	}
}

// However many items a bounded log ever had, its trie is as deep as for what it keeps.
func TestVectorDropFrontKeepsTheTrieShallow(t *testing.T) {
	var v *vector[int]
	for i := range 200000 {
		v = v.push(i)
		if v.len() > 1000 {
			v = v.dropFront(500)
		}
	}
	if v.shift > bits {
		t.Fatalf("shift %d after 200,000 appends keeping at most 1000, want at most %d", v.shift, bits)
	}
	if got := v.appendTo(nil); got[0] != 200000-len(got) || got[len(got)-1] != 199999 {
		t.Fatalf("items %d..%d", got[0], got[len(got)-1])
	}
}
