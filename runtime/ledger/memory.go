package ledger

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Memory is the in-memory Doer, the default ledger. It is safe for
// concurrent use; its zero value is an empty ledger ready to use. Entries
// live as long as the Memory: they do not survive the process.
type Memory struct {
	s  memStore
	fs flightSet
}

// NewMemory returns an empty in-memory ledger.
func NewMemory() *Memory { return &Memory{} }

// Lookup returns the entry stored under key unless there is none or it has
// expired at now; an expired entry is removed.
func (m *Memory) Lookup(key string, now time.Time) (Entry, bool) { return m.s.Lookup(key, now) }

// Record stores e under e.Key, replacing any entry stored there. The only
// error is for an empty key.
func (m *Memory) Record(e Entry) error { return m.s.Record(e) }

// Invalidate removes the entry stored under key and keeps a run in flight for
// key from recording its result.
func (m *Memory) Invalidate(key string) { m.fs.invalidate(&m.s, key) }

// InvalidateTool removes every entry of tool and keeps tool's runs in flight
// from recording their results.
func (m *Memory) InvalidateTool(tool string) { m.fs.invalidateTool(&m.s, tool) }

// PruneExpired removes every entry expired at now and returns how many it removed.
func (m *Memory) PruneExpired(now time.Time) int { return m.s.PruneExpired(now) }

// Clear removes every entry and keeps every run in flight from recording its result.
func (m *Memory) Clear() { m.fs.clear(&m.s) }

// Len returns the number of stored entries, expired ones not yet pruned included.
func (m *Memory) Len() int {
	m.s.mu.RLock()
	defer m.s.mu.RUnlock()
	return len(m.s.entries)
}

// Do implements Doer; see Doer.Do.
func (m *Memory) Do(ctx context.Context, key, tool string, ttl time.Duration, now func() time.Time,
	fn func() (Entry, bool)) (Entry, bool, error) {
	return m.fs.do(ctx, &m.s, key, tool, ttl, now, noTxn(fn))
}

// DoTx implements TxDoer: a success is recorded, and the callers waiting on its key answered, once
// the transaction fn returns has committed; when it does not commit, nothing is recorded and the
// waiters try again.
func (m *Memory) DoTx(ctx context.Context, key, tool string, ttl time.Duration, now func() time.Time,
	fn func() (Entry, bool, Txn)) (Entry, bool, error) {
	return m.fs.do(ctx, &m.s, key, tool, ttl, now, fn)
}

// memStore is the map behind Memory: a plain Ledger without flights.
type memStore struct {
	mu      sync.RWMutex
	entries map[string]Entry
}

func (s *memStore) Lookup(key string, now time.Time) (Entry, bool) {
	s.mu.RLock()
	e, ok := s.entries[key]
	s.mu.RUnlock()
	if !ok {
		return Entry{}, false
	}
	if !e.Expired(now) {
		return e, true
	}
	s.mu.Lock()
	// Re-read: the entry may have been replaced since the read lock was dropped.
	if cur, ok := s.entries[key]; ok && cur.Expired(now) {
		delete(s.entries, key)
	}
	s.mu.Unlock()
	return Entry{}, false
}

func (s *memStore) Record(e Entry) error {
	if e.Key == "" {
		return ErrEmptyKey
	}
	s.mu.Lock()
	if s.entries == nil {
		s.entries = make(map[string]Entry)
	}
	s.entries[e.Key] = e
	s.mu.Unlock()
	return nil
}

func (s *memStore) Invalidate(key string) {
	s.mu.Lock()
	delete(s.entries, key)
	s.mu.Unlock()
}

func (s *memStore) InvalidateTool(tool string) {
	s.mu.Lock()
	for k, e := range s.entries {
		if e.Tool == tool {
			delete(s.entries, k)
		}
	}
	s.mu.Unlock()
}

func (s *memStore) PruneExpired(now time.Time) int {
	s.mu.Lock()
	n := 0
	for k, e := range s.entries {
		if e.Expired(now) {
			delete(s.entries, k)
			n++
		}
	}
	s.mu.Unlock()
	return n
}

func (s *memStore) Clear() {
	s.mu.Lock()
	clear(s.entries)
	s.mu.Unlock()
}

// ErrEmptyKey is returned by Memory.Record for an entry without a key.
var ErrEmptyKey = errors.New("ledger: entry has an empty key")

var (
	_ TxDoer = (*Memory)(nil)
	_ TxDoer = (*Flights)(nil)
)
