package fleet

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Spawn returns the command that runs one worker with args (WorkerArgs); the command's standard output
// must carry the worker's "ready <url>" line.
type Spawn func(args []string) *exec.Cmd

// WorkerArgs are the arguments a worker command receives: ParseWorkerArgs reads them back.
func WorkerArgs(name, dsn, effects string) []string {
	return []string{"worker", "-name", name, "-dsn", dsn, "-effects", effects}
}

// worker is a running worker process.
type worker struct {
	name, url string
	cmd       *exec.Cmd
	done      chan error
}

// Run is the fleet demo: it starts a throwaway PostgreSQL cluster, three workers sharing it, and a
// client that pays one invoice on every worker at once (the payment happens once) and continues one
// conversation across workers. It writes a transcript to out and returns an error when an
// expectation is not met. Everything it started is stopped, and the cluster removed, before it
// returns.
func Run(ctx context.Context, out io.Writer, spawn Spawn) (err error) {
	dir, err := os.MkdirTemp("", "wink-fleet-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	db, err := startDatabase(ctx)
	if err != nil {
		return fmt.Errorf("starting PostgreSQL: %w", err)
	}
	defer func() { err = errors.Join(err, db.stop()) }()
	fmt.Fprintf(out, "PostgreSQL: throwaway cluster, %s\n", db.describe())

	effects := filepath.Join(dir, "payments.log")
	var workers []*worker
	defer func() { err = errors.Join(err, stopWorkers(workers)) }()
	for _, name := range []string{"A", "B", "C"} {
		w, err := startWorker(ctx, spawn, name, db.dsn, effects)
		if err != nil {
			return err
		}
		workers = append(workers, w)
		fmt.Fprintf(out, "worker %s: %s\n", name, w.url)
	}

	var failures []string
	check := func(ok bool, format string, args ...any) {
		mark := "ok  "
		if !ok {
			mark = "FAIL"
			failures = append(failures, fmt.Sprintf(format, args...))
		}
		fmt.Fprintf(out, "  [%s] %s\n", mark, fmt.Sprintf(format, args...))
	}

	// 1. The same idempotent call on every worker at once: one payment.
	fmt.Fprintln(out, "\n1. pay INV-7 (4200 cents) on the three workers at once")
	receipts := make([]string, len(workers))
	errs := make([]error, len(workers))
	var wg sync.WaitGroup
	for i, w := range workers {
		wg.Go(func() {
			receipts[i], errs[i] = callTool(ctx, w.url, "", "pay", map[string]any{"invoice": "INV-7", "cents": 4200})
		})
	}
	wg.Wait()
	for i, w := range workers {
		if errs[i] != nil {
			return fmt.Errorf("worker %s: pay: %w", w.name, errs[i])
		}
		fmt.Fprintf(out, "  worker %s answered: %s\n", w.name, receipts[i])
	}
	check(receipts[0] == receipts[1] && receipts[1] == receipts[2], "the three workers return the same receipt")
	made, err := os.ReadFile(effects)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	lines := strings.Split(strings.TrimSpace(string(made)), "\n")
	fmt.Fprintf(out, "  payments made: %q\n", lines)
	check(len(made) > 0 && len(lines) == 1, "the payment was made once (%d made)", countLines(made))

	// 2. One conversation across workers, mapped by the session header.
	fmt.Fprintln(out, "\n2. conversation conv-42: turn 1 on worker A, turn 2 on worker B, turn 3 on worker C")
	res, err := callTool(ctx, workers[0].url, "conv-42", "remember", map[string]any{"text": "the meeting moved to 10:00"})
	if err != nil {
		return fmt.Errorf("worker A: remember: %w", err)
	}
	fmt.Fprintf(out, "  A remember: %s\n", res)
	res, err = callTool(ctx, workers[1].url, "conv-42", "recall", nil)
	if err != nil {
		return fmt.Errorf("worker B: recall: %w", err)
	}
	fmt.Fprintf(out, "  B recall:   %s\n", res)
	check(strings.Contains(res, `{"text":"the meeting moved to 10:00","worker":"A"}`), "worker B sees the note worker A wrote")
	res, err = callTool(ctx, workers[2].url, "conv-42", "remember", map[string]any{"text": "bring the slides"})
	if err != nil {
		return fmt.Errorf("worker C: remember: %w", err)
	}
	fmt.Fprintf(out, "  C remember: %s\n", res)
	check(strings.Contains(res, `"count":2`), "worker C continues the conversation (2 notes)")
	res, err = callTool(ctx, workers[1].url, "conv-99", "recall", nil)
	if err != nil {
		return fmt.Errorf("worker B: recall: %w", err)
	}
	fmt.Fprintf(out, "  B recall conv-99: %s\n", res)
	check(strings.Contains(res, `"notes":[]`) || strings.Contains(res, `"notes":null`), "another conversation sees none of it")

	if len(failures) > 0 {
		return errors.New("fleet demo: " + strings.Join(failures, "; "))
	}
	fmt.Fprintln(out, "\nall expectations met")
	return nil
}

func countLines(b []byte) int { return strings.Count(string(b), "\n") }

// startWorker starts one worker and waits for its "ready <url>" line.
func startWorker(ctx context.Context, spawn Spawn, name, dsn, effects string) (*worker, error) {
	cmd := spawn(WorkerArgs(name, dsn, effects))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("worker %s: %w", name, err)
	}
	w := &worker{name: name, cmd: cmd, done: make(chan error, 1)}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if url, ok := strings.CutPrefix(sc.Text(), "ready "); ok {
				ready <- url
			}
		}
		w.done <- cmd.Wait()
	}()
	select {
	case w.url = <-ready:
		return w, nil
	case err := <-w.done:
		return nil, fmt.Errorf("worker %s exited before it was ready: %v", name, err)
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		return nil, fmt.Errorf("worker %s: not ready after 30s", name)
	case <-ctx.Done():
		cmd.Process.Kill()
		return nil, ctx.Err()
	}
}

// stopWorkers interrupts the workers and waits for them to exit.
func stopWorkers(ws []*worker) error {
	var errs []error
	for _, w := range ws {
		w.cmd.Process.Signal(os.Interrupt)
	}
	for _, w := range ws {
		select {
		case err := <-w.done:
			if err != nil {
				errs = append(errs, fmt.Errorf("worker %s: %w", w.name, err))
			}
		case <-time.After(10 * time.Second):
			w.cmd.Process.Kill()
			errs = append(errs, fmt.Errorf("worker %s: did not stop within 10s; killed", w.name))
		}
	}
	return errors.Join(errs...)
}

// callTool calls one tool on the worker at url with the official SDK client, as one stateless
// request carrying the session header when sessionID is set, and returns the text the model reads (its blank line folded).
func callTool(ctx context.Context, url, sessionID, tool string, args map[string]any) (string, error) {
	base := &http.Transport{}
	defer base.CloseIdleConnections()
	hc := &http.Client{Transport: sessionTransport{id: sessionID, base: base}}
	client := mcp.NewClient(&mcp.Implementation{Name: "wink-fleet-client", Version: "v0.1.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		return "", err
	}
	defer cs.Close()
	p := &mcp.CallToolParams{Name: tool}
	if args != nil {
		p.Arguments = args
	}
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		return "", err
	}
	if res.IsError {
		return "", errors.New("tool error: " + resultText(res))
	}
	return strings.ReplaceAll(resultText(res), "\n\n", " "), nil
}

func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// sessionTransport adds the session header to every request when id is set.
type sessionTransport struct {
	id   string
	base http.RoundTripper
}

func (t sessionTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.id != "" {
		r = r.Clone(r.Context())
		r.Header.Set(SessionHeader, t.id)
	}
	return t.base.RoundTrip(r)
}
