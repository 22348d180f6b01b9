package durable

import (
	"context"
	"errors"
	"slices"
	"sort"
	"sync"
	"time"
)

// State is where a run stands.
type State uint8

// The states of a run.
const (
	// Pending: started, never taken by a worker yet.
	Pending State = iota
	// Running: a worker holds (or held, until its lease expires) the run.
	Running
	// Held: calls wait for a person's decision; the run holds no worker.
	Held
	// Done: the run ended (Status.Stop says how; StopDone when the model finished).
	Done
	// Failed: the run ended on an error no retry could cure (Status.Err).
	Failed
)

// String returns "pending", "running", "held", "done" or "failed".
func (s State) String() string {
	switch s {
	case Pending:
		return "pending"
	case Running:
		return "running"
	case Held:
		return "held"
	case Done:
		return "done"
	case Failed:
		return "failed"
	}
	return "State(" + itoa(int(s)) + ")"
}

// Terminal reports whether the run has ended (Done or Failed).
func (s State) Terminal() bool { return s == Done || s == Failed }

// StepKind says what a checkpoint holds.
type StepKind uint8

// The kinds of checkpoints.
const (
	// StepModel holds a model response (Data: EncodeResponse), Index 0.
	StepModel StepKind = 1
	// StepTool holds a tool call's outcome (Data: EncodeOutcome), Index the call's position in its turn.
	StepTool StepKind = 2
)

// Step is one checkpoint of a run.
type Step struct {
	Kind  StepKind
	Turn  int
	Index int
	Data  []byte
	// Worker is the worker that wrote it; Time when (set by the store).
	Worker string
	Time   time.Time
}

// Record is a run as a Store keeps it.
type Record struct {
	ID string
	// Session is the free-form text given at Start (typically the session id the Agent binds).
	Session string
	// Input is the run's first messages (EncodeMessages).
	Input []byte
	// MaxTurns bounds the run's model calls (0: loop.DefaultMaxTurns).
	MaxTurns int
	// Principal is who the run acts for (EncodePrincipal), nil for none.
	Principal []byte
	State     State
	// Owner is the worker holding (or that last held) the run; Token counts claims and fences writes:
	// a write with an older token is refused with ErrLeaseLost.
	Owner      string
	Token      int64
	LeaseUntil time.Time
	// Attempts counts the claims.
	Attempts int
	// Held lists the held calls (EncodeCalls) while State is Held; WakeAt is when a worker looks again.
	Held   []byte
	WakeAt time.Time
	// Result says how a terminal run ended; LastErr is the last error that made a worker give the run
	// back.
	Result  []byte
	LastErr string
	Created time.Time
	Updated time.Time
}

// Release is how a worker gives a run back: Running (retry after Delay, after an error), Held (look
// again after Delay), Done or Failed (Result).
type Release struct {
	State State
	Held  []byte
	// Delay is how long the run waits before a worker takes it again, from the moment the store records
	// the release, on the store's clock (the database's: a worker's clock never decides when a run is
	// due). Zero or negative: at once.
	Delay  time.Duration
	Result []byte
	Err    string
}

// TxRenewer is a Store that can renew a claim inside the transaction of a session store on the same
// database, so that a tool call holding its session transaction's connection fences its claim on
// that connection instead of waiting for a second one from the same pool (with the pool exhausted by
// calls doing the same, none would ever get one). pgdurable.Store is one.
type TxRenewer interface {
	// RenewTx is Renew, run in storeTx (what session.Tx.StoreTx returns). ok is false, and nothing is
	// done, when storeTx is not a transaction on the store's own database (then Renew is the way).
	RenewTx(ctx context.Context, storeTx any, id string, token int64, lease time.Duration) (ok bool, err error)
}

// ErrLeaseLost is returned by a Store's fenced writes when another worker has claimed the run since the
// token was issued: the writer must stop working on it.
var ErrLeaseLost = errors.New("durable: the run's lease was lost to another worker")

// ErrNotFound is returned for a run id the store does not hold.
var ErrNotFound = errors.New("durable: no such run")

// ErrStepExists is returned by Append when the run already has a checkpoint for that step.
var ErrStepExists = errors.New("durable: the step is already checkpointed")

// Store keeps runs and their checkpoints: NewMemoryStore in a process (tests, one worker),
// runtime/durable/pgdurable in PostgreSQL for a fleet. Implementations are safe for concurrent use.
type Store interface {
	// Create stores a new run (State Pending). created is false, and nothing changes, when a run with
	// that id exists.
	Create(ctx context.Context, r Record) (created bool, err error)
	// Claim takes one run that needs a worker (Pending; Running with its lease expired; Held with WakeAt
	// passed, or waking) for worker, for lease: it sets Owner, a new Token, LeaseUntil and State Running,
	// counts the attempt and returns the run. ok is false when no run needs a worker.
	Claim(ctx context.Context, worker string, lease time.Duration) (r Record, ok bool, err error)
	// Renew extends the lease of the claim with token (ErrLeaseLost when the run was claimed again).
	Renew(ctx context.Context, id string, token int64, lease time.Duration) error
	// Append writes a checkpoint for the claim with token (ErrLeaseLost when the run was claimed again;
	// a negative token skips the check: an orchestrator such as Temporal fences its own workers).
	// ErrStepExists when the step is already there.
	Append(ctx context.Context, id string, token int64, s Step) error
	// Release gives the run back (see Release) and ends the claim with token; the run is due again
	// rel.Delay after now on the store's clock.
	Release(ctx context.Context, id string, token int64, rel Release) error
	// Wake makes a held run claimable now.
	Wake(ctx context.Context, id string) error
	// Load returns the run and its checkpoints (ordered by turn, kind, index); ErrNotFound.
	Load(ctx context.Context, id string) (Record, []Step, error)
}

// MemoryStore is a Store in the process's memory: runs survive a worker (an Engine) but not the
// process. Now is its clock (nil: time.Now).
type MemoryStore struct {
	Now  func() time.Time
	mu   sync.Mutex
	runs map[string]*memRun
	seq  int64
}

type memRun struct {
	rec   Record
	steps []Step
	order int64
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{runs: map[string]*memRun{}} }

func (m *MemoryStore) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Create implements Store.
func (m *MemoryStore) Create(_ context.Context, r Record) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.runs == nil {
		m.runs = map[string]*memRun{}
	}
	if _, ok := m.runs[r.ID]; ok {
		return false, nil
	}
	now := m.now()
	r.State, r.Owner, r.Token, r.Attempts = Pending, "", 0, 0
	r.Input, r.Principal = slices.Clone(r.Input), slices.Clone(r.Principal)
	r.Created, r.Updated = now, now
	m.seq++
	m.runs[r.ID] = &memRun{rec: r, order: m.seq}
	return true, nil
}

// Claim implements Store.
func (m *MemoryStore) Claim(_ context.Context, worker string, lease time.Duration) (Record, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	var best *memRun
	for _, r := range m.runs {
		if !claimable(&r.rec, now) {
			continue
		}
		if best == nil || r.order < best.order {
			best = r
		}
	}
	if best == nil {
		return Record{}, false, nil
	}
	r := &best.rec
	r.State, r.Owner, r.Token = Running, worker, r.Token+1
	r.LeaseUntil, r.Attempts, r.Updated = now.Add(lease), r.Attempts+1, now
	return cloneRecord(*r), true, nil
}

func claimable(r *Record, now time.Time) bool {
	switch r.State {
	case Pending:
		return true
	case Running:
		return !now.Before(r.LeaseUntil)
	case Held:
		return !now.Before(r.WakeAt)
	}
	return false
}

func cloneRecord(r Record) Record {
	r.Input, r.Held, r.Result = slices.Clone(r.Input), slices.Clone(r.Held), slices.Clone(r.Result)
	r.Principal = slices.Clone(r.Principal)
	return r
}

func (m *MemoryStore) owned(id string, token int64) (*memRun, error) {
	r, ok := m.runs[id]
	if !ok {
		return nil, ErrNotFound
	}
	if token >= 0 && (r.rec.Token != token || r.rec.State != Running) {
		return nil, ErrLeaseLost
	}
	return r, nil
}

// Renew implements Store.
func (m *MemoryStore) Renew(_ context.Context, id string, token int64, lease time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.owned(id, token)
	if err != nil {
		return err
	}
	now := m.now()
	r.rec.LeaseUntil, r.rec.Updated = now.Add(lease), now
	return nil
}

// Append implements Store.
func (m *MemoryStore) Append(_ context.Context, id string, token int64, s Step) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.owned(id, token)
	if err != nil {
		return err
	}
	for _, o := range r.steps {
		if o.Kind == s.Kind && o.Turn == s.Turn && o.Index == s.Index {
			return ErrStepExists
		}
	}
	s.Data = slices.Clone(s.Data)
	s.Time = m.now()
	r.steps = append(r.steps, s)
	sortSteps(r.steps)
	return nil
}

// sortSteps orders checkpoints by turn, then kind (the model's response before its calls), then index.
func sortSteps(ss []Step) {
	sort.SliceStable(ss, func(i, j int) bool {
		a, b := ss[i], ss[j]
		if a.Turn != b.Turn {
			return a.Turn < b.Turn
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Index < b.Index
	})
}

// Release implements Store.
func (m *MemoryStore) Release(_ context.Context, id string, token int64, rel Release) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.owned(id, token)
	if err != nil {
		return err
	}
	now := m.now()
	wake := now.Add(max(rel.Delay, 0))
	r.rec.State, r.rec.Held, r.rec.WakeAt = rel.State, slices.Clone(rel.Held), wake
	r.rec.Result, r.rec.LastErr, r.rec.Updated = slices.Clone(rel.Result), rel.Err, now
	r.rec.LeaseUntil = wake // a Running run given back after an error is claimable at WakeAt
	return nil
}

// Wake implements Store.
func (m *MemoryStore) Wake(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.runs[id]
	if !ok {
		return ErrNotFound
	}
	if r.rec.State == Held {
		r.rec.WakeAt = time.Time{}
	}
	return nil
}

// Load implements Store.
func (m *MemoryStore) Load(_ context.Context, id string) (Record, []Step, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.runs[id]
	if !ok {
		return Record{}, nil, ErrNotFound
	}
	steps := make([]Step, len(r.steps))
	for i, s := range r.steps {
		s.Data = slices.Clone(s.Data)
		steps[i] = s
	}
	return cloneRecord(r.rec), steps, nil
}
