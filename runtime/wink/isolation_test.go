package wink_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// The isolation property: calls dispatched concurrently on one session, whatever their endings, leave
// exactly the effects of the acknowledged successes, in the order they held the session's lock; a failed
// call leaves nothing but its log entry; read-only calls change nothing.

// isoParams are the arguments of the isolation tools: a call id and how the call ends.
type isoParams struct {
	ID   int64
	Mode string
}

var isoKeys = []string{"id", "mode"}

func decodeIsoParams(d *strictjson.Decoder, v *isoParams) {
	if !d.ObjectStart() {
		return
	}
	for d.NextKey() {
		switch string(d.Key()) {
		case "id":
			if n, ok := d.Int(0, math.MaxInt32); ok {
				v.ID = n
			}
		case "mode":
			if s, ok := d.String(); ok {
				v.Mode = s
			}
		default:
			d.Unknown(isoKeys)
		}
	}
	d.ObjectEnd()
}

func encodeNoValue(b []byte, _ *wink.NoValue) []byte { return append(b, "null"...) }

var isoItems = session.NewSlice[int64]("iso.items", session.Rollback)

const isoSlots = 8

// isoWorld is what the handlers record while they hold the session's lock.
type isoWorld struct {
	order []int64 // ids of the mutate calls in the order their handlers ran (exclusive lock held)
}

func isoTools(w *isoWorld) []*wink.Tool {
	mutate := wink.NewTool(wink.Spec{Name: "mutate"}, &wink.Funcs[isoParams, wink.NoValue]{
		Decode:       decodeIsoParams,
		EncodeResult: encodeNoValue,
		Handler: func(tc *wink.ToolContext, p isoParams) (wink.ToolResult[wink.NoValue], error) {
			w.order = append(w.order, p.ID) // safe: the call holds the session exclusively
			session.Append(tc.Session(), isoItems, p.ID)
			runtime.Gosched() // let other calls try to get in
			slot := "slot" + strconv.Itoa(int(p.ID%isoSlots))
			if err := vfs.Write(tc.Filesystem(), slot, []byte(strconv.FormatInt(p.ID, 10))); err != nil {
				return wink.ToolResult[wink.NoValue]{}, err
			}
			if p.ID%5 == 0 {
				if err := vfs.Remove(tc.Filesystem(), "slot"+strconv.Itoa(int((p.ID+1)%isoSlots))); err != nil && !errors.Is(err, vfs.ErrNotFound) {
					return wink.ToolResult[wink.NoValue]{}, err
				}
			}
			runtime.Gosched()
			switch p.Mode {
			case "fail":
				return wink.Failure[wink.NoValue]("failed on purpose"), nil
			case "error":
				return wink.ToolResult[wink.NoValue]{}, errors.New("an error on purpose")
			case "panic":
				panic("a panic on purpose")
			}
			return wink.Done[wink.NoValue]("added " + strconv.FormatInt(p.ID, 10)), nil
		},
	})
	peek := wink.NewTool(wink.Spec{Name: "peek", ReadOnly: true}, &wink.Funcs[isoParams, wink.NoValue]{
		Decode:       decodeIsoParams,
		EncodeResult: encodeNoValue,
		Handler: func(tc *wink.ToolContext, p isoParams) (wink.ToolResult[wink.NoValue], error) {
			n := session.Len(tc.Session(), isoItems)
			if _, err := tc.Filesystem().List("."); err != nil {
				return wink.ToolResult[wink.NoValue]{}, err
			}
			switch p.Mode {
			case "write":
				if err := vfs.Write(tc.Filesystem(), "slot0", []byte("read-only write")); err != nil {
					return wink.ToolResult[wink.NoValue]{}, err
				}
			case "state":
				session.Append(tc.Session(), isoItems, -1) // panics: a STATE change through a read-only view
			}
			return wink.Done[wink.NoValue]("seen " + strconv.Itoa(n)), nil
		},
	})
	return []*wink.Tool{mutate, peek}
}

func TestConcurrentCallsOnOneSessionKeepExactlyTheAcknowledgedWrites(t *testing.T) {
	goroutines, calls := 8, 500
	if raceEnabled {
		calls = 150
	}
	for _, fsKind := range []string{"memory", "host"} {
		t.Run(fsKind, func(t *testing.T) {
			n := calls
			if fsKind == "host" {
				n = calls / 3
			}
			var fs vfs.Filesystem = vfs.NewMemory()
			if fsKind == "host" {
				h, err := vfs.NewHost(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				defer h.Close()
				fs = h
			}
			w := &isoWorld{}
			sess := session.New()
			d := &wink.Dispatcher{Registry: wink.MustRegistry(isoTools(w)), Session: sess, Filesystem: fs,
				LogLimits: wink.KeepAllLogs} // the test counts one log entry per call
			type ack struct {
				id      int64
				success bool
			}
			acks := make([][]ack, goroutines)
			var wg sync.WaitGroup
			for g := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rng := rand.New(rand.NewPCG(uint64(g), 7))
					for i := range n {
						id := int64(g*n + i + 1)
						name, mode := "mutate", []string{"ok", "ok", "ok", "fail", "error", "panic"}[rng.IntN(6)]
						if rng.IntN(4) == 0 {
							name, mode = "peek", []string{"look", "write", "state"}[rng.IntN(3)]
						}
						args := `{"id":` + strconv.FormatInt(id, 10) + `,"mode":"` + mode + `"}`
						out, err := d.Dispatch(context.Background(), wink.Call{ID: strconv.FormatInt(id, 10), Name: name, Arguments: []byte(args)})
						if err != nil {
							t.Errorf("call %d: %v", id, err)
							return
						}
						switch {
						case name == "peek" && mode == "look":
							if !out.Success {
								t.Errorf("peek %d failed: %s", id, out.Output)
							}
						case name == "peek" && mode == "write":
							if out.Success || !strings.Contains(out.Output, `write "slot0": the workspace is read-only in this call`) {
								t.Errorf("read-only write %d: %+v", id, out)
							}
						case name == "peek" && mode == "state":
							if out.Success || !strings.Contains(out.Output, `cannot change STATE slice "iso.items"`) {
								t.Errorf("read-only state change %d: %+v", id, out)
							}
						case mode == "ok":
							if !out.Success || out.Output != "added "+strconv.FormatInt(id, 10) {
								t.Errorf("mutate %d: %+v", id, out)
							}
							acks[g] = append(acks[g], ack{id, true})
						default:
							if out.Success {
								t.Errorf("mutate %d (%s) succeeded", id, mode)
							}
							acks[g] = append(acks[g], ack{id, false})
						}
					}
				}()
			}
			wg.Wait()
			if t.Failed() {
				return
			}
			acked := map[int64]bool{}
			for _, as := range acks {
				for _, a := range as {
					acked[a.id] = a.success
				}
			}
			// Replay the acknowledged successes in lock order.
			var wantItems []int64
			wantSlots := map[string]string{}
			for _, id := range w.order {
				ok, known := acked[id]
				if !known {
					t.Fatalf("handler ran for unknown call %d", id)
				}
				if !ok {
					continue
				}
				wantItems = append(wantItems, id)
				wantSlots["slot"+strconv.Itoa(int(id%isoSlots))] = strconv.FormatInt(id, 10)
				if id%5 == 0 {
					delete(wantSlots, "slot"+strconv.Itoa(int((id+1)%isoSlots)))
				}
			}
			if got := session.All(sess, isoItems); !slices.Equal(got, wantItems) {
				t.Fatalf("STATE slice holds %d items, want the %d acknowledged successes in lock order", len(got), len(wantItems))
			}
			gotSlots := map[string]string{}
			entries, err := fs.List(".")
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				b, err := fs.Read(e.Path)
				if err != nil {
					t.Fatal(err)
				}
				gotSlots[e.Path] = string(b)
			}
			if fmt.Sprint(gotSlots) != fmt.Sprint(wantSlots) {
				t.Fatalf("files %v\nwant    %v", gotSlots, wantSlots)
			}
			if got, want := session.Len(sess, wink.ToolLog), goroutines*n; got != want {
				t.Fatalf("the log holds %d entries, want one per call (%d)", got, want)
			}
		})
	}
}

// TestCallsOnDifferentSessionsRunInParallel holds one call's handler until a call on another session
// has run: with a lock per session it completes; a global lock would deadlock (the test would time out).
func TestCallsOnDifferentSessionsRunInParallel(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	hold := wink.NewTool(wink.Spec{Name: "hold"}, &wink.Funcs[isoParams, wink.NoValue]{
		Decode: decodeIsoParams, EncodeResult: encodeNoValue,
		Handler: func(tc *wink.ToolContext, p isoParams) (wink.ToolResult[wink.NoValue], error) {
			if p.Mode == "hold" {
				close(entered)
				<-release
			}
			session.Append(tc.Session(), isoItems, p.ID)
			return wink.Done[wink.NoValue]("ok"), nil
		},
	})
	reg := wink.MustRegistry([]*wink.Tool{hold})
	a := &wink.Dispatcher{Registry: reg, Session: session.New(), Filesystem: vfs.NewMemory()}
	b := &wink.Dispatcher{Registry: reg, Session: session.New(), Filesystem: vfs.NewMemory()}
	done := make(chan error, 1)
	go func() {
		_, err := a.Dispatch(context.Background(), wink.Call{Name: "hold", Arguments: []byte(`{"id":1,"mode":"hold"}`)})
		done <- err
	}()
	<-entered
	if out, err := b.Dispatch(context.Background(), wink.Call{Name: "hold", Arguments: []byte(`{"id":2,"mode":"go"}`)}); err != nil || !out.Success {
		t.Fatalf("call on the other session: %v %+v", err, out)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestSharedFilesystemIsLockedAcrossSessions: two sessions' dispatchers over one filesystem serialise
// their calls on it, so a rollback on one never undoes the other's acknowledged write.
func TestSharedFilesystemIsLockedAcrossSessions(t *testing.T) {
	fs := vfs.NewMemory()
	w := &isoWorld{}
	reg := wink.MustRegistry(isoTools(w))
	var wg sync.WaitGroup
	var mu sync.Mutex
	okWrites := map[string]string{}
	for s := range 4 {
		d := &wink.Dispatcher{Registry: reg, Session: session.New(), Filesystem: fs}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				id := int64(s*1000 + i*isoSlots + s) // each session writes its own slot
				mode := "ok"
				if i%3 == 0 {
					mode = "fail"
				}
				if id%5 == 0 {
					continue // no removals in this test: each session keeps to its own slot
				}
				out, err := d.Dispatch(context.Background(), wink.Call{Name: "mutate",
					Arguments: []byte(`{"id":` + strconv.FormatInt(id, 10) + `,"mode":"` + mode + `"}`)})
				if err != nil {
					t.Error(err)
					return
				}
				if out.Success {
					mu.Lock()
					okWrites["slot"+strconv.Itoa(int(id%isoSlots))] = strconv.FormatInt(id, 10)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for slot, want := range okWrites {
		if b, err := fs.Read(slot); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want the last acknowledged write %q", slot, b, err, want)
		}
	}
}
