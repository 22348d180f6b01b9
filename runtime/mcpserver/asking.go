package mcpserver

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/wink"
)

// Ask is wink.Asker: the questions of one wink.Round. Every capability the round needs is checked first
// (each one the client did not declare is remembered for -32021, capability.go). On 2026-07-28 the round
// travels in one input-required result (inputrequired.go); on earlier revisions each question is sent to
// the client as its own request, one after the other, on the calling session.
func (c *sessionClient) Ask(ctx context.Context, qs []*wink.Question) error {
	var first error
	for _, q := range qs {
		what := q.Kind.Capability()
		if why := c.cannotAsk(what); why != "" && first == nil {
			first = wink.NotAvailable(string(what), why)
		}
	}
	if first != nil {
		return first
	}
	reqs := make([]mcp.InputRequest, len(qs))
	for i, q := range qs {
		r, err := inputRequest(q)
		if err != nil {
			return errors.New("question " + q.Key + ": " + err.Error())
		}
		reqs[i] = r
	}
	if !c.lockLive() {
		return wink.NotAvailable(string(qs[0].Kind.Capability()), callEnded)
	}
	if c.mrtr {
		defer c.mu.Unlock()
		return c.askRound(qs, reqs)
	}
	c.mu.Unlock()
	for i, q := range qs {
		// A key names one question for the whole request at every revision: asked again, it has its answer.
		if !c.lockLive() {
			return wink.NotAvailable(string(q.Kind.Capability()), callEnded)
		}
		a, ok, err := c.lookup(q.Key, q.Kind)
		c.mu.Unlock()
		if err != nil {
			return err
		} else if ok {
			fill(q, a)
			continue
		}
		switch r := reqs[i].(type) {
		case *mcp.ElicitParams:
			action, content, err := c.Elicit(ctx, r.Message, q.Schema)
			if err != nil {
				return err
			}
			q.Action, q.Content = action, content
		case *mcp.CreateMessageParams:
			res, err := c.Sample(ctx, q.Sample)
			if err != nil {
				return err
			}
			q.Sampled = res
		case *mcp.ListRootsParams:
			res, err := c.ss.ListRoots(ctx, r)
			if err != nil {
				return err
			}
			a, err := inputAnswer(q.Key, wink.AskRoots, res)
			if err != nil {
				return err
			}
			q.Roots = a.roots
		}
		q.Answered = true
		if !c.lockLive() {
			return wink.NotAvailable(string(q.Kind.Capability()), callEnded)
		}
		c.answers = append(c.answers, answer{key: q.Key, kind: q.Kind, action: q.Action, content: q.Content, sample: q.Sampled, roots: q.Roots})
		c.mu.Unlock()
	}
	return nil
}

// inputRequest is the MCP request that asks q.
func inputRequest(q *wink.Question) (mcp.InputRequest, error) {
	switch q.Kind {
	case wink.AskElicitation:
		return &mcp.ElicitParams{Mode: "form", Message: q.Message, RequestedSchema: rawJSON(q.Schema)}, nil
	case wink.AskSampling:
		return sampleParams(q.Sample)
	case wink.AskRoots:
		return &mcp.ListRootsParams{}, nil
	}
	return nil, errors.New("unknown question kind " + q.Kind.String())
}

// Declared is wink.Declarer: whether the client declared capability, remembering nothing.
func (c *sessionClient) Declared(capability wink.Capability) bool {
	ip := c.ss.InitializeParams()
	return ip != nil && ip.Capabilities != nil && has(ip.Capabilities, capability)
}
