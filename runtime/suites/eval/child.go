package eval

// DESIGN-notes: why each program runs in a child process.
//
// go.starlark.net recurses on the Go stack, with no depth limit, in every operation that walks a value:
// str/repr/print of a list, dict, tuple or set; hash of a tuple (as a dict key, in a set, in hash());
// "%s"/format; sorted over tuples; and so on. A program nests a value a million deep in a million steps
// (x = [x]), and walking it exhausts the Go stack: a fatal error that no recover catches, ending the process
// and every session in it. Bounding depth in-process would mean knowing the depth of every value when it
// is walked, but a value gets deeper after it was built (a = []; b = [a]; a.append(b[:])...), so every
// mutating builtin, every comparison and every walker of go.starlark.net would have to be wrapped, and the
// next walker added upstream would reopen the hole. Likewise the memory bound: one step allocates up to
// go.starlark.net's own per-operation cap (1 GiB for a string, 2^30 elements for a tuple or list: 16 GiB),
// and the str methods (replace, join, format, %), list growth and range materialisation each allocate
// before any per-step check could see it.
//
// So the program runs in a child process: the same executable, re-executed with childEnv set; the
// package's init sees the variable and serves programs instead of starting the host program (one at a
// time; pool.go says when a process serves another and why nothing of one program reaches the next). The child
// sets its own limits before it reads the program:
//   - debug.SetMaxStack(childMaxStack): a value nested too deeply for a walk ends the child with "stack
//     overflow"; the parent reports it as a failed call.
//   - on Linux, RLIMIT_AS = the child's address space at start + MaxMemory + childMemoryMargin: a mapping
//     past it fails in the kernel and the Go runtime ends the child ("out of memory") before the memory is
//     taken, however large the one step's request. (Not RLIMIT_DATA: see limitData.)
//   - debug.SetMemoryLimit(start heap + MaxMemory) and the heap watcher (memwatch.go): a program that grows
//     step by step is cancelled cleanly at MaxMemory, with its print output kept.
//   - on Linux, RLIMIT_CPU = the CPU time it has used + Config.CPUTime (whole seconds; set when the program
//     arrives, so a child that serves several programs can set it again for each): at the soft limit the
//     kernel sends SIGXCPU, on which the child exits with exitCPU; a second later, SIGKILL.
//
// Neither the step budget nor Thread.Cancel bounds time: both are checked between steps, and one step
// (==, <, in, index, sorted, hash over values built by repetition, which share their elements: a few
// thousand list cells walked as 10^12) runs for hours. So time is bounded from outside the interpreter:
// the CPU limit above, and the parent's wall-clock timer (Config.Timeout), which kills the child.
//
// The workspace stays in the parent: read_file and write_file are requests over the child's stdin/stdout,
// checked and performed by the parent on the call's vfs.Filesystem inside the call's transaction, exactly as
// before. print() writes into a buffer the parent shares with the child and reads with each frame the
// child sends and once the child has ended (prints.go; a 'P' frame where there is no such buffer, or
// for text that does not fit), so printing costs no exchange and a program that crashes still shows what
// it printed (the child stops printing past MaxOutputBytes). The parent trusts nothing the child sends:
// frames are bounded (frameLimit), the print buffer is parsed within its size and printed text is capped
// again, and the child is killed when the call's context ends or its wall-clock bound passes.
//
// Wire format: frames of one kind byte, a 4-byte big-endian length and the payload; no reflection, no
// encoding/json. Parent to child: 'S' (steps and the CPU bound in seconds as uvarints, then the source),
// 'O' (a builtin's reply: the file text for read_file, nothing for write_file), 'E' (a builtin's error
// text). Child to parent: 'P' (printed text, where the print buffer cannot take it), 'R' (read_file: the path), 'W' (write_file: path length as
// uvarint, path, content), 'A' (the program is accepted and runs), 'D' (done: status byte, steps,
// message, result repr, result-truncated byte, reusable byte: the process may serve another program).
// run_program adds: parent to child 'C' (as 'S', with the callable tools' names, a uvarint count then
// each length-prefixed, before the source), 'V' (a tool call's result value as JSON) and 'F' (a failed
// tool call's text); child to parent 'T' (a tool call: the length-prefixed name, then the arguments as a
// JSON object). The child defines no tool's behaviour: every call is answered by the parent.
//
// Cost: a process start for the first call and whenever no evaluator is waiting (a few milliseconds);
// otherwise one exchange ('S', then 'A' and 'D' in one write) plus one per builtin or tool call the program
// makes, on top of the evaluation (see BenchmarkEval and pool.go). A frame that reaches a process blocked
// in read(2) wakes it, a context switch on both sides: that, not the bytes, is what the exchange costs,
// so on Linux a side that expects a frame soon waits a little, spinning, before it blocks (wire.go).
//
// Where the child has no RLIMIT_AS (not Linux), a single step's allocation is bounded only by
// go.starlark.net's per-operation cap; the crash isolation holds everywhere.

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"runtime"
	"runtime/debug"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/winkgen/wink/runtime/suites/files"
)

const (
	// childEnv marks the evaluator process; its value is childMagic.
	childEnv   = "WINK_STARLARK_EVALUATOR"
	childMagic = "1"
	// printsEnv tells the child that its first extra file is a print buffer (prints.go).
	printsEnv = "WINK_STARLARK_PRINTS"
	// childMaxStack is the child's Go stack limit.
	childMaxStack = 16 << 20
	// childMemoryMargin is what the child may map beyond MaxMemory: the runtime's own structures, the
	// goroutine stacks, GC metadata and fragmentation.
	childMemoryMargin = 64 << 20
	// exitNoLimit is the child's exit status when it cannot set its memory or CPU limit.
	exitNoLimit = 5
	// exitCPU is the child's exit status when it reaches its CPU limit (SIGXCPU).
	exitCPU = 6
	// exitRetired is the exit status of a reused child that cannot give a program its CPU bound (see
	// limitCPU); the parent runs the program in a fresh one.
	exitRetired = 7
	// frameLimit bounds a frame the parent accepts: a write_file request is the largest.
	frameLimit = files.MaxFileSize + 1<<10
)

// testPrints, when set (by a test, in the child), changes the print buffer when a program arrives;
// testWire, the child's count of the bytes it has written (wire.go; nil when there is none) after each
// builtin's or tool's request.
var (
	testPrints func(*printBuf)
	testWire   func(count *uint64)
)

// maxMemory and maxStack are the child's memory bound and stack limit: MaxMemory and childMaxStack,
// lowered only by the package's tests (in an evaluator started for a test, before childMain runs) to prove
// the mechanisms at less cost.
var (
	maxMemory uint64 = MaxMemory
	maxStack  int    = childMaxStack
)

// Done statuses.
const (
	statusOK byte = iota
	statusError
	statusSteps
	statusMemory
)

func init() {
	if os.Getenv(childEnv) == childMagic {
		os.Exit(childMain(os.Stdin, os.Stdout))
	}
}

func writeFrame(w *bufio.Writer, kind byte, parts ...[]byte) error {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	var h [5]byte
	h[0] = kind
	binary.BigEndian.PutUint32(h[1:], uint32(n))
	w.Write(h[:])
	for _, p := range parts {
		w.Write(p)
	}
	return w.Flush()
}

var errFrameTooLarge = errors.New("frame too large")

func readFrame(r *bufio.Reader, limit int) (byte, []byte, error) {
	var h [5]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(h[1:])
	if uint64(n) > uint64(limit) {
		return 0, nil, errFrameTooLarge
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return 0, nil, err
	}
	return h[0], b, nil
}

// uvarintBytes returns v as a uvarint.
func uvarintBytes(v uint64) []byte { return binary.AppendUvarint(nil, v) }

// payload reads the fields of a frame in order; a short or malformed frame sets bad.
type payload struct {
	b   []byte
	bad bool
}

func (p *payload) uvarint() uint64 {
	v, n := binary.Uvarint(p.b)
	if n <= 0 {
		p.bad = true
		return 0
	}
	p.b = p.b[n:]
	return v
}

func (p *payload) bytes() []byte {
	n := p.uvarint()
	if p.bad || n > uint64(len(p.b)) {
		p.bad = true
		return nil
	}
	v := p.b[:n]
	p.b = p.b[n:]
	return v
}

func (p *payload) byte1() byte {
	if len(p.b) == 0 {
		p.bad = true
		return 0
	}
	v := p.b[0]
	p.b = p.b[1:]
	return v
}

// lenPrefixed returns b preceded by its length as a uvarint.
func lenPrefixed(b []byte) []byte {
	return append(uvarintBytes(uint64(len(b))), b...)
}

// childMain serves programs until its standard input ends: for each it reads 'S', answers 'A', runs the
// program and writes 'D'. It returns the exit code.
func childMain(stdin io.Reader, stdout io.Writer) int {
	debug.SetMaxStack(maxStack)
	prints := openPrints() // before the address-space limit, which counts it
	preferOOMKill()
	limitData(maxMemory + childMemoryMargin)
	watch := newMemWatch()
	childCount, parentCount := prints.counts() // the shared counts of the pipes' bytes (wire.go)
	toParent, toChild := prints.mailboxes()
	link := newLink(stdin, parentCount, childCount, toChild, toParent)
	in, out := bufio.NewReader(link), bufio.NewWriterSize(link.writer(stdout), 64<<10)
	for served := 0; ; served++ {
		if served > 0 {
			link.await(in, awaitProgram) // the next call may follow within microseconds (wire.go)
		}
		kind, b, err := readFrame(in, 1<<30)
		if err == io.EOF && served > 0 {
			return 0 // the parent ended this evaluator between programs
		}
		if err != nil || kind != 'S' && kind != 'C' {
			return 3
		}
		p := payload{b: b}
		steps, cpu := int64(p.uvarint()), p.uvarint()
		var tools []string
		if kind == 'C' { // run_program: the names of the callable tools come first
			tools = []string{}
			for n := p.uvarint(); n > 0 && !p.bad; n-- {
				tools = append(tools, string(p.bytes()))
			}
		}
		if p.bad || steps <= 0 || cpu == 0 {
			return 3
		}
		if !limitCPU(cpu) {
			return exitRetired
		}
		// 'A' travels with the program's first frame (no flush of its own: the parent waits for it anyway).
		out.Write([]byte{'A', 0, 0, 0, 0})
		prints.reset()
		if testPrints != nil {
			testPrints(prints)
		}
		reusable, grew, code := serve(in, out, link, prints, watch, steps, string(p.b), tools)
		if code != 0 || !reusable {
			return code
		}
		if grew > 1<<20 {
			runtime.GC() // the next program's heap bound counts from a heap without this one's garbage
		}
	}
}

// serve runs one program and writes its 'D'. reusable says the process may serve another (its heap grew
// by less than reuseHeap); code is non-zero when the process must exit with it.
func serve(in *bufio.Reader, out *bufio.Writer, link *link, prints *printBuf, watch *memWatch, steps int64, source string, tools []string) (reusable bool, grew uint64, code int) {
	// request sends a builtin's request and returns the parent's reply.
	request := func(kind byte, parts ...[]byte) (byte, []byte) {
		if err := writeFrame(out, kind, parts...); err != nil {
			os.Exit(4)
		}
		if testWire != nil {
			testWire(link.own)
		}
		link.await(in, awaitNext) // a file's text comes within microseconds (wire.go)
		k, reply, err := readFrame(in, 1<<30)
		if err != nil {
			os.Exit(4) // the parent is gone
		}
		return k, reply
	}
	call := func(kind byte, parts ...[]byte) ([]byte, error) {
		k, reply := request(kind, parts...)
		if k == 'E' {
			return nil, errors.New(string(reply))
		}
		return reply, nil
	}
	sent, wrote := 0, 0
	thread := &starlark.Thread{
		Name: "eval",
		Print: func(_ *starlark.Thread, msg string) {
			if sent > MaxOutputBytes {
				return // the parent has truncated already
			}
			if len(msg) > MaxOutputBytes+1 {
				msg = msg[:MaxOutputBytes+1]
			}
			sent += len(msg) + 1
			if prints.add(msg) {
				return // the parent reads it with the next frame, or once the process has ended
			}
			if err := writeFrame(out, 'P', []byte(msg)); err != nil {
				os.Exit(4)
			}
		},
		Load: func(*starlark.Thread, string) (starlark.StringDict, error) {
			return nil, errors.New("load is not available: write the program in one source")
		},
	}
	thread.SetMaxExecutionSteps(uint64(steps))
	predeclared := starlark.StringDict{
		"read_file": starlark.NewBuiltin("read_file", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var path string
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "path", &path); err != nil {
				return nil, err
			}
			data, err := call('R', []byte(path))
			if err != nil {
				return nil, err
			}
			return starlark.String(data), nil
		}),
		"write_file": starlark.NewBuiltin("write_file", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var path, content string
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "path", &path, "content", &content); err != nil {
				return nil, err
			}
			if len(content) > files.MaxFileSize {
				return nil, errFileSize
			}
			if len(content) > MaxWriteBytes-wrote { // the parent checks too; this spares the pipe the bytes
				return nil, errWriteBytes
			}
			if _, err := call('W', lenPrefixed([]byte(path)), []byte(content)); err != nil {
				return nil, err
			}
			wrote += len(content)
			return starlark.None, nil
		}),
	}
	if tools != nil { // a program (run_program) reaches the tools, and nothing else
		predeclared = programBuiltins(tools, request)
	}
	watch.start(thread)
	globals, err := starlark.ExecFileOptions(&syntax.FileOptions{TopLevelControl: true, While: true, Set: true, GlobalReassign: true}, thread, "program.star", source, predeclared)
	overMemory, grew := watch.stop()
	status, msg, result, resultTruncated := statusOK, "", "", byte(0)
	switch {
	case err == nil:
		if v, ok := globals["result"]; ok {
			result = v.String()
			if len(result) > MaxOutputBytes {
				result, resultTruncated = validPrefix(result, MaxOutputBytes), 1
			}
		}
	case overMemory:
		status = statusMemory
	case int64(thread.ExecutionSteps()) >= steps:
		status = statusSteps
	default:
		status, msg = statusError, errorText(err)
	}
	reusable = status != statusMemory && grew < reuseHeap
	if writeFrame(out, 'D', []byte{status}, uvarintBytes(thread.ExecutionSteps()), lenPrefixed([]byte(msg)),
		lenPrefixed([]byte(result)), []byte{resultTruncated}, []byte{boolByte(reusable)}) != nil {
		return false, grew, 4
	}
	return reusable, grew, 0
}

// boolByte is b as a frame's byte.
func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// validPrefix returns the longest prefix of s of at most n bytes that does not cut a UTF-8 sequence.
func validPrefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 { // s[n] starts the rest: no cut in a sequence
		n--
	}
	return s[:n]
}
