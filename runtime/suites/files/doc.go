// Package files is WINK's file tool suite (ls, read_file, write_file, edit_file, glob, grep, rm) written with
// winkgen: ordinary handlers annotated with //wink:tool over the call's vfs.Filesystem
// (wink.ToolContext.Filesystem), so the same tools work on vfs.Memory and vfs.Host, and every call is covered
// by the dispatcher's transaction (a failed call leaves the files as they were).
//
// Read-before-write is on by default: Policies returns the policy to attach to the suite (see Policies and
// the ReadBeforeWrite option).
//
// # Decisions where the spec was silent
//
//   - Paths are relative to the workspace root; a leading "/" means the root on every filesystem (the
//     handlers strip it, so "/src/a.go" is "src/a.go" on Host too, where vfs would read it as a host path).
//     The rule is declared once, on the types Path (read_file, write_file, edit_file, rm) and PathOrRoot
//     (ls, glob, grep: also "" or "/"), with //wink:constraints: the schema's pattern states all of it
//     (printable ASCII, 1 to MaxPathDepth segments of 1 to MaxSegmentLength characters, none "." or "..",
//     at most MaxPathLength characters), so the decoder enforces it and the params need no Validate; a
//     patternDesc gives the model a sentence instead of the regular expression ("file_path: must be a path
//     in the workspace: 1 to 16 segments separated by /, ...; got "../x""). The bounded pattern costs a
//     few microseconds per typical path (about 0.3 ms for the longest) and about 1 ms to compile at init.
//     Handlers called directly need no check: vfs has no depth or segment limit to protect. Directories
//     may be written with a trailing "/". The root is "" or "/" (ls, glob, grep default to it) and is shown
//     as "/" in messages.
//   - read_file: offset is the number of lines to skip (0-based, as in WINK), limit at most 2000 lines.
//     Lines are numbered from 1 as "%4d | text"; a trailing newline does not start a line; text is shown
//     verbatim (a "\r" stays). A line longer than MaxLineBytes is cut at a rune boundary and marked
//     "… [line truncated]"; the output stops before MaxOutputBytes, and the message then says which offset
//     to call with next. Files that are not valid UTF-8 are refused (binary). An empty file is a success
//     without a value.
//   - write_file creates only: an existing path is a failure that points to edit_file (or rm, to replace
//     the whole file). Content is limited to MaxFileSize bytes (32 MiB, like WINK) and to the filesystem's
//     own limit; note that the dispatcher's strict decoder refuses arguments over
//     strictjson.DefaultMaxBytes (1 MiB) unless Dispatcher.Limits.MaxBytes is raised.
//   - edit_file reads, counts and writes itself (vfs has no edit: the rule is this suite's) so that its
//     failures can say how many matches there are. old_string equal to new_string is refused (nothing
//     would change).
//   - ls, glob and grep page with offset and limit like read_file; a truncated listing says how to get the
//     next page. glob lists files and directories (directories with a trailing "/"); its pattern is relative
//     to path. grep searches files below path (or the one file path names), optionally only those matching
//     glob, line by line with RE2; files that are not UTF-8 or are too large are skipped and counted. grep
//     stops scanning once it has the page plus one match, so it says "more matches" without a total.
//   - rm removes a file, or a directory with everything in it; the root cannot be removed (the schema
//     requires a non-empty path).
//   - Read-before-write: read_file (and ls, for directories) are the read tools; edit_file must read a file
//     first; a successful write_file or edit_file also counts as knowing the file. write_file is not
//     checked (it never overwrites; its own failure tells the model to use edit_file, which is better than
//     sending it to read first). rm on an existing file needs a read_file first, on a directory an ls first
//     ("File 'a.txt' must be read before removing it." / "Directory 'src' must be listed before removing
//     it."). The policy is one package-level value (its session slice is declared once).
package files

//go:generate go run github.com/winkgen/wink/cmd/winkgen
