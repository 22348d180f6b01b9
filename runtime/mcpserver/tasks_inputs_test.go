package mcpserver_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/tasktest"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/tasks"
	"github.com/winkgen/wink/runtime/wink"
)

// approvalServer serves tasktest's tools as tasks over stateless HTTP; every client gets a session of
// its own whose calls of slow a person must approve.
func approvalServer(t *testing.T) string {
	t.Helper()
	tk, err := mcpserver.NewTasks(mcpserver.TaskOptions{Store: tasks.NewMemoryStore(), PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	reg := wink.MustRegistry(tasktest.WinkTools())
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: reg}, mcpserver.WithTasks(tk),
		mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}),
		mcpserver.WithSessions(func(context.Context, mcpserver.Client) (*wink.Dispatcher, func(), error) {
			return &wink.Dispatcher{Registry: reg, Session: session.New(),
				Policies: []wink.Policy{policy.NewRequireApproval("slow")}}, nil, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// pendingRequest returns the one input request a task waits for, and its key.
func pendingRequest(t *testing.T, got map[string]any) (string, map[string]any) {
	t.Helper()
	reqs, _ := got["inputRequests"].(map[string]any)
	if len(reqs) != 1 {
		t.Fatalf("want one input request: %v", got)
	}
	for k, v := range reqs {
		return k, v.(map[string]any)
	}
	panic("unreachable")
}

// startHeld starts a task of slow labelled label and returns its id and the key of its approval request.
func startHeld(t *testing.T, url, label string) (string, string) {
	t.Helper()
	r := taskCall(t, url, "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"millis": 1, "label": label}}, true, nil)
	if r.Error != nil || r.Result["resultType"] != "task" {
		t.Fatalf("tools/call: %+v %v", r.Error, r.Result)
	}
	id := r.Result["taskId"].(string)
	key, req := pendingRequest(t, waitStatus(t, url, id, tasks.InputRequired))
	if !strings.HasPrefix(key, "wink.approval.0.") || req["method"] != "elicitation/create" {
		t.Fatalf("the approval request: %q %v", key, req)
	}
	if msg, _ := req["params"].(map[string]any)["message"].(string); !strings.Contains(msg, `"slow"`) || !strings.Contains(msg, label) {
		t.Fatalf("the approval question does not show the call: %q", msg)
	}
	return id, key
}

func update(t *testing.T, url, id string, responses map[string]any) {
	t.Helper()
	if r := taskCall(t, url, "tasks/update", map[string]any{"taskId": id, "inputResponses": responses}, true, nil); r.Error != nil {
		t.Fatalf("tasks/update: %+v", r.Error)
	}
}

// taskText returns the text of a completed task's result and whether it is an error result.
func taskText(t *testing.T, got map[string]any) (string, bool) {
	t.Helper()
	res, _ := got["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("no result content: %v", got)
	}
	isErr, _ := res["isError"].(bool)
	return content[0].(map[string]any)["text"].(string), isErr
}

// TestTaskHeldForApprovalAsksThroughAnInputRequest: a call a policy holds inside a task becomes the
// task's input request (input_required); approving it through tasks/update runs the call, declining it
// completes the task with the denial the model reads, with the person's reason.
func TestTaskHeldForApprovalAsksThroughAnInputRequest(t *testing.T) {
	url := approvalServer(t)
	t.Run("approve", func(t *testing.T) {
		id, key := startHeld(t, url, "approved")
		update(t, url, id, map[string]any{key: map[string]any{"action": "accept"}})
		text, isErr := taskText(t, waitStatus(t, url, id, tasks.Completed))
		if isErr || !strings.HasPrefix(text, "worked on approved") {
			t.Fatalf("approved task: %q (isError %v)", text, isErr)
		}
	})
	t.Run("deny", func(t *testing.T) {
		id, key := startHeld(t, url, "denied")
		update(t, url, id, map[string]any{key: map[string]any{"action": "decline", "content": map[string]any{"reason": "not on a Friday"}}})
		text, isErr := taskText(t, waitStatus(t, url, id, tasks.Completed))
		if !isErr || !strings.Contains(text, "not on a Friday") || strings.Contains(text, "worked on") {
			t.Fatalf("denied task: %q (isError %v)", text, isErr)
		}
	})
}

// TestTaskApprovalAuthorizesOnlyItsOwnCall: an approval answers the input request of one task and one
// held call; given to another task (with other arguments, or the same ones) or under another key, it
// authorizes nothing.
func TestTaskApprovalAuthorizesOnlyItsOwnCall(t *testing.T) {
	url := approvalServer(t)
	a, keyA := startHeld(t, url, "a")
	b, keyB := startHeld(t, url, "b")
	c, keyC := startHeld(t, url, "a") // the same call as a's
	if keyA == keyB {
		t.Fatalf("two held calls with other arguments share the key %q", keyA)
	}
	if keyA != keyC {
		t.Fatalf("the same held call has two keys: %q, %q", keyA, keyC)
	}
	// a's approval sent to b, and an unknown key on a: ignored.
	update(t, url, b, map[string]any{keyA: map[string]any{"action": "accept"}})
	update(t, url, a, map[string]any{"wink.approval.1." + keyA[len("wink.approval.0."):]: map[string]any{"action": "accept"}})
	update(t, url, a, map[string]any{keyA: map[string]any{"action": "accept"}})
	if text, isErr := taskText(t, waitStatus(t, url, a, tasks.Completed)); isErr || !strings.HasPrefix(text, "worked on a") {
		t.Fatalf("approved task: %q", text)
	}
	time.Sleep(200 * time.Millisecond) // four poll intervals: b and c would have run by now
	for _, id := range []string{b, c} {
		got := taskCall(t, url, "tasks/get", map[string]any{"taskId": id}, true, nil)
		if got.Result["status"] != string(tasks.InputRequired) {
			t.Fatalf("task %s ran on another call's approval: %v", id, got.Result)
		}
	}
	update(t, url, b, map[string]any{keyB: map[string]any{"action": "accept"}})
	if text, _ := taskText(t, waitStatus(t, url, b, tasks.Completed)); !strings.HasPrefix(text, "worked on b") {
		t.Fatalf("task b: %q", text)
	}
}

// TestTaskSamplesThroughAnInputRequest: ToolContext.Sample inside a task becomes the task's input
// request (sampling/createMessage); the client's sampling result, given with tasks/update, is what the
// handler reads.
func TestTaskSamplesThroughAnInputRequest(t *testing.T) {
	url := taskServer(t).URL
	r := taskCall(t, url, "tools/call", map[string]any{"name": "summarize", "arguments": map[string]any{"text": "a long story"}}, true, nil)
	id, _ := r.Result["taskId"].(string)
	if id == "" {
		t.Fatalf("tools/call: %+v %v", r.Error, r.Result)
	}
	key, req := pendingRequest(t, waitStatus(t, url, id, tasks.InputRequired))
	params, _ := req["params"].(map[string]any)
	msgs, _ := params["messages"].([]any)
	if key != "wink.input.0" || req["method"] != "sampling/createMessage" || len(msgs) != 1 || params["maxTokens"] != 50.0 || params["systemPrompt"] != "Be brief." {
		t.Fatalf("the sampling request: %q %v", key, req)
	}
	if c := msgs[0].(map[string]any)["content"].(map[string]any); c["type"] != "text" || c["text"] != "Summarize: a long story" {
		t.Fatalf("the sampling message: %v", msgs[0])
	}
	update(t, url, id, map[string]any{key: map[string]any{"role": "assistant", "model": "tiny-1",
		"content": map[string]any{"type": "text", "text": "It ends well."}, "stopReason": "endTurn"}})
	if text, isErr := taskText(t, waitStatus(t, url, id, tasks.Completed)); isErr || text != "Summary by tiny-1: It ends well." {
		t.Fatalf("the summary: %q (isError %v)", text, isErr)
	}
}

// TestTaskActsForItsCallersPrincipal: a task runs for the principal of the call that created it, so the
// scopes its tool declares are checked inside the task, and the handler reads who it acts for.
func TestTaskActsForItsCallersPrincipal(t *testing.T) {
	tk, err := mcpserver.NewTasks(mcpserver.TaskOptions{Store: tasks.NewMemoryStore(), PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: wink.MustRegistry(tasktest.WinkTools())}, mcpserver.WithTasks(tk),
		mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}),
		mcpserver.WithCallContext(principalFromMeta))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	start := func(scopes string) string {
		r := taskCallAs(t, srv.URL, "alice", scopes, map[string]any{"name": "who", "arguments": map[string]any{}})
		id, _ := r.Result["taskId"].(string)
		if id == "" {
			t.Fatalf("tools/call: %+v %v", r.Error, r.Result)
		}
		return id
	}
	granted, refused := start("tasks:read other"), start("other")
	if text, isErr := taskText(t, waitStatus(t, srv.URL, granted, tasks.Completed)); isErr || !strings.HasPrefix(text, "subject alice scopes tasks:read,other ") {
		t.Fatalf("the task of a caller granted tasks:read: %q (isError %v)", text, isErr)
	}
	if text, isErr := taskText(t, waitStatus(t, srv.URL, refused, tasks.Completed)); !isErr || !strings.Contains(text, "tasks:read") {
		t.Fatalf("the task of a caller without tasks:read: %q (isError %v)", text, isErr)
	}
}

// principalFromMeta is a WithCallContext that takes the caller's principal from the request's _meta
// (test.subject, test.scopes): a stand-in for a verified token.
func principalFromMeta(ctx context.Context, meta map[string]any) context.Context {
	sub, _ := meta["test.subject"].(string)
	if sub == "" {
		return ctx
	}
	scopes, _ := meta["test.scopes"].(string)
	return wink.WithPrincipal(ctx, &wink.Principal{Subject: sub, Scopes: strings.Fields(scopes), Expires: time.Now().Add(time.Hour)})
}

// taskCallAs is taskCall of tools/call for a caller with principal subject and scopes (principalFromMeta).
func taskCallAs(t *testing.T, url, subject, scopes string, params map[string]any) rpcReply {
	t.Helper()
	return taskCallMeta(t, url, "tools/call", params, map[string]any{"test.subject": subject, "test.scopes": scopes}, nil)
}

// TestTaskRunsOnItsClientsSessionDispatcher: with WithSessions, a task runs on the dispatcher the factory
// made for the client that created it, and that dispatcher is released only after the task's run ended.
func TestTaskRunsOnItsClientsSessionDispatcher(t *testing.T) {
	store := tasks.NewMemoryStore()
	tk, err := mcpserver.NewTasks(mcpserver.TaskOptions{Store: store, PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	reg := wink.MustRegistry(tasktest.WinkTools())
	var mu sync.Mutex
	ids := map[string]string{}              // task by conversation
	released := map[string][]tasks.Status{} // each release of a conversation's dispatcher: its task's status then
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: reg}, mcpserver.WithTasks(tk),
		mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}),
		mcpserver.WithSessions(func(_ context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
			conv := c.Header.Get("X-Conversation") // a stateless client names its conversation
			if conv == "" {
				return nil, nil, errors.New("no conversation named")
			}
			return &wink.Dispatcher{Registry: reg, Session: session.New(session.WithID(conv))}, func() {
				mu.Lock()
				defer mu.Unlock()
				st := tasks.Status("created")
				if id := ids[conv]; id != "" {
					if task, err := store.Get(context.Background(), id); err == nil {
						st = task.Status
					}
				}
				released[conv] = append(released[conv], st)
			}, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	mu.Lock() // releases wait until the ids are known
	for _, conv := range []string{"conv-1", "conv-2"} {
		r := taskCallMeta(t, srv.URL, "tools/call", map[string]any{"name": "who", "arguments": map[string]any{"millis": 300}}, nil, map[string]string{"X-Conversation": conv})
		id, _ := r.Result["taskId"].(string)
		if id == "" {
			mu.Unlock()
			t.Fatalf("tools/call: %+v %v", r.Error, r.Result)
		}
		ids[conv] = id
	}
	mu.Unlock()
	for conv, id := range ids {
		got := waitStatus(t, srv.URL, id, tasks.Completed)
		if text, isErr := taskText(t, got); isErr || !strings.Contains(text, " session "+conv+" ") {
			t.Fatalf("the task of %s: %q (isError %v)", conv, text, isErr)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		r1, r2 := slices.Clone(released["conv-1"]), slices.Clone(released["conv-2"])
		mu.Unlock()
		if len(r1) > 0 && len(r2) > 0 {
			if !slices.Equal(r1, []tasks.Status{tasks.Completed}) || !slices.Equal(r2, []tasks.Status{tasks.Completed}) {
				t.Fatalf("releases (and their task's status then): %v, %v; want one each, after the task completed", r1, r2)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("released: %v, want each once", released)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
