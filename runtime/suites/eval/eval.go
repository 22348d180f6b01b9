package eval

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// Limits of the suite.
const (
	// MaxOutputBytes is how much printed output the model is shown.
	MaxOutputBytes = 32 << 10
	// MaxMemory bounds the heap growth of one evaluation.
	MaxMemory = 256 << 20
	// MaxWrites bounds the files one evaluation writes.
	MaxWrites = 100
	// MaxWriteBytes bounds the bytes of all the files one evaluation writes together: the writes are held
	// by the calling process (and its workspace), which a program's own memory bound does not cover.
	MaxWriteBytes = files.MaxFileSize
)

// EvalParams are the arguments of eval.
type EvalParams struct {
	// Source is the Starlark program. Print with print(); set a top-level variable result to return a value.
	Source string `json:"source" wink:"minLength=1,maxLength=65536"`
	// MaxSteps bounds the computation steps of the program.
	MaxSteps int64 `json:"max_steps,omitempty" wink:"min=1000,max=100000000,default=1000000"`
}

// EvalResult is what a program printed and returned.
type EvalResult struct {
	// Output is what the program printed, up to MaxOutputBytes.
	Output string `json:"output"`
	// Result is the repr of the top-level variable result; empty when the program set none.
	Result string `json:"result,omitempty"`
	// Steps is the number of steps the program took.
	Steps int64 `json:"steps"`
	// Truncated says that Output is only the start of what was printed.
	Truncated bool `json:"truncated,omitempty"`
	// ResultTruncated says that Result is only the first MaxOutputBytes of the repr.
	ResultTruncated bool `json:"result_truncated,omitempty"`
}

// Render shows the output, then the result.
func (r EvalResult) Render() string {
	var b strings.Builder
	b.WriteString(r.Output)
	if r.Truncated {
		if r.Output != "" && !strings.HasSuffix(r.Output, "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("[output truncated at " + strconv.Itoa(MaxOutputBytes) + " bytes: print less, or write it to a file with write_file]\n")
	}
	if r.Result != "" {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("result = " + r.Result)
		if r.ResultTruncated {
			b.WriteString("\n[result truncated at " + strconv.Itoa(MaxOutputBytes) + " bytes: return less, or write it to a file with write_file]")
		}
	}
	if b.Len() == 0 {
		return "(no output)"
	}
	return b.String()
}

// Eval runs a Starlark program (Python-like) with read_file(path) and write_file(path, content) over the
// workspace. A failing program is undone.
//
//wink:tool
//wink:example desc="Compute and print" input={"source":"print(max([n * n for n in range(10)]))"}
//wink:example desc="Count the lines of a file" input={"source":"result = len(read_file('README.md').splitlines())"}
func Eval(tc *wink.ToolContext, p EvalParams) (wink.ToolResult[EvalResult], error) {
	fsys := tc.Filesystem()
	if fsys == nil {
		return wink.Failure[EvalResult]("eval needs a workspace filesystem; this dispatcher has none."), nil
	}
	steps := p.MaxSteps
	if steps <= 0 {
		steps = 1_000_000
	}
	cfg := config(tc)
	out := &printed{}
	var writes written
	reads := reads{limit: cfg.MaxReadBytes}
	run, reused, err := getChild()
	if err != nil {
		return wink.ToolResult[EvalResult]{}, errors.New("eval: cannot start the evaluator process: " + err.Error())
	}
	run.begin(tc.Context(), cfg)
	clean := false // the program ended cleanly and its evaluator may serve another
	defer func() {
		if clean && run.end() {
			putChild(run)
		} else {
			run.kill()
		}
	}()
	program := [][]byte{uvarintBytes(uint64(steps)), uvarintBytes(cfg.cpuSeconds()), []byte(p.Source)}
	err = run.send('S', program...)
	// A waiting evaluator answers 'A' first (it travels with the program's first frame), or nothing when
	// it cannot give the program its bounds (its CPU limit can no longer grant the whole CPU bound); when
	// it is gone, or answers nothing for that reason, a fresh one serves the program, which never began.
	first, sendFailed := reused, err != nil
	for {
		var kind byte
		var b []byte
		if err == nil {
			kind, b, err = run.next(out)
		}
		if first {
			first = false
			if err != nil && err != errFrameTooLarge && run.retired(sendFailed) {
				if run, err = startChild(); err != nil {
					return wink.ToolResult[EvalResult]{}, errors.New("eval: cannot start the evaluator process: " + err.Error())
				}
				run.begin(tc.Context(), cfg)
				err = run.send('S', program...)
				continue
			}
		}
		if err == errFrameTooLarge {
			return run.garbled(tc, out, steps)
		}
		if err != nil {
			return run.crashed(tc, out, steps)
		}
		switch kind {
		case 'A': // the program began
		case 'P':
			out.add(string(b))
		case 'R':
			data, err := readBuiltin(fsys, string(b), &reads)
			if err != nil {
				err = run.send('E', []byte(err.Error()))
			} else {
				err = run.send('O', data)
			}
			if err != nil {
				return run.crashed(tc, out, steps)
			}
		case 'W':
			pl := payload{b: b}
			path := pl.bytes()
			if pl.bad {
				return run.garbled(tc, out, steps)
			}
			if err := writeBuiltin(fsys, string(path), pl.b, &writes); err != nil {
				err = run.send('E', []byte(err.Error()))
			} else {
				err = run.send('O')
			}
			if err != nil {
				return run.crashed(tc, out, steps)
			}
		case 'D':
			pl := payload{b: b}
			status, used, msg, result, resultTruncated, reusable := pl.byte1(), pl.uvarint(), pl.bytes(), pl.bytes(), pl.byte1(), pl.byte1()
			if pl.bad || len(result) > MaxOutputBytes {
				return run.garbled(tc, out, steps)
			}
			clean = reusable == 1 && status != statusMemory
			res := EvalResult{Steps: int64(used)}
			res.Output, res.Truncated = out.text()
			if status == statusOK {
				res.Result, res.ResultTruncated = string(result), resultTruncated == 1
				return wink.OK(res, "The program finished after "+strconv.FormatInt(res.Steps, 10)+" steps."), nil
			}
			var text string
			switch status {
			case statusMemory:
				text = memoryText
			case statusSteps:
				text = "The program ran out of its " + strconv.FormatInt(steps, 10) + " steps and was stopped; everything it wrote was undone. " +
					"Raise max_steps or compute less."
			default:
				text = strings.ToValidUTF8(string(msg), "\uFFFD") + "\nEverything the program wrote was undone; fix it and call eval again."
			}
			return failure(text, res), nil
		default:
			return run.garbled(tc, out, steps)
		}
	}
}

var memoryText = "The program used more than " + strconv.Itoa(MaxMemory>>20) + " MiB of memory and was stopped; everything it wrote was undone. " +
	"Build smaller values, or read and process the files in parts."

// failure is a failed result that keeps what the program printed.
func failure(text string, res EvalResult) wink.ToolResult[EvalResult] {
	r := wink.Failure[EvalResult](text)
	if res.Output != "" {
		r.Value, r.HasValue = res, true
	}
	return r
}

// reads counts what one evaluation has read, against its limit (Config.MaxReadBytes).
type reads struct{ bytes, limit int64 }

// readBuiltin performs read_file for the program. A file that would take the evaluation past its read
// bound is refused before it is read, by its size (Stat); one that grew since is refused after the read,
// which the filesystem bounds by its own largest file.
func readBuiltin(fsys vfs.Filesystem, path string, r *reads) ([]byte, error) {
	clean, err := checkPath("read_file", path)
	if err != nil {
		return nil, err
	}
	if e, err := fsys.Stat(clean); err == nil && !e.IsDir && e.Size > r.limit-r.bytes {
		return nil, r.over(clean, e.Size)
	}
	data, err := fsys.Read(clean)
	if err != nil {
		return nil, errors.New("read_file: " + err.Error())
	}
	if int64(len(data)) > r.limit-r.bytes {
		r.bytes = r.limit // the copy was made: nothing more is read
		return nil, r.over(clean, int64(len(data)))
	}
	r.bytes += int64(len(data))
	if !utf8.Valid(data) {
		return nil, errors.New("read_file: '" + clean + "' is not UTF-8 text")
	}
	return data, nil
}

// over is read_file's error for a file of size bytes past the read bound.
func (r *reads) over(path string, size int64) error {
	limit := strconv.FormatInt(r.limit, 10)
	if size > r.limit {
		return errors.New("read_file: '" + path + "' holds " + strconv.FormatInt(size, 10) + " bytes, more than the " + limit +
			" bytes one call may read, so eval cannot read it; read it in parts with a tool that reads a window of lines (the files suite's read_file, with offset and limit)")
	}
	return errors.New("read_file: the files one call reads may hold at most " + limit + " bytes together (repeated reads count again), and '" +
		path + "' (" + strconv.FormatInt(size, 10) + " bytes) would pass it after " + strconv.FormatInt(r.bytes, 10) +
		" bytes read; read each file once and keep its text in a variable, or read the rest in another call")
}

// written counts what one evaluation has written.
type written struct{ files, bytes int }

// writeBuiltin performs write_file for the program.
func writeBuiltin(fsys vfs.Filesystem, path string, content []byte, writes *written) error {
	clean, err := checkPath("write_file", path)
	if err != nil {
		return err
	}
	if writes.files >= MaxWrites {
		return errors.New("write_file: at most " + strconv.Itoa(MaxWrites) + " files per call; write the others in another call")
	}
	if len(content) > files.MaxFileSize {
		return errFileSize
	}
	if len(content) > MaxWriteBytes-writes.bytes {
		return errWriteBytes
	}
	if _, err := fsys.Stat(clean); err == nil {
		return errors.New("write_file: '" + clean + "' already exists; write_file only creates files (use edit_file to change one)")
	}
	if dir := parentDir(clean); dir != "" {
		if err := vfs.MkdirAll(fsys, dir); err != nil {
			return errors.New("write_file: " + err.Error())
		}
	}
	if err := vfs.Write(fsys, clean, content); err != nil {
		return errors.New("write_file: " + err.Error())
	}
	writes.files++
	writes.bytes += len(content)
	return nil
}

// errFileSize is write_file's error for content over what one file may hold (the child and the parent
// both check).
var errFileSize = errors.New("write_file: content over " + strconv.Itoa(files.MaxFileSize) +
	" bytes, the most one file may hold; split it into smaller files written over several calls")

var errWriteBytes = errors.New("write_file: the files one call writes may hold at most " + strconv.Itoa(MaxWriteBytes) +
	" bytes together; write less per call")

// errorText formats a Starlark error with its position: "line 3, column 5: message".
func errorText(err error) string {
	var rl resolve.ErrorList
	if errors.As(err, &rl) && len(rl) > 0 {
		e := rl[0]
		return "Error at line " + strconv.Itoa(int(e.Pos.Line)) + ", column " + strconv.Itoa(int(e.Pos.Col)) + ": " + e.Msg
	}
	var se syntax.Error
	if errors.As(err, &se) {
		return "Syntax error at line " + strconv.Itoa(int(se.Pos.Line)) + ", column " + strconv.Itoa(int(se.Pos.Col)) + ": " + se.Msg
	}
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		msg := ee.Msg
		if n := len(ee.CallStack); n > 0 {
			pos := ee.CallStack[n-1].Pos
			for i := n - 1; i >= 0; i-- { // the innermost frame of the program itself
				if ee.CallStack[i].Pos.Line > 0 {
					pos = ee.CallStack[i].Pos
					break
				}
			}
			if pos.Line > 0 {
				return "Error at line " + strconv.Itoa(int(pos.Line)) + ", column " + strconv.Itoa(int(pos.Col)) + ": " + msg
			}
		}
		return "Error: " + msg
	}
	return "Error: " + err.Error()
}

// checkPath checks a builtin's path with the files suite's generated decoder (the same rule, the same
// words) and returns it cleaned.
func checkPath(builtin, path string) (string, error) {
	args := strictjson.AppendString([]byte(`{"file_path":`), path)
	args = append(args, '}')
	if _, err := files.WinkReadFile.Decode(args, strictjson.Limits{}); err != nil {
		var ae *wink.ArgumentsError
		if errors.As(err, &ae) && ae.Errors != nil && len(ae.Errors.Lines()) > 0 {
			return "", errors.New(builtin + ": path " + strings.TrimPrefix(ae.Errors.Lines()[0], "file_path: "))
		}
		return "", errors.New(builtin + ": " + err.Error())
	}
	c, err := vfs.Clean(strings.Trim(path, "/"))
	if err != nil || c == "." {
		return "", errors.New(builtin + ": path " + strconv.Quote(path) + " is not a file path")
	}
	return c, nil
}

func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return ""
}

// printed collects print output up to MaxOutputBytes.
type printed struct {
	b         strings.Builder
	truncated bool
}

func (p *printed) add(msg string) {
	if p.truncated {
		return
	}
	msg = strings.ToValidUTF8(msg, "\uFFFD") // a Starlark string is bytes: 'é'[:1] is not text
	if p.b.Len()+len(msg)+1 > MaxOutputBytes {
		room := MaxOutputBytes - p.b.Len()
		if room > 0 {
			p.b.WriteString(strings.ToValidUTF8(msg[:min(room, len(msg))], ""))
		}
		p.truncated = true
		return
	}
	p.b.WriteString(msg)
	p.b.WriteByte('\n')
}

func (p *printed) text() (string, bool) { return p.b.String(), p.truncated }
