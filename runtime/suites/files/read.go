package files

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/winkgen/wink/runtime/wink"
)

// ReadFileParams are the arguments of read_file.
type ReadFileParams struct {
	// FilePath is the file to read, relative to the workspace root.
	FilePath Path `json:"file_path"`
	// Offset is the number of lines to skip from the start of the file.
	Offset int `json:"offset" wink:"min=0,default=0"`
	// Limit is the largest number of lines to return.
	Limit int `json:"limit" wink:"min=1,max=2000,default=2000"`
}

// ReadFileResult is a window of a text file, with numbered lines.
type ReadFileResult struct {
	// Path is the file read.
	Path string `json:"path"`
	// Content holds the lines shown, each as "   1 | text".
	Content string `json:"content"`
	// StartLine is the number of the first line shown (from 1).
	StartLine int `json:"start_line"`
	// EndLine is the number of the last line shown.
	EndLine int `json:"end_line"`
	// TotalLines is the number of lines in the file.
	TotalLines int `json:"total_lines"`
}

// Render returns the numbered lines.
func (r ReadFileResult) Render() string { return r.Content }

// ReadFile reads a text file and returns its lines numbered from 1, a window at a time (offset, limit).
//
//wink:tool name=read_file readonly
//wink:example desc="Read a small file" input={"file_path":"notes.txt"} output={"path":"notes.txt","content":"   1 | hello","start_line":1,"end_line":1,"total_lines":1}
func ReadFile(tc *wink.ToolContext, p ReadFileParams) (wink.ToolResult[ReadFileResult], error) {
	fs := tc.Filesystem()
	if fs == nil {
		return noFilesystem[ReadFileResult]()
	}
	name, shown := clean(string(p.FilePath))
	data, err := fs.Read(name)
	if err != nil {
		return failed[ReadFileResult](err, shown)
	}
	if !utf8.Valid(data) {
		return wink.Failure[ReadFileResult](quote(shown) + " is not UTF-8 text (a binary file?); read_file shows text files only."), nil
	}
	text := string(data)
	total := countLines(text)
	if total == 0 {
		return wink.Done[ReadFileResult](shown + " is empty (0 lines)."), nil
	}
	if p.Offset >= total {
		return wink.Failure[ReadFileResult]("Offset " + strconv.Itoa(p.Offset) + " is past the end of " + shown + ", which has " +
			plural(total, "line", "lines") + ". Call read_file with an offset below " + strconv.Itoa(total) + "."), nil
	}
	rest := text
	for range p.Offset {
		_, rest, _ = strings.Cut(rest, "\n")
	}
	var b strings.Builder
	lineNo, cut := p.Offset, false
	for lineNo < total && lineNo-p.Offset < p.Limit {
		line, after, _ := strings.Cut(rest, "\n")
		line, c := cutLine(line)
		num := strconv.Itoa(lineNo + 1)
		size := max(4, len(num)) + 3 + len(line) + 1
		if lineNo > p.Offset && b.Len()+size > MaxOutputBytes {
			break
		}
		if lineNo > p.Offset {
			b.WriteByte('\n')
		}
		for i := len(num); i < 4; i++ {
			b.WriteByte(' ')
		}
		b.WriteString(num)
		b.WriteString(" | ")
		b.WriteString(line)
		cut = cut || c
		rest = after
		lineNo++
	}
	res := ReadFileResult{Path: shown, Content: b.String(), StartLine: p.Offset + 1, EndLine: lineNo, TotalLines: total}
	msg := shown + ": lines " + strconv.Itoa(res.StartLine) + "-" + strconv.Itoa(lineNo) + " of " + strconv.Itoa(total) + "."
	if lineNo < total {
		msg += " To read more, call read_file with offset=" + strconv.Itoa(lineNo) + "."
	}
	if cut {
		msg += " Lines longer than " + strconv.Itoa(MaxLineBytes) + " bytes are cut and end with \"" + truncatedMark + "\"; use grep to search them."
	}
	return wink.OK(res, msg), nil
}
