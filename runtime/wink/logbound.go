package wink

import (
	"sync"
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
// each. A trim copies the surviving entries (session.Replace: one pointer, or one PolicyChecked, each,
// twice), so dropping half at a time costs about one entry copied per call, amortised; dropping an
// eighth cost seven (BenchmarkDispatchSearchTxn/txn_one_session, one session for the whole run: 1,535
// B allocated per call dropping half, 2,839 B dropping an eighth, 1,267 B keeping every entry), and
// trimming to exactly the limit would copy the whole log on every call once it is full. The newest
// entry is always kept, so a single event larger than Bytes is the one case a log exceeds it.
//
// Sizes are estimates, not measurements: the runtime cannot size the decoded params and result value
// without reflection, so an event counts its struct, its texts, and the params and value as the sizes
// of the arguments and output texts they were decoded from and rendered to (ToolInvokedSize). That is within
// a small factor of what the event really holds for the params and results tools have.
//
// The bookkeeping (entries and bytes per log) lives in the session itself, in a LOG slice holding one
// *logAccount, made once per session under the session's lock (session.Replace), so it is neither
// rolled back nor shared between sessions, and it is freed with the session: a table beside the
// sessions would need weak keys. The log's own head is never viewed by the bookkeeping, so appends
// keep growing it in place (session.Append's fast path). The counts are exact for what the dispatcher
// appends; anything else changing a log (a user's Clear or Append) is corrected at the next trim, which
// recounts what it keeps.
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

// logCount is what a session's log holds, as its bound counts it.
type logCount struct {
	entries int
	bytes   int64
}

// logAccount is one session's bookkeeping for ToolLog and PolicyLog; mu serialises the dispatcher's
// appends to them, so a count and its log change together.
type logAccount struct {
	mu     sync.Mutex
	tool   logCount
	policy logCount
}

// logAccounts is the session slice holding the session's one *logAccount (a LOG slice: never rolled
// back; no codec: never stored).
var logAccounts = session.NewSlice[*logAccount]("wink.log_bounds", session.NoRollback)

// accountOf returns s's log account, making it on first use.
func accountOf(s *session.Session) *logAccount {
	if a, ok := session.Latest(s, logAccounts); ok {
		return a
	}
	var a *logAccount
	session.Replace(s, logAccounts, func(items []*logAccount) []*logAccount {
		if len(items) > 0 {
			a = items[len(items)-1]
			return items
		}
		a = &logAccount{}
		return []*logAccount{a}
	})
	return a
}

// appendToolLog appends ev to s's ToolLog within d's limits.
func (d *Dispatcher) appendToolLog(s *session.Session, ev *ToolInvoked) {
	entries, bytes := d.LogLimits.resolved()
	if entries < 0 && bytes < 0 {
		session.Append(s, ToolLog, ev)
		return
	}
	a := accountOf(s)
	a.mu.Lock()
	appendBounded(s, ToolLog, ev, ToolInvokedSize(ev), ToolInvokedSize, &a.tool, entries, bytes)
	a.mu.Unlock()
}

// appendPolicyLog appends pc to s's PolicyLog within d's limits.
func (d *Dispatcher) appendPolicyLog(s *session.Session, pc PolicyChecked) {
	entries, bytes := d.LogLimits.resolved()
	if entries < 0 && bytes < 0 {
		session.Append(s, PolicyLog, pc)
		return
	}
	a := accountOf(s)
	a.mu.Lock()
	appendBounded(s, PolicyLog, pc, PolicyCheckedSize(pc), PolicyCheckedSize, &a.policy, entries, bytes)
	a.mu.Unlock()
}

// appendBounded appends v (of the given size) to sl and trims sl when c, its count, goes past a
// limit (negative: none). The caller holds the account's lock.
func appendBounded[T any](s *session.Session, sl session.Slice[T], v T, size int64, sizeOf func(T) int64, c *logCount, entries int, bytes int64) {
	session.Append(s, sl, v)
	c.entries++
	c.bytes += size
	if (entries < 0 || c.entries <= entries) && (bytes < 0 || c.bytes <= bytes) {
		return
	}
	keepEntries, keepBytes := -1, int64(-1)
	if entries >= 0 {
		keepEntries = max(entries/2, 1)
	}
	if bytes >= 0 {
		keepBytes = bytes / 2
	}
	session.Replace(s, sl, func(items []T) []T {
		first := len(items)
		var held int64
		for first > 0 {
			sz := sizeOf(items[first-1])
			n := len(items) - first
			if n > 0 && ((keepEntries >= 0 && n+1 > keepEntries) || (keepBytes >= 0 && held+sz > keepBytes)) {
				break
			}
			held += sz
			first--
		}
		c.entries, c.bytes = len(items)-first, held
		clear(items[:first]) // the dropped entries are not referenced by the copy Replace keeps
		return items[first:]
	})
}
