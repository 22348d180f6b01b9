package files

import (
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// EditFileParams are the arguments of edit_file.
type EditFileParams struct {
	// FilePath is the file to edit, relative to the workspace root.
	FilePath Path `json:"file_path"`
	// OldString is the exact text to replace, as it appears in the file (without read_file's line numbers).
	OldString string `json:"old_string" wink:"minLength=1"`
	// NewString is the text to put in its place.
	NewString string `json:"new_string"`
	// ReplaceAll replaces every occurrence instead of exactly one.
	ReplaceAll bool `json:"replace_all,omitempty"`
}

// EditFile replaces exactly one occurrence of old_string in a file with new_string (every one with replace_all).
//
//wink:tool name=edit_file
//wink:example desc="Fix a typo" input={"file_path":"README.md","old_string":"teh","new_string":"the"}
func EditFile(tc *wink.ToolContext, p EditFileParams) (wink.ToolResult[wink.NoValue], error) {
	fs := tc.Filesystem()
	if fs == nil {
		return noFilesystem[wink.NoValue]()
	}
	name, shown := clean(string(p.FilePath))
	if p.OldString == p.NewString {
		return wink.Failure[wink.NoValue]("old_string and new_string are the same, so there is nothing to change. Give the new text in new_string."), nil
	}
	data, err := fs.Read(name)
	if err != nil {
		return failed[wink.NoValue](err, shown)
	}
	text := string(data)
	n := strings.Count(text, p.OldString)
	switch {
	case n == 0:
		return wink.Failure[wink.NoValue]("old_string was not found in " + shown + ". Call read_file on " + quote(shown) +
			" and copy the text exactly as it appears, including whitespace and indentation, without the line-number prefix."), nil
	case n > 1 && !p.ReplaceAll:
		return wink.Failure[wink.NoValue]("old_string occurs " + strconv.Itoa(n) + " times in " + shown + "; edit_file replaces exactly one. " +
			"Include more surrounding lines in old_string to make it unique, or set replace_all to true to replace all " + strconv.Itoa(n) + "."), nil
	}
	out := strings.ReplaceAll(text, p.OldString, p.NewString)
	if len(out) > MaxFileSize {
		return wink.Failure[wink.NoValue]("The edit would make " + shown + " " + strconv.Itoa(len(out)) + " bytes; files are limited to " +
			strconv.Itoa(MaxFileSize) + " bytes (32 MiB). Make a smaller edit."), nil
	}
	if err := vfs.Write(fs, name, []byte(out)); err != nil {
		return failed[wink.NoValue](err, shown)
	}
	return wink.Done[wink.NoValue]("Replaced " + plural(n, "occurrence", "occurrences") + " in " + shown + "."), nil
}
