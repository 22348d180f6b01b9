package anthropichttp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/loop"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
)

// edgeStream is text and a tool call whose partial_json deltas split "Zürich 🌧" between the characters.
func edgeStream(text string) string {
	return sse(msgStart, ping, textStart, textDelta(0, text), stop0,
		toolStart(1, "toolu_1"), argsDelta(1, `{"city":"Z`), argsDelta(1, `ü`), argsDelta(1, `rich 🌧`), argsDelta(1, `"}`), stop1,
		toolUseEnd, msgStop)
}

// TestStreamEdgeCases: the same stream written plainly, spelled awkwardly (a byte order mark, CRLF,
// comments, "data:" without a space, unknown and id fields, data split over two lines) and trickled one
// to seven bytes at a time (events and UTF-8 sequences split across reads), after a 529 whose Retry-After
// is an HTTP date, gives the same response; answers of 0.9 and 1 MiB in one event arrive whole.
func TestStreamEdgeCases(t *testing.T) {
	ask := func(s *pt.Server) (loop.Response, error) {
		return newProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	}
	pt.StreamEdgeCases(t, edgeStream, 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, ask)
}

// TestStreamErrorEventAndCut: an error event in the middle of a stream is an error carrying its message;
// a stream cut in the middle of an event keeps what arrived, marked incomplete.
func TestStreamErrorEventAndCut(t *testing.T) {
	body := sse(msgStart, textStart, textDelta(0, "part"), `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, stop0, endTurn, msgStop)
	_, err := newProvider(t, pt.NewServer(t, pt.Stream(body))).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	if err == nil || !strings.Contains(err.Error(), "Overloaded") {
		t.Fatalf("error event: %v", err)
	}
	full := edgeStream("Hi")
	cut := full[:strings.Index(full, `rich`)+2]
	resp, err := newProvider(t, pt.NewServer(t, pt.Trickle(cut, 3))).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	if err != nil || resp.Stop != "incomplete" || resp.Text != "Hi" || len(resp.ToolCalls) != 1 || string(resp.ToolCalls[0].Arguments) != `{"city":"Zü` {
		t.Fatalf("cut stream: %+v %v", resp, err)
	}
}

// TestMalformedEventIsAnError: an event the strict reader refuses (a lone surrogate escape, half of an
// emoji) in the middle of a stream is an error naming it, never a shortened answer.
func TestMalformedEventIsAnError(t *testing.T) {
	body := sse(msgStart, textStart, textDelta(0, "part"), `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\ud83d"}}`, stop0, endTurn, msgStop)
	resp, err := newProvider(t, pt.NewServer(t, pt.Stream(body))).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	if err == nil || !strings.Contains(err.Error(), `anthropichttp: malformed "content_block_delta" event`) {
		t.Fatalf("malformed event: %+v %v", resp, err)
	}
}
