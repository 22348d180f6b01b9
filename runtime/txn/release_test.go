package txn_test

import (
	"testing"

	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/txn"
)

// releasing is a part that counts its snapshots' releases, panicking in Release when told to.
type releasing struct {
	released int
	explode  bool
}

func (r *releasing) Snapshot() (any, error) { return 1, nil }
func (r *releasing) Restore(any) error      { return nil }
func (r *releasing) Release(any) {
	r.released++
	if r.explode {
		panic("release exploded")
	}
}

// TestReleaseReleasesEveryPartWhenOnePanics checks that a part's Release that panics stops neither
// the other parts' releases nor the emptying of the Snap (which its owner may then release again,
// as the tool dispatcher does when it recycles a call's frame), and that the panic continues.
func TestReleaseReleasesEveryPartWhenOnePanics(t *testing.T) {
	a, b, c := &releasing{}, &releasing{explode: true}, &releasing{}
	var s txn.Snap
	if err := s.Capture(txn.Parts{Others: []resources.Snapshotable{a, b, c}}); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if pv := recover(); pv != "release exploded" {
				t.Errorf("Release panicked with %v, want the part's panic", pv)
			}
		}()
		s.Release()
	}()
	if a.released != 1 || b.released != 1 || c.released != 1 {
		t.Errorf("releases: %d %d %d, want one each", a.released, b.released, c.released)
	}
	if s.Taken() {
		t.Error("the Snap still holds its parts after a Release that panicked")
	}
	s.Release() // nothing left to release: no second release, no panic
	if a.released != 1 || b.released != 1 || c.released != 1 {
		t.Errorf("a second Release released again: %d %d %d", a.released, b.released, c.released)
	}
}
