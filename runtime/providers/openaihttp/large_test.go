package openaihttp_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
	"github.com/winkgen/wink/runtime/providers/openaihttp"
)

// TestLargeEvents: an answer of 1.5 MiB in one delta arrives whole; an event past httpcall.MaxEvent is an
// error naming the bound, never an empty or shortened answer.
func TestLargeEvents(t *testing.T) {
	pt.LargeEvents(t, func(deltas ...string) string {
		var events []string
		for _, d := range deltas {
			events = append(events, chunk(`{"content":"`+d+`"}`, ""))
		}
		return chunks(true, append(events, chunk(`{}`, "stop"))...)
	}, func(s *pt.Server) (loop.Response, error) {
		return streamingProvider(t, s).Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	})
}

// TestErrorAfterRetriesSaysAttempts: a status that stays retryable ends in an error saying how many
// attempts were made over how long.
func TestErrorAfterRetriesSaysAttempts(t *testing.T) {
	busy := pt.Status(503, nil, `{"error":{"message":"busy"}}`)
	s := pt.NewServer(t, busy, busy, busy)
	p, err := openaihttp.New(openaihttp.Config{BaseURL: s.URL, Model: "gpt-4o", Retry: httpcall.Retry{MaxRetries: 2, BaseDelay: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Complete(context.Background(), loop.Request{Messages: []loop.Message{loop.UserMessage("Hi")}})
	var se *openaihttp.StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusServiceUnavailable || se.Attempts.N != 3 ||
		!strings.Contains(err.Error(), "busy (after 3 attempts over ") {
		t.Fatalf("error = %v", err)
	}
}
