package wink

import (
	"strconv"
	"time"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
)

// Policy governs calls before their handler runs (Check, step 4) and learns
// from their successes (OnResult, step 9). Built-ins live in runtime/policy.
//
// A policy keeps its state in its own session STATE slice (declared once, when
// the policy is constructed), so a rolled-back call rolls the policy's state
// back too. Check must not change state: it runs before the call's snapshot.
type Policy interface {
	// Name identifies the policy in PolicyChecked events and denials.
	Name() string
	// Check decides whether the call may run. params is the decoded params
	// value (the tool's P). A panic denies the call (fail-closed).
	Check(tc *ToolContext, tool *Tool, params any) Decision
	// OnResult runs after a successful handler (and for a replayed
	// idempotent call). It may edit out; setting out.Success to false fails
	// the call, which is then rolled back. A panic fails the call.
	OnResult(tc *ToolContext, tool *Tool, params any, out *Outcome)
}

// Decision is a policy's verdict on one call.
type Decision struct {
	// Allow lets the call proceed.
	Allow bool
	// Reason says why a call is denied, in words the model can act on.
	Reason string
	// Suggestions list what the model can do instead; each becomes a
	// "- suggestion" line after the reason.
	Suggestions []string
	// Hold (with Allow false) holds the call for a person's approval:
	// nothing runs, the model is not answered, and Dispatch returns a
	// *HeldError naming the call, so that the caller (the agent loop) can
	// ask for a decision and dispatch the call again once it is recorded
	// (policy.RequireApproval).
	Hold bool
}

// Hold returns the Decision holding a call for approval, with reason.
func Hold(reason string) Decision { return Decision{Reason: reason, Hold: true} }

// Allow returns the allowing Decision.
func Allow() Decision { return Decision{Allow: true} }

// Deny returns a denying Decision with reason and suggestions.
func Deny(reason string, suggestions ...string) Decision {
	return Decision{Reason: reason, Suggestions: suggestions}
}

// PolicyChecked is recorded in the session's PolicyLog for every policy
// decision the dispatcher obtains (step 4), allowing or not.
type PolicyChecked struct {
	// Tool is the name of the tool called.
	Tool string
	// CallID is the provider's call id.
	CallID string
	// Policy is the policy's Name.
	Policy string
	// Allowed reports the decision.
	Allowed bool
	// Reason is the denial's reason (empty when allowed).
	Reason string
	// Time is when the call being decided started (Dispatcher.Now, or the wall clock).
	Time time.Time
}

// PolicyLog is the session LOG slice of PolicyChecked events, the newest
// within Dispatcher.LogLimits (DefaultLogEntries, DefaultLogBytes). It is packed
// (session.WithPacking): the log keeps each decision in about 30 bytes the
// garbage collector does not scan, and reads give back every field as it was
// appended (Time with its monotonic reading and location; a group of 32 with
// a Time in a location other than UTC or the program's starting time.Local is
// kept as values).
var PolicyLog = session.NewSlice[PolicyChecked]("policy_checked", session.NoRollback,
	session.WithPacking[PolicyChecked](policyPacking{})) // policylog_pack.go

// ToolLog is the session LOG slice of ToolInvoked events, one per call (the
// same pointer Dispatcher.Events receives; do not modify it), the newest
// within Dispatcher.LogLimits (DefaultLogEntries, DefaultLogBytes): a
// long-lived session keeps its latest calls, not all of them. Keep every
// event through Dispatcher.Events, or set LogLimits to KeepAllLogs.
var ToolLog = session.NewSlice[*ToolInvoked]("tool_invoked", session.NoRollback)

// CheckPolicy runs p.Check and turns a panic into a denial (fail-closed):
// `Policy "<name>" failed while checking the call to tool "<tool>": <panic>`.
// Composite policies use it for their members.
func CheckPolicy(p Policy, tc *ToolContext, tool *Tool, params any) Decision {
	dec, _ := checkPolicy(p, tc, tool, params)
	return dec
}

// checkPolicy is CheckPolicy that also returns p.Name() ("" when it
// panicked), so that the dispatcher asks for it once.
func checkPolicy(p Policy, tc *ToolContext, tool *Tool, params any) (dec Decision, name string) {
	defer func() {
		if pv := recover(); pv != nil {
			dec = Decision{Reason: "Policy " + strconv.Quote(name) + " failed while checking the call to tool " +
				strconv.Quote(tool.Name()) + ": " + PanicText(pv)}
		}
	}()
	name = p.Name()
	return p.Check(tc, tool, params), name
}

// policies runs the section policies, then the prompt policies, recording a
// PolicyChecked per decision; the first denial wins and is returned. start
// is the call's start on the dispatcher's clock (zero when not read).
func (d *Dispatcher) policies(tc *ToolContext, t *Tool, params any, start time.Time) *Denial {
	if d.SectionPolicies != nil {
		if den := d.checkAll(d.SectionPolicies(t), tc, t, params, start); den != nil {
			return den
		}
	}
	return d.checkAll(d.Policies, tc, t, params, start)
}

// checkAll checks ps in order; see policies.
func (d *Dispatcher) checkAll(ps []Policy, tc *ToolContext, t *Tool, params any, start time.Time) *Denial {
	for _, p := range ps {
		dec, name := checkPolicy(p, tc, t, params)
		if d.Session != nil {
			// Time is the call's start: decisions take microseconds, and reading the clock per decision
			// was a measurable part of a dispatch with policies.
			at := start
			if at.IsZero() {
				at = d.now()
			}
			d.appendPolicyLog(d.Session, PolicyChecked{Tool: t.Name(), CallID: tc.CallID, Policy: name,
				Allowed: dec.Allow, Reason: dec.Reason, Time: at})
		}
		if !dec.Allow {
			return &Denial{Policy: name, Reason: dec.Reason, Suggestions: dec.Suggestions, held: dec.Hold}
		}
	}
	return nil
}

// onResult runs every policy's OnResult (section policies first).
func (d *Dispatcher) onResult(tc *ToolContext, t *Tool, params any, out *Outcome) {
	if d.SectionPolicies != nil {
		for _, p := range d.SectionPolicies(t) {
			p.OnResult(tc, t, params, out)
		}
	}
	for _, p := range d.Policies {
		p.OnResult(tc, t, params, out)
	}
}

// hasPolicies reports whether any policy may apply.
func (d *Dispatcher) hasPolicies() bool { return d.SectionPolicies != nil || len(d.Policies) > 0 }

// EncodeParams appends the canonical JSON encoding of params (the tool's P,
// as the dispatcher hands it to policies) to dst. ok is false when params is
// not a P or the tool has no params encoder.
func (t *Tool) EncodeParams(dst []byte, params any) (b []byte, ok bool) {
	return t.impl.encodeParams(dst, params)
}

// ParamString returns the first of the named top-level params fields that is
// a JSON string, decoded, read from the canonical JSON encoding of params
// (no reflection). Policies use it to read fields such as "path".
func (t *Tool) ParamString(params any, names ...string) (string, bool) {
	b, ok := t.EncodeParams(nil, params)
	if !ok {
		return "", false
	}
	for _, n := range names {
		raw, ok := JSONField(b, n)
		if !ok || len(raw) == 0 || raw[0] != '"' {
			continue
		}
		var dec strictjson.Decoder
		dec.Reset(raw, strictjson.Limits{})
		if s, ok := dec.String(); ok && dec.Finish() == nil {
			return s, true
		}
	}
	return "", false
}

// JSONField returns the raw JSON value of the top-level member name of the
// JSON object obj (the first one, if duplicated); ok is false when obj is not
// a valid object or has no such member. It is strictjson.Member.
func JSONField(obj []byte, name string) (raw []byte, ok bool) { return strictjson.Member(obj, name) }
