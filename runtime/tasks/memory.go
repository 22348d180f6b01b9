package tasks

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// MemoryStore is a Store in one process's memory: tasks survive nothing but their request. It is
// for a single server process and for tests; a fleet shares pgtasks.Store.
type MemoryStore struct {
	mu    sync.Mutex
	tasks map[string]*Task
	next  int64
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{tasks: map[string]*Task{}} }

func (m *MemoryStore) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

func clone(t *Task) Task {
	c := *t
	c.Pending, c.Answers = maps.Clone(t.Pending), maps.Clone(t.Answers)
	c.Principal = clonePrincipal(t.Principal)
	return c
}

// Create implements Store.
func (m *MemoryStore) Create(_ context.Context, t Task, worker string, lease time.Duration) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tasks[t.ID]; ok {
		return 0, ErrExists
	}
	now := m.now()
	m.next++
	t.Status, t.Created, t.Updated = Working, now, now
	t.Owner, t.Token, t.LeaseUntil, t.Attempts = worker, m.next, now.Add(lease), 1
	t.Pending, t.Answers = maps.Clone(t.Pending), maps.Clone(t.Answers)
	t.Principal = clonePrincipal(t.Principal)
	m.tasks[t.ID] = &t
	return t.Token, nil
}

// Get implements Store.
func (m *MemoryStore) Get(_ context.Context, id string) (Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok || m.expired(t) {
		return Task{}, ErrNotFound
	}
	return clone(t), nil
}

func (m *MemoryStore) expired(t *Task) bool { return t.TTL > 0 && m.now().After(t.Created.Add(t.TTL)) }

// Claim implements Store.
func (m *MemoryStore) Claim(_ context.Context, worker string, lease time.Duration) (Task, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	var pick *Task
	for _, t := range m.tasks {
		if t.Status.Terminal() || m.expired(t) || now.Before(t.LeaseUntil) {
			continue
		}
		if pick == nil || t.LeaseUntil.Before(pick.LeaseUntil) {
			pick = t
		}
	}
	if pick == nil {
		return Task{}, false, nil
	}
	m.next++
	pick.Owner, pick.Token, pick.LeaseUntil = worker, m.next, now.Add(lease)
	pick.Attempts++
	return clone(pick), true, nil
}

func (m *MemoryStore) owned(id string, token int64) (*Task, error) {
	t, ok := m.tasks[id]
	if !ok {
		return nil, ErrNotFound
	}
	if t.Token != token {
		return nil, ErrLost
	}
	return t, nil
}

// Renew implements Store.
func (m *MemoryStore) Renew(_ context.Context, id string, token int64, lease time.Duration) (Status, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.owned(id, token)
	if err != nil {
		return "", err
	}
	if !t.Status.Terminal() {
		t.LeaseUntil = m.now().Add(lease)
	}
	return t.Status, nil
}

// Ask implements Store.
func (m *MemoryStore) Ask(_ context.Context, id string, token int64, key string, request []byte) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.owned(id, token)
	if err != nil {
		return nil, false, err
	}
	if a, ok := t.Answers[key]; ok {
		return a, true, nil
	}
	if t.Status.Terminal() {
		return nil, false, nil
	}
	if t.Pending == nil {
		t.Pending = map[string][]byte{}
	}
	t.Pending[key] = request
	t.Status, t.Updated = InputRequired, m.now()
	return nil, false, nil
}

// Answer implements Store.
func (m *MemoryStore) Answer(_ context.Context, id string, answers map[string][]byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok || m.expired(t) {
		return ErrNotFound
	}
	if t.Status.Terminal() {
		return nil
	}
	changed := false
	for k, a := range answers {
		if _, pending := t.Pending[k]; !pending {
			continue
		}
		delete(t.Pending, k)
		if t.Answers == nil {
			t.Answers = map[string][]byte{}
		}
		t.Answers[k] = a
		changed = true
	}
	if changed {
		if len(t.Pending) == 0 {
			t.Status = Working
		}
		t.Updated = m.now()
	}
	return nil
}

// Finish implements Store.
func (m *MemoryStore) Finish(_ context.Context, id string, token int64, status Status, payload []byte) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.owned(id, token)
	if err != nil {
		return false, err
	}
	if t.Status.Terminal() {
		return false, nil
	}
	t.Status, t.Result, t.Pending, t.Updated = status, payload, nil, m.now()
	return true, nil
}

// Cancel implements Store.
func (m *MemoryStore) Cancel(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok || m.expired(t) {
		return ErrNotFound
	}
	if !t.Status.Terminal() {
		t.Status, t.Pending, t.Updated = Cancelled, nil, m.now()
	}
	return nil
}

// Prune implements Store.
func (m *MemoryStore) Prune(context.Context) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for id, t := range m.tasks {
		if m.expired(t) {
			delete(m.tasks, id)
			n++
		}
	}
	return n, nil
}

// clonePrincipal copies what a store keeps of p: subject, client id, issuer, scopes and expiry, not the
// claims (as pgtasks.Store keeps it).
func clonePrincipal(p *wink.Principal) *wink.Principal {
	if p == nil {
		return nil
	}
	return &wink.Principal{Subject: p.Subject, ClientID: p.ClientID, Issuer: p.Issuer, Scopes: slices.Clone(p.Scopes), Expires: p.Expires}
}
