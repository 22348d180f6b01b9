package files

import (
	"errors"
	"strconv"

	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// WriteFileParams are the arguments of write_file.
type WriteFileParams struct {
	// FilePath is the file to create, relative to the workspace root; missing directories are created.
	FilePath Path `json:"file_path"`
	// Content is the text of the new file.
	Content string `json:"content"`
}

// WriteFile creates a new file with the given content; it never overwrites (use edit_file to change a file).
//
//wink:tool name=write_file
//wink:example desc="Create a file" input={"file_path":"notes/todo.txt","content":"buy milk\n"}
func WriteFile(tc *wink.ToolContext, p WriteFileParams) (wink.ToolResult[wink.NoValue], error) {
	fs := tc.Filesystem()
	if fs == nil {
		return noFilesystem[wink.NoValue]()
	}
	name, shown := clean(string(p.FilePath))
	if st, err := fs.Stat(name); err == nil {
		if st.IsDir {
			return wink.Failure[wink.NoValue](quote(shown) + " is an existing directory. Choose a file path that does not exist yet."), nil
		}
		return wink.Failure[wink.NoValue]("File " + quote(shown) + " already exists; write_file only creates new files. " +
			"To change it, call read_file and then edit_file; to replace it entirely, call rm first."), nil
	} else if !errors.Is(err, vfs.ErrNotFound) {
		return failed[wink.NoValue](err, shown)
	}
	if len(p.Content) > MaxFileSize {
		return wink.Failure[wink.NoValue]("The content is " + strconv.Itoa(len(p.Content)) + " bytes; write_file accepts at most " +
			strconv.Itoa(MaxFileSize) + " bytes (32 MiB). Write a smaller file."), nil
	}
	if err := vfs.Write(fs, name, []byte(p.Content)); err != nil {
		return failed[wink.NoValue](err, shown)
	}
	return wink.Done[wink.NoValue]("Created " + shown + " (" + plural(countLines(p.Content), "line", "lines") + ", " +
		plural(len(p.Content), "byte", "bytes") + ")."), nil
}
