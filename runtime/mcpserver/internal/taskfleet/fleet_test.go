package taskfleet_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/internal/pgtest"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/tasktest"
	"github.com/winkgen/wink/runtime/tasks"
	"github.com/winkgen/wink/runtime/tasks/pgtasks"
	"github.com/winkgen/wink/runtime/wink"
)

// The test binary is a worker when $TASKFLEET_DSN is set: it serves tasktest's tools as tasks kept in
// that database, with a one-second lease, and prints its URL.
func TestMain(m *testing.M) {
	if dsn := os.Getenv("TASKFLEET_DSN"); dsn != "" {
		if err := worker(dsn, os.Getenv("TASKFLEET_NAME")); err != nil {
			os.Stderr.WriteString("worker: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	pgtest.Main(m)
}

func worker(dsn, name string) error {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return err
	}
	st, err := pgtasks.New(ctx, pool)
	if err != nil {
		return err
	}
	tk, err := mcpserver.NewTasks(mcpserver.TaskOptions{Store: st, Worker: name, Lease: time.Second, PollInterval: 100 * time.Millisecond})
	if err != nil {
		return err
	}
	go tk.Work(ctx)
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(tasktest.WinkTools())},
		mcpserver.WithTasks(tk), mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	os.Stdout.WriteString("listening on http://" + ln.Addr().String() + "/\n")
	return http.Serve(ln, h)
}

// proc is a worker process.
type proc struct {
	cmd *exec.Cmd
	url string
}

func start(t *testing.T, dsn, name string) *proc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TASKFLEET_DSN="+dsn, "TASKFLEET_NAME="+name)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("worker %s did not start: %v", name, err)
	}
	go io.Copy(io.Discard, out)
	return &proc{cmd: cmd, url: strings.TrimSpace(strings.TrimPrefix(line, "listening on "))}
}

// rpc sends one 2026-07-28 request declaring the tasks extension and returns its result.
func rpc(t *testing.T, url, method string, params map[string]any) map[string]any {
	t.Helper()
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{mcpserver.TasksExtension: map[string]any{}}},
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if n, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", n)
	}
	if id, ok := params["taskId"].(string); ok {
		req.Header.Set("Mcp-Name", id)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	if r.Error != nil {
		t.Fatalf("%s: %v", method, r.Error)
	}
	return r.Result
}

func text(t *testing.T, got map[string]any) string {
	t.Helper()
	res, _ := got["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("no result content: %v", got)
	}
	return content[0].(map[string]any)["text"].(string)
}

// TestKilledWorkersTaskCompletesOnAnotherWorker: a task's worker is killed (SIGKILL) mid-run; another
// worker sharing PostgreSQL takes it over when its lease runs out and completes it, and tasks/get on any
// worker (one started after the kill too) returns the result.
func TestKilledWorkersTaskCompletesOnAnotherWorker(t *testing.T) {
	dsn := pgtest.DSN(t)
	a := start(t, dsn, "worker-a")
	b := start(t, dsn, "worker-b")
	created := rpc(t, a.url, "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"millis": 2000, "label": "crash"}})
	id, _ := created["taskId"].(string)
	if created["resultType"] != "task" || id == "" {
		t.Fatalf("tools/call: %v", created)
	}
	if got := rpc(t, b.url, "tasks/get", map[string]any{"taskId": id}); got["status"] != "working" {
		t.Fatalf("tasks/get on worker b before the kill: %v", got)
	}
	time.Sleep(300 * time.Millisecond)           // a's handler is running
	if err := a.cmd.Process.Kill(); err != nil { // SIGKILL on unix
		t.Fatal(err)
	}
	_ = a.cmd.Wait()

	var done map[string]any
	deadline := time.Now().Add(30 * time.Second)
	for {
		done = rpc(t, b.url, "tasks/get", map[string]any{"taskId": id})
		if tasks.Status(done["status"].(string)).Terminal() || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if done["status"] != "completed" {
		t.Fatalf("the killed worker's task: %v", done)
	}
	want := "worked on crash in process " + strconv.Itoa(b.cmd.Process.Pid)
	if got := text(t, done); got != want {
		t.Fatalf("result %q, want %q (finished by worker b)", got, want)
	}
	c := start(t, dsn, "worker-c")
	if got := text(t, rpc(t, c.url, "tasks/get", map[string]any{"taskId": id})); got != want {
		t.Fatalf("tasks/get on worker c: %q, want %q", got, want)
	}

	// The store says who finished it and that it was claimed twice.
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	st, err := pgtasks.New(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := st.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Owner != "worker-b" || rec.Attempts != 2 {
		t.Fatalf("stored task: owner %q, attempts %d; want worker-b, 2", rec.Owner, rec.Attempts)
	}
}
