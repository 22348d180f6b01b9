package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// TestScriptedDemoShowsEveryFeature runs the demo as `make demo` does and checks that the output shows
// what the demo must show: a validation error then its recovery, a policy denial, a rolled-back failure
// (the workspace unchanged), a sandboxed command that fails and is rolled back, a workspace digest, a Starlark
// check, an idempotent replay, planning and file tools, and the final answer. The
// transcript's own expectations are verified by run (it fails otherwise).
func TestScriptedDemoShowsEveryFeature(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, options{maxTurns: 20, maxTokens: 200_000, timeout: time.Minute}); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	s := out.String()
	for _, want := range []string{
		"- limit: expected integer, got string \"5\"\n",
		"  → search_docs {\"query\":\"snapshots\",\"limit\":5,",
		"File 'docs/guide.md' must be read before overwriting.\n      - Call read_file on 'docs/guide.md' first.",
		"docs/guide.md still has a TODO on line 7; resolve it, then publish again.\n  workspace (unchanged): docs/guide.md (121 B), docs/policies.md (46 B)\n",
		"workspace: docs/guide.md (219 B), docs/policies.md (46 B), site/index.md (49 B)",
		"ok, REPLAYED from the idempotency ledger",
		"Plan initialised with 4 steps.",
		"   7 | TODO: explain snapshots.",
		"Stopped: done after 15 turns",
		"Workspace digest: 2 files in 1 directories.",
		"The command exited with status 1; everything it wrote was undone.",
		"test ! -s todo-report.txt\"]}\n  ← FAILED (whatever the call changed is rolled back; the model reads:)",
		"result = [\"# Guide\", \"## Snapshots\"]",
		"no TODO left",
		"Final answer:\n  Done. I replaced the snapshots TODO",
		"Every result matched what the transcript expects.",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", s)
	}
}

func TestScriptedDemoFailsWhenTheTranscriptDoesNotMatch(t *testing.T) {
	path := t.TempDir() + "/t.txt"
	src := "turn\ncall search_docs {\"query\":\"x\"}\nexpect ok\nturn\ntext done\n"
	if err := writeFile(path, src); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := run(&out, options{transcript: path, maxTurns: 5, timeout: time.Minute})
	want := path + ":3: call call_1 (search_docs): want a success, got a failure"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to contain %q", err, want)
	}
}

// TestLiveModeTalksToAnOpenAICompatibleEndpoint runs the agent with WINK_DEMO_LIVE's provider against a
// local server that answers with one tool call, then a final message.
func TestLiveModeTalksToAnOpenAICompatibleEndpoint(t *testing.T) {
	var requests int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		requests++
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k" || !bytes.Contains(body, []byte(`"model":"test-model"`)) {
			t.Errorf("request %s %q %s", r.URL.Path, r.Header.Get("Authorization"), body[:min(len(body), 80)])
		}
		if requests == 1 {
			io.WriteString(w, `{"choices":[{"message":{"content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"ls","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":2}}`)
			return
		}
		if !bytes.Contains(body, []byte(`"tool_call_id":"a","content":"`)) {
			t.Errorf("second request lacks the ls result: %s", body)
		}
		io.WriteString(w, `{"choices":[{"message":{"content":"All good."},"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":3}}`)
	}))
	defer srv.Close()
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("OPENAI_MODEL", "test-model")
	t.Setenv("OPENAI_API_KEY", "k")
	var out bytes.Buffer
	if err := run(&out, options{live: true, maxTurns: 5, timeout: time.Minute}); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	for _, want := range []string{"(live)", "  → ls {}\n  ← ok\n", "Stopped: done after 2 turns; tokens used: 30 in, 5 out (35 total)", "Final answer:\n  All good."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }
