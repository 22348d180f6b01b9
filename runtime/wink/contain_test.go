package wink_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// Every callback the dispatcher runs is contained: a panic in the Begin hook's rollback, a part's
// Restore, the event sink or the clock never escapes Dispatch, and the built-in restore always runs.

// panicRestoreFS is a memory filesystem whose Restore panics after restoring.
type panicRestoreFS struct{ *vfs.Memory }

func (p panicRestoreFS) Restore(snap any) error {
	if err := p.Memory.Restore(snap); err != nil {
		return err
	}
	panic("restore exploded")
}

// failingWriter is a tool that writes a file and a STATE item, then fails.
func failingWriter() *wink.Registry {
	def := wink.NewTool(wink.Spec{Name: "write_then_fail"}, &wink.Funcs[isoParams, wink.NoValue]{
		Decode: decodeIsoParams, EncodeResult: encodeNoValue,
		Handler: func(tc *wink.ToolContext, p isoParams) (wink.ToolResult[wink.NoValue], error) {
			session.Append(tc.Session(), isoItems, p.ID)
			if err := vfs.Write(tc.Filesystem(), "f.txt", []byte("written")); err != nil {
				return wink.ToolResult[wink.NoValue]{}, err
			}
			if p.Mode == "ok" {
				return wink.Done[wink.NoValue]("done"), nil
			}
			return wink.Failure[wink.NoValue]("failed on purpose"), nil
		},
	})
	return wink.MustRegistry([]*wink.Tool{def})
}

// checkRolledBack checks that the failed call left neither its STATE item nor its file.
func checkRolledBack(t *testing.T, s *session.Session, fs vfs.Filesystem) {
	t.Helper()
	if n := session.Len(s, isoItems); n != 0 {
		t.Errorf("the STATE item of the failed call stayed (%d items)", n)
	}
	if _, err := fs.Stat("f.txt"); !errors.Is(err, vfs.ErrNotFound) {
		t.Errorf("the file of the failed call stayed: %v", err)
	}
}

func callFailing(d *wink.Dispatcher, mode string) (wink.Outcome, error) {
	return d.Dispatch(context.Background(), wink.Call{ID: "c1", Name: "write_then_fail", Arguments: []byte(`{"id":1,"mode":"` + mode + `"}`)})
}

func TestPanicInBeginHooksRollbackIsContainedAndTheBuiltInRestoreRuns(t *testing.T) {
	s, fs := session.New(), vfs.NewMemory()
	d := &wink.Dispatcher{Registry: failingWriter(), Session: s, Filesystem: fs}
	d.Hooks.Begin = func(*wink.ToolContext, *wink.Tool) (func() error, error) {
		return func() error { panic("rollback exploded") }, nil
	}
	out, err := callFailing(d, "fail")
	if err == nil || !strings.Contains(err.Error(), `wink: rolling back tool "write_then_fail" failed: the Begin hook's rollback panicked: rollback exploded`) {
		t.Fatalf("err = %v (outcome %+v)", err, out)
	}
	checkRolledBack(t, s, fs)
}

func TestPanicInAPartsRestoreIsContainedAndTheOtherPartsAreRestored(t *testing.T) {
	s, fs := session.New(), panicRestoreFS{vfs.NewMemory()}
	d := &wink.Dispatcher{Registry: failingWriter(), Session: s, Filesystem: fs}
	_, err := callFailing(d, "fail")
	if err == nil || !strings.Contains(err.Error(), "panicked: restore exploded") {
		t.Fatalf("err = %v", err)
	}
	checkRolledBack(t, s, fs)
}

func TestPanicInTheEventSinkIsContainedAndTheOutcomeStands(t *testing.T) {
	s, fs := session.New(), vfs.NewMemory()
	d := &wink.Dispatcher{Registry: failingWriter(), Session: s, Filesystem: fs,
		Events: func(*wink.ToolInvoked) { panic("sink exploded") }}
	out, err := callFailing(d, "fail")
	if err != nil || out.Success || out.Output != "failed on purpose" {
		t.Fatalf("failing call: %v %+v", err, out)
	}
	checkRolledBack(t, s, fs)
	out, err = callFailing(d, "ok")
	if err != nil || !out.Success {
		t.Fatalf("succeeding call: %v %+v", err, out)
	}
	if n := session.Len(s, wink.ToolLog); n != 2 {
		t.Errorf("the session log holds %d events, want 2", n)
	}
}

func TestPanicInTheClockIsContained(t *testing.T) {
	s, fs := session.New(), vfs.NewMemory()
	d := &wink.Dispatcher{Registry: failingWriter(), Session: s, Filesystem: fs,
		Now: func() time.Time { panic("clock exploded") }, Events: func(*wink.ToolInvoked) {}}
	out, err := callFailing(d, "fail")
	if err != nil || out.Success || out.Output != "failed on purpose" {
		t.Fatalf("%v %+v", err, out)
	}
	checkRolledBack(t, s, fs)
	if out, err := callFailing(d, "ok"); err != nil || !out.Success {
		t.Fatalf("%v %+v", err, out)
	}
}
