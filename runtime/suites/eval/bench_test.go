package eval_test

import (
	"context"
	"testing"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// benchProgram is the program BenchmarkEval evaluates: a read through the workspace, a print and a
// computed result.
const benchProgram = "print(len(read_file('data.txt').splitlines()))\nresult = len([n * n for n in range(100)])"

// BenchmarkEval measures one small eval call end to end through the dispatcher, beside the same program
// evaluated in this process:
//   - in_process: go.starlark.net in the calling process, with read_file over the same filesystem and
//     print collected (no isolation at all: the floor);
//   - warm: the eval tool as a call pays for it when an evaluator is waiting (every call after the first);
//   - warm_after_idle: as warm, with each call 2 ms after the last (outside the timer), so that the waiting
//     evaluator is asleep: what a call pays after a pause, a model's turn say;
//   - cold: the eval tool with no evaluator waiting, so the call starts one (the first call's cost).
func BenchmarkEval(b *testing.B) {
	fs := vfs.NewMemory()
	if err := fs.Write("data.txt", []byte("a\nb\nc\n")); err != nil {
		b.Fatal(err)
	}
	b.Run("in_process", func(b *testing.B) {
		defer cpuPerOp(b)()
		for b.Loop() {
			if err := evalInProcess(fs, benchProgram); err != nil {
				b.Fatal(err)
			}
		}
	})
	d := &wink.Dispatcher{Registry: wink.MustRegistry(eval.WinkTools()), Filesystem: fs, Session: session.New()}
	call := wink.Call{ID: "c", Name: "eval", Arguments: []byte(`{"source":"print(len(read_file('data.txt').splitlines()))\nresult = len([n * n for n in range(100)])"}`)}
	dispatch := func(b *testing.B) {
		out, err := d.Dispatch(context.Background(), call)
		if err != nil || !out.Success {
			b.Fatal(out.Output, err)
		}
	}
	b.Run("warm", func(b *testing.B) {
		dispatch(b) // an evaluator waits from here on
		defer cpuPerOp(b)()
		for b.Loop() {
			dispatch(b)
		}
	})
	b.Run("warm_after_idle", func(b *testing.B) {
		dispatch(b)
		defer cpuPerOp(b)()
		for b.Loop() {
			b.StopTimer()
			time.Sleep(2 * time.Millisecond)
			b.StartTimer()
			dispatch(b)
		}
	})
	b.Run("cold", func(b *testing.B) {
		defer cpuPerOp(b)()
		for b.Loop() {
			b.StopTimer()
			eval.DrainPool()
			b.StartTimer()
			dispatch(b)
		}
		eval.DrainPool()
	})
}

// evalInProcess runs program as the evaluator does, in this process.
func evalInProcess(fs vfs.Filesystem, program string) error {
	var printed []string
	thread := &starlark.Thread{Name: "eval", Print: func(_ *starlark.Thread, msg string) { printed = append(printed, msg) }}
	thread.SetMaxExecutionSteps(1_000_000)
	predeclared := starlark.StringDict{
		"read_file": starlark.NewBuiltin("read_file", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var path string
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "path", &path); err != nil {
				return nil, err
			}
			data, err := fs.Read(path)
			if err != nil {
				return nil, err
			}
			return starlark.String(data), nil
		}),
	}
	globals, err := starlark.ExecFileOptions(&syntax.FileOptions{TopLevelControl: true, While: true, Set: true, GlobalReassign: true}, thread, "program.star", program, predeclared)
	if err != nil {
		return err
	}
	_ = globals["result"].String()
	return nil
}
