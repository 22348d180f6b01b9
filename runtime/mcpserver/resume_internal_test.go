package mcpserver

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The default event store replays what follows an index, says when it dropped what was asked for, keeps
// its byte bound, and forgets ended sessions, map memory included.
func TestEventStore(t *testing.T) {
	ctx := context.Background()
	s := newEventStore()
	s.maxBytes = 10
	after := func(sess, stream string, i int) ([]string, error) {
		var out []string
		for d, err := range s.After(ctx, sess, stream, i) {
			if err != nil {
				return out, err
			}
			out = append(out, string(d))
		}
		return out, nil
	}
	s.Open(ctx, "a", "1")
	for _, d := range []string{"aaa", "bbb", "ccc"} {
		s.Append(ctx, "a", "1", []byte(d))
	}
	if got, err := after("a", "1", 0); err != nil || len(got) != 2 || got[0] != "bbb" {
		t.Fatalf("after 0: %v %v", got, err)
	}
	s.Append(ctx, "a", "1", []byte("ddd")) // 12 bytes > 10: the oldest goes
	if _, err := after("a", "1", -1); !errors.Is(err, mcp.ErrEventsPurged) {
		t.Errorf("after -1 once the first event was dropped: %v", err)
	}
	if got, err := after("a", "1", 0); err != nil || len(got) != 3 || got[2] != "ddd" || s.nBytes > 10 {
		t.Errorf("after 0: %v %v (%d bytes)", got, err, s.nBytes)
	}
	if _, err := after("b", "1", 0); err == nil {
		t.Error("an unknown session replays")
	}
	for i := range 1000 {
		s.Open(ctx, strconv.Itoa(i), "1")
	}
	for i := range 1000 {
		s.SessionClosed(ctx, strconv.Itoa(i))
	}
	s.SessionClosed(ctx, "a")
	if len(s.sessions) != 0 || s.peak > 64 || s.nBytes != 0 {
		t.Errorf("after every session ended: %d sessions, peak %d, %d bytes", len(s.sessions), s.peak, s.nBytes)
	}
}
