package openaihttp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	"github.com/winkgen/wink/runtime/providers/openaihttp"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// exchange is one recorded HTTP exchange of an httprr trace (the format of
// golang.org/x/oscar/internal/httprr: "httprr trace v1", then per exchange "REQLEN RESPLEN" and the raw
// request and response). The same reader lives in runtime/adapters/internal/wiretest, which this package
// cannot import.
type exchange struct {
	req      *http.Request
	reqBody  []byte
	status   int
	respBody []byte
}

func readHTTPRR(t *testing.T, name string) []exchange {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(wireDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := bytes.CutPrefix(data, []byte("httprr trace v1\n"))
	if !ok {
		t.Fatalf("%s: not an httprr trace", name)
	}
	var out []exchange
	for len(rest) > 0 {
		line, after, _ := bytes.Cut(rest, []byte("\n"))
		f := strings.Fields(string(line))
		if len(f) != 2 {
			t.Fatalf("%s: bad length line %q", name, line)
		}
		n1, _ := strconv.Atoi(f[0])
		n2, _ := strconv.Atoi(f[1])
		raw := after[:n1+n2]
		rest = after[n1+n2:]
		br := bufio.NewReader(bytes.NewReader(raw[:n1]))
		req, err := http.ReadRequest(br)
		if err != nil {
			t.Fatal(err)
		}
		reqBody, _ := io.ReadAll(br)
		br = bufio.NewReader(bytes.NewReader(raw[n1:]))
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			t.Fatal(err)
		}
		respBody, _ := io.ReadAll(br)
		out = append(out, exchange{req: req, reqBody: reqBody, status: resp.StatusCode, respBody: respBody})
	}
	return out
}

func wireDir(t *testing.T) string {
	dir := filepath.Join("..", "..", "..", "testdata", "wire")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Fatalf("the wire recordings are missing: %s", dir)
	}
	return dir
}

// recordedTool builds a wink tool from a recorded chat completions tool entry: its name, description and
// schema, with a hand-written decoder that reads a flat object of strings into a map (enough for the
// recordings' tools) and a handler that echoes what it received.
func recordedTool(t *testing.T, entry json.RawMessage) *wink.Tool {
	var e struct {
		Function struct {
			Name, Description string
			Parameters        json.RawMessage
			Strict            bool
		}
	}
	if err := json.Unmarshal(entry, &e); err != nil {
		t.Fatal(err)
	}
	spec := wink.Spec{Name: e.Function.Name, Description: e.Function.Description, ParamsSchema: e.Function.Parameters}
	// Recorded names such as getCurrentWeather are not winkgen names (^[a-z0-9_-]{1,64}$): the tool is
	// registered lower-cased, and the test lower-cases the name in the replayed response too.
	spec.Name = strings.ToLower(spec.Name)
	return wink.NewTool(spec, &wink.Funcs[map[string]string, wink.NoValue]{
		Decode: func(d *strictjson.Decoder, p *map[string]string) {
			*p = map[string]string{}
			if !d.ObjectStart() {
				return
			}
			for d.NextKey() {
				k := d.KeyString()
				if s, ok := d.String(); ok {
					(*p)[k] = s
				}
			}
			d.ObjectEnd()
		},
		EncodeResult: wink.EncodeNoValue,
		Handler: func(_ *wink.ToolContext, p map[string]string) (wink.ToolResult[wink.NoValue], error) {
			b, _ := json.Marshal(p)
			return wink.Done[wink.NoValue]("received " + string(b)), nil
		},
	})
}

// normalise decodes a JSON body for comparison, lower-casing tool names (winkgen names are lower case;
// the recordings' are camelCase).
func normalise(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%v in %s", err, body)
	}
	if tools, ok := v["tools"].([]any); ok {
		for _, tl := range tools {
			fn := tl.(map[string]any)["function"].(map[string]any)
			fn["name"] = strings.ToLower(fn["name"].(string))
		}
	}
	return v
}

// TestReplaysRecordedExchanges sends, for each OpenAI recording, the conversation and tool of the
// recorded request to an httptest server that checks our request against the recorded one and answers
// with the recorded response; the recorded tool calls then run through the loop and the dispatcher, and
// a second request (answered with a final message) must carry the assistant's tool calls and our tool
// results.
func TestReplaysRecordedExchanges(t *testing.T) {
	for _, name := range []string{"llms_openai_TestFunctionCall.httprr", "llms_openai_TestStructuredOutputFunctionCalling.httprr"} {
		t.Run(name, func(t *testing.T) {
			ex := readHTTPRR(t, name)[0]
			var rec struct {
				Model       string
				Temperature float64
				Messages    []struct{ Role, Content string }
				Tools       []json.RawMessage
			}
			if err := json.Unmarshal(ex.reqBody, &rec); err != nil {
				t.Fatal(err)
			}
			tool := recordedTool(t, rec.Tools[0])
			var orig struct{ Function struct{ Name string } }
			json.Unmarshal(rec.Tools[0], &orig)
			replay := bytes.ReplaceAll(ex.respBody, []byte(strconv.Quote(orig.Function.Name)), []byte(strconv.Quote(tool.Name())))
			wantCalls, err := openai.ParseChatCompletion(replay)
			if err != nil || len(wantCalls) == 0 || wantCalls[0].Name != tool.Name() {
				t.Fatalf("recorded calls: %v %v", wantCalls, err)
			}

			var mu sync.Mutex
			var bodies [][]byte
			final := `{"choices":[{"index":0,"message":{"role":"assistant","content":"All done."},"finish_reason":"stop"}],"usage":{"prompt_tokens":120,"completion_tokens":5,"total_tokens":125}}`
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				mu.Lock()
				bodies = append(bodies, body)
				n := len(bodies)
				mu.Unlock()
				if r.Method != ex.req.Method || r.URL.Path != ex.req.URL.Path {
					t.Errorf("request %s %s, recorded %s %s", r.Method, r.URL.Path, ex.req.Method, ex.req.URL.Path)
				}
				for _, h := range []string{"Authorization", "Content-Type"} {
					if got, want := r.Header.Get(h), ex.req.Header.Get(h); got != want {
						t.Errorf("%s = %q, recorded %q", h, got, want)
					}
				}
				w.Header().Set("Content-Type", "application/json")
				if n == 1 {
					w.WriteHeader(ex.status)
					w.Write(replay)
					return
				}
				io.WriteString(w, final)
			}))
			defer srv.Close()

			temp := rec.Temperature
			p, err := openaihttp.New(openaihttp.Config{BaseURL: srv.URL + "/v1", Model: rec.Model, APIKey: "test-api-key", Temperature: &temp, HTTPClient: srv.Client()})
			if err != nil {
				t.Fatal(err)
			}
			var system string
			var msgs []loop.Message
			for _, m := range rec.Messages {
				if m.Role == "system" {
					system = m.Content
					continue
				}
				msgs = append(msgs, loop.UserMessage(m.Content))
			}
			reg := wink.MustRegistry([]*wink.Tool{tool})
			var turns []loop.Turn
			res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: &wink.Dispatcher{Registry: reg}, System: system,
				OnTurn: func(tn loop.Turn) { turns = append(turns, tn) }}, msgs)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if len(bodies) != 2 {
				t.Fatalf("%d requests, want 2", len(bodies))
			}

			// Request 1 is the recorded request, but in strict mode: the adapter sends the strict form it
			// derives from the tool's plain schema (the recording was made without strict).
			want := normalise(t, ex.reqBody)
			for _, tl := range want["tools"].([]any) {
				fn := tl.(map[string]any)["function"].(map[string]any)
				plain, err := json.Marshal(fn["parameters"])
				if err != nil {
					t.Fatal(err)
				}
				strict, err := openai.StrictSchema(plain)
				if err != nil {
					t.Fatal(err)
				}
				var params any
				if err := json.Unmarshal(strict, &params); err != nil {
					t.Fatal(err)
				}
				fn["parameters"], fn["strict"] = params, true
			}
			if diff := cmp.Diff(want, normalise(t, bodies[0])); diff != "" {
				t.Errorf("request 1 differs from the recorded request (-recorded +ours):\n%s", diff)
			}

			// Response 1: the recorded tool calls, usage and finish reason.
			var usage struct {
				Usage struct{ Prompt_tokens, Completion_tokens int }
			}
			json.Unmarshal(ex.respBody, &usage)
			r1 := turns[0].Response
			if diff := cmp.Diff(wantCalls, r1.ToolCalls, ignorePairMaps); diff != "" {
				t.Errorf("tool calls (-recorded +read):\n%s", diff)
			}
			if r1.Usage != (loop.Usage{Input: usage.Usage.Prompt_tokens, Output: usage.Usage.Completion_tokens}) || r1.Stop != "tool_calls" || r1.Text != "" {
				t.Errorf("response 1 = text %q usage %+v stop %q", r1.Text, r1.Usage, r1.Stop)
			}
			// The calls dispatched with the recorded arguments.
			o := turns[0].Outcomes[0]
			var args map[string]string
			json.Unmarshal(wantCalls[0].Arguments, &args)
			argsJSON, _ := json.Marshal(args)
			if !o.Success || o.Output != "received "+string(argsJSON) {
				t.Errorf("outcome = %+v, want the recorded arguments received", o)
			}

			// Request 2 carries the assistant's calls and the tool message.
			var second struct{ Messages []json.RawMessage }
			json.Unmarshal(bodies[1], &second)
			n := len(second.Messages)
			wantAssistant := map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
				"id": wantCalls[0].ID, "type": "function",
				"function": map[string]any{"name": wantCalls[0].Name, "arguments": string(wantCalls[0].Arguments)}}}}
			var gotAssistant, gotTool map[string]any
			json.Unmarshal(second.Messages[n-2], &gotAssistant)
			json.Unmarshal(second.Messages[n-1], &gotTool)
			if diff := cmp.Diff(wantAssistant, gotAssistant); diff != "" {
				t.Errorf("assistant message (-want +got):\n%s", diff)
			}
			wantTool := map[string]any{"role": "tool", "tool_call_id": wantCalls[0].ID, "content": o.Output}
			if diff := cmp.Diff(wantTool, gotTool); diff != "" {
				t.Errorf("tool message (-want +got):\n%s", diff)
			}
			if res.Text != "All done." || res.Stop != loop.StopDone || res.Usage.Input != int64(usage.Usage.Prompt_tokens+120) {
				t.Errorf("result text %q stop %v usage %+v", res.Text, res.Stop, res.Usage)
			}
		})
	}
}

func TestRequestBodyWritesEveryRole(t *testing.T) {
	p, err := openaihttp.New(openaihttp.Config{BaseURL: "http://x", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	body, err := p.RequestBody(loop.Request{System: "Sys \"quoted\"", Messages: []loop.Message{
		loop.UserMessage("Hi <there>"),
		{Role: loop.RoleAssistant, Text: "Calling.", ToolCalls: []wink.Call{{ID: "c1", Name: "a", Arguments: []byte(`{"k": "v"}`)}, {ID: "c2", Name: "b"}}},
		{Role: loop.RoleTool, Result: wink.Outcome{CallID: "c1", Name: "a", Success: true, Output: "ok\n\n{}"}},
		{Role: loop.RoleTool, Result: wink.Outcome{CallID: "c2", Name: "b", Output: "Unknown tool \"b\"."}},
		{Role: loop.RoleAssistant, Text: "Done."},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"m","messages":[{"role":"system","content":"Sys \"quoted\""},{"role":"user","content":"Hi <there>"},` +
		`{"role":"assistant","content":"Calling.","tool_calls":[{"id":"c1","type":"function","function":{"name":"a","arguments":"{\"k\": \"v\"}"}},{"id":"c2","type":"function","function":{"name":"b","arguments":""}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"ok\n\n{}"},{"role":"tool","tool_call_id":"c2","content":"Unknown tool \"b\"."},` +
		`{"role":"assistant","content":"Done."}]}`
	if string(body) != want {
		t.Errorf("body:\n%s\nwant:\n%s", body, want)
	}
	if _, err := p.RequestBody(loop.Request{Messages: []loop.Message{{Role: "narrator"}}}); err == nil || err.Error() != `openaihttp: message 0 has unknown role "narrator"` {
		t.Errorf("unknown role: %v", err)
	}
}

func TestNewReadsTheEnvironment(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "http://localhost:8080/v1/")
	t.Setenv("OPENAI_MODEL", "env-model")
	t.Setenv("OPENAI_API_KEY", "env-key")
	p, err := openaihttp.New(openaihttp.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Config(); c.BaseURL != "http://localhost:8080/v1/" || c.Model != "env-model" || c.APIKey != "env-key" {
		t.Errorf("config = %+v", c)
	}
	p, _ = openaihttp.New(openaihttp.Config{Model: "cfg"})
	if p.Config().Model != "cfg" {
		t.Errorf("Config.Model does not win over the environment")
	}
	t.Setenv("OPENAI_BASE_URL", "")
	p, _ = openaihttp.New(openaihttp.Config{})
	if p.Config().BaseURL != openaihttp.DefaultBaseURL {
		t.Errorf("BaseURL = %q, want the default", p.Config().BaseURL)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	t.Setenv("OPENAI_MODEL", "")
	t.Setenv("OPENAI_BASE_URL", "")
	cases := []struct {
		cfg  openaihttp.Config
		want string
	}{
		{openaihttp.Config{}, "openaihttp: no model: set Config.Model or OPENAI_MODEL"},
		{openaihttp.Config{Model: "m", BaseURL: "localhost:8080"}, `openaihttp: base URL "localhost:8080" is not an http or https URL`},
	}
	for _, c := range cases {
		if _, err := openaihttp.New(c.cfg); err == nil || err.Error() != c.want {
			t.Errorf("New(%+v) = %v, want %q", c.cfg, err, c.want)
		}
	}
}

// serve returns a provider talking to a server that answers every request with status and body.
func serve(t *testing.T, status int, body string) *openaihttp.Provider {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			t.Errorf("Authorization sent without a key: %q", r.Header.Get("Authorization"))
		}
		if r.Header.Get("X-Extra") != "1" {
			t.Errorf("extra header missing")
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("OPENAI_API_KEY", "")
	p, err := openaihttp.New(openaihttp.Config{BaseURL: srv.URL, Model: "m", HTTPClient: srv.Client(), Retry: httpcall.Retry{BaseDelay: time.Millisecond}, Header: http.Header{"X-Extra": {"1"}}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCompleteReadsResponses(t *testing.T) {
	cases := []struct {
		name, body string
		want       loop.Response
	}{
		{"text only", `{"choices":[{"message":{"role":"assistant","content":"Hello."},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2}}`,
			loop.Response{Text: "Hello.", Usage: loop.Usage{Input: 3, Output: 2}, Stop: "stop"}},
		{"content parts", `{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},"finish_reason":"stop"}]}`,
			loop.Response{Text: "ab", Stop: "stop"}},
		{"no usage, arguments as an object", `{"choices":[{"message":{"content":null,"tool_calls":[{"id":"x","type":"function","function":{"name":"f","arguments":{"a":1}}}]},"finish_reason":"tool_calls"}],"usage":null}`,
			loop.Response{ToolCalls: []wink.Call{{ID: "x", Name: "f", Arguments: []byte(`{"a":1}`)}}, Stop: "tool_calls"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := serve(t, 200, c.body).Complete(context.Background(), loop.Request{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, got, ignorePairMaps); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompleteReportsErrors(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"API error status", 401, `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error"}}`, "openaihttp: 401 Unauthorized: Incorrect API key provided."},
		{"plain text error", 502, "bad gateway\n", "openaihttp: 502 Bad Gateway: bad gateway (after 5 attempts over "},
		{"error in a 200", 200, `{"error":{"message":"overloaded"}}`, "openaihttp: the API returned an error: overloaded"},
		{"not JSON", 200, `<html>`, "openaihttp: reading the response: invalid JSON at byte 0: unexpected character '<'; expected a value"},
		{"no choices", 200, `{"choices":[]}`, "openaihttp: openai: chat completion has no choices"},
		{"custom tool call", 200, `{"choices":[{"message":{"tool_calls":[{"id":"x","type":"custom"}]}}]}`, `openaihttp: openai: tool call 0 ("x") has unsupported type "custom"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := serve(t, c.status, c.body).Complete(context.Background(), loop.Request{})
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("err = %v\nwant %s", err, c.want)
			}
		})
	}
	var se *openaihttp.StatusError
	_, err := serve(t, 429, `{"error":{"message":"slow down"}}`).Complete(context.Background(), loop.Request{})
	if !errors.As(err, &se) || se.StatusCode != 429 || se.Message != "slow down" {
		t.Errorf("err = %#v, want a *StatusError 429", err)
	}
}

func TestCompleteWrapsTheContextError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := serve(t, 200, `{}`).Complete(ctx, loop.Request{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
