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
