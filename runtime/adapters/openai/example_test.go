package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// One round trip with the Chat Completions API: the tools payload of the request, the calls of the
// response, and a tool message per outcome for the next request.
func Example() {
	fs := vfs.NewMemory()
	_ = fs.Write("notes.txt", []byte("remember the milk\n"))
	reg := wink.MustRegistry(files.WinkTools())
	d := &wink.Dispatcher{Registry: reg, Filesystem: fs}

	tools, err := openai.ChatTools(reg.Tools())
	if err != nil {
		panic(err)
	}
	var payload []struct {
		Function struct{ Name string } `json:"function"`
	}
	_ = json.Unmarshal(tools, &payload)
	var names []string
	for _, t := range payload {
		names = append(names, t.Function.Name)
	}
	fmt.Println(strings.Join(names, " "))

	// The response's message, as the API returns it.
	response := []byte(`{"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant",` +
		`"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\"file_path\":\"notes.txt\"}"}}]}}]}`)
	calls, err := openai.ParseChatCompletion(response)
	if err != nil {
		panic(err)
	}
	for _, c := range calls {
		out, err := d.Dispatch(context.Background(), c)
		if err != nil {
			panic(err)
		}
		fmt.Println(string(openai.ChatToolMessage(c.ID, out)))
	}
	// Output:
	// edit_file glob grep ls read_file rm write_file
	// {"role":"tool","tool_call_id":"call_1","content":"notes.txt: lines 1-1 of 1.\n\n   1 | remember the milk"}
}
