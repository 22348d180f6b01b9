package mcpserver

import (
	"context"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// Prompts and resources ask the client too. A Prompt's Get and a Resource's (or ResourceTemplate's) Read
// get, in their context, the client of the request: they ask with wink.Round (wink.NewRound(ctx)) or
// wink.Declared, exactly as a tool does. On 2026-07-28 a Get or Read whose round is not answered yet
// returns Wait's error (or any error: the server knows a round is waiting), and the server answers
// prompts/get or resources/read with an input-required result: the round's questions and a requestState
// signed for that prompt and its arguments (that resource's URI). The client sends the request again
// with its answers and the state, and Get or Read runs again from the start. On earlier revisions, on a
// session, the questions are sent to the client as requests while Get or Read waits.

// askingItems is the receiving middleware that gives prompts/get and resources/read their client.
func (s *server) askingItems(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		var subject, what, state string
		var args []byte
		var responses mcp.InputResponseMap
		switch r := req.(type) {
		case *mcp.GetPromptRequest:
			if r.Params == nil {
				return next(ctx, method, req)
			}
			subject, what = "prompts/get "+r.Params.Name, "prompt "+strconv.Quote(r.Params.Name)
			args = promptArgs(r.Params.Arguments)
			state, responses = r.Params.RequestState, r.Params.InputResponses
		case *mcp.ReadResourceRequest:
			if r.Params == nil {
				return next(ctx, method, req)
			}
			subject, what = "resources/read "+r.Params.URI, "resource "+strconv.Quote(r.Params.URI)
			args = emptyArgs
			state, responses = r.Params.RequestState, r.Params.InputResponses
		default:
			return next(ctx, method, req)
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if ss == nil {
			return next(ctx, method, req)
		}
		var st callState
		if state != "" {
			var err error
			if st, err = s.readState(subject, args, state); err != nil {
				return nil, invalidParams(what + ": " + err.Error())
			}
		}
		sc := s.clientFor(req, ss, st.answers, responses)
		ia := &itemAsk{s: s, subject: subject, what: what, args: args, sc: sc}
		ctx = context.WithValue(wink.WithClient(ctx, sc), itemAskKey{}, ia)
		return next(ctx, method, req)
	}
}

// itemAsk is what askingItems gives the handler of one prompts/get or resources/read.
type itemAsk struct {
	s             *server
	subject, what string
	args          []byte
	sc            *sessionClient
}

type itemAskKey struct{}

// itemAnswer is what a prompt's or resource's handler answers when Get or Read failed with err: a
// protocol error of the answers (-32602) or of a missing capability (-32021), or the input-required
// result's inputRequests and requestState when a round is waiting; ok is false when none applies (err
// is Get's or Read's own failure).
func itemAnswer(ctx context.Context, err error) (ir mcp.InputRequestMap, state string, perr error, ok bool) {
	ia, _ := ctx.Value(itemAskKey{}).(*itemAsk)
	if ia == nil || err == nil {
		return nil, "", nil, false
	}
	ia.sc.end() // Get or Read has returned: its goroutines ask nothing more
	if berr := ia.sc.badAnswers(ia.what); berr != nil {
		return nil, "", berr, true
	}
	if merr := missingCapability(ia.sc, wink.Outcome{}, nil); merr != nil {
		return nil, "", merr, true // -32021 on 2026-07-28 (capability.go)
	}
	if ir = ia.sc.inputRequests(); ir != nil {
		return ir, ia.s.encodeState(ia.subject, ia.args, callState{answers: ia.sc.answers, asked: ia.sc.askedKeys()}), nil, true
	}
	return nil, "", nil, false
}

// promptArgs is a prompt's arguments as a JSON object, keys sorted.
func promptArgs(m map[string]string) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = strictjson.AppendString(b, k)
		b = append(b, ':')
		b = strictjson.AppendString(b, m[k])
	}
	return append(b, '}')
}
