package mcpserver

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// afterOf returns what s replays of a stream after index i.
func afterOf(s *eventStore, sess, stream string, i int) ([]string, error) {
	var out []string
	for d, err := range s.After(context.Background(), sess, stream, i) {
		if err != nil {
			return out, err
		}
		out = append(out, string(d))
	}
	return out, nil
}

// The default event store replays what follows an index, says when it dropped what was asked for, keeps
// its byte bound, and forgets ended sessions, map memory included.
func TestEventStore(t *testing.T) {
	ctx := context.Background()
	s := newEventStore()
	s.Open(ctx, "a", "1")
	for _, d := range []string{"aaa", "bbb", "ccc"} {
		s.Append(ctx, "a", "1", []byte(d))
	}
	if got, err := afterOf(s, "a", "1", 0); err != nil || len(got) != 2 || got[0] != "bbb" {
		t.Fatalf("after 0: %v %v", got, err)
	}
	s.sessionBytes = streamCost + len("1") + 3*(eventCost+3) // room for three events
	s.Append(ctx, "a", "1", []byte("ddd"))                   // a fourth: the oldest goes
	if _, err := afterOf(s, "a", "1", -1); !errors.Is(err, mcp.ErrEventsPurged) {
		t.Errorf("after -1 once the first event was dropped: %v", err)
	}
	if got, err := afterOf(s, "a", "1", 0); err != nil || len(got) != 3 || got[2] != "ddd" || s.nBytes > s.sessionBytes {
		t.Errorf("after 0: %v %v (%d bytes)", got, err, s.nBytes)
	}
	if _, err := afterOf(s, "b", "1", 0); err == nil {
		t.Error("an unknown session replays")
	}
	for i := range 1000 {
		s.Open(ctx, strconv.Itoa(i), "1")
	}
	for i := range 1000 {
		s.SessionClosed(ctx, strconv.Itoa(i))
	}
	s.SessionClosed(ctx, "a")
	if len(s.sessions) != 0 || s.peak > 64 || s.nBytes != 0 || s.nEvents != 0 {
		t.Errorf("after every session ended: %d sessions, peak %d, %d bytes, %d events", len(s.sessions), s.peak, s.nBytes, s.nEvents)
	}
}

// A long session: each call is a stream of its own (a priming event and the answer), tens of thousands of
// them. The store keeps the events of the last calls within the session's bound, forgets the streams
// whose events are all gone (ids included), and its queues stay proportional to what it keeps; a client
// resuming a forgotten stream is told its events are gone, and the standalone stream outlives its
// events.
func TestEventStoreLongSession(t *testing.T) {
	ctx := context.Background()
	s := newEventStore()
	answer := make([]byte, 200)
	s.Open(ctx, "a", "")
	s.Append(ctx, "a", "", []byte("note"))
	const calls = 20_000
	for i := range calls {
		id := "stream" + strconv.Itoa(i)
		s.Open(ctx, "a", id)
		s.Append(ctx, "a", id, nil)
		s.Append(ctx, "a", id, answer)
	}
	sess := s.sessions["a"]
	perCall := 2*eventCost + len(answer) + streamCost + len("stream00000")
	if kept := len(sess.streams); kept > DefaultSessionEventBytes/perCall+2 || kept < DefaultSessionEventBytes/perCall/2 {
		t.Errorf("%d streams kept after %d calls, want about %d (the last calls within %d bytes)", kept, calls, DefaultSessionEventBytes/perCall, DefaultSessionEventBytes)
	}
	if sess.nBytes > DefaultSessionEventBytes || s.nBytes != sess.nBytes {
		t.Errorf("%d bytes counted for the session (store: %d), bound %d", sess.nBytes, s.nBytes, DefaultSessionEventBytes)
	}
	if q, g := cap(sess.order.q), cap(s.order.q); q > 4*sess.nEvents+256 || g > 4*s.nEvents+256 {
		t.Errorf("queues of %d and %d entries' room for %d events", q, g, sess.nEvents)
	}
	if _, err := afterOf(s, "a", "stream0", 0); !errors.Is(err, mcp.ErrEventsPurged) {
		t.Errorf("resuming the first call's stream: %v, want ErrEventsPurged", err)
	}
	last := "stream" + strconv.Itoa(calls-1)
	if got, err := afterOf(s, "a", last, 0); err != nil || len(got) != 1 || len(got[0]) != len(answer) {
		t.Errorf("resuming the last call's stream after its priming event: %d events, %v", len(got), err)
	}
	s.Append(ctx, "a", "stream0", answer) // a forgotten stream: not kept
	if _, err := afterOf(s, "a", "stream0", 0); !errors.Is(err, mcp.ErrEventsPurged) {
		t.Errorf("a forgotten stream came back: %v", err)
	}
	s.Append(ctx, "a", "", []byte("later")) // the standalone stream's second event, index 1
	if got, err := afterOf(s, "a", "", 0); err != nil || len(got) != 1 || got[0] != "later" {
		t.Errorf("the standalone stream after index 0: %v %v", got, err)
	}
}

// Across sessions the store keeps DefaultEventStoreBytes (here a smaller bound), dropping the oldest
// events of any session first.
func TestEventStoreAcrossSessions(t *testing.T) {
	ctx := context.Background()
	s := newEventStore()
	s.maxBytes = 10_000
	for i := range 1000 {
		sid := strconv.Itoa(i)
		s.Open(ctx, sid, "x")
		s.Append(ctx, sid, "x", make([]byte, 100))
		if s.nBytes > s.maxBytes {
			t.Fatalf("%d bytes counted, bound %d", s.nBytes, s.maxBytes)
		}
	}
	if _, err := afterOf(s, "0", "x", -1); !errors.Is(err, mcp.ErrEventsPurged) {
		t.Errorf("the first session's event is still kept: %v", err)
	}
	if got, err := afterOf(s, "999", "x", -1); err != nil || len(got) != 1 {
		t.Errorf("the last session's event: %v %v", got, err)
	}
	for i := range 1000 {
		s.SessionClosed(ctx, strconv.Itoa(i))
	}
	if s.nBytes != 0 || s.nEvents != 0 || len(s.order.q)-s.order.head > 64 {
		t.Errorf("after every session ended: %d bytes, %d events, %d queued", s.nBytes, s.nEvents, len(s.order.q)-s.order.head)
	}
}
