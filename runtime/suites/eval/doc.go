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
//     most the files suite's MaxFileSize, MaxWriteBytes together: written files live in the calling process
//     or its workspace, outside the evaluator's memory bound, so without this cap a three-line program
//     made a host with a memory workspace hold gigabytes), the files read (Config.MaxReadBytes, 64 MiB by
//     default, every read_file counted, a file read again counted again: each read is a copy the calling
//     process makes; a file that would pass the bound is refused by its size before it is read), the
//     result's repr (MaxOutputBytes shown, then result_truncated), memory and time (below).
//   - Time: the step budget does not bound time, because one step can walk a whole value: == or sorted
//     over [[[[0] * 1000] * 1000] * 1000] * 1000 (a few thousand list cells sharing their elements)
//     visits 10^12 elements in one step, for hours, and go.starlark.net checks its budget and
//     cancellation only between steps. So every evaluation also has a wall-clock bound (Config.Timeout,
//     default 30 s: the calling process kills the evaluator) and, on Linux, a CPU-time bound
//     (Config.CPUTime, default 10 s, whole seconds: RLIMIT_CPU, enforced by the kernel on the evaluator's
//     threads together). 100,000,000 steps of ordinary code, the most max_steps allows, took up to 3.6 s
//     of CPU on the machine this was measured on. Past either bound the call fails, its writes undone,
//     with a text naming the bound and what takes that long. The call's own deadline still applies; the
//     earlier one stops the program (a read_file the calling process is serving finishes first).
//   - Configuration: a resources binding of ConfigKey overrides DefaultConfig for a dispatcher; without
//     one, or for its zero fields, the defaults apply.
//   - Isolation: each program runs in a child process, the same executable started again (the package's
//     init recognises it), because go.starlark.net walks values recursively with no depth limit (str, repr,
//     print, %, format, hashing a tuple as a dict key or set element...) and one step may allocate up to
//     1 GiB for a string or 2^30 elements for a list (repetition, replace, join, format, range
//     materialised): in-process, a value nested a few hundred thousand deep ends the whole process with a
//     fatal stack overflow no recover catches, and one step overshoots any bound checked between steps.
//     Wrapping every recursive path and every allocating builtin would not stay closed as go.starlark.net
//     grows; a process boundary does. The child's stack is capped (16 MiB), so a value nested too deeply
//     fails the call ("nested too deeply") instead of the host. The workspace stays in the calling
//     process: read_file and write_file are requests to it, checked and performed there, in the call's
//     transaction.
//   - Warm evaluators: an evaluator that served a program cleanly (it finished, failed with an error or ran
//     out of steps, its heap grew by less than 32 MiB) waits for the next call, at most 4 of them, each for
//     at most a minute and 1,000 programs (one that has served its 1,000 is replaced by a fresh one,
//     started ahead on a goroutine of its own); so a call pays a process start only when none is waiting
//     (the first call, or more calls at once than evaluators waiting). Nothing of one program reaches the next:
//     the thread, the globals and the builtins are made anew, the workspace and every count are the calling
//     process's, per call, and each bound is set again per program (steps, the heap watcher's base, the CPU
//     limit, the wall clock, the call's context); an evaluator that hit the memory or a time bound, was
//     killed, crashed or answered out of protocol is ended. On Linux the kernel's SIGKILL behind the CPU
//     bound (should the evaluator not exit at the bound itself) comes 1 to 3 s after it, not 1 s: an
//     unprivileged process cannot raise its hard limit again, so the first program sets it with 2 s of
//     room for the later ones; an evaluator that has used those 2 s since its first program, or is asked
//     for a larger CPU bound than its first program had, hands the program to a fresh one. Calls at once never share an evaluator. The pool.go design note has the details; BenchmarkEval
//     the cost (warm, cold, and the same program in process). On Linux, with more than one CPU, a side
//     that waits for the other's answer during a call (the calling process while a program runs, the
//     evaluator for a file's text or a tool's result) first spins for up to 300 µs, so that an answer
//     that comes within microseconds costs no wakeup (and, up to 16 KiB, no system call: it comes through
//     memory the two processes share); it stops spinning where answers do not come in
//     time (a busy machine). An evaluator that has answered a program spins for at most 50 µs for the
//     next one, so that calls one after another (a turn's eval calls) find it awake; where calls come
//     further apart, that wait too is skipped, but for one program in up to 64, and an evaluator waiting
//     longer blocks, using no CPU time. If the child
//     cannot be started, the call returns an error rather than running the program unprotected. The child
//     starts with an empty environment; the init functions of the executable's other packages run in it
//     too, so keep them free of side effects (writing to standard output, which carries the child's
//     answers, included). The child is killed when the call's context ends or its wall-clock bound
//     passes, whichever comes first.
//   - Memory: the program is stopped when the child's heap grows by more than MaxMemory (256 MiB; sampled
//     every millisecond, with the garbage collector told to keep under it), and on Linux the child's
//     address space is limited (RLIMIT_AS) to its size at start plus MaxMemory plus 64 MiB for the
//     runtime's own structures, so a single step that asks for more fails before the memory is taken: the
//     evaluator never holds more than 320 MiB beyond what it held at start (a few MiB resident). Either
//     way the call fails with the memory message. The bound is per call: evaluators running at once may
//     together exhaust the machine, so on Linux each asks the kernel's OOM killer to choose it first
//     (oom_score_adj 1000): then an evaluator dies, failing its call, and the host goes on. On other
//     systems only the heap watcher applies, so one step can overshoot it by go.starlark.net's
//     per-operation cap.
//   - Failures the model reads: a syntax or runtime error with its line and column and the Starlark
//     backtrace's last frame, the step budget, the memory bound, the time bounds, a failed builtin (the
//     read and write bounds among them). Each is a failure result, so the call's writes are rolled back.
//
// # Programs that call tools (run_program)
//
// Program (run_program) runs a Starlark program, in the same bounded child process, whose functions are
// the dispatcher's tools: a program reads ProgramGuide (ProgramSection puts it in the prompt), one
// generated signature per tool (wink.Spec.Signature: parameters with their types, defaults and enums,
// the result's shape, the one-line description), and calls tools with keyword arguments:
//
//	sec, _ := eval.ProgramSection(reg)                     // reg holds the tools and eval.Program
//	d := &wink.Dispatcher{Registry: reg, Session: sess, Policies: pols}
//
// What a program's calls are:
//
//   - Which tools: those whose declaration allows calls from programs (//wink:tool callers=program or
//     both; by default the read-only and the idempotent ones, never a destructive one: wink.Spec.Callable).
//     Others are not functions in the program; the dispatcher refuses them too.
//   - Every inner call is a full dispatch, in the calling process (the child holds no handler: it sends
//     the call's name and its arguments as JSON over its pipe and waits for the answer): the caller's
//     scopes, the generated strict decoder (a bad argument fails with the text a direct call gets), the
//     policies, the call's own transaction, the ledger under the tool's own idempotency key (an inner call
//     replays a direct call's result and the other way round), Hooks.Start (traces: inner spans are
//     children of the program's) and a ToolInvoked event, with the call id "<program call id>/<n>".
//     The program call itself has no transaction (wink.Tool.AsProgram): its inner calls commit one by one,
//     and a program that fails halfway keeps the calls it completed, as the same calls made one by one do.
//   - Results: the tool's result value as its generated encoder writes it, turned into Starlark values
//     (objects are dicts, arrays lists); a result without a JSON value (none, or excluded from the
//     context) is its text.
//   - Failures: a failed inner call (bad arguments, a denial, a handler's failure) stops the program with
//     "tool <name> failed: <the text a direct call gets>", at the line of the call; attempt(tool, k=v, ...)
//     makes the call without stopping, returning a struct with ok, value and error (the same text).
//   - Holds: an inner call a policy holds (policy.RequireApproval) holds the program call: Dispatch returns
//     a *wink.HeldError whose Call is the program call and whose Binding is the inner call's (its tool and
//     arguments, so the person decides on what will run), under the hold id "<program id>/<n>". Whoever
//     dispatches the held call again (loop.Resume, a durable engine) runs the program again from its
//     start; the inner calls it had completed are answered from their checkpoints, the held one runs or
//     is denied as decided.
//   - Checkpoints: each successful inner call records a Checkpoint in the session (CheckpointSlice; give
//     it to the session store) in its own transaction, so the commit of its changes and of its checkpoint
//     is one write. A program run again under the same id (after a hold, or by a durable engine whose
//     worker died: the engine dispatches the step under the same hold id) is deterministic up to its
//     inputs, the source and the results of its calls, so it sends the same calls in the same order, and
//     each one that has a checkpoint is answered from it without running again (a ToolInvoked event with
//     Replayed set says so). A call that differs from its checkpoint (another tool or other arguments:
//     the program changed its path, say after a read-only tool answered differently) is dispatched, and
//     no later checkpoint is used. A session keeps the checkpoints of its KeptPrograms latest programs.
//     Calls that failed are not checkpointed: they changed nothing, and are dispatched again.
//   - Bounds: max_calls (default 100, at most 1000) inner calls per program, past which it stops; the
//     steps, memory, CPU time and wall-clock bounds of eval (the wall-clock bound includes the time its
//     inner calls take); the values crossing the pipe are nested at most 64 deep. Programs have no
//     read_file or write_file: what they change, they change through tools.
package eval

//go:generate go run github.com/winkgen/wink/cmd/winkgen
