// Package eval is WINK's evaluator suite written with winkgen: one tool, eval, that runs a small Starlark
// program (go.starlark.net, the Python dialect made for safe embedding) for the model, with a step budget, a
// memory bound, captured print output, and the workspace reachable only through read_file and write_file
// builtins over the call's vfs.Filesystem. The dispatcher's transaction covers the call, so a program that
// fails has its writes undone.
//
//	sec, _ := eval.Section()
//	d := &wink.Dispatcher{Registry: reg, Filesystem: vfs.NewMemory()}
//
// # Decisions where the spec was silent
//
//   - The result: what the program printed, and the value of a top-level variable named result when the
//     program sets one (shown with Starlark's repr: strings quoted).
//   - Determinism: no load(), no time, no randomness, no environment; dict iteration is insertion-ordered in
//     Starlark. The same program over the same files prints the same text and writes the same files.
//   - Builtins: read_file(path) returns a file's text (UTF-8 only; a binary file is an error);
//     write_file(path, content) creates a new file and fails when the path exists, as the files suite's
//     write_file does (so its read-before-write policy has nothing to guard; edits go through edit_file).
//     Paths follow the files suite's rules, checked by the same generated decoders, with the same messages.
//   - Bounds: the steps (max_steps, default 1,000,000, at most 100,000,000), the source (64 KiB), the
//     printed output (MaxOutputBytes shown, the rest counted), the files written (MaxWrites per call, each at
//     most the files suite's MaxFileSize) and memory: the program is cancelled when the process heap grows
//     by more than MaxMemory while it runs (sampled every millisecond). Starlark itself refuses a single
//     allocation over 1 GiB, so one step can overshoot the bound by at most that much; and the heap is the
//     process's, so a busy process lowers what one program may use.
//   - Failures the model reads: a syntax or runtime error with its line and column and the Starlark
//     backtrace's last frame, the step budget, the memory bound, a failed builtin. Each is a failure result,
//     so the call's writes are rolled back.
package eval

//go:generate go run github.com/winkgen/wink/cmd/winkgen
