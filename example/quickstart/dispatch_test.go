package quickstart_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/winkgen/wink/example/quickstart"
	"github.com/winkgen/wink/runtime/wink"
)

// ExampleDispatcher is the README's "dispatch a call" snippet.
func ExampleDispatcher() {
	reg := wink.MustRegistry(quickstart.WinkTools())
	d := &wink.Dispatcher{Registry: reg}
	out, err := d.Dispatch(context.Background(), wink.Call{
		ID: "call_1", Name: "get_forecast", Arguments: []byte(`{"city":"Lisbon","days":"2"}`),
	})
	if err != nil {
		panic(err) // deadline or cancellation: the call did not run
	}
	fmt.Println(out.Success)
	fmt.Println(out.Output)
	// Output:
	// false
	// Invalid arguments for tool "get_forecast":
	// - days: expected integer, got string "2"
	// Fix the arguments and call get_forecast again.
}

// TestForecastSucceeds dispatches a good call through the generated code.
func TestForecastSucceeds(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(quickstart.WinkTools())}
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "1", Name: "get_forecast", Arguments: []byte(`{"city":"Lisbon","days":2}`)})
	if err != nil {
		t.Fatal(err)
	}
	want := "Forecast for Lisbon.\n\n{\"highs\":[21.5,21.5]}"
	if !out.Success || out.Output != want {
		t.Fatalf("got %v %q, want success %q", out.Success, out.Output, want)
	}
}
