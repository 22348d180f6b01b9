package durabletest

import (
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"sync"
)

// ScriptTurn is one scripted model turn: text and calls (name and arguments, ids "c<turn>_<i>").
type ScriptTurn struct {
	Text  string
	Calls [][2]string
}

// Script is the conversation the fake model plays, chosen by the number of assistant messages in the
// request (so any worker, resuming anywhere, gets the same answer for the same turn): credit alice and
// bob, debit alice (held for approval), credit carol, then a final answer.
var Script = []ScriptTurn{
	{Text: "Crediting the accounts.", Calls: [][2]string{{"deposit", `{"account":"alice","cents":100}`}, {"deposit", `{"account":"bob","cents":50}`}}},
	{Text: "Moving money needs approval.", Calls: [][2]string{{"transfer", `{"from":"alice","cents":30}`}}},
	{Calls: [][2]string{{"deposit", `{"account":"carol","cents":7}`}}},
	{Text: "All done: alice 70, bob 50, carol 7."},
}

// HeldCallID is the id of the call the script's approval policy holds.
const HeldCallID = "c2_0"

// Model is an OpenAI-compatible chat completions server on loopback playing Script and counting the
// requests of every turn.
type Model struct {
	URL    string
	mu     sync.Mutex
	counts map[int]int
	srv    *http.Server
	ln     net.Listener
}

// StartModel starts the fake model on a free loopback port.
func StartModel() (*Model, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m := &Model{URL: "http://" + ln.Addr().String() + "/v1", counts: map[int]int{}, ln: ln}
	m.srv = &http.Server{Handler: http.HandlerFunc(m.serve)}
	go m.srv.Serve(ln)
	return m, nil
}

// Close stops the server.
func (m *Model) Close() error { return m.srv.Close() }

// Counts returns the number of requests received for each turn (from 1).
func (m *Model) Counts() map[int]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[int]int{}
	for k, v := range m.counts {
		out[k] = v
	}
	return out
}

// Total returns the number of requests received.
func (m *Model) Total() int {
	n := 0
	for _, v := range m.Counts() {
		n += v
	}
	return n
}

func (m *Model) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	turn := 1
	for _, msg := range req.Messages {
		if msg.Role == "assistant" {
			turn++
		}
	}
	m.mu.Lock()
	m.counts[turn]++
	m.mu.Unlock()
	if turn > len(Script) {
		http.Error(w, `{"error":{"message":"the script has no turn `+strconv.Itoa(turn)+`"}}`, http.StatusBadRequest)
		return
	}
	t := Script[turn-1]
	type fn struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type call struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function fn     `json:"function"`
	}
	msg := map[string]any{"role": "assistant", "content": t.Text}
	finish := "stop"
	if len(t.Calls) > 0 {
		calls := []call{}
		for i, c := range t.Calls {
			calls = append(calls, call{ID: "c" + strconv.Itoa(turn) + "_" + strconv.Itoa(i), Type: "function", Function: fn{Name: c[0], Arguments: c[1]}})
		}
		msg["tool_calls"] = calls
		finish = "tool_calls"
	}
	resp := map[string]any{
		"id": "chatcmpl-" + strconv.Itoa(turn), "object": "chat.completion", "model": "fake",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 100 * turn, "completion_tokens": 10, "total_tokens": 100*turn + 10},
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}
