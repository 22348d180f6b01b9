package wink

import (
	"unsafe"

	"github.com/winkgen/wink/runtime/session"
)

// Bounded logs: the design notes.
//
// ToolLog and PolicyLog are LOG slices of the session, appended to on every call and never rolled back,
// so a session that makes calls for weeks (a stdio server in a desktop host, a long-lived MCP session)
// would keep every call's arguments and output for ever. Each log therefore has a bound, in entries
// and in bytes (Dispatcher.LogLimits, DefaultLogEntries and DefaultLogBytes per log when left zero):
// when an append takes a log past either, its oldest entries are dropped until it holds at most half of
// each. A trim copies no entry (session.AppendBounded drops the leaves of the log's trie that hold
// dropped entries only and renumbers the rest): a session making calls for ever allocates per call
// what a short one does (BenchmarkDispatchSearchTxn: 882 B per call for txn_one_session, one session
// for the whole run, against 880 for txn; it was 1,367 when a trim copied the surviving half twice).
// Dropping half at a time keeps the trims rare (one per half-bound of calls); trimming to exactly the
// limit would trim on every call once the log is full. The newest entry is always kept, so a single
// event larger than Bytes is the one case a log exceeds it.
//
// Sizes are estimates, not measurements: the runtime cannot size the decoded params and result value
// without reflection, so an event counts its struct, its texts, and the params and value as the sizes
// of the arguments and output texts they were decoded from and rendered to (ToolInvokedSize). That is within
// a small factor of what the event really holds for the params and results tools have.
//
// The bookkeeping lives in the session itself (session.AppendBounded): the entries are the log's
// length, and the bytes are counted in the session's table of slice heads beside the log's head, so
// the append, the count and a trim are one step under the session's lock, with no lookup and no lock
// of the dispatcher's own (an account kept in a session slice of its own cost a lookup and two locks
// per append, about a tenth of a dispatch in a transaction). The count is neither rolled back nor
// shared between sessions, and it is freed with the session. The counts are exact for what the
// dispatcher appends; a user's Seed or Replace of a log makes the next append recount it, a user's
// Append is counted at the next trim, which recounts what it keeps.
//
// What reads the logs: no built-in policy or reducer does. read_before_write and sequential_dependency
// keep their own STATE slices (the paths read or written, the prerequisites done: bounded by the files
// and tools there are, not by calls), approvals their own stored LOG slice (policy.ApprovalSlice, one
// entry per decision, kept whole so that a decided call is never run twice), and the MCP server reads
// only that. A program that needs every event keeps them itself through Dispatcher.Events (sending
// them to a store, a file or a tracer), or sets LogLimits to KeepAllLogs.

// DefaultLogEntries and DefaultLogBytes bound each of ToolLog and PolicyLog when
// Dispatcher.LogLimits leaves them zero: 1000 entries and 1 MiB (estimated, see
// ToolInvokedSize) per log and session, about 2 MiB per session for both at most.
const (
	DefaultLogEntries = 1000
	DefaultLogBytes   = 1 << 20
)

// LogLimits bounds the session LOG slices the dispatcher appends to (ToolLog and
// PolicyLog, each on its own). When an append takes a log past either limit, its
// oldest entries are dropped until it holds at most half of both (so a full log
// holds the newest half to all of its limit); the newest entry is always kept. Dropped entries are gone from the session only: Events
// receives every ToolInvoked.
type LogLimits struct {
	// Entries is the most entries a log holds: 0 means DefaultLogEntries, a
	// negative value no limit.
	Entries int
	// Bytes is the most bytes a log holds, by the estimates of ToolInvokedSize and
	// PolicyCheckedSize: 0 means DefaultLogBytes, a negative value no limit.
	Bytes int64
}

// KeepAllLogs is the LogLimits that keep every entry (memory grows with every
// call: for tests, short sessions, or a session whose log is the product).
var KeepAllLogs = LogLimits{Entries: -1, Bytes: -1}

// resolved returns the limits with the defaults applied; negative means none.
func (l LogLimits) resolved() (entries int, bytes int64) {
	entries, bytes = l.Entries, l.Bytes
	if entries == 0 {
		entries = DefaultLogEntries
	}
	if bytes == 0 {
		bytes = DefaultLogBytes
	}
	return entries, bytes
}

var (
	eventOverhead  = int64(unsafe.Sizeof(ToolInvoked{})) + int64(unsafe.Sizeof(uintptr(0))) // the struct and its slot
	policyOverhead = int64(unsafe.Sizeof(PolicyChecked{}))
)

// ToolInvokedSize is the size ToolLog's bound counts for ev: its struct, its texts
// (name, call id, message, output, stack, idempotency key), and its decoded
// Params and Value counted as the sizes of the arguments and output texts they
// were decoded from and rendered to (twice len(Arguments), twice len(Output)).
func ToolInvokedSize(ev *ToolInvoked) int64 {
	if ev == nil {
		return 0
	}
	return eventOverhead + int64(len(ev.Name)+len(ev.CallID)+2*len(ev.Arguments)+len(ev.Message)+
		2*len(ev.Output)+len(ev.Stack)+len(ev.IdempotencyKey))
}

// PolicyCheckedSize is the size PolicyLog's bound counts for pc: its struct
// and its texts.
func PolicyCheckedSize(pc PolicyChecked) int64 {
	return policyOverhead + int64(len(pc.Tool)+len(pc.CallID)+len(pc.Policy)+len(pc.Reason))
}

// appendToolLog appends ev to s's ToolLog within d's limits.
func (d *Dispatcher) appendToolLog(s *session.Session, ev *ToolInvoked) {
	entries, bytes := d.LogLimits.resolved()
	if entries < 0 && bytes < 0 {
		session.Append(s, ToolLog, ev)
		return
	}
	session.AppendBounded(s, ToolLog, ev, ToolInvokedSize(ev), session.Bound{Entries: entries, Bytes: bytes}, ToolInvokedSize)
}

// appendPolicyLog appends pc to s's PolicyLog within d's limits.
func (d *Dispatcher) appendPolicyLog(s *session.Session, pc PolicyChecked) {
	entries, bytes := d.LogLimits.resolved()
	if entries < 0 && bytes < 0 {
		session.Append(s, PolicyLog, pc)
		return
	}
	session.AppendBounded(s, PolicyLog, pc, PolicyCheckedSize(pc), session.Bound{Entries: entries, Bytes: bytes}, PolicyCheckedSize)
}
