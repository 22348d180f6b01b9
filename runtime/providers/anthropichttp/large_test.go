package anthropichttp_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
)

// TestLargeEvents: an answer of 1.5 MiB in one delta arrives whole; an event past httpcall.MaxEvent is an
// error naming the bound, never an empty or shortened answer.
func TestLargeEvents(t *testing.T) {
	big := strings.Repeat("a", 3<<19)
	s := pt.NewServer(t, pt.Stream(sse(msgStart, textStart, textDelta(0, big), stop0, endTurn, msgStop)))
	resp, err := newProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	if err != nil || resp.Text != big {
		t.Fatalf("1.5 MiB delta: %d bytes of text, %v", len(resp.Text), err)
	}
	huge := strings.Repeat("b", httpcall.MaxEvent)
	s = pt.NewServer(t, pt.Stream(sse(msgStart, textStart, textDelta(0, "start"), textDelta(0, huge), stop0, endTurn, msgStop)))
	_, err = newProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	var tooLarge *httpcall.EventTooLargeError
	if !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), strconv.Itoa(httpcall.MaxEvent)) {
		t.Fatalf("event past the bound: %v", err)
	}
}
