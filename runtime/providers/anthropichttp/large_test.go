package anthropichttp_test

import (
	"context"
	"testing"

	"github.com/winkgen/wink/runtime/loop"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
)

// TestLargeEvents: an answer of 1.5 MiB in one delta arrives whole; an event past httpcall.MaxEvent is an
// error naming the bound, never an empty or shortened answer.
func TestLargeEvents(t *testing.T) {
	pt.LargeEvents(t, func(deltas ...string) string {
		events := []string{msgStart, textStart}
		for _, d := range deltas {
			events = append(events, textDelta(0, d))
		}
		return sse(append(events, stop0, endTurn, msgStop)...)
	}, func(s *pt.Server) (loop.Response, error) {
		return newProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	})
}
