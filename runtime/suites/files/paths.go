package files

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// Limits of the suite. Paths beyond them are argument errors (the pattern of Path and PathOrRoot states the
// path limits, as literals that the tests check against these constants); outputs beyond them are cut with a
// note that says how to page.
const (
	// MaxPathDepth is the largest number of segments in a path.
	MaxPathDepth = 16
	// MaxSegmentLength is the longest path segment, in bytes (paths are ASCII).
	MaxSegmentLength = 80
	// MaxPathLength is the longest path accepted by the schema: MaxPathDepth segments of
	// MaxSegmentLength bytes, their separators, and a leading and a trailing "/".
	MaxPathLength = MaxPathDepth*(MaxSegmentLength+1) + 1
	// MaxFileSize is the largest content write_file accepts and edit_file produces (32 MiB); the
	// filesystem's own limit applies too.
	MaxFileSize = int(vfs.DefaultMaxFileSize)
	// MaxReadLines is the largest limit of read_file, and its default.
	MaxReadLines = 2000
	// MaxLineBytes is the longest line read_file and grep show; longer lines are cut and marked.
	MaxLineBytes = 2000
	// MaxOutputBytes bounds the text read_file and grep return; the message then says how to page.
	MaxOutputBytes = 100_000
	// MaxListLimit is the largest limit of ls, glob and grep.
	MaxListLimit = 1000
)

// Path is a path in the workspace, relative to its root (a leading "/" is the root too): 1 to MaxPathDepth
// segments of 1 to MaxSegmentLength printable ASCII characters, none of them "." or "..", with an
// optional trailing "/". The schema's pattern states every rule, so the decoder enforces them all: a segment
// is any 3 to 80 characters, or 1 or 2 characters other than "." and ".."; Go's RE2 refuses nested
// repetitions whose counts multiply past 1000, so the 15 segments after the first are two runs of at
// most 12 and 3.
//
//wink:constraints maxLength=1297,pattern='/?(?:[ -.0-~]{3,80}|[ -,0-~-][ -.0-~]?|[.][ -,0-~-])(?:/(?:[ -.0-~]{3,80}|[ -,0-~-][ -.0-~]?|[.][ -,0-~-])){0,12}(?:/(?:[ -.0-~]{3,80}|[ -,0-~-][ -.0-~]?|[.][ -,0-~-])){0,3}/?',patternDesc='a path in the workspace: 1 to 16 segments separated by /, each 1 to 80 printable ASCII characters, none of them . or ..'
type Path string

// PathOrRoot is a Path, or "" or "/" for the workspace root.
//
//wink:constraints maxLength=1297,pattern='/?(?:(?:[ -.0-~]{3,80}|[ -,0-~-][ -.0-~]?|[.][ -,0-~-])(?:/(?:[ -.0-~]{3,80}|[ -,0-~-][ -.0-~]?|[.][ -,0-~-])){0,12}(?:/(?:[ -.0-~]{3,80}|[ -,0-~-][ -.0-~]?|[.][ -,0-~-])){0,3}/?)?',patternDesc='empty or / for the workspace root, or a path in the workspace: 1 to 16 segments separated by /, each 1 to 80 printable ASCII characters, none of them . or ..'
type PathOrRoot string

// truncatedMark ends a line that was cut at MaxLineBytes.
const truncatedMark = "… [line truncated]"

// clean turns a path argument into the root-relative form every filesystem reads the same way: a leading
// "/" is the root, "" and "/" are the root ("."). The second result is the path as messages show it ("/"
// for the root). A path vfs.Clean refuses is returned as given, so the filesystem's error reports it.
func clean(p string) (string, string) {
	c, err := vfs.Clean(p)
	if err != nil {
		return p, p
	}
	if c == "." {
		return ".", "/"
	}
	return c, c
}

// join returns base/rel for a cleaned base ("." is the root).
func join(base, rel string) string {
	rel = strings.TrimLeft(rel, "/")
	if base == "." {
		return rel
	}
	return base + "/" + rel
}

// quote wraps a path in single quotes, as WINK's messages do.
func quote(p string) string { return "'" + p + "'" }

// plural returns "1 line" or "3 lines".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// fsFailure turns a filesystem error into the text the model sees, as a failure result; ok is false for
// errors with no sentinel (host I/O failures), which the handler returns as errors. The vfs sentinels say
// what is wrong; the words that tell the model what to do next are this suite's, here.
func fsFailure(err error, shown string) (msg string, ok bool) {
	switch {
	case errors.Is(err, vfs.ErrEscapesRoot):
		return quote(shown) + " is outside the workspace. Use a path relative to the workspace root, without '..' and without symlinks that lead out of it.", true
	case errors.Is(err, vfs.ErrNotFound):
		return quote(shown) + " does not exist. Use ls or glob to see what exists.", true
	case errors.Is(err, vfs.ErrIsDir):
		return quote(shown) + " is a directory, not a file. Use ls to list it.", true
	case errors.Is(err, vfs.ErrNotDir):
		return quote(shown) + " is not a directory (it, or a directory above it, is a file). Use ls on its parent directory.", true
	case errors.Is(err, vfs.ErrTooLarge):
		var pe *vfs.PathError
		reason := "it is too large"
		if errors.As(err, &pe) {
			reason = pe.Err.Error()
		}
		return quote(shown) + ": " + reason + ".", true
	case errors.Is(err, vfs.ErrInvalid), errors.Is(err, vfs.ErrExists), errors.Is(err, vfs.ErrReadOnly):
		var pe *vfs.PathError
		if errors.As(err, &pe) {
			return quote(shown) + ": " + pe.Err.Error() + ".", true
		}
		return quote(shown) + ": " + err.Error() + ".", true
	}
	return "", false
}

// failed returns the result or error a handler returns for a filesystem error.
func failed[R any](err error, shown string) (wink.ToolResult[R], error) {
	if msg, ok := fsFailure(err, shown); ok {
		return wink.Failure[R](msg), nil
	}
	return wink.ToolResult[R]{}, err
}

// noFilesystem is the failure of a call made without a filesystem.
func noFilesystem[R any]() (wink.ToolResult[R], error) {
	return wink.ToolResult[R]{}, errors.New("no filesystem is configured for this call (set Dispatcher.Filesystem or bind wink.FilesystemKey)")
}

// cutLine returns line cut to MaxLineBytes at a rune boundary, with the truncation mark, and whether it was
// cut.
func cutLine(line string) (string, bool) {
	if len(line) <= MaxLineBytes {
		return line, false
	}
	n := MaxLineBytes
	for n > 0 && !utf8.RuneStart(line[n]) {
		n--
	}
	return line[:n] + truncatedMark, true
}

// countLines returns the number of lines of text: a trailing newline does not start a line.
func countLines(text string) int {
	if text == "" {
		return 0
	}
	n := strings.Count(text, "\n")
	if text[len(text)-1] != '\n' {
		n++
	}
	return n
}
