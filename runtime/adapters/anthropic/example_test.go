package anthropic_test

import (
	"context"
	"fmt"

	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// One round trip with the Messages API: the tool_use blocks of a response are dispatched, and the
// outcomes answer them in the next user message's content.
func Example() {
	fs := vfs.NewMemory()
	_ = fs.Write("notes.txt", []byte("remember the milk\n"))
	reg := wink.MustRegistry(files.WinkTools())
	d := &wink.Dispatcher{Registry: reg, Filesystem: fs}

	if _, err := anthropic.Tools(reg.Tools()); err != nil { // the request's "tools"
		panic(err)
	}
	// The response's message, as the API returns it.
	response := []byte(`{"type":"message","role":"assistant","stop_reason":"tool_use","content":[` +
		`{"type":"text","text":"Reading it."},` +
		`{"type":"tool_use","id":"toolu_1","name":"read_file","input":{"file_path":"notes.txt"}},` +
		`{"type":"tool_use","id":"toolu_2","name":"read_file","input":{"file_path":"missing.txt"}}]}`)
	calls, err := anthropic.ParseToolUses(response)
	if err != nil {
		panic(err)
	}
	var outs []wink.Outcome
	for _, c := range calls {
		out, err := d.Dispatch(context.Background(), c)
		if err != nil {
			panic(err)
		}
		outs = append(outs, out)
	}
	fmt.Println(string(anthropic.ToolResults(outs)))
	// Output:
	// [{"type":"tool_result","tool_use_id":"toolu_1","content":"notes.txt: lines 1-1 of 1.\n\n   1 | remember the milk"},{"type":"tool_result","tool_use_id":"toolu_2","content":"'missing.txt' does not exist. Use ls or glob to see what exists.","is_error":true}]
}
