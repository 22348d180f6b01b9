package wink

// Capability names a capability an MCP client declares (the member of its ClientCapabilities):
// what a handler needs of the client to do its work.
type Capability string

// The client capabilities a handler can need.
const (
	CapSampling    Capability = "sampling"
	CapElicitation Capability = "elicitation"
	CapRoots       Capability = "roots"
)

// CapabilityChecker is implemented by a Client that knows what its caller declared (the MCP server's
// does). Require reports, as an error matching ErrNotAvailable, the first of caps the caller did not
// declare, and remembers it: an MCP server answering protocol 2026-07-28 then answers the whole request
// with the protocol error that revision defines (-32021, missing required client capability, naming the
// capability) instead of a tool result; earlier revisions, which have no such error, get the tool's
// failure as before.
type CapabilityChecker interface {
	Require(caps ...Capability) error
}

// RequireClient declares that the call needs caps of its client. It returns nil when the client declared
// them all; else an error matching ErrNotAvailable, which the handler returns as its error (on MCP
// 2026-07-28 the caller gets -32021 naming the missing capability, see CapabilityChecker). A client that
// cannot tell (not an MCP server's) is taken at its word: nil. Without a client it is the error Sample
// gives. Sample and Elicit check their own capability the same way; RequireClient lets a handler refuse
// before it does anything, or declare several needs at once.
func (tc *ToolContext) RequireClient(caps ...Capability) error {
	c := tc.client()
	if c == nil {
		if len(caps) == 0 {
			return nil
		}
		return notAvailable(string(caps[0]), "no client is connected to this call")
	}
	if cc, ok := c.(CapabilityChecker); ok {
		return cc.Require(caps...)
	}
	return nil
}
