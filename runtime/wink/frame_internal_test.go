package wink

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/txn"
)

// TestCallStateResetZeroesEveryField sets every field of a callState, as a call may leave it, and checks
// that reset (which clears field by field, to spare write barriers) leaves the zero value: a pooled frame
// must start each call clean. When a field is added to callState, this test fails until the field is set
// here and cleared in reset.
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
		extraErr: errors.New("extra"),
		ev:       new(ToolInvoked),
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

// boxCheck boxes v through a Def[P, NoValue]'s boxParams and checks that the interface equals the one
// the language builds, type assertions included, and whether the event storage came with it.
func boxCheck[P comparable](t *testing.T, name string, v P, wantBox bool) {
	t.Helper()
	d := NewDef(Spec{Name: "box_check"}, Funcs[P, NoValue]{
		Decode:       func(*strictjson.Decoder, *P) {},
		EncodeResult: func(b []byte, _ *NoValue) []byte { return b },
		Handler:      func(*ToolContext, P) (ToolResult[NoValue], error) { return ToolResult[NoValue]{}, nil },
	})
	var got any
	p := v
	ev := d.boxParams(&got, &p)
	if (ev != nil) != wantBox {
		t.Errorf("%s: event storage allocated with the box: %v, want %v", name, ev != nil, wantBox)
	}
	var zero P
	p = zero // the box is a copy: changing the source must not show through
	if want := any(v); got != want {
		t.Errorf("%s: boxed %#v, want %#v", name, got, want)
	}
	if back, ok := got.(P); !ok || back != v {
		t.Errorf("%s: assertion gives %#v, %v; want %#v", name, back, ok, v)
	}
}

type boxPlain struct {
	Query string
	Limit int
}

type boxPointerShaped struct{ M *int }

// TestBoxParamsMatchesTheLanguage checks the interface values boxParams builds by hand (sharing one
// allocation with the event) against ordinary boxing, for a plain struct, a pointer-shaped struct (which
// an interface holds directly: no shared storage), a zero-size struct and a scalar.
func TestBoxParamsMatchesTheLanguage(t *testing.T) {
	n := 7
	boxCheck(t, "plain struct", boxPlain{Query: "q", Limit: 25}, true)
	boxCheck(t, "pointer-shaped struct", boxPointerShaped{M: &n}, false)
	boxCheck(t, "empty struct", struct{}{}, true)
	boxCheck(t, "int", 12345, true)
}
