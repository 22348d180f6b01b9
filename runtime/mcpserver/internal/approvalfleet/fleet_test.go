// Package approvalfleet_test runs held calls over MCP on two worker processes sharing PostgreSQL (the
// session store and the request-state key), as a fleet does: an approved held call runs once, whatever
// replays its retry, on which worker, after which restart, concurrently or not.
package approvalfleet_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winkgen/wink/internal/pgtest"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/mcpservertest"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/session/pgstore"
	"github.com/winkgen/wink/runtime/wink"
)

func TestMain(m *testing.M) {
	if os.Getenv("APPROVAL_WORKER") != "" {
		os.Exit(worker())
	}
	pgtest.Main(m)
}

// stateKey is the request-state key the workers share.
var stateKey = []byte("approval-fleet-test-key-0123456789abcdef")

// worker serves MCP over stateless streamable HTTP: every request is a new MCP client, mapped to the
// stored conversation "conv" through a Session value of its own (not yet loaded), with echo held for
// approval. A successful echo inserts a row into effects (its external effect).
func worker() int {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("APPROVAL_DSN"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	st, err := pgstore.New(ctx, pool, policy.ApprovalSlice)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	reg, err := wink.NewRegistry(mcpservertest.WinkTools())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	// The external effect goes through a pool of its own (another system): a call holding the
	// session's connection never waits for the store's pool.
	external, err := pgxpool.New(ctx, os.Getenv("APPROVAL_DSN"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	name := os.Getenv("APPROVAL_WORKER")
	events := func(ev *wink.ToolInvoked) {
		if ev.Success && ev.Name == "echo" {
			_, _ = external.Exec(context.Background(), "INSERT INTO effects (args, worker) VALUES ($1, $2)", string(ev.Arguments), name)
			if name == "A" && strings.Contains(string(ev.Arguments), "stall") {
				select {} // the run is over, its commit never comes: the test kills the worker here
			}
		}
	}
	sessions := func(ctx context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
		return &wink.Dispatcher{Registry: reg, Events: events,
			Session:  session.New(session.WithID("conv"), session.WithStore(st)),
			Policies: []wink.Policy{policy.NewRequireApproval("echo")}}, nil, nil
	}
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: reg}, mcpserver.WithSessions(sessions),
		mcpserver.WithRequestStateKey(stateKey), mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true}))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println("ready http://" + ln.Addr().String())
	return func() int {
		if err := http.Serve(ln, h); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		return 1
	}()
}

type proc struct {
	url string
	cmd *exec.Cmd
}

func start(t *testing.T, name, dsn string) *proc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "APPROVAL_WORKER="+name, "APPROVAL_DSN="+dsn)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd}
	t.Cleanup(func() { p.kill() })
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if url, ok := strings.CutPrefix(sc.Text(), "ready "); ok {
				ready <- url
			}
		}
	}()
	select {
	case p.url = <-ready:
	case <-time.After(30 * time.Second):
		t.Fatalf("worker %s not ready", name)
	}
	return p
}

// kill ends the worker with SIGKILL (a crash: nothing is flushed or closed).
func (p *proc) kill() {
	if p.cmd.ProcessState == nil {
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		_ = p.cmd.Wait()
	}
}

// call makes one tools/call of echo on the worker, as a new MCP client; state and accept make it the
// retry of a held call.
func call(ctx context.Context, p *proc, args, state string) (*mcp.CallToolResult, error) {
	return callAs(ctx, p, args, state, "accept")
}

// callAs is call with the elicitation's action: "accept", "decline" or "cancel".
func callAs(ctx context.Context, p *proc, args, state, action string) (*mcp.CallToolResult, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "approver", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	})
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: p.url, HTTPClient: &http.Client{Transport: tr}}, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(args)}
	if state != "" {
		params.RequestState = state
		params.InputResponses = mcp.InputResponseMap{"wink.approval": &mcp.ElicitResult{Action: action}}
	}
	return cs.CallTool(ctx, params)
}

func held(t *testing.T, ctx context.Context, p *proc, args string) string {
	t.Helper()
	res, err := call(ctx, p, args, "")
	if err != nil || !res.NeedsInput() || res.RequestState == "" {
		t.Fatalf("first call: %v %+v", err, res)
	}
	return res.RequestState
}

func ran(res *mcp.CallToolResult, err error) bool {
	if err != nil || res.IsError || len(res.Content) == 0 {
		return false
	}
	t, ok := res.Content[0].(*mcp.TextContent)
	return ok && strings.HasPrefix(t.Text, "Echoed.")
}

func refused(err error) bool {
	return err != nil && strings.Contains(err.Error(), "was already decided")
}

func effects(t *testing.T, pool *pgxpool.Pool, args string) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM effects WHERE args = $1", args).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestApprovedHeldCallRunsOnceAcrossWorkersRestartsAndConcurrentReplays: the approved retry of a held
// call, replayed on the other worker, on a restarted worker, and from new MCP sessions mapped to the
// same conversation, runs the call once; replayed on both workers at once, it runs once.
func TestApprovedHeldCallRunsOnceAcrossWorkersRestartsAndConcurrentReplays(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, "CREATE TABLE effects (args text, worker text)"); err != nil {
		t.Fatal(err)
	}
	a, b := start(t, "A", dsn), start(t, "B", dsn)

	// Sequential replays.
	const pay5 = `{"text":"pay 5"}`
	state := held(t, ctx, a, pay5)
	if res, err := call(ctx, a, pay5, state); !ran(res, err) {
		t.Fatalf("approved retry on A: %v %+v", err, res)
	}
	if _, err := call(ctx, b, pay5, state); !refused(err) {
		t.Fatalf("replay on B: %v", err)
	}
	if _, err := call(ctx, a, pay5, state); !refused(err) {
		t.Fatalf("replay on A from a new MCP session: %v", err)
	}
	b.kill() // a restart in between
	b = start(t, "B2", dsn)
	if _, err := call(ctx, b, pay5, state); !refused(err) {
		t.Fatalf("replay on the restarted B: %v", err)
	}
	if n := effects(t, pool, pay5); n != 1 {
		t.Fatalf("the approved call ran %d times, want once", n)
	}

	// Concurrent replays on both workers.
	const pay6 = `{"text":"pay 6"}`
	state = held(t, ctx, b, pay6)
	var wg sync.WaitGroup
	var mu sync.Mutex
	runs, refusals := 0, 0
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := a
			if i%2 == 1 {
				w = b
			}
			res, err := call(ctx, w, pay6, state)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case ran(res, err):
				runs++
			case refused(err):
				refusals++
			default:
				t.Errorf("replay %d: neither ran nor refused: %v %+v", i, err, res)
			}
		}()
	}
	wg.Wait()
	if runs != 1 || refusals != 7 {
		t.Fatalf("%d runs and %d refusals of 8 concurrent replays, want 1 and 7", runs, refusals)
	}
	if n := effects(t, pool, pay6); n != 1 {
		t.Fatalf("the approved call ran %d times, want once", n)
	}

	// A worker killed during the approved call, before its commit, leaves no decision behind: the
	// retry is accepted on the other worker and runs (the external effect, which had happened on the
	// killed worker, happens again: at least once), and is then decided for good.
	const stall = `{"text":"stall 7"}`
	state = held(t, ctx, a, stall)
	go func() { _, _ = call(ctx, a, stall, state) }()
	for effects(t, pool, stall) == 0 {
		if ctx.Err() != nil {
			t.Fatal("the approved call never ran on A")
		}
		time.Sleep(10 * time.Millisecond)
	}
	a.kill()
	if res, err := call(ctx, b, stall, state); !ran(res, err) {
		t.Fatalf("retry after the crash: %v %+v", err, res)
	}
	if _, err := call(ctx, b, stall, state); !refused(err) {
		t.Fatalf("replay after the retry: %v", err)
	}
	if n := effects(t, pool, stall); n != 2 {
		t.Fatalf("the external effect happened %d times, want 2 (the killed run's and the retry's)", n)
	}
}

func denied(res *mcp.CallToolResult, err error) bool {
	if err != nil || !res.IsError || len(res.Content) == 0 {
		return false
	}
	_, ok := res.Content[0].(*mcp.TextContent)
	return ok && !ran(res, err)
}

// TestHeldCallIsDecidedOnceWhateverTheRepliesSay: the retries of one held call carry different
// decisions (a denial replayed as an approval, approvals and denials racing on both workers, a
// cancel): the first decision stored is the only one; every later retry is refused before anything
// runs, and an approved call runs at most once, never after a denial.
func TestHeldCallIsDecidedOnceWhateverTheRepliesSay(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, "CREATE TABLE effects (args text, worker text)"); err != nil {
		t.Fatal(err)
	}
	a, b := start(t, "A", dsn), start(t, "B", dsn)

	// Denied, then replayed as an approval on either worker, or as a denial again.
	for i, first := range []string{"decline", "cancel"} {
		args := fmt.Sprintf(`{"text":"refund %d"}`, i)
		state := held(t, ctx, a, args)
		if res, err := callAs(ctx, b, args, state, first); !denied(res, err) {
			t.Fatalf("%s on B: %v %+v", first, err, res)
		}
		for _, w := range []*proc{a, b} {
			for _, action := range []string{"accept", "decline", "cancel"} {
				if _, err := callAs(ctx, w, args, state, action); !refused(err) {
					t.Fatalf("%s replayed as %s: %v", first, action, err)
				}
			}
		}
		if n := effects(t, pool, args); n != 0 {
			t.Fatalf("a denied call ran %d times", n)
		}
	}

	// Approvals and denials of one held call racing on both workers: one decision wins.
	for round := range 4 {
		args := fmt.Sprintf(`{"text":"race %d"}`, round)
		state := held(t, ctx, a, args)
		var wg sync.WaitGroup
		var mu sync.Mutex
		runs, denials, refusals := 0, 0, 0
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := a
				if i%2 == 1 {
					w = b
				}
				action := "accept"
				if (i+round)%3 == 0 {
					action = "decline"
				}
				res, err := callAs(ctx, w, args, state, action)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case ran(res, err):
					runs++
				case denied(res, err):
					denials++
				case refused(err):
					refusals++
				default:
					t.Errorf("round %d retry %d (%s): neither ran, denied nor refused: %v %+v", round, i, action, err, res)
				}
			}()
		}
		wg.Wait()
		if runs+denials != 1 || refusals != 7 {
			t.Fatalf("round %d: %d runs, %d denials, %d refusals of 8 racing retries, want one decision and 7 refusals", round, runs, denials, refusals)
		}
		if n := effects(t, pool, args); n != runs {
			t.Fatalf("round %d: the call ran %d times, answered %d runs", round, n, runs)
		}
	}
}
