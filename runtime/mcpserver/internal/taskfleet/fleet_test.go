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
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
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
	reg := wink.MustRegistry(tasktest.WinkTools())
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: reg},
		mcpserver.WithTasks(tk), mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}),
		mcpserver.WithCallContext(principalFromMeta),
		// Every client (and every task taken over) gets a session of its own, whose calls of ask a person
		// must approve.
		mcpserver.WithSessions(func(context.Context, mcpserver.Client) (*wink.Dispatcher, func(), error) {
			return &wink.Dispatcher{Registry: reg, Session: session.New(), Policies: []wink.Policy{policy.NewRequireApproval("ask")}}, nil, nil
		}))
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

// principalFromMeta takes the caller's principal from the request's _meta (test.subject, test.scopes):
// a stand-in for a verified token.
func principalFromMeta(ctx context.Context, meta map[string]any) context.Context {
	sub, _ := meta["test.subject"].(string)
	if sub == "" {
		return ctx
	}
	scopes, _ := meta["test.scopes"].(string)
	return wink.WithPrincipal(ctx, &wink.Principal{Subject: sub, Issuer: "https://issuer.test", Scopes: strings.Fields(scopes), Expires: time.Now().Add(time.Hour)})
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
	return rpcMeta(t, url, method, params, nil)
}

// rpcMeta is rpc with more members of _meta.
func rpcMeta(t *testing.T, url, method string, params, extra map[string]any) map[string]any {
	t.Helper()
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{mcpserver.TasksExtension: map[string]any{}}},
	}
	for k, v := range extra {
		meta[k] = v
	}
	params["_meta"] = meta
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

// waitFor polls tasks/get on url until the task's status is want or terminal (30 s at most).
func waitFor(t *testing.T, url, id string, want tasks.Status) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := rpc(t, url, "tasks/get", map[string]any{"taskId": id})
		st := tasks.Status(got["status"].(string))
		if st == want || st.Terminal() || time.Now().After(deadline) {
			if st != want {
				t.Fatalf("task %s is %s, want %s: %v", id, st, want, got)
			}
			return got
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// kill SIGKILLs a worker.
func kill(t *testing.T, p *proc) {
	t.Helper()
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()
}

// TestTakenOverTaskActsForItsCallersPrincipal: a task acts for the principal of the call that created it
// on the worker that takes it over too (the store keeps subject, issuer, scopes and expiry): the scopes
// its tool declares are checked there, and the handler reads who it acts for.
func TestTakenOverTaskActsForItsCallersPrincipal(t *testing.T) {
	dsn := pgtest.DSN(t)
	a := start(t, dsn, "worker-a")
	b := start(t, dsn, "worker-b")
	startAs := func(scopes string) string {
		created := rpcMeta(t, a.url, "tools/call", map[string]any{"name": "who", "arguments": map[string]any{"millis": 3000}},
			map[string]any{"test.subject": "alice", "test.scopes": scopes})
		id, _ := created["taskId"].(string)
		if id == "" {
			t.Fatalf("tools/call: %v", created)
		}
		return id
	}
	granted, refused := startAs("tasks:read other"), startAs("other")
	time.Sleep(300 * time.Millisecond)
	kill(t, a)

	got := waitFor(t, b.url, granted, tasks.Completed)
	want := "subject alice scopes tasks:read,other session "
	if txt := text(t, got); !strings.HasPrefix(txt, want) || !strings.HasSuffix(txt, " in process "+strconv.Itoa(b.cmd.Process.Pid)) {
		t.Fatalf("the granted caller's task on worker b: %q, want %q... in worker b's process", txt, want)
	}
	got = waitFor(t, b.url, refused, tasks.Completed)
	res, _ := got["result"].(map[string]any)
	if txt := text(t, got); res["isError"] != true || !strings.Contains(txt, "tasks:read") {
		t.Fatalf("the task of a caller without tasks:read, on worker b: %v", got)
	}

	// The row holds who the task acts for, and no credential.
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	st, err := pgtasks.New(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := st.Get(context.Background(), granted)
	if err != nil {
		t.Fatal(err)
	}
	if p := rec.Principal; rec.Owner != "worker-b" || p == nil || p.Subject != "alice" || p.Issuer != "https://issuer.test" ||
		strings.Join(p.Scopes, " ") != "tasks:read other" || p.Expires.IsZero() || p.Claims != nil {
		t.Fatalf("stored task: owner %q, principal %+v", rec.Owner, rec.Principal)
	}
}

// TestTakenOverTaskKeepsItsApprovalAndAnswers: a held call inside a task is approved through tasks/update
// on one worker; the worker running it is killed while the handler waits for its next answer; the worker
// that takes the task over replays the approval (the same held call under the same key) without asking
// again, asks the question again under the same key, and completes the task with the answer.
func TestTakenOverTaskKeepsItsApprovalAndAnswers(t *testing.T) {
	dsn := pgtest.DSN(t)
	a := start(t, dsn, "worker-a")
	b := start(t, dsn, "worker-b")
	created := rpc(t, a.url, "tools/call", map[string]any{"name": "ask", "arguments": map[string]any{}})
	id, _ := created["taskId"].(string)
	if id == "" {
		t.Fatalf("tools/call: %v", created)
	}
	held := waitFor(t, b.url, id, tasks.InputRequired)
	approval := onlyKey(t, held)
	if !strings.HasPrefix(approval, "wink.approval.0.") {
		t.Fatalf("the held call's input request: %v", held)
	}
	rpc(t, b.url, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{approval: map[string]any{"action": "accept"}}})
	var asked map[string]any
	deadline := time.Now().Add(30 * time.Second)
	for {
		asked = waitFor(t, b.url, id, tasks.InputRequired)
		if onlyKey(t, asked) == "wink.input.0" || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if onlyKey(t, asked) != "wink.input.0" {
		t.Fatalf("after the approval: %v", asked)
	}
	kill(t, a)
	// b takes the task over once a's lease has run out, and asks the question again.
	deadline = time.Now().Add(30 * time.Second)
	for {
		pool, err := pgxpool.New(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		st, err := pgtasks.New(context.Background(), pool)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := st.Get(context.Background(), id)
		pool.Close()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Owner == "worker-b" {
			if len(rec.Pending) != 1 || rec.Pending["wink.input.0"] == nil {
				if time.Now().After(deadline) {
					t.Fatalf("worker b's input requests: %v", rec.Pending)
				}
				time.Sleep(100 * time.Millisecond)
				continue
			}
			if rec.Answers[approval] == nil {
				t.Fatalf("the approval's answer was lost: %v", rec.Answers)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("worker b did not take the task over: owner %q", rec.Owner)
		}
		time.Sleep(100 * time.Millisecond)
	}
	rpc(t, b.url, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{"wink.input.0": map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}}})
	if got := text(t, waitFor(t, b.url, id, tasks.Completed)); got != "Hello, Ada!" {
		t.Fatalf("result %q", got)
	}
}

// onlyKey returns the key of the one input request a task waits for.
func onlyKey(t *testing.T, got map[string]any) string {
	t.Helper()
	reqs, _ := got["inputRequests"].(map[string]any)
	if len(reqs) != 1 {
		t.Fatalf("want one input request: %v", got)
	}
	for k := range reqs {
		return k
	}
	return ""
}
