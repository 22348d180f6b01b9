package wink

import (
	"math"
	"strconv"
	"sync/atomic"
)

// BudgetLimits are token limits; zero means unlimited.
type BudgetLimits struct {
	// MaxInputTokens bounds the input (prompt) tokens of the run.
	MaxInputTokens int64
	// MaxOutputTokens bounds the output (completion) tokens of the run.
	MaxOutputTokens int64
	// MaxTotalTokens bounds input plus output tokens.
	MaxTotalTokens int64
}

// TokenUsage counts tokens.
type TokenUsage struct {
	// Input counts input (prompt) tokens.
	Input int64
	// Output counts output (completion) tokens.
	Output int64
	// Total is Input + Output.
	Total int64
}

// Budget tracks the tokens a run consumes against BudgetLimits. It is safe
// for concurrent use. A nil *Budget has no limits and records nothing, so
// code can use tc.Budget() without checking it.
//
// Tokens once consumed stay consumed: a Budget is not part of any
// transaction, and a rolled-back tool call does not give tokens back.
type Budget struct {
	limits BudgetLimits
	in     atomic.Int64
	out    atomic.Int64
}

// NewBudget returns a tracker with the given limits and nothing consumed.
// Negative limits are treated as zero (unlimited).
func NewBudget(l BudgetLimits) *Budget {
	l.MaxInputTokens = max(l.MaxInputTokens, 0)
	l.MaxOutputTokens = max(l.MaxOutputTokens, 0)
	l.MaxTotalTokens = max(l.MaxTotalTokens, 0)
	return &Budget{limits: l}
}

// Limits returns the tracker's limits.
func (b *Budget) Limits() BudgetLimits {
	if b == nil {
		return BudgetLimits{}
	}
	return b.limits
}

// Consume records input and output tokens (negative counts are ignored) and
// returns a *BudgetExceededError when, after recording them, a limit is
// exceeded (used > limit). The tokens are recorded either way: they were
// spent.
func (b *Budget) Consume(input, output int64) error {
	if b == nil {
		return nil
	}
	var in, out int64
	if input > 0 {
		in = b.in.Add(input)
	} else {
		in = b.in.Load()
	}
	if output > 0 {
		out = b.out.Add(output)
	} else {
		out = b.out.Load()
	}
	return b.check(TokenUsage{Input: in, Output: out, Total: in + out})
}

// Used returns the tokens consumed so far.
func (b *Budget) Used() TokenUsage {
	if b == nil {
		return TokenUsage{}
	}
	in, out := b.in.Load(), b.out.Load()
	return TokenUsage{Input: in, Output: out, Total: in + out}
}

// Remaining returns, per dimension, the tokens left before the limit
// (never negative); an unlimited dimension reports math.MaxInt64.
func (b *Budget) Remaining() TokenUsage {
	u := b.Used()
	l := b.Limits()
	return TokenUsage{
		Input:  remaining(l.MaxInputTokens, u.Input),
		Output: remaining(l.MaxOutputTokens, u.Output),
		Total:  remaining(l.MaxTotalTokens, u.Total),
	}
}

// remaining is limit-used clamped at zero, MaxInt64 for no limit.
func remaining(limit, used int64) int64 {
	if limit == 0 {
		return math.MaxInt64
	}
	return max(limit-used, 0)
}

// Exceeded reports whether a limit is exceeded (used > limit).
func (b *Budget) Exceeded() bool {
	return b.check(b.Used()) != nil
}

// Err returns the *BudgetExceededError for the first exceeded limit (total,
// then input, then output), or nil.
func (b *Budget) Err() error { return b.check(b.Used()) }

// check compares u with the limits.
func (b *Budget) check(u TokenUsage) error {
	if b == nil {
		return nil
	}
	l := b.limits
	switch {
	case l.MaxTotalTokens > 0 && u.Total > l.MaxTotalTokens:
		return &BudgetExceededError{Kind: "total", Limit: l.MaxTotalTokens, Used: u.Total}
	case l.MaxInputTokens > 0 && u.Input > l.MaxInputTokens:
		return &BudgetExceededError{Kind: "input", Limit: l.MaxInputTokens, Used: u.Input}
	case l.MaxOutputTokens > 0 && u.Output > l.MaxOutputTokens:
		return &BudgetExceededError{Kind: "output", Limit: l.MaxOutputTokens, Used: u.Output}
	}
	return nil
}

// BudgetExceededError reports an exceeded token limit.
type BudgetExceededError struct {
	// Kind is "total", "input" or "output".
	Kind string
	// Limit is the limit that was exceeded.
	Limit int64
	// Used is the tokens used in that dimension.
	Used int64
}

// Error returns "token budget exceeded: 1200 total tokens used, limit 1000".
func (e *BudgetExceededError) Error() string {
	return "token budget exceeded: " + strconv.FormatInt(e.Used, 10) + " " + e.Kind +
		" tokens used, limit " + strconv.FormatInt(e.Limit, 10)
}

// Is makes errors.Is(err, ErrBudgetExceeded) match.
func (e *BudgetExceededError) Is(target error) bool { return target == ErrBudgetExceeded }
