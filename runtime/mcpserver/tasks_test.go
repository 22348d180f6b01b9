package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/tasktest"
	"github.com/winkgen/wink/runtime/tasks"
	"github.com/winkgen/wink/runtime/wink"
)

// taskServer serves tasktest's tools as tasks (memory store) over stateless streamable HTTP.
func taskServer(t *testing.T) *httptest.Server {
	t.Helper()
	tk, err := mcpserver.NewTasks(mcpserver.TaskOptions{Store: tasks.NewMemoryStore(), PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go tk.Work(ctx)
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(tasktest.WinkTools())},
		mcpserver.WithTasks(tk), mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// rpcReply is a JSON-RPC response.
type rpcReply struct {
	status int
	Result map[string]any `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// taskCall sends one 2026-07-28 request (a raw JSON-RPC POST, as a client of the tasks extension does:
// the official Go SDK has no tasks types); withTasks declares the extension in the request's _meta.
// header adds or overrides headers; the routing headers are set as clients set them.
func taskCall(t *testing.T, url, method string, params map[string]any, withTasks bool, header map[string]string) rpcReply {
	t.Helper()
	return taskRequest(t, url, method, params, withTasks, nil, header)
}

// taskCallMeta is taskCall declaring the extension, with more members of _meta.
func taskCallMeta(t *testing.T, url, method string, params, meta map[string]any, header map[string]string) rpcReply {
	t.Helper()
	return taskRequest(t, url, method, params, true, meta, header)
}

func taskRequest(t *testing.T, url, method string, params map[string]any, withTasks bool, extra map[string]any, header map[string]string) rpcReply {
	t.Helper()
	caps := map[string]any{"elicitation": map[string]any{}}
	if withTasks {
		caps["extensions"] = map[string]any{mcpserver.TasksExtension: map[string]any{}}
	}
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": caps,
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "tasks-test", "version": "1"},
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
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var r rpcReply
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: reply %q: %v", method, data, err)
	}
	r.status = resp.StatusCode
	return r
}

// waitStatus polls tasks/get until the task's status is want (or terminal), at most 20 s.
func waitStatus(t *testing.T, url, id string, want tasks.Status) map[string]any {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := taskCall(t, url, "tasks/get", map[string]any{"taskId": id}, true, nil)
		if r.Error != nil {
			t.Fatalf("tasks/get: %+v", r.Error)
		}
		st := tasks.Status(r.Result["status"].(string))
		if st == want || st.Terminal() || time.Now().After(deadline) {
			if st != want {
				t.Fatalf("task %s is %s, want %s: %v", id, st, want, r.Result)
			}
			return r.Result
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestTaskIsCreatedThenTasksGetInlinesItsResult(t *testing.T) {
	url := taskServer(t).URL
	r := taskCall(t, url, "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"millis": 300, "label": "a"}}, true, nil)
	if r.Error != nil || r.Result["resultType"] != "task" {
		t.Fatalf("tools/call: want a CreateTaskResult, got %+v %+v", r.Result, r.Error)
	}
	for _, k := range []string{"taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"} {
		if _, ok := r.Result[k]; !ok {
			t.Errorf("CreateTaskResult lacks %s: %v", k, r.Result)
		}
	}
	for _, k := range []string{"result", "error", "inputRequests", "task", "ttl", "pollInterval", "requestState"} {
		if _, ok := r.Result[k]; ok {
			t.Errorf("CreateTaskResult carries %s: %v", k, r.Result)
		}
	}
	id := r.Result["taskId"].(string)
	// Durable before the reply: the very next tasks/get finds it.
	if g := taskCall(t, url, "tasks/get", map[string]any{"taskId": id}, true, nil); g.Error != nil || g.Result["status"] != "working" {
		t.Fatalf("tasks/get right after creation: %+v %+v", g.Result, g.Error)
	}
	done := waitStatus(t, url, id, tasks.Completed)
	res, _ := done["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) != 1 || !strings.HasPrefix(content[0].(map[string]any)["text"].(string), "worked on a") || res["isError"] == true {
		t.Fatalf("completed task's result: %v", done)
	}
	if done["resultType"] != "complete" {
		t.Errorf("tasks/get resultType = %v, want complete", done["resultType"])
	}
	if g := taskCall(t, url, "tasks/get", map[string]any{"taskId": "no-such-task"}, true, nil); g.Error == nil || g.Error.Code != -32602 {
		t.Errorf("tasks/get of an unknown task: %+v, want -32602", g.Error)
	}
}

func TestCancelledTaskHandlerSeesItsContextCancelled(t *testing.T) {
	url := taskServer(t).URL
	for len(tasktest.Ended) > 0 {
		<-tasktest.Ended
	}
	r := taskCall(t, url, "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"millis": 60000}}, true, nil)
	id := r.Result["taskId"].(string)
	time.Sleep(100 * time.Millisecond) // the handler is running
	ack := taskCall(t, url, "tasks/cancel", map[string]any{"taskId": id}, true, nil)
	if ack.Error != nil || len(ack.Result) != 1 || ack.Result["resultType"] != "complete" {
		t.Fatalf("tasks/cancel ack: %+v %+v", ack.Result, ack.Error)
	}
	select {
	case err := <-tasktest.Ended:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the handler's context ended with %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's context was not cancelled")
	}
	got := waitStatus(t, url, id, tasks.Cancelled)
	if _, ok := got["result"]; ok {
		t.Errorf("a cancelled task carries a result: %v", got)
	}
	// Cancelling a terminal task answers the same ack and changes nothing.
	if ack := taskCall(t, url, "tasks/cancel", map[string]any{"taskId": id}, true, nil); ack.Error != nil || ack.Result["resultType"] != "complete" {
		t.Fatalf("second tasks/cancel: %+v", ack.Error)
	}
}

func TestTaskAsksThroughInputRequestsAndTasksUpdateAnswers(t *testing.T) {
	url := taskServer(t).URL
	r := taskCall(t, url, "tools/call", map[string]any{"name": "ask", "arguments": map[string]any{}}, true, nil)
	id := r.Result["taskId"].(string)
	got := waitStatus(t, url, id, tasks.InputRequired)
	reqs, _ := got["inputRequests"].(map[string]any)
	if len(reqs) != 1 {
		t.Fatalf("inputRequests: %v", got)
	}
	var key string
	for k, v := range reqs {
		key = k
		if v.(map[string]any)["method"] != "elicitation/create" {
			t.Fatalf("input request %s: %v", k, v)
		}
	}
	ack := taskCall(t, url, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		"not-asked": map[string]any{"ignored": true},
		key:         map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}},
	}}, true, nil)
	if ack.Error != nil || len(ack.Result) != 1 || ack.Result["resultType"] != "complete" {
		t.Fatalf("tasks/update ack: %+v %+v", ack.Result, ack.Error)
	}
	done := waitStatus(t, url, id, tasks.Completed)
	if text := done["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]; text != "Hello, Ada!" {
		t.Fatalf("result text %q", text)
	}
}

func TestClientWithoutTheExtensionGetsAPlainResultOrMissingCapability(t *testing.T) {
	url := taskServer(t).URL
	// task=required: -32021, naming the extension.
	r := taskCall(t, url, "tools/call", map[string]any{"name": "ask", "arguments": map[string]any{}}, false, nil)
	if r.Error == nil || r.Error.Code != mcpserver.CodeMissingCapability || !strings.Contains(string(r.Error.Data), mcpserver.TasksExtension) {
		t.Fatalf("task=required without the extension: %+v", r.Error)
	}
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		if r := taskCall(t, url, m, map[string]any{"taskId": "x"}, false, nil); r.Error == nil || r.Error.Code != mcpserver.CodeMissingCapability {
			t.Errorf("%s without the extension: %+v", m, r.Error)
		}
	}
	// task=optional, from the official Go SDK's client (which declares no extension): a plain result.
	client := mcp.NewClient(&mcp.Implementation{Name: "sdk", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"millis": 1, "label": "sdk"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) != 1 || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "worked on sdk") {
		t.Fatalf("SDK client's result: %+v", res)
	}
	// The server advertises the extension.
	if _, ok := cs.InitializeResult().Capabilities.Extensions[mcpserver.TasksExtension]; !ok {
		t.Errorf("capabilities.extensions lacks %s: %+v", mcpserver.TasksExtension, cs.InitializeResult().Capabilities)
	}
}

func TestTasksRequestsNeedAMatchingMcpName(t *testing.T) {
	url := taskServer(t).URL
	r := taskCall(t, url, "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"millis": 10}}, true, nil)
	id := r.Result["taskId"].(string)
	for _, m := range []string{"tasks/get", "tasks/cancel"} {
		bad := taskCall(t, url, m, map[string]any{"taskId": id}, true, map[string]string{"Mcp-Name": "another-task"})
		if bad.status != http.StatusBadRequest || bad.Error == nil || bad.Error.Code != -32020 {
			t.Errorf("%s with a mismatched Mcp-Name: HTTP %d %+v, want 400 and -32020", m, bad.status, bad.Error)
		}
	}
	if ok := taskCall(t, url, "tasks/get", map[string]any{"taskId": id}, true, nil); ok.Error != nil {
		t.Errorf("tasks/get with Mcp-Name = taskId: %+v", ok.Error)
	}
}
