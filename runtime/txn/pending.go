package txn

import "sync"

// PendingToolTracker tracks tools that run natively in a provider (outside
// the dispatcher): Begin captures the parts when the provider announces a
// call, End commits it or, on failure, rolls the parts back. It is safe for
// concurrent use; unknown call ids are harmless everywhere.
//
// Calls that overlap on the same parts are not isolated from one another:
// rolling one back also undoes what the others did after its Begin, exactly
// as with the dispatcher's transactions.
type PendingToolTracker struct {
	parts   Parts
	mu      sync.Mutex
	pending map[string]*Snap
}

// NewPendingToolTracker returns a tracker whose calls cover p.
func NewPendingToolTracker(p Parts) *PendingToolTracker {
	return &PendingToolTracker{parts: p, pending: make(map[string]*Snap)}
}

// Begin captures the parts for callID. A second Begin for a call id that is
// still pending keeps the first capture and returns nil. A capture error is
// returned and nothing is tracked.
func (t *PendingToolTracker) Begin(callID string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.pending[callID]; ok {
		return nil
	}
	s, err := Take(t.parts)
	if err != nil {
		return err
	}
	t.pending[callID] = s
	return nil
}

// End finishes callID: on success the capture is released, on failure the
// parts are restored first (the restore error is returned). An unknown or
// already finished call id does nothing and returns nil.
func (t *PendingToolTracker) End(callID string, success bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.pending[callID]
	if !ok {
		return nil
	}
	delete(t.pending, callID)
	var err error
	if !success {
		err = s.Restore()
	}
	s.Release()
	return err
}

// Abort forgets callID without restoring anything (the provider cancelled
// the call before it ran). An unknown call id does nothing.
func (t *PendingToolTracker) Abort(callID string) {
	t.mu.Lock()
	s, ok := t.pending[callID]
	delete(t.pending, callID)
	t.mu.Unlock()
	if ok {
		s.Release()
	}
}

// Pending returns the number of calls begun and not yet ended or aborted.
func (t *PendingToolTracker) Pending() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.pending)
}
