// Command codemode is make demo-code: the example of programs that call tools (example/codemode).
//
// First, in one process, the scripted model answers a question needing a dozen dependent lookups with
// one program (run_program); the transcript shows the program, each inner call with the policy's
// decision on it, and the result, then the same task call by call, for the counts.
//
// Then the same run is durable (runtime/durable on a throwaway PostgreSQL cluster, the session and the
// program's checkpoints in pgstore): worker A is killed (SIGKILL, by itself) in the middle of the
// program; worker B takes the run over when A's lease expires, runs the program again from its start,
// and every inner call A completed is answered from its checkpoint: B's transcript shows which calls it
// ran and which were replayed. The demo checks that no completed call ran twice and exits non-zero when
// an expectation fails.
//
// "codemode worker -dsn ... -name A [-kill city:phase]" runs one worker (the demo starts its workers so).
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/example/codemode"
	"github.com/winkgen/wink/internal/pgcluster"
	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/pgdurable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/scripted"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/session/pgstore"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/wink"
)

// cities are the route's cities in the order the program visits them.
var cities = []string{"Lisbon", "Madrid", "Barcelona", "Lyon", "Geneva", "Milan", "Venice", "Vienna", "Prague", "Berlin", "Hamburg", "Copenhagen"}

// kill is where worker A kills itself: in the route_leg call for City, before or after its effect
// ("before", "after"), or once the program has returned and before the engine checkpointed it ("end").
type kill struct {
	City, Phase string
}

func (k kill) String() string { return k.City + ":" + k.Phase }

func main() {
	if len(os.Args) > 1 && os.Args[1] == "worker" {
		os.Exit(workerMain(os.Args[2:], os.Stdout, os.Stderr))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := inProcess(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "codemode:", err)
		os.Exit(1)
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "codemode:", err)
		os.Exit(1)
	}
	if err := durableRuns(ctx, os.Stdout, func(args []string) *exec.Cmd { return exec.Command(self, args...) }, []kill{{"Vienna", "before"}}); err != nil {
		fmt.Fprintln(os.Stderr, "codemode:", err)
		os.Exit(1)
	}
}

// policyLog prints every decision of the policy it wraps.
type policyLog struct {
	wink.Policy
	w      io.Writer
	prefix string
}

func (p policyLog) Check(tc *wink.ToolContext, tool *wink.Tool, params any) wink.Decision {
	d := p.Policy.Check(tc, tool, params)
	if _, inner := wink.InnerCallOf(tc); inner {
		verdict := "allowed"
		if !d.Allow {
			verdict = "denied: " + d.Reason
		}
		args, _ := tool.EncodeParams(nil, params)
		fmt.Fprintf(p.w, "%s  inner call %-8s %s %s  policy %s %s\n", p.prefix, tc.CallID, tool.Name(), args, p.Name(), verdict)
	}
	return d
}

// inProcess runs the task by program, then call by call, in this process.
func inProcess(ctx context.Context, w io.Writer) error {
	fmt.Fprintf(w, "User: %s\n", codemode.Task)
	var counts [2][2]int
	for i, program := range []bool{true, false} {
		name, text := codemode.CallsTranscriptName, codemode.CallsTranscript
		if program {
			name, text = codemode.ProgramTranscriptName, codemode.ProgramTranscript
		}
		s, err := scripted.Parse(name, text)
		if err != nil {
			return err
		}
		p := &counting{p: scripted.New(s)}
		out := w
		if !program {
			out = io.Discard
		}
		d := &wink.Dispatcher{Registry: codemode.Registry(), Session: session.New(),
			Policies: []wink.Policy{policyLog{Policy: codemode.RouteGuard{}, w: out}}}
		res, err := loop.Run(ctx, codemode.Config(p, d, program), []loop.Message{loop.UserMessage(codemode.Task)})
		if err != nil {
			return err
		}
		if err := p.p.(*scripted.Provider).Verify(res.Messages); err != nil {
			return err
		}
		if program {
			printRun(w, res.Messages)
		}
		counts[i] = [2]int{p.turns, p.bytes}
	}
	fmt.Fprintf(w, "\nBy program: %d model turns, %d bytes of tool definitions sent; call by call: %d turns, %d bytes (%.1fx the turns, %.2fx the bytes).\n",
		counts[0][0], counts[0][1], counts[1][0], counts[1][1], float64(counts[1][0])/float64(counts[0][0]), float64(counts[1][1])/float64(counts[0][1]))
	return nil
}

// printRun prints the program of the run's run_program call and its result.
func printRun(w io.Writer, msgs []loop.Message) {
	for _, m := range msgs {
		switch m.Role {
		case loop.RoleAssistant:
			for _, c := range m.ToolCalls {
				p, err := wink.DecodeParams[eval.ProgramParams](eval.Program, c.Arguments, wink.Dispatcher{}.Limits)
				if err == nil {
					fmt.Fprintf(w, "\nModel calls run_program with this program:\n  %s\n\n", strings.ReplaceAll(p.Source, "\n", "\n  "))
				}
			}
			if m.Text != "" {
				fmt.Fprintf(w, "\nModel: %s\n", m.Text)
			}
		case loop.RoleTool:
			fmt.Fprintf(w, "\nrun_program → %s\n  %s\n", m.Result.Message,
				strings.ReplaceAll(strings.TrimPrefix(m.Result.Output, m.Result.Message+"\n\n"), "\n", "\n  "))
		}
	}
}

// counting counts a provider's requests and the tool-definition bytes they carry.
type counting struct {
	p            loop.Provider
	turns, bytes int
}

func (c *counting) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	c.turns++
	c.bytes += codemode.DefinitionBytes(req)
	return c.p.Complete(ctx, req)
}

// spawn returns the command running a worker with args.
type spawn func(args []string) *exec.Cmd

// durableRuns runs the task durably once per kill point, worker A killed there and B finishing the run,
// and checks that every inner call that completed on A was answered from its checkpoint on B.
func durableRuns(ctx context.Context, w io.Writer, sp spawn, kills []kill) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "wink-codemode-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cluster, err := pgcluster.Start("")
	if err != nil {
		return fmt.Errorf("starting PostgreSQL: %w", err)
	}
	defer cluster.Stop()
	dsn, err := cluster.CreateDB(ctx, "codemode")
	if err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return err
	}
	defer pool.Close()
	st, err := pgdurable.New(ctx, pool)
	if err != nil {
		return err
	}
	eng := &durable.Engine{Store: st}
	for i, k := range kills {
		run := "route-" + strconv.Itoa(i+1)
		effects := filepath.Join(dir, run+".effects")
		fmt.Fprintf(w, "\n── Durable run %q on PostgreSQL: worker A kills itself (SIGKILL) in the program, at %s\n", run, k)
		if _, err := eng.Start(ctx, run, []loop.Message{loop.UserMessage(codemode.Task)}, durable.StartOptions{Session: "conv-" + run, MaxTurns: 5}); err != nil {
			return err
		}
		args := []string{"-dsn", dsn, "-effects", effects}
		a, err := startWorker(sp, w, "A", append(args, "-kill", k.String())...)
		if err != nil {
			return err
		}
		select {
		case <-a.done:
		case <-ctx.Done():
			a.kill()
			return errors.New("worker A did not reach its kill point")
		}
		fmt.Fprintf(w, "[A] killed: %s\n", a.cmd.ProcessState)
		b, err := startWorker(sp, w, "B", args...)
		if err != nil {
			return err
		}
		final, err := eng.Wait(ctx, run)
		b.stop()
		if err != nil {
			return fmt.Errorf("waiting for the run: %w (%s)", err, final.Err)
		}
		if err := check(w, final, effects, k); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nEvery expectation held: each inner call that completed before the kill ran once, and was answered from its checkpoint after it.\n")
	return nil
}

// check prints the run's program result and checks it and the effects against the kill point.
func check(w io.Writer, final durable.Status, effects string, k kill) error {
	var result string
	for _, m := range final.Messages {
		if m.Role == loop.RoleTool {
			result = m.Result.Message
			fmt.Fprintf(w, "run_program → %s\n  %s\n", m.Result.Message, strings.ReplaceAll(strings.TrimPrefix(m.Result.Output, m.Result.Message+"\n\n"), "\n", "\n  "))
		}
	}
	fmt.Fprintf(w, "Model: %s\n", final.Text)
	data, err := os.ReadFile(effects)
	if err != nil {
		return err
	}
	ran := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		worker, city, _ := strings.Cut(l, " ")
		ran[city] = append(ran[city], worker)
	}
	var errs []error
	if final.State != durable.Done || !strings.Contains(final.Text, "5221 km") {
		errs = append(errs, fmt.Errorf("the run ended %s: %q", final.State, final.Text))
	}
	at := len(cities)
	for i, c := range cities {
		if c == k.City {
			at = i
		}
	}
	completed := at // calls A completed (each commits its checkpoint before the next starts)
	if k.Phase == "end" {
		completed = len(cities)
	}
	for i, c := range cities {
		want := "B"
		switch {
		case i < completed:
			want = "A"
		case i == at && k.Phase == "after":
			want = "A B" // its effect happened, its checkpoint did not: run again (at least once)
		}
		if got := strings.Join(ran[c], " "); got != want {
			errs = append(errs, fmt.Errorf("route_leg %s ran on %q, want %q", c, got, want))
		}
	}
	if want := "(" + strconv.Itoa(completed) + " answered from their checkpoints"; completed > 0 && !strings.Contains(result, want) {
		errs = append(errs, fmt.Errorf("the program's result %q does not say %q", result, want))
	}
	fmt.Fprintf(w, "Effects (the worker that ran each leg's handler): ")
	for _, c := range cities {
		fmt.Fprintf(w, "%s=%s ", c, strings.Join(ran[c], "+"))
	}
	fmt.Fprintln(w)
	return errors.Join(errs...)
}

// worker is a running worker process.
type worker struct {
	cmd  *exec.Cmd
	in   io.Closer
	done chan struct{}
}

func startWorker(sp spawn, w io.Writer, name string, args ...string) (*worker, error) {
	cmd := sp(append([]string{"worker", "-name", name}, args...))
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	wk := &worker{cmd: cmd, in: in, done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			fmt.Fprintf(w, "[%s] %s\n", name, sc.Text())
		}
		_ = cmd.Wait()
		close(wk.done)
	}()
	return wk, nil
}

func (wk *worker) stop() {
	_ = wk.in.Close()
	select {
	case <-wk.done:
	case <-time.After(15 * time.Second):
		wk.kill()
	}
}

func (wk *worker) kill() {
	_ = wk.cmd.Process.Kill()
	<-wk.done
}

// workerMain is one worker: the example's program agent, its session (with the program checkpoints) in
// PostgreSQL, driving durable runs until its standard input closes.
func workerMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "worker name")
	dsn := fs.String("dsn", "", "PostgreSQL DSN")
	effects := fs.String("effects", "", "file receiving a line per route_leg handler run")
	killAt := fs.String("kill", "", "city:phase where the worker kills itself (SIGKILL)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "worker "+*name+":", err); return 1 }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); cancel() }()
	codemode.Worker, codemode.EffectsFile = *name, *effects
	pool, err := pgxpool.New(ctx, *dsn)
	if err != nil {
		return fail(err)
	}
	defer pool.Close()
	sst, err := pgstore.New(ctx, pool, eval.CheckpointSlice, durable.CommitSlice)
	if err != nil {
		return fail(err)
	}
	st, err := pgdurable.New(ctx, pool)
	if err != nil {
		return fail(err)
	}
	script, err := scripted.Parse(codemode.ProgramTranscriptName, codemode.ProgramTranscript)
	if err != nil {
		return fail(err)
	}
	die := func() {
		fmt.Fprintf(stdout, "kill -9 at %s\n", *killAt)
		killSelf()
	}
	city, phase, _ := strings.Cut(*killAt, ":")
	if *killAt != "" && phase != "end" {
		codemode.KillAt = func(c, p string) {
			if c == city && p == phase {
				die()
			}
		}
	}
	eng := &durable.Engine{Store: st, Worker: *name, Lease: 2 * time.Second, Poll: 50 * time.Millisecond, RetryDelay: 100 * time.Millisecond,
		Agent: func(ctx context.Context, run durable.Run) (loop.Config, error) {
			d := &wink.Dispatcher{
				Registry: codemode.Registry(),
				Session:  session.New(session.WithID(run.Session), session.WithStore(sst)),
				Policies: []wink.Policy{policyLog{Policy: codemode.RouteGuard{}, w: stdout}},
				Events: func(ev *wink.ToolInvoked) {
					if ev.Replayed && ev.Name == "route_leg" {
						fmt.Fprintf(stdout, "  inner call %-8s %s %s  answered from its checkpoint (not run again)\n", ev.CallID, ev.Name, ev.Arguments)
					}
				},
			}
			return codemode.Config(&replaying{script: script}, d, true), nil
		}}
	if phase == "end" {
		eng.Observe = func(ev durable.Event) {
			if ev.Kind == durable.EventToolDispatched {
				die()
			}
		}
	}
	if err := eng.Work(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return fail(err)
	}
	return 0
}

// replaying plays the scripted transcript by the number of turns in the request, so that any worker,
// resuming anywhere, answers each turn as the script says.
type replaying struct{ script *scripted.Script }

func (p *replaying) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	n := 0
	for _, m := range req.Messages {
		if m.Role == loop.RoleAssistant {
			n++
		}
	}
	sp := scripted.New(p.script)
	for range n {
		if _, err := sp.Complete(ctx, req); err != nil {
			return loop.Response{}, err
		}
	}
	return sp.Complete(ctx, req)
}
