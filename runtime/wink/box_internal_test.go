package wink

import (
	"testing"
	"unsafe"
)

// checkBox checks boxType's verdict for T and that a box made by boxAt over a stored value is the
// ordinary box of that value.
func checkBox[T comparable](t *testing.T, name string, v T, wantAt bool) {
	t.Helper()
	var zero T
	typ, at := boxType(zero, unsafe.Sizeof(zero))
	if at != wantAt {
		t.Errorf("%s: at = %v, want %v", name, at, wantAt)
	}
	if !at {
		return
	}
	stored := new(T)
	*stored = v
	b := boxAt(typ, unsafe.Pointer(stored))
	if got, ok := b.(T); !ok || got != v || b != any(v) {
		t.Errorf("%s: boxAt gave %#v, want %#v", name, b, v)
	}
}

// TestBoxAt: a box may point into a record for types stored indirectly in an interface, and only for
// those: pointer-shaped types (pointers, maps, channels, functions, single-pointer structs and arrays)
// are stored in the interface word itself, and zero-sized types have no storage to point to.
func TestBoxAt(t *testing.T) {
	x := 7
	checkBox(t, "int", 42, true)
	checkBox(t, "string", "abc", true)
	checkBox(t, "struct", struct {
		A string
		B int
	}{"a", 1}, true)
	checkBox(t, "two pointers", struct{ A, B *int }{&x, nil}, true)
	checkBox(t, "pointer", &x, false)
	checkBox(t, "single-pointer struct", struct{ P *int }{&x}, false)
	checkBox(t, "single-pointer array", [1]*int{&x}, false)
	checkBox(t, "channel", make(chan int), false)
	checkBox(t, "zero-sized", struct{}{}, false)
	checkBox(t, "NoValue", NoValue{}, false)
	var m map[string]int
	_, at := boxType(m, unsafe.Sizeof(m))
	if at {
		t.Error("map: at = true, want false")
	}
}

// TestToolContextFitsItsSizeClass: every call allocates a ToolContext; 176 bytes is an allocation size
// class (256 before what few calls need moved behind its rare pointer, 192 while it kept its tool, which
// its frame knows), and leaves room for a session's Tx (24 bytes) within the 208-byte class
// (txToolContext).
func TestToolContextFitsItsSizeClass(t *testing.T) {
	if s := unsafe.Sizeof(ToolContext{}); s > 176 {
		t.Errorf("ToolContext is %d bytes, more than 176", s)
	}
	if s := unsafe.Sizeof(txToolContext{}); s > 208 {
		t.Errorf("txToolContext is %d bytes, more than 208", s)
	}
}

// TestToolInvokedPacksItsFlags: a recorded call's event shares one allocation with its params and value
// (record), and every call of a session's ToolLog keeps one; the flags sit together so that no word is
// padding for a single bool (Success, HasValue, Excluded and Replayed share one word). 256 bytes with
// Program (the id of the program that made an inner call): a field more must make room for itself.
func TestToolInvokedPacksItsFlags(t *testing.T) {
	if s := unsafe.Sizeof(ToolInvoked{}); s > 256 {
		t.Errorf("ToolInvoked is %d bytes, more than 256", s)
	}
}
