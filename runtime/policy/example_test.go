package policy_test

import (
	"context"
	"fmt"

	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// Construct policies once, at startup: each declares its own session slice.
var (
	listFirst  = policy.NewSequentialDependency(map[string][]string{"rm": {"ls"}})
	readFirst  = policy.NewReadBeforeWrite(policy.ReadBeforeWriteConfig{})
	filesSuite = wink.MustRegistry(files.WinkTools())
)

// exampleCall dispatches one call and prints whether it ran, or the denial the model reads.
func exampleCall(d *wink.Dispatcher, name, args string) {
	out, err := d.Dispatch(context.Background(), wink.Call{Name: name, Arguments: []byte(args)})
	if err != nil || !out.Success {
		fmt.Printf("%s denied: %s (%v)\n", name, out.Output, err)
		return
	}
	fmt.Printf("%s ran\n", name)
}

// A SequentialDependency denies a tool until its prerequisites have succeeded in the session; the model
// reads the denial.
func ExampleNewSequentialDependency() {
	fs := vfs.NewMemory()
	_ = fs.Write("build/out.log", []byte("old"))
	d := &wink.Dispatcher{Registry: filesSuite, Session: session.New(), Filesystem: fs,
		Policies: []wink.Policy{listFirst}}
	exampleCall(d, "rm", `{"path":"build/out.log"}`)
	exampleCall(d, "ls", `{"path":"build"}`)
	exampleCall(d, "rm", `{"path":"build/out.log"}`)
	// Output:
	// rm denied: Tool 'rm' requires: ls (<nil>)
	// ls ran
	// rm ran
}

// A ReadBeforeWrite denies overwriting a file the session has not read.
func ExampleNewReadBeforeWrite() {
	fs := vfs.NewMemory()
	_ = fs.Write("a.txt", []byte("one\n"))
	d := &wink.Dispatcher{Registry: filesSuite, Session: session.New(), Filesystem: fs,
		Policies: []wink.Policy{readFirst}}
	exampleCall(d, "edit_file", `{"file_path":"a.txt","old_string":"one","new_string":"two"}`)
	exampleCall(d, "read_file", `{"file_path":"a.txt"}`)
	exampleCall(d, "edit_file", `{"file_path":"a.txt","old_string":"one","new_string":"two"}`)
	// Output:
	// edit_file denied: File 'a.txt' must be read before overwriting.
	// - Call read_file on 'a.txt' first. (<nil>)
	// read_file ran
	// edit_file ran
}
