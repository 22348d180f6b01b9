package mcpserver

// DESIGN-notes: the default event store (resumable streams, resume.go).
//
// A stateful HTTP server keeps the events of its SSE streams so that a client that lost a stream can
// reconnect and receive what it missed. The events of a stream are needed only while a client may still
// come back for them, and the store cannot know when that is over: a stream that delivered its answer
// may still be resumed if the connection broke during the write. So the store keeps the newest events,
// within two bounds on the memory they take, everything counted (the data, and a fixed cost per event
// and per stream for the structures that hold them):
//
//   - DefaultSessionEventBytes per session: a long session (thousands of calls) keeps about the events of
//     its last calls, not of all of them;
//   - DefaultEventStoreBytes across sessions.
//
// Past a bound the oldest events are dropped first (per session, or across sessions), one event at a time,
// in the order they were appended. A stream whose events have all been dropped is forgotten entirely (its
// id too), except a session's standalone stream (id ""), which lives as long as the session: so the
// number of streams a session holds is bounded as well as their bytes. A client resuming a stream from
// before its oldest kept event, or a forgotten stream, is told the events are gone (mcp.ErrEventsPurged);
// an event the SDK appends to a forgotten stream is not kept (its earlier events are gone, so the stream
// could not be replayed in order). A session's events are dropped when the session ends, and the map of
// sessions is rebuilt when most sessions have ended (a Go map keeps the memory of its largest size).
//
// Every operation is O(1) amortized: each appended event is queued twice (in its session's order and in
// the store's), a dropped event's entry in the other queue is skipped when reached, and a queue holding
// more than twice as many entries as live events is compacted.

import (
	"context"
	"errors"
	"iter"
	"maps"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultEventStoreBytes bounds the memory of the stream events HTTPHandler's default event store keeps,
// across sessions; past it, the oldest events are dropped (a client resuming from before them is told
// they are gone).
const DefaultEventStoreBytes = 10 << 20

// DefaultSessionEventBytes bounds the memory of the stream events HTTPHandler's default event store keeps
// for one session; past it, the session's oldest events are dropped. A session's newest stream keeps its
// events even when they alone exceed it.
const DefaultSessionEventBytes = 1 << 20

// The memory counted for each event besides its data (its slice header and two queue entries), and for
// each stream besides its id (the eventList and its map entry).
const (
	eventCost  = 24 + 2*16
	streamCost = 96 + 48
)

// eventStore is HTTPHandler's default mcp.EventStore.
type eventStore struct {
	mu           sync.Mutex
	maxBytes     int // across sessions
	sessionBytes int // per session
	nBytes       int // counted across sessions
	nEvents      int // kept across sessions
	peak         int // the most sessions held since the map was last rebuilt
	sessions     map[string]*sessionEvents
	order        eventQueue // every kept event, oldest first
}

// sessionEvents is one session's streams.
type sessionEvents struct {
	streams map[string]*eventList
	nBytes  int
	nEvents int
	order   eventQueue // the session's kept events, oldest first
}

// eventList is the events of one stream; first is the stream index of data[0].
type eventList struct {
	sess  *sessionEvents
	id    string
	first int
	data  [][]byte
	gone  bool // forgotten: dropped from its session, or the session ended
}

// eventRef is one appended event in a queue: the idx-th event of l.
type eventRef struct {
	l   *eventList
	idx int
}

// live reports whether r's event is still kept. Events of a list are dropped in order, so r's event is
// kept when it is at or after the list's first.
func (r eventRef) live() bool { return !r.l.gone && r.idx >= r.l.first }

// eventQueue is a queue of events in the order they were appended.
type eventQueue struct {
	q    []eventRef
	head int
}

func (q *eventQueue) push(r eventRef) { q.q = append(q.q, r) }

// oldest returns the oldest live event in q, dropping the entries before it.
func (q *eventQueue) oldest() (eventRef, bool) {
	for q.head < len(q.q) {
		r := q.q[q.head]
		if r.live() {
			return r, true
		}
		q.q[q.head] = eventRef{}
		q.head++
	}
	q.q, q.head = q.q[:0], 0
	return eventRef{}, false
}

// compact keeps q's memory proportional to live, the events it may hold: it rebuilds q with only its live
// entries when it holds more than twice live of them, and moves its entries to the front of its array
// when the entries already taken fill half of it (so the array does not grow with every push).
func (q *eventQueue) compact(live int) {
	switch {
	case len(q.q)-q.head > 2*live+64:
		kept := make([]eventRef, 0, 2*live+64)
		for _, r := range q.q[q.head:] {
			if r.live() {
				kept = append(kept, r)
			}
		}
		q.q, q.head = kept, 0
	case q.head > 64 && q.head >= len(q.q)/2:
		n := copy(q.q, q.q[q.head:])
		clear(q.q[n:])
		q.q, q.head = q.q[:n], 0
	}
}

func newEventStore() *eventStore {
	return &eventStore{maxBytes: DefaultEventStoreBytes, sessionBytes: DefaultSessionEventBytes, sessions: map[string]*sessionEvents{}}
}

// session returns the events of session id, creating them.
func (s *eventStore) session(id string) *sessionEvents {
	sess := s.sessions[id]
	if sess == nil {
		sess = &sessionEvents{streams: map[string]*eventList{}}
		s.sessions[id] = sess
		s.peak = max(s.peak, len(s.sessions))
	}
	return sess
}

// open returns the list of stream id in sess, creating it.
func (s *eventStore) open(sess *sessionEvents, id string) *eventList {
	l := sess.streams[id]
	if l == nil {
		l = &eventList{sess: sess, id: id}
		sess.streams[id] = l
		s.count(sess, streamCost+len(id), 0)
	}
	return l
}

// count adds n bytes and events to sess's and the store's counts.
func (s *eventStore) count(sess *sessionEvents, n, events int) {
	sess.nBytes += n
	s.nBytes += n
	sess.nEvents += events
	s.nEvents += events
}

// Open implements mcp.EventStore.
func (s *eventStore) Open(_ context.Context, sessionID, streamID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open(s.session(sessionID), streamID)
	return nil
}

// Append implements mcp.EventStore.
func (s *eventStore) Append(_ context.Context, sessionID, streamID string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.session(sessionID)
	l := sess.streams[streamID]
	if l == nil {
		if streamID != "" {
			return nil // a forgotten stream (the SDK opens every stream before appending to it)
		}
		l = s.open(sess, streamID)
	}
	if cap(data) > len(data) {
		data = append([]byte(nil), data...) // keep only what is counted, not the writer's buffer
	}
	n := eventCost + len(data)
	for sess.nBytes+n > s.sessionBytes {
		r, ok := sess.order.oldest()
		if !ok {
			break
		}
		s.dropFirst(r.l, l)
	}
	for s.nBytes+n > s.maxBytes {
		r, ok := s.order.oldest()
		if !ok {
			break
		}
		s.dropFirst(r.l, l)
	}
	r := eventRef{l, l.first + len(l.data)}
	l.data = append(l.data, data)
	sess.order.push(r)
	s.order.push(r)
	s.count(sess, n, 1)
	sess.order.compact(sess.nEvents)
	s.order.compact(s.nEvents)
	return nil
}

// dropFirst drops the oldest event of l, and forgets l when that was its last and l is neither keep nor
// its session's standalone stream.
func (s *eventStore) dropFirst(l, keep *eventList) {
	s.count(l.sess, -(eventCost + len(l.data[0])), -1)
	l.data[0] = nil
	l.data = l.data[1:]
	l.first++
	if len(l.data) == 0 && l != keep && l.id != "" {
		delete(l.sess.streams, l.id)
		l.gone = true
		s.count(l.sess, -(streamCost + len(l.id)), 0)
	}
}

// After implements mcp.EventStore.
func (s *eventStore) After(_ context.Context, sessionID, streamID string, index int) iter.Seq2[[]byte, error] {
	s.mu.Lock()
	var data [][]byte
	var err error
	if sess := s.sessions[sessionID]; sess == nil {
		err = errors.New("mcpserver: no events of session " + strconv.Quote(sessionID))
	} else if l := sess.streams[streamID]; l == nil {
		err = errors.Join(errors.New("mcpserver: the events of stream "+strconv.Quote(streamID)+" in session "+strconv.Quote(sessionID)+" are no longer kept"), mcp.ErrEventsPurged)
	} else if start := index + 1 - l.first; start < 0 {
		err = mcp.ErrEventsPurged
	} else if start < len(l.data) {
		data = append([][]byte(nil), l.data[start:]...)
	}
	s.mu.Unlock()
	return func(yield func([]byte, error) bool) {
		if err != nil {
			yield(nil, err)
			return
		}
		for _, d := range data {
			if !yield(d, nil) {
				return
			}
		}
	}
}

// SessionClosed implements mcp.EventStore.
func (s *eventStore) SessionClosed(_ context.Context, sessionID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.sessions[sessionID]
	if sess == nil {
		return nil
	}
	for _, l := range sess.streams {
		l.gone = true
	}
	s.nBytes -= sess.nBytes
	s.nEvents -= sess.nEvents
	delete(s.sessions, sessionID)
	s.order.compact(s.nEvents)
	if s.peak >= 64 && len(s.sessions) <= s.peak/4 {
		s.sessions = maps.Clone(s.sessions)
		if s.sessions == nil {
			s.sessions = map[string]*sessionEvents{}
		}
		s.peak = len(s.sessions)
	}
	return nil
}
