package loop_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

type noParams struct{}

func decodeNone(d *strictjson.Decoder, _ *noParams) {
	if d.ObjectStart() {
		for d.NextKey() {
			d.Unknown(nil)
		}
		d.ObjectEnd()
	}
}

func encodeNone(b []byte, _ *wink.NoValue) []byte { return append(b, "null"...) }

var notes = session.NewSlice[string]("loop.notes", session.Rollback)

// TestRunParallelOnOneSessionLosesNoAcknowledgedWrite runs a slow call that writes and then fails beside
// a fast call that writes and succeeds, in one parallel turn on one session: whatever order the
// dispatcher's lock gives them, the fast call's acknowledged write survives the slow call's rollback.
func TestRunParallelOnOneSessionLosesNoAcknowledgedWrite(t *testing.T) {
	slow := wink.NewTool(wink.Spec{Name: "slow_fail"}, &wink.Funcs[noParams, wink.NoValue]{
		Decode: decodeNone, EncodeResult: encodeNone,
		Handler: func(tc *wink.ToolContext, _ noParams) (wink.ToolResult[wink.NoValue], error) {
			session.Append(tc.Session(), notes, "slow")
			if err := vfs.Write(tc.Filesystem(), "slow.txt", []byte("slow")); err != nil {
				return wink.ToolResult[wink.NoValue]{}, err
			}
			time.Sleep(5 * time.Millisecond) // the fast call arrives meanwhile
			panic("the slow call fails")
		},
	})
	fast := wink.NewTool(wink.Spec{Name: "fast_add"}, &wink.Funcs[noParams, wink.NoValue]{
		Decode: decodeNone, EncodeResult: encodeNone,
		Handler: func(tc *wink.ToolContext, _ noParams) (wink.ToolResult[wink.NoValue], error) {
			session.Append(tc.Session(), notes, "fast")
			if err := vfs.Write(tc.Filesystem(), "fast.txt", []byte("fast")); err != nil {
				return wink.ToolResult[wink.NoValue]{}, err
			}
			return wink.Done[wink.NoValue]("added"), nil
		},
	})
	reg := wink.MustRegistry([]*wink.Tool{slow, fast})
	for round := range 20 {
		s, fs := session.New(), vfs.NewMemory()
		d := &wink.Dispatcher{Registry: reg, Session: s, Filesystem: fs}
		p := script(loop.Response{ToolCalls: []wink.Call{call("s", "slow_fail", `{}`), call("f", "fast_add", `{}`)}}, loop.Response{Text: "ok"})
		var outcomes []wink.Outcome
		_, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: d, Parallel: true, OnTurn: func(tn loop.Turn) {
			if tn.Index == 1 {
				outcomes = tn.Outcomes
			}
		}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(outcomes) != 2 || outcomes[0].Success || !strings.Contains(outcomes[0].Output, "the slow call fails") ||
			!outcomes[1].Success || outcomes[1].Output != "added" {
			t.Fatalf("round %d: outcomes %+v", round, outcomes)
		}
		if got := session.All(s, notes); len(got) != 1 || got[0] != "fast" {
			t.Fatalf("round %d: the session holds %v, want only the acknowledged [fast]", round, got)
		}
		if b, err := fs.Read("fast.txt"); err != nil || string(b) != "fast" {
			t.Fatalf("round %d: the acknowledged write is lost: %q %v", round, b, err)
		}
		if _, err := fs.Read("slow.txt"); err == nil {
			t.Fatalf("round %d: the failed call's write stayed", round)
		}
	}
}
