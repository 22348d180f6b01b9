package openairesponses_test

import (
	"context"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/loop"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
)

// edgeStream is text and a tool call whose argument deltas split "Zürich 🌧" between the characters; done
// says whether the arguments' done event closes the call.
func edgeStream(text string, done bool) string {
	events := []string{created, textDelta(text), callAdded(1, "fc_1", "call_1"),
		argsDelta("fc_1", 1, `{"city":"Z`), argsDelta("fc_1", 1, `ü`), argsDelta("fc_1", 1, `rich 🌧`), argsDelta("fc_1", 1, `"}`)}
	if done {
		events = append(events, argsDone("fc_1", 1, `{"city":"Zürich 🌧"}`), completed(3, 4))
	}
	return sse(events...)
}

// TestStreamEdgeCases: the same stream written plainly, spelled awkwardly (a byte order mark, CRLF,
// comments, "data:" without a space, unknown and id fields, data split over two lines) and trickled one
// to seven bytes at a time (events and UTF-8 sequences split across reads), after a 429 whose Retry-After
// is an HTTP date, gives the same response; answers of 0.9 and 1 MiB in one event arrive whole; without
// the done events, the deltas alone give the same arguments.
func TestStreamEdgeCases(t *testing.T) {
	ask := func(s *pt.Server) (loop.Response, error) {
		return newProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	}
	pt.StreamEdgeCases(t, func(text string) string { return edgeStream(text, true) }, 429, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, ask)
	got, err := ask(pt.NewServer(t, pt.Trickle(edgeStream("Hi", false), 3)))
	if err != nil || got.Stop != "incomplete" || len(got.ToolCalls) != 1 || string(got.ToolCalls[0].Arguments) != `{"city":"Zürich 🌧"}` {
		t.Fatalf("deltas only: %+v %v", got, err)
	}
}

// TestStreamErrorEvent: an error event in the middle of a stream is an error carrying its message.
func TestStreamErrorEvent(t *testing.T) {
	body := sse(created, textDelta("part"), `{"type":"error","sequence_number":4,"code":"server_error","message":"The server had an error","param":null}`, completed(1, 1))
	_, err := newProvider(t, pt.NewServer(t, pt.Stream(body))).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	if err == nil || !strings.Contains(err.Error(), "The server had an error") {
		t.Fatalf("error event: %v", err)
	}
}

// TestMalformedEventIsAnError: an event the strict reader refuses (a lone surrogate escape, half of an
// emoji) in the middle of a stream is an error naming it, never a shortened answer.
func TestMalformedEventIsAnError(t *testing.T) {
	body := sse(created, textDelta("part"), `{"type":"response.output_text.delta","sequence_number":3,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"\ud83d"}`, completed(1, 1))
	resp, err := newProvider(t, pt.NewServer(t, pt.Stream(body))).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	if err == nil || !strings.Contains(err.Error(), `openairesponses: malformed "response.output_text.delta" event`) {
		t.Fatalf("malformed event: %+v %v", resp, err)
	}
}
