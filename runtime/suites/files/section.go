package files

import (
	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/wink"
)

// Guidance is the markdown body of the suite's section: how the model should use the file tools.
const Guidance = `You can work with the files of a workspace. Paths are relative to the workspace root
(a leading / means the root); use / or an empty path for the root itself. A path has at most 16 segments
of at most 80 ASCII characters, and . and .. segments are not allowed.

- Explore with ls (one directory), glob (paths matching a pattern such as **/*.go) and grep (lines
  matching an RE2 regular expression, shown as path:line: text).
- read_file shows numbered lines ("   1 | text"), 2000 at a time; page with offset and limit.
- write_file only creates new files. To change an existing file, read it, then call edit_file with
  old_string copied exactly from the file (without the line-number prefix); it must occur once, or set
  replace_all.
- rm removes a file or a whole directory.`

// Section returns the files suite as a prompt section: key "files", the guidance, the seven tools (ls,
// read_file, write_file, edit_file, glob, grep, rm) and the policies of Policies(opts...), so
// read-before-write is on unless ReadBeforeWrite(false) is given.
func Section(opts ...Option) (*prompt.Section, error) {
	return prompt.NewSection(prompt.SectionSpec{
		Key:      "files",
		Title:    "Workspace files",
		Template: Guidance,
		Tools: []*wink.Tool{WinkLs, WinkReadFile, WinkWriteFile, WinkEditFile,
			WinkGlob, WinkGrep, WinkRm},
		Policies: Policies(opts...),
	})
}
