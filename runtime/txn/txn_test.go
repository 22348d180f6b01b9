package txn_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/txn"
	"github.com/winkgen/wink/runtime/vfs"
)

var (
	state = session.NewSlice[string]("txn_test.state", session.Rollback)
	logs  = session.NewSlice[string]("txn_test.log", session.NoRollback)
)

type failing struct{ snapErr, restoreErr error }

func (f *failing) Snapshot() (any, error) { return 1, f.snapErr }
func (f *failing) Restore(any) error      { return f.restoreErr }

func setup(t *testing.T) (*session.Session, *vfs.Memory, txn.Parts) {
	s := session.New()
	fs := vfs.NewMemory()
	session.Append(s, state, "before")
	fs.Write("a", []byte("before"))
	return s, fs, txn.Parts{Session: s, Others: []resources.Snapshotable{fs}}
}

func mutate(s *session.Session, fs *vfs.Memory) {
	session.Append(s, state, "after")
	session.Append(s, logs, "logged")
	fs.Write("a", []byte("after"))
	fs.Write("b", []byte("new"))
}

func check(t *testing.T, s *session.Session, fs *vfs.Memory, rolledBack bool) {
	t.Helper()
	wantState := []string{"before", "after"}
	wantA := "after"
	if rolledBack {
		wantState, wantA = []string{"before"}, "before"
	}
	if got := session.All(s, state); !slices.Equal(got, wantState) {
		t.Errorf("state %v, want %v", got, wantState)
	}
	if got := session.All(s, logs); len(got) == 0 {
		t.Errorf("log rolled back")
	}
	b, _ := fs.Read("a")
	if string(b) != wantA {
		t.Errorf("a = %q, want %q", b, wantA)
	}
	if _, err := fs.Stat("b"); rolledBack != errors.Is(err, vfs.ErrNotFound) {
		t.Errorf("b: %v", err)
	}
}

func TestRunCommitsOnSuccessAndRollsBackOnErrorAndPanic(t *testing.T) {
	s, fs, p := setup(t)
	if err := txn.Run(p, func() error { mutate(s, fs); return nil }); err != nil {
		t.Fatal(err)
	}
	check(t, s, fs, false)

	s, fs, p = setup(t)
	boom := errors.New("boom")
	if err := txn.Run(p, func() error { mutate(s, fs); return boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	check(t, s, fs, true)

	s, fs, p = setup(t)
	func() {
		defer func() {
			if recover() != "kaboom" {
				t.Error("panic not continued")
			}
		}()
		txn.Run(p, func() error { mutate(s, fs); panic("kaboom") })
	}()
	check(t, s, fs, true)
}

func TestTakeRestoreManualAndResourcesDeduplicated(t *testing.T) {
	s, fs, p := setup(t)
	reg, _ := resources.NewRegistry(resources.Instance(resources.NewKey[*vfs.Memory]("FS"), fs))
	rc, _ := reg.Open()
	p.Resources = rc
	snap, err := txn.Take(p)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Len() != 1 {
		t.Errorf("captured %d parts, want 1 (the filesystem once)", snap.Len())
	}
	mutate(s, fs)
	if err := snap.Restore(); err != nil {
		t.Fatal(err)
	}
	check(t, s, fs, true)
	mutate(s, fs) // restorable again
	snap.Restore()
	check(t, s, fs, true)
	snap.Release()
	mutate(s, fs)
	snap.Restore() // released: does nothing
	check(t, s, fs, false)
}

func TestErrorsNamePartsAndRestoreContinues(t *testing.T) {
	_, err := txn.Take(txn.Parts{Others: []resources.Snapshotable{vfs.NewMemory(), &failing{snapErr: errors.New("disk")}}})
	if err == nil || err.Error() != "txn: snapshot of part 1 failed: disk" {
		t.Errorf("err = %v", err)
	}
	s, fs, _ := setup(t)
	snap, _ := txn.Take(txn.Parts{Session: s, Others: []resources.Snapshotable{&failing{restoreErr: errors.New("gone")}, fs}})
	mutate(s, fs)
	err = snap.Restore()
	if err == nil || err.Error() != "txn: restore of part 0 failed: gone" {
		t.Errorf("err = %v", err)
	}
	check(t, s, fs, true) // the other parts were restored anyway
}

func TestPendingToolTracker(t *testing.T) {
	s, fs, p := setup(t)
	tr := txn.NewPendingToolTracker(p)
	if err := tr.End("unknown", false); err != nil {
		t.Fatal(err)
	}
	tr.Abort("unknown")
	tr.Begin("ok")
	tr.Begin("bad")
	if tr.Pending() != 2 {
		t.Fatalf("pending %d", tr.Pending())
	}
	mutate(s, fs)
	tr.End("ok", true)
	check(t, s, fs, false)
	tr.End("bad", false) // restores to its Begin, before mutate
	check(t, s, fs, true)
	tr.Begin("aborted")
	mutate(s, fs)
	tr.Abort("aborted")
	check(t, s, fs, false)
	if err := tr.End("aborted", false); err != nil || tr.Pending() != 0 {
		t.Errorf("end after abort: %v, pending %d", err, tr.Pending())
	}
}
