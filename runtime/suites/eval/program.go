package eval

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// ProgramParams are the arguments of run_program.
type ProgramParams struct {
	// Source is the Starlark program. Call tools as functions with keyword arguments; print with print(); set a top-level result to return a value.
	Source string `json:"source" wink:"minLength=1,maxLength=65536"`
	// MaxSteps bounds the computation steps of the program.
	MaxSteps int64 `json:"max_steps,omitempty" wink:"min=1000,max=100000000,default=1000000"`
	// MaxCalls bounds the tool calls the program makes.
	MaxCalls int `json:"max_calls,omitempty" wink:"min=1,max=1000,default=100"`
}

// ProgramResult is what a program printed and returned, and the tool calls it made.
type ProgramResult struct {
	// Output is what the program printed, up to MaxOutputBytes.
	Output string `json:"output"`
	// Result is the repr of the top-level variable result; empty when the program set none.
	Result string `json:"result,omitempty"`
	// Steps is the number of steps the program took.
	Steps int64 `json:"steps"`
	// Calls is the number of tool calls the program made.
	Calls int `json:"calls"`
	// Replayed counts the calls answered from their checkpoints (a program run again after a hold or a crash).
	Replayed int `json:"replayed,omitempty"`
	// Truncated says that Output is only the start of what was printed.
	Truncated bool `json:"truncated,omitempty"`
	// ResultTruncated says that Result is only the first MaxOutputBytes of the repr.
	ResultTruncated bool `json:"result_truncated,omitempty"`
}

// Render shows the output, then the result.
func (r ProgramResult) Render() string {
	return EvalResult{Output: r.Output, Result: r.Result, Truncated: r.Truncated, ResultTruncated: r.ResultTruncated}.Render()
}

// RunProgram runs a Starlark program that calls tools as functions with keyword arguments; see the tools list in the instructions.
//
//wink:tool name=run_program callers=direct
//wink:example desc="Look up several things at once" input={"source":"result = [lookup(id=i)['name'] for i in range(3)]"}
func RunProgram(tc *wink.ToolContext, p ProgramParams) (wink.ToolResult[ProgramResult], error) {
	d := tc.Dispatcher()
	if d == nil {
		return wink.Failure[ProgramResult]("run_program is not set up to call tools here: the host registers eval.Program (the program tool), not eval.WinkRunProgram."), nil
	}
	steps := p.MaxSteps
	if steps <= 0 {
		steps = 1_000_000
	}
	maxCalls := p.MaxCalls
	if maxCalls <= 0 {
		maxCalls = 100
	}
	tools := CallableTools(d.Registry)
	r := &programRun{tc: tc, d: d, id: programID(tc.Binding().Hold), maxCalls: maxCalls, tools: map[string]*wink.Tool{}}
	names := make([][]byte, 0, 1+len(tools))
	names = append(names, uvarintBytes(uint64(len(tools))))
	for _, t := range tools {
		r.tools[t.Name()] = t
		names = append(names, lenPrefixed([]byte(t.Name())))
	}
	if err := r.loadCheckpoints(); err != nil {
		return wink.ToolResult[ProgramResult]{}, errors.New("run_program: reading the program's checkpoints: " + err.Error())
	}
	cfg := config(tc)
	out := &printed{}
	run, reused, err := getChild()
	if err != nil {
		return wink.ToolResult[ProgramResult]{}, errors.New("run_program: cannot start the evaluator process: " + err.Error())
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
	program := append(append([][]byte{uvarintBytes(uint64(steps)), uvarintBytes(cfg.cpuSeconds())}, names...), []byte(p.Source))
	err = run.send('C', program...)
	// As eval: a waiting evaluator that cannot take the program leaves it to a fresh one (it never began).
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
					return wink.ToolResult[ProgramResult]{}, errors.New("run_program: cannot start the evaluator process: " + err.Error())
				}
				run.begin(tc.Context(), cfg)
				err = run.send('C', program...)
				continue
			}
		}
		if err == errFrameTooLarge {
			run.outOfProtocol = true
			return r.crashed(run, tc, out, steps)
		}
		if err != nil {
			return r.crashed(run, tc, out, steps)
		}
		switch kind {
		case 'A': // the program began
		case 'P':
			out.add(string(b))
		case 'T':
			pl := payload{b: b}
			name := string(pl.bytes())
			if pl.bad || r.tools[name] == nil {
				run.outOfProtocol = true
				return r.crashed(run, tc, out, steps)
			}
			reply, value, err := r.inner(name, pl.b)
			if err != nil {
				return wink.ToolResult[ProgramResult]{}, err // held, or not answerable: the program stops here
			}
			if reply == 0 { // past the calls bound
				res := r.result(out, 0)
				return failureProgram("The program made more than its "+strconv.Itoa(maxCalls)+" tool calls (max_calls) and was stopped; "+
					"the calls it made stand. Raise max_calls (at most 1000), or call fewer tools: filter before you look things up.", res), nil
			}
			if run.send(reply, value) != nil {
				return r.crashed(run, tc, out, steps)
			}
		case 'D':
			pl := payload{b: b}
			status, used, msg, result, resultTruncated, reusable := pl.byte1(), pl.uvarint(), pl.bytes(), pl.bytes(), pl.byte1(), pl.byte1()
			if pl.bad || len(result) > MaxOutputBytes {
				run.outOfProtocol = true
				return r.crashed(run, tc, out, steps)
			}
			clean = reusable == 1 && status != statusMemory
			res := r.result(out, int64(used))
			if status == statusOK {
				res.Result, res.ResultTruncated = string(result), resultTruncated == 1
				msg := "The program finished after " + strconv.FormatInt(res.Steps, 10) + " steps and " + strconv.Itoa(res.Calls) + " tool calls"
				if res.Replayed > 0 {
					msg += " (" + strconv.Itoa(res.Replayed) + " answered from their checkpoints: they had completed in an earlier run of the program)"
				}
				return wink.OK(res, msg+"."), nil
			}
			var text string
			switch status {
			case statusMemory:
				text = programMemoryText
			case statusSteps:
				text = "The program ran out of its " + strconv.FormatInt(steps, 10) + " steps and was stopped; the tool calls it made stand. " +
					"Raise max_steps or compute less."
			default:
				text = strings.ToValidUTF8(string(msg), "\uFFFD") + "\nThe tool calls the program made before it stopped stand; fix it and run it again " +
					"(or use attempt(tool, ...) to handle a tool's failure in the program)."
			}
			return failureProgram(text, res), nil
		default:
			run.outOfProtocol = true
			return r.crashed(run, tc, out, steps)
		}
	}
}

var programMemoryText = "The program used more than " + strconv.Itoa(MaxMemory>>20) + " MiB of memory and was stopped; the tool calls it made stand. " +
	"Build smaller values."

// Program is the program tool to register: run_program, set up to dispatch its inner calls
// (wink.Tool.AsProgram). (Its type is written out so that packages using it type-check while winkgen
// regenerates this one.)
var Program *wink.Tool = WinkRunProgram.AsProgram()

// CallableTools returns the tools of reg that programs may call (wink.Spec.Callable), in registry order;
// program tools are not among them.
func CallableTools(reg *wink.Registry) []*wink.Tool {
	if reg == nil {
		return nil
	}
	var out []*wink.Tool
	for _, t := range reg.Tools() {
		if _, program := t.Spec().Callable(); program && !t.IsProgram() {
			out = append(out, t)
		}
	}
	return out
}

// programRun is the parent's state of one run of a program.
type programRun struct {
	tc       *wink.ToolContext
	d        *wink.Dispatcher
	id       string // the program's id: the hold id its checkpoints and its inner calls' hold ids derive from
	maxCalls int
	tools    map[string]*wink.Tool
	ordinal  int
	replayed int
	// checkpoints are the program's completed inner calls of an earlier run, by ordinal; diverged says a
	// call did not match its checkpoint, after which none is used.
	checkpoints map[int]Checkpoint
	diverged    bool
}

// programID returns the program's id from the program call's hold id: the hold id itself for a call
// dispatched with one by a durable engine, the part before "/n" for a program dispatched again after its
// inner call n was held, and a new id for a new call.
func programID(hold string) string {
	if i := strings.LastIndexByte(hold, '/'); i > 0 {
		if _, err := strconv.Atoi(hold[i+1:]); err == nil {
			return hold[:i]
		}
	}
	if hold != "" {
		return hold
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "program-" + hex.EncodeToString(b[:])
}

// innerHold is the hold id of inner call n of program id.
func innerHold(id string, n int) string { return id + "/" + strconv.Itoa(n) }

// argsDigest identifies an inner call's arguments as the program sent them (deterministic: the same
// program with the same replayed results sends the same bytes).
func argsDigest(args []byte) string {
	sum := sha256.Sum256(args)
	return hex.EncodeToString(sum[:16])
}

// inner dispatches inner call r.ordinal, or answers it from its checkpoint: the reply frame kind ('V'
// with the value's JSON, 'F' with the failure text), 0 past the calls bound, or an error that stops the
// program (a held call, a call that could not be answered).
func (r *programRun) inner(name string, args []byte) (byte, []byte, error) {
	n := r.ordinal
	if n >= r.maxCalls {
		return 0, nil, nil
	}
	r.ordinal++
	digest := argsDigest(args)
	if cp, ok := r.checkpoints[n]; ok && !r.diverged {
		if cp.Tool == name && cp.Args == digest {
			r.replayed++
			r.replayEvent(n, cp, args)
			return 'V', cp.resultValue(), nil
		}
		r.diverged = true // the program took another path: its later checkpoints are not its calls
	}
	d := *r.d
	var value []byte
	var hasValue bool
	userResult := r.d.Hooks.OnResult
	id := r.id
	d.Hooks.OnResult = func(tc *wink.ToolContext, t *wink.Tool, params any, out *wink.Outcome) {
		if userResult != nil {
			userResult(tc, t, params, out)
		}
		if !out.Success {
			return
		}
		value, hasValue = tc.AppendResultJSON(nil)
		cp := Checkpoint{Program: id, Ordinal: n, Tool: name, Args: digest, Output: out.Output}
		if hasValue {
			cp.Value = value
		}
		if s := tc.Session(); s != nil && !s.IsReadOnly() {
			recordCheckpoint(s, cp)
		}
	}
	ctx := wink.WithInnerCall(r.tc.Context(), wink.InnerCall{Program: id, Ordinal: n})
	call := wink.Call{ID: r.tc.CallID + "/" + strconv.Itoa(n), Name: name, Arguments: args, Hold: innerHold(id, n)}
	o, err := d.Dispatch(ctx, call)
	if err != nil {
		return 0, nil, err
	}
	if !o.Success {
		return 'F', []byte(o.Output), nil
	}
	if !hasValue {
		return 'V', textValue(o.Output), nil
	}
	return 'V', value, nil
}

// textValue is the JSON string of an outcome's text: the value of a call whose result has no JSON value.
func textValue(s string) []byte { return appendQuoted(nil, s) }

// result is the program's result so far.
func (r *programRun) result(out *printed, steps int64) ProgramResult {
	res := ProgramResult{Steps: steps, Calls: r.ordinal, Replayed: r.replayed}
	res.Output, res.Truncated = out.text()
	return res
}

// crashed explains why the evaluator stopped without its answer, as eval does.
func (r *programRun) crashed(c *child, tc *wink.ToolContext, out *printed, steps int64) (wink.ToolResult[ProgramResult], error) {
	er, err := c.crashed(tc, out, steps)
	if err != nil {
		return wink.ToolResult[ProgramResult]{}, err
	}
	text := strings.ReplaceAll(er.Message, "everything it wrote was undone", "the tool calls it made stand")
	text = strings.ReplaceAll(text, "everything the program wrote was undone", "the tool calls the program made stand")
	return failureProgram(text, r.result(out, steps)), nil
}

// failureProgram is a failed result that keeps what the program printed and the calls it made.
func failureProgram(text string, res ProgramResult) wink.ToolResult[ProgramResult] {
	f := wink.Failure[ProgramResult](text)
	if res.Output != "" || res.Calls > 0 {
		f.Value, f.HasValue = res, true
	}
	return f
}

// loadCheckpoints reads the program's checkpoints from the session, in a read-only transaction of its
// own (the program call holds none).
func (r *programRun) loadCheckpoints() error {
	s := r.d.Session
	if s == nil {
		return nil
	}
	tx, err := s.Begin(r.tc.Context(), session.ReadOnly)
	if err != nil {
		return err
	}
	for cp := range session.Values(tx.Session(), CheckpointSlice) {
		if cp.Program == r.id {
			if r.checkpoints == nil {
				r.checkpoints = map[int]Checkpoint{}
			}
			r.checkpoints[cp.Ordinal] = cp
		}
	}
	return tx.End(context.WithoutCancel(r.tc.Context()))
}

// replayEvent tells the dispatcher's Events sink that inner call n was answered from its checkpoint cp:
// a ToolInvoked with Replayed set, as for a ledger's replay (nothing ran, so no policy was asked).
func (r *programRun) replayEvent(n int, cp Checkpoint, args []byte) {
	if r.d.Events == nil {
		return
	}
	t := r.tools[cp.Tool]
	ev := &wink.ToolInvoked{Name: cp.Tool, CallID: r.tc.CallID + "/" + strconv.Itoa(n), Tool: t, Arguments: args,
		Success: true, Output: cp.Output, Replayed: true, Time: time.Now()}
	defer func() { _ = recover() }() // a sink that panics drops the event, as the dispatcher's does
	r.d.Events(ev)
}
