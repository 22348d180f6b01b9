package tasks

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// Status is a task's status, as the tasks extension names it on the wire.
type Status string

// The statuses. Completed, Failed and Cancelled are terminal: a terminal task never changes again.
const (
	Working       Status = "working"
	InputRequired Status = "input_required"
	Completed     Status = "completed"
	Failed        Status = "failed"
	Cancelled     Status = "cancelled"
)

// Terminal reports whether s is completed, failed or cancelled.
func (s Status) Terminal() bool { return s == Completed || s == Failed || s == Cancelled }

// Task is one task: a tool call that runs apart from the request that started it.
type Task struct {
	ID        string
	Tool      string // the tool's name
	Arguments []byte // the call's arguments, JSON, as the client sent them
	// Carried is what the runner carries from the request into the task, opaque to the store (the MCP
	// server keeps there the answers a client gave before the task was created).
	Carried []byte
	// Principal is who the task acts for: the caller's principal when the task was created (subject,
	// issuer, client id, scopes, expiry; never the token nor its claims), nil for a caller without
	// one. Every worker that runs the task, after a takeover too, runs it for this principal.
	Principal *wink.Principal
	// Session is the MCP session id (Mcp-Session-Id) of the client that created the task, "" for a
	// stateless request or stdio; a server with a session factory runs the task on that session's
	// dispatcher.
	Session string
	Status  Status
	Created time.Time
	Updated time.Time
	// TTL is how long the task is kept after it was created; 0: until Prune is told otherwise.
	TTL time.Duration
	// Pending are the input requests the task waits for (status input_required), by key; Answers the
	// answers given to earlier ones. A key is never reused within a task.
	Pending map[string][]byte
	Answers map[string][]byte
	// Result is the terminal payload: the tool's result (Completed) or the protocol error (Failed), JSON.
	Result []byte
	// Owner, Token and LeaseUntil are the claim of the worker running the task: Token grows with every
	// claim and fences the writes of a worker whose lease was taken over.
	Owner      string
	Token      int64
	LeaseUntil time.Time
	Attempts   int
}

// Errors of a Store.
var (
	// ErrNotFound: no task has this id (never created, or pruned after its TTL).
	ErrNotFound = errors.New("tasks: no task with this id")
	// ErrLost: the worker's claim was taken over (its lease ran out); it must stop running the task.
	ErrLost = errors.New("tasks: the claim on the task was lost to another worker")
	// ErrExists: Create was given an id already used.
	ErrExists = errors.New("tasks: a task with this id exists")
)

// Store keeps tasks where every worker of a fleet sees them. MemoryStore keeps them in one process,
// pgtasks.Store in PostgreSQL. Every method is safe for concurrent use.
type Store interface {
	// Create records t (Status Working) claimed by worker for lease, and returns once the task is
	// durable: a Get from any worker finds it. It returns the claim's token.
	Create(ctx context.Context, t Task, worker string, lease time.Duration) (token int64, err error)
	// Get returns the task; ErrNotFound when there is none.
	Get(ctx context.Context, id string) (Task, error)
	// Claim takes a non-terminal task whose lease ran out (its worker died), with a new token; ok is
	// false when there is none.
	Claim(ctx context.Context, worker string, lease time.Duration) (t Task, ok bool, err error)
	// Renew extends the claim and returns the task's status (Cancelled: stop the handler). ErrLost when
	// token is no longer the task's.
	Renew(ctx context.Context, id string, token int64, lease time.Duration) (Status, error)
	// Ask adds an input request under key (status input_required). When key was answered already (a
	// worker that took the task over asks again) it returns the answer and changes nothing.
	Ask(ctx context.Context, id string, token int64, key string, request []byte) (answer []byte, answered bool, err error)
	// Answer records the client's answers to pending requests; keys that are not pending are ignored.
	// The task is working again once nothing is pending. A terminal task is left as it is.
	Answer(ctx context.Context, id string, answers map[string][]byte) error
	// Finish ends the task with status (Completed or Failed) and payload, fenced by token; done is false
	// when the task was already terminal (cancelled meanwhile), and then nothing changes.
	Finish(ctx context.Context, id string, token int64, status Status, payload []byte) (done bool, err error)
	// Cancel makes a non-terminal task Cancelled; a terminal task is left as it is.
	Cancel(ctx context.Context, id string) error
	// Prune removes the tasks whose TTL has passed and returns how many.
	Prune(ctx context.Context) (int, error)
}

// NewID returns a fresh task id: 128 random bits, URL-safe base64 (no client names a task).
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
