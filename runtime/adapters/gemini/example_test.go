package gemini_test

import (
	"context"
	"fmt"

	"github.com/winkgen/wink/runtime/adapters/gemini"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// One round trip with generateContent: the functionCall parts of a response are dispatched, and each
// outcome answers its call with a functionResponse part.
func Example() {
	fs := vfs.NewMemory()
	_ = fs.Write("notes.txt", []byte("remember the milk\n"))
	reg := wink.MustRegistry(files.WinkTools())
	d := &wink.Dispatcher{Registry: reg, Filesystem: fs}

	if _, err := gemini.FunctionDeclarations(reg.Tools()); err != nil { // "tools":[{"functionDeclarations":...}]
		panic(err)
	}
	// The response, as the API returns it.
	response := []byte(`{"candidates":[{"content":{"role":"model","parts":[` +
		`{"functionCall":{"id":"fc_1","name":"read_file","args":{"file_path":"notes.txt"}}}]}}]}`)
	calls, err := gemini.ParseFunctionCalls(response)
	if err != nil {
		panic(err)
	}
	for _, c := range calls {
		out, err := d.Dispatch(context.Background(), c)
		if err != nil {
			panic(err)
		}
		fmt.Println(string(gemini.FunctionResponse(c, out)))
	}
	// Output:
	// {"functionResponse":{"id":"fc_1","name":"read_file","response":{"output":"notes.txt: lines 1-1 of 1.\n\n   1 | remember the milk"}}}
}
