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
		res, err := next(wink.WithClient(ctx, sc), method, req)
		if berr := sc.badAnswers(what); berr != nil {
			return nil, berr
		}
		if err == nil {
			return res, nil
		}
		if merr := missingCapability(sc, wink.Outcome{}, nil); merr != nil {
			return nil, merr // -32021 on 2026-07-28 (capability.go)
		}
		if ir := sc.inputRequests(); ir != nil {
			rs := s.encodeState(subject, args, callState{answers: sc.answers, asked: sc.askedKeys()})
			if _, ok := req.(*mcp.GetPromptRequest); ok {
				return &mcp.GetPromptResult{InputRequests: ir, RequestState: rs}, nil
			}
			return &mcp.ReadResourceResult{InputRequests: ir, RequestState: rs}, nil
		}
		return res, err
	}
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
