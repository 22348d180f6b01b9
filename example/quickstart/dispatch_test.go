package quickstart_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
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

// TestReadmeCodeMatchesSources keeps the README honest: every Go block in README.md that starts with a
// "// file: PATH" line must be a verbatim excerpt of that file, which this module compiles and tests.
func TestReadmeCodeMatchesSources(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```go\n// file: ([^\n]+)\n(.*?)```").FindAllSubmatch(readme, -1)
	if all := bytes.Count(readme, []byte("```go\n")); len(blocks) != all || all < 3 {
		t.Fatalf("README has %d Go blocks, %d of them tied to files; every Go block must start with // file:", all, len(blocks))
	}
	for _, b := range blocks {
		path, code := string(b[1]), b[2]
		src, err := os.ReadFile("../../" + path)
		if err != nil {
			t.Errorf("README names %s: %v", path, err)
			continue
		}
		for _, chunk := range bytes.Split(code, []byte("\n// ...\n")) {
			if !bytes.Contains(src, chunk) {
				t.Errorf("README block for %s is not in the file:\n%s", path, strings.TrimSpace(string(chunk)))
			}
		}
	}
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
