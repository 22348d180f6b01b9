package wink_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/winkgen/wink/runtime/wink"
)

func TestPanicText(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{errors.New("boom"), "boom"},
		{"nil map", "nil map"},
		{42, "42"},
		{[]int{1, 2}, "[1 2]"},
		{nil, "<nil>"},
	} {
		if got := wink.PanicText(tc.v); got != tc.want {
			t.Errorf("PanicText(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestFailureText(t *testing.T) {
	if got, want := wink.FailureText(`a"b`, "x"), `Tool "a\"b" failed: x`; got != want {
		t.Errorf("FailureText = %q, want %q", got, want)
	}
}

func ExampleFailureText() {
	fmt.Println(wink.FailureText("get_weather", wink.PanicText(errors.New("index out of range"))))
	// Output: Tool "get_weather" failed: index out of range
}
