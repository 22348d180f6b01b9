package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestForecastRunsTheLoopAgainstAnEndpoint builds the README's program and runs it as a user does, with
// OPENAI_BASE_URL pointing at an OpenAI-compatible endpoint that asks for get_forecast, then answers with
// the forecast the tool returned.
func TestForecastRunsTheLoopAgainstAnEndpoint(t *testing.T) {
	var mu sync.Mutex
	var requests []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		requests = append(requests, string(body))
		n := len(requests)
		mu.Unlock()
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" {
			http.Error(w, "unexpected request "+r.URL.Path, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if n == 1 {
			io.WriteString(w, `{"id":"c1","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_forecast","arguments":"{\"city\":\"Lisbon\",\"days\":2}"}}]}}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`)
			return
		}
		io.WriteString(w, `{"id":"c2","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Yes: 21.5 degrees both days."}}],"usage":{"prompt_tokens":20,"completion_tokens":7,"total_tokens":27}}`)
	}))
	defer srv.Close()
	bin := filepath.Join(t.TempDir(), "forecast")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m", "OPENAI_API_KEY=sk-test")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("forecast: %v\n%s", err, out)
	}
	if string(out) != "Yes: 21.5 degrees both days.\n" {
		t.Errorf("forecast printed %q", out)
	}
	if len(requests) != 2 || !strings.Contains(requests[0], `"name":"get_forecast"`) ||
		!strings.Contains(requests[1], `Forecast for Lisbon.\n\n{\"highs\":[21.5,21.5]}`) {
		t.Errorf("the endpoint saw %d requests:\n%s", len(requests), strings.Join(requests, "\n"))
	}
}
