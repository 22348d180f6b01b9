package openaihttp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
)

// edgeStream is text and a tool call whose argument deltas split "Zürich 🌧" between the characters.
func edgeStream(text string) string {
	return chunks(true,
		chunk(`{"role":"assistant","content":"`+text+`"}`, ""),
		chunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Z"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"ü"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"rich 🌧"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]}`, ""),
		chunk(`{}`, "tool_calls"), usageChunk)
}

// TestStreamEdgeCases: the same stream written plainly, spelled awkwardly (a byte order mark, CRLF,
// comments, "data:" without a space, unknown and id fields, data split over two lines) and trickled one
// to seven bytes at a time (events and UTF-8 sequences split across reads), after a 429 whose Retry-After
// is an HTTP date, gives the same response; answers of 0.9 and 1 MiB in one event arrive whole.
func TestStreamEdgeCases(t *testing.T) {
	ask := func(s *pt.Server) (loop.Response, error) {
		return streamingProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	}
	want := pt.StreamEdgeCases(t, edgeStream, 429, `{"error":{"message":"slow down"}}`, ask)
	if want.Stop != "tool_calls" {
		t.Fatalf("plain stream: stop %q, want tool_calls", want.Stop)
	}
}

// TestStreamErrorEventAndCut: an error chunk in the middle of a stream is an error carrying its message;
// a stream cut in the middle of an event keeps what arrived, marked incomplete.
func TestStreamErrorEventAndCut(t *testing.T) {
	body := chunks(false, chunk(`{"content":"part"}`, ""), `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`, chunk(`{"content":" more"}`, "stop"))
	_, err := streamingProvider(t, pt.NewServer(t, pt.Stream(body))).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	if err == nil || !strings.Contains(err.Error(), "The server had an error while processing your request.") {
		t.Fatalf("error chunk: %v", err)
	}
	full := edgeStream("Hi")
	cut := full[:strings.Index(full, `rich`)+2]
	resp, err := streamingProvider(t, pt.NewServer(t, pt.Trickle(cut, 3))).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	if err != nil || resp.Stop != "incomplete" || resp.Text != "Hi" || len(resp.ToolCalls) != 1 || string(resp.ToolCalls[0].Arguments) != `{"city":"Zü` {
		t.Fatalf("cut stream: %+v %v", resp, err)
	}
	huge := strings.Repeat("x", 9<<20)
	_, err = streamingProvider(t, pt.NewServer(t, pt.Stream(chunks(true, chunk(`{"content":"`+huge+`"}`, "stop"))))).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	if _, ok := errors.AsType[*httpcall.EventTooLargeError](err); !ok {
		t.Fatalf("9 MiB event: %v", err)
	}
}

// TestMalformedChunkIsAnError: a chunk the strict reader refuses (here a lone surrogate escape, half of an
// emoji) in the middle of a stream is an error naming it, as in anthropichttp and openairesponses, never a
// shortened answer passed off as a cut connection.
func TestMalformedChunkIsAnError(t *testing.T) {
	body := chunks(true, chunk(`{"content":"part"}`, ""), chunk(`{"content":"\ud83d"}`, ""), chunk(`{"content":"\ude00 more"}`, "stop"))
	resp, err := streamingProvider(t, pt.NewServer(t, pt.Stream(body))).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	if err == nil || !strings.Contains(err.Error(), "openaihttp: malformed stream chunk") {
		t.Fatalf("malformed chunk: %+v %v", resp, err)
	}
}
