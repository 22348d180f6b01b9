package wink

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/txn"
	"github.com/winkgen/wink/runtime/vfs"
)

// TestCallStateResetZeroesEveryField sets every field of a callState, as a call may leave it, and checks
// that reset leaves the zero value and releases the locks and the snapshot: a pooled frame
// must start each call clean. When a field is added to callState, this test fails until the field is set
// here.
func TestCallStateResetZeroesEveryField(t *testing.T) {
	cs := setCallState(t)
	v := reflect.ValueOf(cs).Elem()
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Fatalf("callState.%s is not set by this test; set it, and clear it in reset", v.Type().Field(i).Name)
		}
	}
	cs.reset()
	for i := range v.NumField() {
		if !v.Field(i).IsZero() {
			t.Errorf("callState.%s is not zero after reset", v.Type().Field(i).Name)
		}
	}
}

// TestCallStateResetZeroesEachFieldAlone sets one field of a callState at a time and checks that reset
// leaves the zero value: reset clears a plain call's few fields one by one and everything else in bulk,
// so each field must lead it to one of the two.
func TestCallStateResetZeroesEachFieldAlone(t *testing.T) {
	n := reflect.TypeFor[callState]().NumField()
	for i := range n {
		src := reflect.ValueOf(setCallState(t)).Elem()
		cs := new(callState)
		dst := reflect.ValueOf(cs).Elem()
		name := dst.Type().Field(i).Name
		f := reflect.NewAt(dst.Field(i).Type(), unsafe.Pointer(dst.Field(i).UnsafeAddr())).Elem()
		f.Set(reflect.NewAt(src.Field(i).Type(), unsafe.Pointer(src.Field(i).UnsafeAddr())).Elem())
		cs.reset()
		for j := range n {
			if !dst.Field(j).IsZero() {
				t.Errorf("only callState.%s set: callState.%s is not zero after reset", name, dst.Type().Field(j).Name)
			}
		}
	}
}

// setCallState returns a callState with every field set, as a call may leave it.
func setCallState(t *testing.T) *callState {
	t.Helper()
	cs := &callState{
		out:      Outcome{CallID: "c", Name: "n", Success: true, Message: "m", Output: "o", Replayed: true},
		err:      errors.New("err"),
		cause:    errors.New("cause"),
		rollback: func() error { return nil },
		start:    time.Now(),
		at:       time.Second,
		timed:    true,
		params:   1,
		value:    2,
		hasValue: true,
		excluded: true,
		replayed: true,
		named:    true,
		panicV:   3,
		stack:    []byte("stack"),
		idemKey:  "key",
		program:  "p",
		extraErr: errors.New("extra"),
		end:      func(*ToolInvoked) {},
		ev:       new(ToolInvoked),
		others:   [1]resources.Snapshotable{vfs.NewMemory()},
	}
	if err := cs.snap.Capture(txn.Parts{Session: session.New()}); err != nil {
		t.Fatal(err)
	}
	tx, err := session.New().Begin(context.Background(), session.ReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	cs.tx = tx
	if cs.resLock, err = txn.Lock(context.Background(), false, new(int)); err != nil {
		t.Fatal(err)
	}
	if cs.fsLock, err = txn.Lock(context.Background(), true, new(int)); err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestOpIOClearZeroesEachFieldAlone sets one field of a frame's operands at a time and checks that clear
// leaves the zero value (clear stores only into the fields that are set).
func TestOpIOClearZeroesEachFieldAlone(t *testing.T) {
	full := opIO{types: [2]unsafe.Pointer{unsafe.Pointer(new(int)), nil}, at: [2]bool{false, true}, v: 1, s: "s",
		err: errors.New("e"), head: resultHead{message: "m", content: BlocksOf(Text("x")), success: true, hasValue: true, excluded: true},
		ok: true, has: hasRender}
	src := reflect.ValueOf(&full).Elem()
	n := src.NumField()
	for i := range n {
		if src.Field(i).IsZero() {
			t.Fatalf("opIO.%s is not set by this test; set it, and clear it in clear", src.Type().Field(i).Name)
		}
		io := new(opIO)
		dst := reflect.ValueOf(io).Elem()
		f := reflect.NewAt(dst.Field(i).Type(), unsafe.Pointer(dst.Field(i).UnsafeAddr())).Elem()
		f.Set(reflect.NewAt(src.Field(i).Type(), unsafe.Pointer(src.Field(i).UnsafeAddr())).Elem())
		io.clear()
		if *io != (opIO{}) {
			t.Errorf("only opIO.%s set: %+v after clear", src.Type().Field(i).Name, *io)
		}
	}
	io := full
	io.clear()
	if io != (opIO{}) {
		t.Errorf("every field set: %+v after clear", io)
	}
}
