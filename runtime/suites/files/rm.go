package files

import (
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// RmParams are the arguments of rm.
type RmParams struct {
	// Path is the file or directory to remove, relative to the workspace root.
	Path Path `json:"path"`
}

// Rm removes a file, or a directory with everything in it.
//
//wink:tool name=rm
//wink:example desc="Remove a file" input={"path":"build/out.log"}
func Rm(tc *wink.ToolContext, p RmParams) (wink.ToolResult[wink.NoValue], error) {
	fs := tc.Filesystem()
	if fs == nil {
		return noFilesystem[wink.NoValue]()
	}
	name, shown := clean(string(p.Path))
	st, err := fs.Stat(name)
	if err != nil {
		return failed[wink.NoValue](err, shown)
	}
	if err := vfs.Remove(fs, name); err != nil {
		return failed[wink.NoValue](err, shown)
	}
	if st.IsDir {
		return wink.Done[wink.NoValue]("Removed the directory " + shown + " and everything in it."), nil
	}
	return wink.Done[wink.NoValue]("Removed " + shown + "."), nil
}
