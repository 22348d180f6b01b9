package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/example/cmd/mcpserver/shapes"
	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/mcpservertest"
	"github.com/winkgen/wink/runtime/wink"
)

// exampleCall is one tools/call and what the client must see.
type exampleCall struct {
	why, tool string
	args      string // raw JSON arguments; "" sends none
	isError   bool
	text      string // the single text block; "" means no content
	// structured is the JSON of the value in structuredContent; "" means none.
	structured string
}

// exampleCalls exercise every example tool with good and bad arguments. They run in order on one
// session, so the panic in the middle is followed by successful calls.
var exampleCalls = []exampleCall{
	{why: "schedule: good (text is Render, structured is the JSON encoding)", tool: "schedule_task",
		args:       `{"title":"Ship v1","at":"2026-12-01T10:00:00Z","priority":3,"labels":{"team":"core"}}`,
		text:       "Scheduled.\n\nT-1: Ship v1 (due 2026-12-01T10:00:00Z, priority 3)",
		structured: `{"id":"T-1","title":"Ship v1","due":"2026-12-01T10:00:00Z","priority":3,"labels":{"team":"core"}}`},
	{why: "schedule: every bad field at once", tool: "schedule_task",
		args: `{"title":"Go","at":"tomorrow","priority":7,"assignee":"nobody","ticket":"abc"}`, isError: true,
		text: "Invalid arguments for tool \"schedule_task\":\n" +
			"- title: must be at least 3 characters long; got 2\n" +
			"- at: must be a valid date-time (RFC 3339, e.g. \"2026-01-02T15:04:05Z\"); got \"tomorrow\"\n" +
			"- priority: must be one of 1, 2, 3; got 7\n" +
			"- assignee: must be a valid email address; got \"nobody\"\n" +
			"- ticket: must match the pattern ^(?:[A-Z]{2,5}-[0-9]+)$; got \"abc\"\n" +
			"Fix the arguments and call schedule_task again."},
	{why: "schedule: cross-field Validate", tool: "schedule_task",
		args: `{"title":"Review","at":"2026-12-01T10:00:00Z","repeat":{"every":7,"until":"2026-11-01T00:00:00Z"}}`, isError: true,
		text: "Invalid arguments for tool \"schedule_task\":\n- repeat.until must not be before at\nFix the arguments and call schedule_task again."},
	{why: "schedule: handler failure result", tool: "schedule_task",
		args: `{"title":"Old","at":"1999-12-01T10:00:00Z"}`, isError: true,
		text: "at is too far in the past; schedule the task for a date after 2000"},
	{why: "search: good", tool: "search_docs",
		args:       `{"query":"snapshots","filters":{"path_prefix":"/docs","max_size":4096}}`,
		text:       "Found matches.\n\n{\"matches\":[\"/docs/snapshots.md\"],\"total_count\":1}",
		structured: `{"matches":["/docs/snapshots.md"],"total_count":1}`},
	{why: "search: several mistakes", tool: "search_docs",
		args: `{"querry":"x","limit":"10","mode":"regex","filters":{"path_prefix":"docs","max_size":-1}}`, isError: true,
		text: "Invalid arguments for tool \"search_docs\":\n" +
			"- unknown field \"querry\"; did you mean \"query\"? (allowed: query, limit, case_sensitive, file_types, filters, mode)\n" +
			"- limit: expected integer, got string \"10\"\n" +
			"- mode: must be one of \"fuzzy\", \"exact\"; got \"regex\"\n" +
			"- filters.path_prefix: must match the pattern ^(?:/[A-Za-z0-9_./-]*)$; got \"docs\"\n" +
			"- filters.max_size: must be >= 0; got -1\n" +
			"- query: missing required field\n" +
			"Fix the arguments and call search_docs again."},
	{why: "search: no arguments at all are an empty object", tool: "search_docs", isError: true,
		text: "Invalid arguments for tool \"search_docs\":\n- query: missing required field\n- filters: missing required field\nFix the arguments and call search_docs again."},
	{why: "stats: good", tool: "compute_stats", args: `{"samples":[1,2,3.5]}`,
		text:       "Computed.\n\n{\"mean\":2.17,\"min\":1,\"max\":3.5,\"count\":3}",
		structured: `{"mean":2.17,"min":1,"max":3.5,"count":3}`},
	{why: "stats: model-facing handler error", tool: "compute_stats", args: `{"samples":[1,2],"weights":[1]}`, isError: true,
		text: "weights must have one entry per sample; send as many weights as samples or none"},
	{why: "stats: handler panic", tool: "compute_stats", args: `{"samples":[1,200000000]}`, isError: true,
		text: "Tool \"compute_stats\" failed: sample overflow in the accumulator"},
	{why: "stats: constraint", tool: "compute_stats", args: `{"samples":[]}`, isError: true,
		text: "Invalid arguments for tool \"compute_stats\":\n- samples: must contain at least 1 item; got 0\nFix the arguments and call compute_stats again."},
	{why: "status: no arguments", tool: "get_status",
		text:       "Agent is healthy.\n\n{\"healthy\":true,\"uptime_seconds\":12.5}",
		structured: `{"healthy":true,"uptime_seconds":12.5}`},
	{why: "status: empty object", tool: "get_status", args: `{}`,
		text:       "Agent is healthy.\n\n{\"healthy\":true,\"uptime_seconds\":12.5}",
		structured: `{"healthy":true,"uptime_seconds":12.5}`},
	{why: "status: arguments to a parameterless tool", tool: "get_status", args: `{"verbose":true}`, isError: true,
		text: "Invalid arguments for tool \"get_status\":\n- unknown field \"verbose\"; this tool takes no arguments\nFix the arguments and call get_status again."},
	{why: "outline: value excluded from the context, so no structured content", tool: "count_outline",
		args: `{"root":{"title":"Plan","children":[{"title":"Build"},{"title":"Test"}]}}`,
		text: "The outline has 3 entries."},
	{why: "outline: errors deep in a recursive type", tool: "count_outline",
		args: `{"root":{"title":"","children":[{}]}}`, isError: true,
		text: "Invalid arguments for tool \"count_outline\":\n- root.title: must be at least 1 character long; got 0\n- root.children[0].title: missing required field\nFix the arguments and call count_outline again."},
	{why: "archive: no value", tool: "archive_docs", args: `{"paths":["/docs/a.md","/docs/b.md"]}`,
		text: "Archived 2 documents."},
	{why: "archive: failure result", tool: "archive_docs", args: `{"paths":["/docs/locked.md"]}`, isError: true,
		text: "/docs/locked.md is locked; archive the other paths"},
	{why: "archive: constraint", tool: "archive_docs", args: `{"paths":[]}`, isError: true,
		text: "Invalid arguments for tool \"archive_docs\":\n- paths: must contain at least 1 item; got 0\nFix the arguments and call archive_docs again."},
	{why: "words: a slice", tool: "split_words", args: `{"text":"hello world"}`,
		text: "Split.\n\n[\"hello\",\"world\"]", structured: `["hello","world"]`},
	{why: "words: bad", tool: "split_words", args: `{"text":5}`, isError: true,
		text: "Invalid arguments for tool \"split_words\":\n- text: expected string, got number 5\nFix the arguments and call split_words again."},
	{why: "shout: a string", tool: "shout", args: `{"text":"hi"}`, text: "Shouted.\n\n\"HI\"", structured: `"HI"`},
	{why: "shout: bad", tool: "shout", args: `{}`, isError: true,
		text: "Invalid arguments for tool \"shout\":\n- text: missing required field\nFix the arguments and call shout again."},
	{why: "letters: an integer", tool: "count_letters", args: `{"text":"a b c"}`, text: "Counted.\n\n3", structured: `3`},
	{why: "letters: bad", tool: "count_letters", args: `{"text":"x","extra":1}`, isError: true,
		text: "Invalid arguments for tool \"count_letters\":\n- unknown field \"extra\" (allowed: text)\nFix the arguments and call count_letters again."},
	{why: "letter counts: a map", tool: "letter_counts", args: `{"text":"aab"}`,
		text: "Counted each letter.\n\n{\"a\":2,\"b\":1}", structured: `{"a":2,"b":1}`},
	{why: "letter counts: bad", tool: "letter_counts", args: `[]`, isError: true,
		text: "Invalid arguments for tool \"letter_counts\":\n- expected object, got array\nFix the arguments and call letter_counts again."},
	{why: "find: a struct", tool: "find_word", args: `{"text":"to be or not","word":"or"}`,
		text: "Found.\n\n{\"word\":\"or\",\"offset\":6}", structured: `{"word":"or","offset":6}`},
	{why: "find: a struct result without a value", tool: "find_word", args: `{"text":"to be","word":"or"}`,
		text: "The word is not in the text."},
	{why: "find: bad", tool: "find_word", args: `{"text":"x","word":""}`, isError: true,
		text: "Invalid arguments for tool \"find_word\":\n- word: must be at least 1 character long; got 0\nFix the arguments and call find_word again."},
}

// exampleTools are the tools example/cmd/mcpserver serves: the example agent's and those of every
// result shape.
func exampleTools() []*wink.Tool { return append(tools.WinkTools(), shapes.WinkTools()...) }

// exampleDispatcher serves exampleTools.
func exampleDispatcher(t *testing.T) *wink.Dispatcher {
	t.Helper()
	reg, err := wink.NewRegistry(exampleTools())
	if err != nil {
		t.Fatal(err)
	}
	return &wink.Dispatcher{Registry: reg}
}

// testDispatcher serves the example tools and the test tools.
func testDispatcher(t *testing.T) *wink.Dispatcher {
	t.Helper()
	reg, err := wink.NewRegistry(tools.WinkTools(), mcpservertest.WinkTools())
	if err != nil {
		t.Fatal(err)
	}
	return &wink.Dispatcher{Registry: reg}
}

func newClient() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "wink-test-client", Version: "v0"}, nil)
}

// inMemory connects the SDK's client to New(d) over in-memory transports.
func inMemory(t *testing.T, d *wink.Dispatcher, opts ...mcpserver.Option) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpserver.New(d, opts...)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := newClient().Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// overHTTP connects the SDK's client to HTTPHandler(d) on a loopback httptest server.
func overHTTP(t *testing.T, d *wink.Dispatcher, opts ...mcpserver.Option) *mcp.ClientSession {
	t.Helper()
	h, err := mcpserver.HTTPHandler(d, opts...)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	cs, err := newClient().Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// overStdio builds example/cmd/mcpserver once and connects to it as a subprocess with the SDK's
// CommandTransport.
func overStdio(t *testing.T) *mcp.ClientSession {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a subprocess")
	}
	cmd := exec.Command(buildServer(t))
	stderr := &testWriter{}
	cmd.Stderr = stderr
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server standard error:\n%s", stderr.String())
		}
	})
	cs, err := newClient().Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// buildServer builds example/cmd/mcpserver once and returns the binary's path.
func buildServer(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcpserver-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "mcpserver")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/winkgen/wink/example/cmd/mcpserver").CombinedOutput()
		if err != nil {
			buildErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// testWriter keeps the subprocess's standard error for the log of a failed test.
type testWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *testWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	return len(p), nil
}

// transports connect a client to a server of the example agent's tools in each way.
var transports = []struct {
	name    string
	connect func(t *testing.T) *mcp.ClientSession
}{
	{"in-memory", func(t *testing.T) *mcp.ClientSession { return inMemory(t, exampleDispatcher(t)) }},
	{"streamable-http", func(t *testing.T) *mcp.ClientSession { return overHTTP(t, exampleDispatcher(t)) }},
	{"stdio-subprocess", overStdio},
}

// call sends one tools/call with raw arguments (none when args is "").
func call(t *testing.T, cs *mcp.ClientSession, tool, args string) *mcp.CallToolResult {
	t.Helper()
	p := &mcp.CallToolParams{Name: tool}
	if args != "" {
		p.Arguments = json.RawMessage(args)
	}
	res, err := cs.CallTool(context.Background(), p)
	if err != nil {
		t.Fatalf("CallTool(%s, %s): %v", tool, args, err)
	}
	return res
}

// checkResult compares a result with what the client must see.
func checkResult(t *testing.T, res *mcp.CallToolResult, isError bool, text, structured string) {
	t.Helper()
	if res.IsError != isError {
		t.Errorf("isError = %v, want %v", res.IsError, isError)
	}
	var texts []string
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			t.Errorf("content block %T, want *mcp.TextContent", c)
			continue
		}
		texts = append(texts, tc.Text)
	}
	var want []string
	if text != "" {
		want = []string{text}
	}
	if diff := cmp.Diff(want, texts); diff != "" {
		t.Errorf("text content (-want +got):\n%s", diff)
	}
	// The value is under "result"; a success without a value has {} (or none before 2025-06-18).
	// TestResultShapes checks which shape each version gets.
	got := resultValue(res)
	switch {
	case structured == "" && res.StructuredContent != nil && (isError || !cmp.Equal(res.StructuredContent, map[string]any{})):
		t.Errorf("structuredContent = %#v, want none or {}", res.StructuredContent)
	case structured != "":
		var w any
		if err := json.Unmarshal([]byte(structured), &w); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("structuredContent's value (-want +got):\n%s", diff)
		}
	}
}

// resultValue is the result value in res's structuredContent, under "result".
func resultValue(res *mcp.CallToolResult) any {
	if m, ok := res.StructuredContent.(map[string]any); ok && len(m) == 1 {
		if v, ok := m["result"]; ok {
			return v
		}
	}
	return res.StructuredContent
}

func TestCallEveryExampleToolWithGoodAndBadArguments(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			cs := tr.connect(t)
			for _, c := range exampleCalls {
				t.Run(c.why, func(t *testing.T) {
					checkResult(t, call(t, cs, c.tool, c.args), c.isError, c.text, c.structured)
				})
			}
		})
	}
}

func TestExampleCallsCoverEveryTool(t *testing.T) {
	good, bad := map[string]bool{}, map[string]bool{}
	for _, c := range exampleCalls {
		if c.isError {
			bad[c.tool] = true
		} else {
			good[c.tool] = true
		}
	}
	for _, tl := range exampleTools() {
		if !good[tl.Name()] || !bad[tl.Name()] {
			t.Errorf("tool %s: good call %v, bad call %v; want both", tl.Name(), good[tl.Name()], bad[tl.Name()])
		}
	}
}

// unmarshal decodes JSON text into a generic value, as the client holds schemas.
func unmarshal(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestListToolsShowsWinkgenSchemas(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			cs := tr.connect(t)
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]*mcp.Tool{}
			var names []string
			for _, mt := range res.Tools {
				byName[mt.Name] = mt
				names = append(names, mt.Name)
			}
			var want []string
			for _, tl := range exampleTools() {
				want = append(want, tl.Name())
			}
			if diff := cmp.Diff(want, names); diff != "" {
				t.Fatalf("tool names (-want +got):\n%s", diff)
			}
			for _, tl := range exampleTools() {
				sp, mt := tl.Spec(), byName[tl.Name()]
				if !strings.HasPrefix(mt.Description, sp.Description) {
					t.Errorf("%s: description %q, want it to start with %q", sp.Name, mt.Description, sp.Description)
				}
				// The params schema as generated, with the examples' inputs as its "examples" (TestExamplesReachTheClient).
				wantIn := unmarshal(t, sp.ParamsSchema).(map[string]any)
				if len(sp.Examples) > 0 {
					var ins []any
					for _, ex := range sp.Examples {
						ins = append(ins, unmarshal(t, ex.Input))
					}
					wantIn["examples"] = ins
				}
				if diff := cmp.Diff(wantIn, mt.InputSchema); diff != "" {
					t.Errorf("%s: inputSchema differs from ParamsSchema (-want +got):\n%s", sp.Name, diff)
				}
				var wantOut any
				if sp.Name != "archive_docs" { // archive_docs returns wink.NoValue: {"type":"null"}
					wantOut = unmarshal(t, []byte(envelopeOf(t, mcpserver.OutputSchema(sp.ResultSchema)))) // TestResultShapes
				}
				if diff := cmp.Diff(wantOut, mt.OutputSchema); diff != "" {
					t.Errorf("%s: outputSchema (-want +got):\n%s", sp.Name, diff)
				}
				idem := sp.Name == "schedule_task" || sp.ReadOnly
				if got := mt.Annotations != nil && mt.Annotations.IdempotentHint; got != idem {
					t.Errorf("%s: idempotentHint %v, want %v", sp.Name, got, idem)
				}
				if got := mt.Annotations != nil && mt.Annotations.ReadOnlyHint; got != sp.ReadOnly {
					t.Errorf("%s: readOnlyHint %v, want %v", sp.Name, got, sp.ReadOnly)
				}
			}
		})
	}
}

func TestServerInfoNamesTheImplementation(t *testing.T) {
	cs := inMemory(t, exampleDispatcher(t))
	if got := cs.InitializeResult().ServerInfo; got.Name != mcpserver.DefaultName || got.Version != mcpserver.DefaultVersion {
		t.Errorf("default serverInfo %s %s, want %s %s", got.Name, got.Version, mcpserver.DefaultName, mcpserver.DefaultVersion)
	}
	cs = inMemory(t, exampleDispatcher(t), mcpserver.WithImplementation("agent", "v1.2.3"))
	if got := cs.InitializeResult().ServerInfo; got.Name != "agent" || got.Version != "v1.2.3" {
		t.Errorf("serverInfo %s %s, want agent v1.2.3", got.Name, got.Version)
	}
}

func TestPanickingToolIsContainedAndTheSessionGoesOn(t *testing.T) {
	for _, tc := range []struct {
		name    string
		connect func(t *testing.T) *mcp.ClientSession
	}{
		{"in-memory", func(t *testing.T) *mcp.ClientSession { return inMemory(t, testDispatcher(t)) }},
		{"streamable-http", func(t *testing.T) *mcp.ClientSession { return overHTTP(t, testDispatcher(t)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := tc.connect(t)
			checkResult(t, call(t, cs, "explode", `{"reason":"disk on fire"}`), true, `Tool "explode" failed: boom: disk on fire`, "")
			checkResult(t, call(t, cs, "echo", `{"text":"still here"}`), false,
				"Echoed.\n\n{\"text\":\"still here\",\"length\":10}", `{"text":"still here","length":10}`)
			checkResult(t, call(t, cs, "explode", `{"reason":"again"}`), true, `Tool "explode" failed: boom: again`, "")
			checkResult(t, call(t, cs, "get_status", ""), false,
				"Agent is healthy.\n\n{\"healthy\":true,\"uptime_seconds\":12.5}", `{"healthy":true,"uptime_seconds":12.5}`)
		})
	}
}

func TestPanicOutsideTheHandlerIsContained(t *testing.T) {
	d := testDispatcher(t)
	var fired atomic.Bool
	d.Events = func(ev *wink.ToolInvoked) {
		if !fired.Swap(true) {
			panic("event sink exploded")
		}
	}
	cs := inMemory(t, d)
	// The dispatcher contains a panicking sink: the call's outcome stands.
	checkResult(t, call(t, cs, "echo", `{"text":"a"}`), false, "Echoed.\n\n{\"text\":\"a\",\"length\":1}", `{"text":"a","length":1}`)
	checkResult(t, call(t, cs, "echo", `{"text":"b"}`), false, "Echoed.\n\n{\"text\":\"b\",\"length\":1}", `{"text":"b","length":1}`)
}

func TestStructuredContentOnlyForSuccessfulResultsWithAValue(t *testing.T) {
	cs := inMemory(t, testDispatcher(t))
	tests := []struct {
		why, tool, args  string
		isError          bool
		text, structured string
	}{
		{"a value", "echo", `{"text":"hi"}`, false, "Echoed.\n\n{\"text\":\"hi\",\"length\":2}", `{"text":"hi","length":2}`},
		{"success without a value", "quiet", `{}`, false, "Nothing to report.", ""},
		{"a failure with a value shows it in the text only", "reject", `{"text":"no"}`, true, "Rejected NO.\n\n{\"text\":\"no\",\"length\":2}", ""},
		{"bad arguments", "echo", `{"text":5}`, true,
			"Invalid arguments for tool \"echo\":\n- text: expected string, got number 5\nFix the arguments and call echo again.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			checkResult(t, call(t, cs, tt.tool, tt.args), tt.isError, tt.text, tt.structured)
		})
	}
}

func TestConcurrentCallsKeepTheirOwnStructuredContent(t *testing.T) {
	cs := inMemory(t, testDispatcher(t))
	const n = 16
	var wg sync.WaitGroup
	errs := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text := "call-" + strconv.Itoa(i)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": text}})
			if err != nil {
				errs[i] = err.Error()
				return
			}
			got, _ := resultValue(res).(map[string]any)
			if got["text"] != text {
				errs[i] = "structuredContent " + strconv.Quote(strings.TrimSpace(toJSON(res.StructuredContent))) + " for " + text
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestDispatcherEventsStillReachTheCallersSink(t *testing.T) {
	d := testDispatcher(t)
	var mu sync.Mutex
	var got []string
	d.Events = func(ev *wink.ToolInvoked) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, ev.CallID+" "+ev.Name+" "+strconv.FormatBool(ev.Success)+" "+string(ev.Arguments))
	}
	cs := inMemory(t, d)
	call(t, cs, "echo", `{"text":"x"}`)
	call(t, cs, "explode", `{"reason":"y"}`)
	call(t, cs, "get_status", "")
	want := []string{`mcp-1 echo true {"text":"x"}`, `mcp-2 explode false {"reason":"y"}`, `mcp-3 get_status true {}`}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestCallNotAnsweredByTheDispatcherIsAProtocolError(t *testing.T) {
	d := testDispatcher(t)
	d.Hooks.Begin = func(*wink.ToolContext, *wink.Tool) (func() error, error) {
		return nil, errors.New("no transaction today")
	}
	cs := inMemory(t, d)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "x"}})
	if err == nil {
		t.Fatal("CallTool succeeded, want a protocol error")
	}
	const prefix = `tool "echo" was not answered: `
	if !strings.Contains(err.Error(), prefix) || !strings.HasSuffix(err.Error(), ": no transaction today") {
		t.Errorf("error %q, want it to contain %q and end with the cause", err, prefix)
	}
}

func TestUnknownToolIsTheSDKsProtocolError(t *testing.T) {
	cs := inMemory(t, exampleDispatcher(t))
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "delete_everything"})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "delete_everything"`) {
		t.Errorf("error %v, want the SDK's unknown tool error", err)
	}
}

// badTool is a tool whose schemas are given by hand.
func badTool(name, params, result string) *wink.Tool {
	return wink.NewTool(wink.Spec{Name: name, Description: "Bad.", ParamsSchema: []byte(params), ResultSchema: []byte(result)},
		&wink.Funcs[wink.NoParams, wink.NoValue]{
			Decode:       wink.DecodeNoParams,
			EncodeResult: wink.EncodeNoValue,
			Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
				return wink.Done[wink.NoValue]("ok"), nil
			},
		})
}

func TestNewRejectsWhatMCPCannotServe(t *testing.T) {
	tests := []struct {
		why  string
		d    *wink.Dispatcher
		want string
	}{
		{"nil dispatcher", nil, "mcpserver: nil dispatcher"},
		{"params schema of another type",
			&wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{badTool("arr", `{"type":"array"}`, `{"type":"null"}`)})},
			`mcpserver: tool "arr": params schema must have type "object", not "array"`},
		{"params schema without a type",
			&wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{badTool("untyped", `{"properties":{}}`, `{"type":"null"}`)})},
			`mcpserver: tool "untyped": params schema must have type "object", not ""`},
		{"params schema not an object",
			&wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{badTool("str", `"object"`, `{"type":"null"}`)})},
			`mcpserver: tool "str": params schema: not a JSON object`},
		{"result schema not JSON, reported with the others",
			&wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{
				badTool("broken", `{"type":"object"}`, `{"type":`), badTool("arr", `{"type":"array"}`, `{"type":"null"}`)})},
			"mcpserver: tool \"broken\": result schema: invalid JSON at byte 8: unexpected end of input\n" +
				`mcpserver: tool "arr": params schema must have type "object", not "array"`},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			srv, err := mcpserver.New(tt.d)
			if err == nil {
				t.Fatalf("New succeeded (%v), want error %q", srv, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n%s\nwant:\n%s", err, tt.want)
			}
			if _, err := mcpserver.HTTPHandler(tt.d); err == nil || err.Error() != tt.want {
				t.Errorf("HTTPHandler error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestEmptyRegistryServesNoTools(t *testing.T) {
	cs := inMemory(t, &wink.Dispatcher{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 0 {
		t.Errorf("tools %v, want none", res.Tools)
	}
}

// TestWireCallWithoutArgumentsMeansEmptyObject speaks raw JSON-RPC (the SDK's client always sends
// arguments) and checks the exact bytes of the answers.
func TestWireCallWithoutArgumentsMeansEmptyObject(t *testing.T) {
	srv, err := mcpserver.New(exampleDispatcher(t))
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, &mcp.IOTransport{Reader: inR, Writer: outW}) }()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
		<-done
	})
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	recv := func() string {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no answer: %v", lines.Err())
		}
		return lines.Text()
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, tt := range []struct{ req, want string }{
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_docs"}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Invalid arguments for tool \"search_docs\":\n- query: missing required field\n- filters: missing required field\nFix the arguments and call search_docs again."}],"isError":true}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_status"}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Agent is healthy.\n\n{\"healthy\":true,\"uptime_seconds\":12.5}"}],"structuredContent":{"result":{"healthy":true,"uptime_seconds":12.5}}}}`},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"archive_docs","arguments":{"paths":["/a"]}}}`,
			`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"Archived 1 documents."}]}}`},
	} {
		send(tt.req)
		if got := recv(); got != tt.want {
			t.Errorf("answer to %s:\n got %s\nwant %s", tt.req, got, tt.want)
		}
	}
}

func BenchmarkCallToolInMemory(b *testing.B) {
	reg, err := wink.NewRegistry(mcpservertest.WinkTools())
	if err != nil {
		b.Fatal(err)
	}
	srv, err := mcpserver.New(&wink.Dispatcher{Registry: reg})
	if err != nil {
		b.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := newClient().Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	p := &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"text":"benchmark"}`)}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, p)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// TestToolAnnotationsComeFromDirectives: //wink:tool readonly title="..." destructive=false openworld=false
// reach tools/list as MCP's annotations and the tool's title, seen through the SDK's client; a tool
// without any states the protocol's defaults. All four hints are on the wire for every tool, on every
// version that has annotations.
func TestToolAnnotationsComeFromDirectives(t *testing.T) {
	cs := inMemory(t, testDispatcher(t))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	yes, no := true, false
	for _, mt := range res.Tools {
		switch mt.Name {
		case "echo":
			want := &mcp.ToolAnnotations{Title: "Echo the text", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no}
			if diff := cmp.Diff(want, mt.Annotations); diff != "" {
				t.Errorf("echo annotations (-want +got):\n%s", diff)
			}
			if mt.Title != "Echo the text" {
				t.Errorf("echo title %q", mt.Title)
			}
		case "explode":
			want := &mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &yes}
			if diff := cmp.Diff(want, mt.Annotations); diff != "" {
				t.Errorf("explode annotations (-want +got):\n%s", diff)
			}
		}
	}
	for _, version := range []string{"2025-03-26", "2025-11-25"} {
		c := startLineServerWith(t, testDispatcher(t), 0)
		initializeAt(c, version)
		var list struct {
			Tools []struct {
				Name        string                     `json:"name"`
				Annotations map[string]json.RawMessage `json:"annotations"`
			} `json:"tools"`
		}
		c.request(1, "tools/list", `{}`, &list)
		for _, lt := range list.Tools {
			for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
				if v := string(lt.Annotations[k]); v != "true" && v != "false" {
					t.Errorf("%s: %s on %s is %q, want true or false", version, k, lt.Name, v)
				}
			}
		}
	}
}
