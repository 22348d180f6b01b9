package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An answer to a form (wink.Elicit) is judged by the form's generated decoder, which reports every
// problem with its JSON path in winkgen's words, as the decoder of a tool's arguments does. The SDK's
// ServerSession.Elicit validates an accepted answer against the requested schema itself first and
// returns only its validator's first complaint, in other words. keepAnswer, a sending middleware, keeps
// the answer as the client sent it for the Elicit that asked (keptAnswerKey in its context) and hands the
// SDK the result without content, which the SDK returns unvalidated.

// keptAnswerKey marks the context of an Elicit whose answer keepAnswer keeps.
type keptAnswerKey struct{}

// keptAnswer is the content of an accepted answer, as the client sent it.
type keptAnswer struct {
	content map[string]any
	set     bool
}

// keepAnswer is the sending middleware described above; other requests pass through untouched.
func keepAnswer(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		kept, _ := ctx.Value(keptAnswerKey{}).(*keptAnswer)
		r, ok := res.(*mcp.ElicitResult)
		if err != nil || kept == nil || !ok || r == nil || r.Content == nil {
			return res, err
		}
		kept.content, kept.set = r.Content, true
		cp := *r
		cp.Content = nil
		return &cp, nil
	}
}
