package wink_test

import (
	"context"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// panicReleaseFS is a memory filesystem whose snapshots' Release panics.
type panicReleaseFS struct{ *vfs.Memory }

func (panicReleaseFS) Release(any) { panic("release exploded") }

// explodingParticipant joins a call's transaction and panics when it commits.
type explodingParticipant struct{}

func (explodingParticipant) Prepare(context.Context, any) error { panic("prepare exploded") }
func (explodingParticipant) Done(context.Context, bool)         {}

// TestEndOfTheTransactionIsContained checks the two steps that end every transaction: a part's
// Release that panics leaves the call's outcome as it was, and a commit that panics becomes the
// call's error, naming the commit; neither escapes Dispatch, and the locks are released (the next
// calls on the same session and filesystem run).
func TestEndOfTheTransactionIsContained(t *testing.T) {
	fs := panicReleaseFS{vfs.NewMemory()}
	d := &wink.Dispatcher{Registry: failingWriter(), Session: session.New(), Filesystem: fs}
	for i := range 2 {
		out, err := callFailing(d, "ok")
		if err != nil || !out.Success {
			t.Fatalf("call %d with a panicking Release: %v %+v", i, err, out)
		}
	}

	join := wink.NewTool(wink.Spec{Name: "join"}, &wink.Funcs[isoParams, wink.NoValue]{
		Decode: decodeIsoParams, EncodeResult: encodeNoValue,
		Handler: func(tc *wink.ToolContext, p isoParams) (wink.ToolResult[wink.NoValue], error) {
			if p.Mode == "join" {
				tc.Tx().Join(explodingParticipant{})
			}
			return wink.Done[wink.NoValue]("done"), nil
		},
	})
	d = &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{join}), Session: session.New(), Filesystem: vfs.NewMemory()}
	call := func(mode string) (wink.Outcome, error) {
		return d.Dispatch(context.Background(), wink.Call{ID: "c1", Name: "join", Arguments: []byte(`{"id":1,"mode":"` + mode + `"}`)})
	}
	_, err := call("join")
	if err == nil || !strings.Contains(err.Error(), `committing the session of tool "join" failed: committing the session panicked: prepare exploded`) {
		t.Fatalf("a commit that panics: got %v", err)
	}
	if out, err := call("ok"); err != nil || !out.Success {
		t.Fatalf("the call after a panicking commit: %v %+v", err, out)
	}
}
