package files_test

import (
	"context"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// TestSectionRendersGuidanceAndTools checks the section's key, title, text, tool order and policy.
func TestSectionRendersGuidanceAndTools(t *testing.T) {
	s, err := files.Section()
	if err != nil {
		t.Fatal(err)
	}
	if s.Key() != "files" || s.Title() != "Workspace files" {
		t.Errorf("key %q title %q", s.Key(), s.Title())
	}
	r, err := prompt.Must("p", s).Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Text, "## Workspace files\n\nYou can work with the files of a workspace.") {
		t.Errorf("text starts %q", r.Text[:min(80, len(r.Text))])
	}
	var names []string
	for _, tool := range r.Tools {
		names = append(names, tool.Name())
	}
	if got := strings.Join(names, ","); got != "ls,read_file,write_file,edit_file,glob,grep,rm" {
		t.Errorf("tools %s", got)
	}
	if p := s.Policies(); len(p) != 1 || p[0].Name() != "read_before_write" {
		t.Errorf("policies %v", p)
	}
	off, err := files.Section(files.ReadBeforeWrite(false))
	if err != nil || len(off.Policies()) != 0 {
		t.Errorf("Section(ReadBeforeWrite(false)): %v, %d policies", err, len(off.Policies()))
	}

	// Dispatching through the rendered prompt applies the section's policy.
	fs := vfs.NewMemory()
	if err := fs.Write("a.txt", []byte("one\n")); err != nil {
		t.Fatal(err)
	}
	d := r.Dispatcher(wink.Dispatcher{Filesystem: fs, Session: session.New()})
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "1", Name: "edit_file",
		Arguments: []byte(`{"file_path":"a.txt","old_string":"one","new_string":"1"}`)})
	if err != nil || out.Output != "File 'a.txt' must be read before overwriting.\n- Call read_file on 'a.txt' first." {
		t.Errorf("edit through the section: %v %q", err, out.Output)
	}
}
