// Command durable runs the example agent (example/agent, its scripted model) as a durable run on the
// embedded engine (runtime/durable) with its checkpoints and its session in a throwaway PostgreSQL
// cluster (make demo-durable): worker A drives the run until a call has committed its session changes
// and before its checkpoint is written, and is killed there (SIGKILL); workers B and C take the run over
// when A's lease expires and finish it from its checkpoints. It prints the transcript with the worker
// that wrote each step, checks every result against the transcript's expectations, that no model turn
// was requested twice and that the killed call was not run again, and exits non-zero when an
// expectation fails.
//
// "durable worker -dsn ... -workspace ... -name A" runs one worker (the demo starts its workers so).
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/example/agent"
	"github.com/winkgen/wink/internal/pgcluster"
	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/durable/pgdurable"
	"github.com/winkgen/wink/runtime/ledger/pgledger"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/providers/scripted"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/session/pgstore"
	"github.com/winkgen/wink/runtime/suites/digest"
	"github.com/winkgen/wink/runtime/suites/planning"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// The run, and where worker A is killed: after turn killTurn's call killIndex committed.
const (
	runID     = "docs-run"
	sessionID = "demo"
	killTurn  = 5
	killIndex = 1
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "worker" {
		os.Exit(workerMain(os.Args[2:], os.Stdout, os.Stderr))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "durable:", err)
		os.Exit(1)
	}
	if err := run(ctx, os.Stdout, func(args []string) *exec.Cmd { return exec.Command(self, args...) }); err != nil {
		fmt.Fprintln(os.Stderr, "durable:", err)
		os.Exit(1)
	}
}

// spawn returns the command running a worker with args.
type spawn func(args []string) *exec.Cmd

// slices are the session slices the store keeps: the plan, the digest, the approvals and the durable
// commits.
func stored() []session.Persistent {
	return []session.Persistent{planning.PlanSlice, digest.Slice, policy.ApprovalSlice, durable.CommitSlice}
}

// proc is a running worker.
type proc struct {
	name  string
	cmd   *exec.Cmd
	stdin io.Closer
	lines chan string
	done  chan struct{}
	out   strings.Builder
	mu    sync.Mutex
}

func start(sp spawn, name string, args ...string) (*proc, error) {
	p := &proc{name: name, lines: make(chan string, 64), done: make(chan struct{})}
	p.cmd = sp(append([]string{"worker", "-name", name}, args...))
	p.cmd.Stderr = &lockedWriter{p: p}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			select {
			case p.lines <- sc.Text():
			default:
			}
		}
		_ = p.cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

type lockedWriter struct{ p *proc }

func (w *lockedWriter) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	return w.p.out.Write(b)
}

func (p *proc) stop() {
	_ = p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// run is the demo: it returns an error when an expectation fails. Everything it started is stopped, and
// the cluster and the workspace removed, before it returns.
func run(ctx context.Context, w io.Writer, sp spawn) (err error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "wink-durable-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	workspace := filepath.Join(dir, "workspace")
	for _, p := range slices.Sorted(maps.Keys(agent.Documents)) {
		if err := os.MkdirAll(filepath.Join(workspace, filepath.Dir(p)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(workspace, p), []byte(agent.Documents[p]), 0o644); err != nil {
			return err
		}
	}
	requests := filepath.Join(dir, "model-requests")
	cluster, err := pgcluster.Start("")
	if err != nil {
		return fmt.Errorf("starting PostgreSQL: %w", err)
	}
	defer cluster.Stop()
	dsn, err := cluster.CreateDB(ctx, "durable")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "PostgreSQL: throwaway cluster, socket in %s; shared workspace %s\n", cluster.Dir(), workspace)
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
	if _, err := eng.Start(ctx, runID, []loop.Message{loop.UserMessage(agent.Task)}, durable.StartOptions{Session: sessionID, MaxTurns: 20}); err != nil {
		return err
	}
	fmt.Fprintf(w, "Run %q started: %s\n", runID, agent.Task)

	args := []string{"-dsn", dsn, "-workspace", workspace, "-requests", requests}
	var procs []*proc
	defer func() {
		for _, p := range procs {
			p.stop()
		}
	}()
	a, err := start(sp, "A", append(args, "-kill-at", strconv.Itoa(killTurn)+":"+strconv.Itoa(killIndex))...)
	if err != nil {
		return err
	}
	procs = append(procs, a)
	fmt.Fprintln(w, "Worker A started alone; it will be killed after turn 5's second call commits, before its checkpoint.")
	select {
	case line := <-waitLine(a, "committed"):
		fmt.Fprintf(w, "Worker A: %s\n", line)
	case <-a.done:
		return errors.New("worker A exited before the kill point: " + a.out.String())
	case <-ctx.Done():
		return errors.New("worker A never reached the kill point: " + a.out.String())
	}
	if err := a.cmd.Process.Kill(); err != nil { // kill -9
		return err
	}
	<-a.done
	mid, err := eng.Status(ctx, runID)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Worker A killed (SIGKILL) with the run %s at turn %d, %d checkpoints written.\n", mid.State, mid.Turns, mid.Steps)
	for _, name := range []string{"B", "C"} {
		p, err := start(sp, name, args...)
		if err != nil {
			return err
		}
		procs = append(procs, p)
	}
	fmt.Fprintln(w, "Workers B and C started: one takes the run over when A's lease expires.")
	fromCommit := make(chan string, 2)
	for _, p := range procs[1:] {
		go func() {
			if l, ok := <-waitLine(p, "answered from its commit"); ok {
				fromCommit <- p.name + ": " + l
			}
		}()
	}
	final, err := eng.Wait(ctx, runID)
	if err != nil {
		return fmt.Errorf("waiting for the run: %w (%s)", err, final.Err)
	}
	_, steps, err := st.Load(ctx, runID)
	if err != nil {
		return err
	}
	printTranscript(w, final, steps)

	var errs []error
	if final.State != durable.Done || final.Stop != loop.StopDone {
		errs = append(errs, fmt.Errorf("the run ended %s (%s): %s", final.State, final.Stop, final.Err))
	}
	if final.Worker == "A" || final.Attempts < 2 {
		errs = append(errs, fmt.Errorf("the run was not taken over: finished on %s after %d claims", final.Worker, final.Attempts))
	}
	if err := checkScript(final.Messages); err != nil {
		errs = append(errs, err)
	}
	data, _ := os.ReadFile(requests)
	seen := map[string]int{}
	for _, l := range strings.Fields(string(data)) {
		seen[l]++
	}
	for turn, n := range seen {
		if n != 1 {
			errs = append(errs, fmt.Errorf("model turn %s requested %d times", turn, n))
		}
	}
	if len(seen) != final.Turns {
		errs = append(errs, fmt.Errorf("%d model turns requested for %d turns", len(seen), final.Turns))
	}
	select {
	case l := <-fromCommit:
		fmt.Fprintf(w, "Worker %s\n", l)
	case <-time.After(5 * time.Second):
		errs = append(errs, errors.New("no worker answered the killed call from its commit (was it run again?)"))
	}
	for _, s := range steps {
		if s.Kind == durable.StepTool && s.Turn == killTurn && s.Index == killIndex && s.Worker == "A" {
			errs = append(errs, errors.New("the killed call's checkpoint was written by A"))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nEvery expectation held: the run finished on worker %s after %d claims, every model turn was requested once (%d turns),\n"+
		"the call A committed before it died was answered from its commit, and every result matched the transcript.\n", final.Worker, final.Attempts, len(seen))
	return nil
}

// waitLine returns a channel receiving p's first output line containing s.
func waitLine(p *proc, s string) <-chan string {
	ch := make(chan string, 1)
	go func() {
		defer close(ch)
		for {
			select {
			case l := <-p.lines:
				if strings.Contains(l, s) {
					ch <- l
					return
				}
			case <-p.done:
				return
			}
		}
	}()
	return ch
}

func printTranscript(w io.Writer, s durable.Status, steps []durable.Step) {
	by := map[[3]int]string{}
	for _, st := range steps {
		by[[3]int{int(st.Kind), st.Turn, st.Index}] = st.Worker
	}
	fmt.Fprintf(w, "\n── Transcript (rebuilt from the checkpoints; [X] is the worker that wrote the step)\n")
	turn := 0
	calls := map[string][2]int{}
	for _, m := range s.Messages {
		switch m.Role {
		case loop.RoleUser:
			fmt.Fprintf(w, "User: %s\n", m.Text)
		case loop.RoleAssistant:
			turn++
			fmt.Fprintf(w, "\nTurn %d [%s]", turn, by[[3]int{int(durable.StepModel), turn, 0}])
			if m.Text != "" {
				fmt.Fprintf(w, " model: %s", firstLine(m.Text))
			}
			fmt.Fprintln(w)
			for i, c := range m.ToolCalls {
				calls[c.ID] = [2]int{turn, i}
				fmt.Fprintf(w, "  → %s %s\n", c.Name, clip(string(c.Arguments), 100))
			}
		case loop.RoleTool:
			pos := calls[m.Result.CallID]
			status := "ok"
			switch {
			case !m.Result.Success:
				status = "failed"
			case m.Result.Replayed:
				status = "replayed"
			}
			fmt.Fprintf(w, "  ← [%s] %s %s: %s\n", by[[3]int{int(durable.StepTool), pos[0], pos[1]}], m.Result.Name, status, clip(firstLine(m.Result.Output), 100))
		}
	}
	fmt.Fprintf(w, "\n── Result: %s (%s) after %d turns on worker %s, %d claims; final answer:\n  %s\n", s.State, s.Stop, s.Turns, s.Worker, s.Attempts, strings.ReplaceAll(s.Text, "\n", "\n  "))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// checkScript checks every expectation of the scripted transcript on the run's messages.
func checkScript(msgs []loop.Message) error {
	s, err := scripted.Parse(agent.TranscriptName, agent.Transcript)
	if err != nil {
		return err
	}
	p := scripted.New(s)
	var tools []*wink.Tool
	a, err := agent.New(0)
	if err != nil {
		return err
	}
	defer a.Close()
	tools = a.Rendered.Tools
	for range s.Turns { // replays the script, checking each turn's expectations on the messages
		if _, err := p.Complete(context.Background(), loop.Request{Messages: msgs, Tools: tools}); err != nil {
			return err
		}
	}
	return p.Verify(msgs)
}

// provider plays the scripted transcript by the number of turns in the request, so that any worker,
// resuming anywhere, answers each turn as the script says; it logs every real request to a file.
type provider struct {
	script   *scripted.Script
	requests string
}

func (p *provider) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	n := 0
	for _, m := range req.Messages {
		if m.Role == loop.RoleAssistant {
			n++
		}
	}
	sp := scripted.New(p.script)
	for range n { // fast-forward, checking the earlier turns' expectations on the way
		if _, err := sp.Complete(ctx, req); err != nil {
			return loop.Response{}, err
		}
	}
	f, err := os.OpenFile(p.requests, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return loop.Response{}, err
	}
	_, err = f.WriteString("turn" + strconv.Itoa(n+1) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return loop.Response{}, err
	}
	return sp.Complete(ctx, req)
}

// workerMain is one worker: the example agent wired on the shared workspace, its session and the
// idempotency ledger in PostgreSQL, driving durable runs until its standard input closes.
func workerMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "worker name")
	dsn := fs.String("dsn", "", "PostgreSQL DSN")
	wsDir := fs.String("workspace", "", "shared workspace directory")
	requests := fs.String("requests", "", "file logging the model requests")
	killAt := fs.String("kill-at", "", "turn:index after whose commit the worker announces it and waits to be killed")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "worker "+*name+":", err); return 1 }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); cancel() }()
	a, err := agent.New(0) // the prompt, rendered; its own workspace is not used
	if err != nil {
		return fail(err)
	}
	_ = a.Close()
	ws, err := vfs.NewHost(*wsDir)
	if err != nil {
		return fail(err)
	}
	pool, err := pgxpool.New(ctx, *dsn)
	if err != nil {
		return fail(err)
	}
	defer pool.Close()
	sst, err := pgstore.New(ctx, pool, stored()...)
	if err != nil {
		return fail(err)
	}
	led, err := pgledger.New(ctx, pool)
	if err != nil {
		return fail(err)
	}
	st, err := pgdurable.New(ctx, pool)
	if err != nil {
		return fail(err)
	}
	script, err := scripted.Parse(agent.TranscriptName, agent.Transcript)
	if err != nil {
		return fail(err)
	}
	prov := &provider{script: script, requests: *requests}
	r := a.Rendered
	eng := &durable.Engine{Store: st, Worker: *name, Lease: 2 * time.Second, Poll: 50 * time.Millisecond, RetryDelay: 100 * time.Millisecond,
		Agent: func(ctx context.Context, run durable.Run) (loop.Config, error) {
			d := r.Dispatcher(wink.Dispatcher{
				Session:    session.New(session.WithID(run.Session), session.WithStore(sst)),
				Filesystem: ws,
				Ledger:     led,
				Budget:     wink.NewBudget(wink.BudgetLimits{MaxTotalTokens: 200_000}),
				Events: func(ev *wink.ToolInvoked) {
					if ev.Err != nil && strings.Contains(ev.Err.Error(), "committed before") {
						fmt.Fprintf(stdout, "answered from its commit: %s %s\n", ev.Name, ev.CallID)
					}
				},
			})
			return loop.Config{Provider: prov, Dispatcher: d, System: r.Text, Tools: r.Tools}, nil
		}}
	if *killAt != "" {
		turn, index, _ := strings.Cut(*killAt, ":")
		kt, _ := strconv.Atoi(turn)
		ki, _ := strconv.Atoi(index)
		eng.Observe = func(ev durable.Event) {
			if ev.Kind == durable.EventToolDispatched && ev.Turn == kt && ev.Index == ki {
				fmt.Fprintf(stdout, "committed turn %d call %d; checkpoint not written, waiting to be killed\n", kt, ki)
				select {} // the demo kills the process here
			}
		}
	}
	if err := eng.Work(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return fail(err)
	}
	return 0
}
