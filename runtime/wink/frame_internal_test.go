package wink

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

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
	cs := &callState{
		out:      Outcome{CallID: "c", Name: "n", Success: true, Message: "m", Output: "o", Replayed: true},
		err:      errors.New("err"),
		cause:    errors.New("cause"),
		rollback: func() error { return nil },
		start:    time.Now(),
		params:   1,
		value:    2,
		hasValue: true,
		excluded: true,
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
