package files_test

import (
	"context"
	"testing"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// TestReadOnlyWorkspaceIsAFailure: over a filesystem that is not a vfs.WriteFS, the changing tools fail
// with the view's sentence (a failure the model reads, not a dispatch error) and change nothing.
func TestReadOnlyWorkspaceIsAFailure(t *testing.T) {
	m := vfs.NewMemory()
	if err := m.Write("a.txt", []byte("one\n")); err != nil {
		t.Fatal(err)
	}
	d := &wink.Dispatcher{Registry: registry, Filesystem: vfs.ReadOnly(m), Session: session.New(),
		Policies: files.Policies(files.ReadBeforeWrite(false))}
	const why = "the workspace is read-only in this call (the tool is declared read-only); use a tool that may change files"
	for _, c := range []struct{ tool, args, want string }{
		{"write_file", `{"file_path":"b.txt","content":"x"}`, "'b.txt': " + why + "."},
		{"edit_file", `{"file_path":"a.txt","old_string":"one","new_string":"two"}`, "'a.txt': " + why + "."},
		{"rm", `{"path":"a.txt"}`, "'a.txt': " + why + "."},
	} {
		out, err := d.Dispatch(context.Background(), wink.Call{ID: "c1", Name: c.tool, Arguments: []byte(c.args)})
		if err != nil {
			t.Fatalf("%s: dispatch error: %v", c.tool, err)
		}
		if out.Success || out.Output != c.want {
			t.Errorf("%s: %+v, want the failure %q", c.tool, out, c.want)
		}
	}
	if b, err := m.Read("a.txt"); err != nil || string(b) != "one\n" {
		t.Fatalf("a.txt is %q, %v", b, err)
	}
	if _, err := m.Stat("b.txt"); err == nil {
		t.Fatal("b.txt was created")
	}
}
