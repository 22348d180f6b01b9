package policy

import (
	"strings"

	"github.com/winkgen/wink/runtime/wink"
)

// composite holds the members of AllOf and AnyOf.
type composite struct {
	name    string
	members []wink.Policy
}

// OnResult forwards to every member, in order.
func (c *composite) OnResult(tc *wink.ToolContext, tool *wink.Tool, params any, out *wink.Outcome) {
	for _, m := range c.members {
		m.OnResult(tc, tool, params, out)
	}
}

// Name returns the name given to the constructor.
func (c *composite) Name() string { return c.name }

// AllOfPolicy allows a call when every member allows it; see AllOf.
type AllOfPolicy struct{ composite }

// AllOf returns a policy named name that allows a call only when every member
// does; the first denial (in member order) is its decision. A member that
// panics denies. OnResult reaches every member.
func AllOf(name string, members ...wink.Policy) *AllOfPolicy {
	return &AllOfPolicy{composite{name: name, members: members}}
}

// Check returns the first member denial, or allows.
func (p *AllOfPolicy) Check(tc *wink.ToolContext, tool *wink.Tool, params any) wink.Decision {
	for _, m := range p.members {
		if d := wink.CheckPolicy(m, tc, tool, params); !d.Allow {
			return d
		}
	}
	return wink.Allow()
}

// AnyOfPolicy allows a call when one member allows it; see AnyOf.
type AnyOfPolicy struct{ composite }

// AnyOf returns a policy named name that allows a call when at least one
// member does (members are checked in order until one allows; a member that
// panics denies). When every member denies, the reason is the members'
// reasons joined with "\nAlternatively: " and the suggestions are all the
// members' suggestions, in order. AnyOf with no members denies everything.
// OnResult reaches every member.
func AnyOf(name string, members ...wink.Policy) *AnyOfPolicy {
	return &AnyOfPolicy{composite{name: name, members: members}}
}

// Check allows on the first member that allows.
func (p *AnyOfPolicy) Check(tc *wink.ToolContext, tool *wink.Tool, params any) wink.Decision {
	var reasons, sugg []string
	for _, m := range p.members {
		d := wink.CheckPolicy(m, tc, tool, params)
		if d.Allow {
			return d
		}
		if d.Reason != "" {
			reasons = append(reasons, d.Reason)
		}
		sugg = append(sugg, d.Suggestions...)
	}
	return wink.Decision{Reason: strings.Join(reasons, "\nAlternatively: "), Suggestions: sugg}
}
