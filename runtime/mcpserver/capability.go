package mcpserver

import (
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// A call that needs a capability its client did not declare (wink.ToolContext.RequireClient, or Sample
// and Elicit, which need sampling and elicitation). On protocol 2026-07-28 the request is answered with
// the protocol error that revision defines for it, -32021 (HTTP 400 on streamable HTTP), its data
// {"requiredCapabilities":{"<capability>":{}}} naming every capability the call found missing; the
// handler's failure, which carries the same reason, is not sent. Earlier revisions have no such error:
// the call fails as a tool error saying which capability the client lacks.

// has reports whether the client declared capability.
func has(cc *mcp.ClientCapabilities, capability wink.Capability) bool {
	switch capability {
	case wink.CapSampling:
		return cc.Sampling != nil
	case wink.CapElicitation:
		return cc.Elicitation != nil
	case wink.CapRoots:
		//lint:ignore SA1019 roots is deprecated as of 2026-07-28 but is still a capability clients declare.
		return cc.RootsV2 != nil
	}
	return cc.Experimental[string(capability)] != nil || cc.Extensions[string(capability)] != nil
}

// Require is wink.CapabilityChecker: the first of caps the client did not declare, remembered for the
// -32021 answer.
func (c *sessionClient) Require(caps ...wink.Capability) error {
	for _, capability := range caps {
		if why := c.cannotAsk(capability); why != "" {
			return wink.NotAvailable(string(capability), why)
		}
	}
	return nil
}

// missingCapability is the -32021 error of a 2026-07-28 call that failed for want of a client
// capability; nil otherwise.
func missingCapability(sc *sessionClient, out wink.Outcome, derr error) error {
	if sc == nil || !sc.mrtr || len(sc.missing) == 0 || derr != nil || out.Success {
		return nil
	}
	b := []byte(`{"requiredCapabilities":{`)
	for i, capability := range sc.missing {
		if i > 0 {
			b = append(b, ',')
		}
		b = strictjson.AppendString(b, string(capability))
		b = append(b, ":{}"...)
	}
	b = append(b, "}}"...)
	msg := "the client did not declare the capabilities this request needs: " + string(sc.missing[0])
	for _, capability := range sc.missing[1:] {
		msg += ", " + string(capability)
	}
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: msg, Data: b}
}
