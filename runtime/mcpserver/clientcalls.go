package mcpserver

import (
	"context"
	"errors"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// sessionClient is the wink.Client of one tools/call: the MCP session that
// sent it. Handlers reach it through ToolContext.Log, ToolContext.Sample and
// wink.Elicit.
//
// On protocol 2026-07-28, which forbids server requests while a request is
// served, Sample and Elicit go through input-required results instead
// (inputrequired.go). Logging works on every version (on 2026-07-28 the SDK
// reads the level from the request's _meta).
type sessionClient struct {
	ss *mcp.ServerSession

	// A handler's goroutines may ask concurrently, and a ToolContext kept past the call may ask after
	// it, while the server reads what was asked (the input-required result, -32021, -32602): the fields
	// below mrtr are written under mu, and nothing is written once the server has ended the client (end,
	// right after the handler returns and before it reads them).
	mu    sync.Mutex
	ended bool

	// On 2026-07-28 sessions requests travel in input-required results (inputrequired.go).
	mrtr      bool
	answers   []answer             // the answers the request carries, by key: its state's, then those taken from responses
	responses mcp.InputResponseMap // the retry's inputResponses, read when the handler asks their keys
	next      int                  // the number of the handler's next one-at-a-time question (Sample, Elicit)
	need      []asked              // the questions of the round the handler waits on
	bad       []string             // responses that could not be read (-32602)

	missing []wink.Capability // capabilities the call needed and the client did not declare (capability.go)
}

// newProtocol is the first protocol version without server requests during
// a call.
const newProtocol = "2026-07-28"

func (c *sessionClient) Log(ctx context.Context, level wink.LogLevel, logger, message string) error {
	//lint:ignore SA1019 logging is deprecated as of 2026-07-28 but every earlier version has it.
	return c.ss.Log(ctx, &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(level), Logger: logger, Data: message})
}

// end marks the client's request answered: from now on nothing asks it or writes its state, so that the
// server reads that state alone.
func (c *sessionClient) end() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.ended = true
	c.mu.Unlock()
}

// lockLive locks c unless its request has been answered (end), and reports whether it did.
func (c *sessionClient) lockLive() bool {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return false
	}
	return true
}

// callEnded is why a client whose request was answered cannot be asked.
const callEnded = "the call has ended; ask during the call"

// cannotAsk says why the client cannot be asked for what needs capability, or "". A capability the client
// did not declare is remembered (capability.go).
func (c *sessionClient) cannotAsk(capability wink.Capability) string {
	if !c.lockLive() {
		return callEnded
	}
	defer c.mu.Unlock()
	ip := c.ss.InitializeParams()
	if ip == nil {
		return "the client has not initialized the session"
	}
	if !c.mrtr && ip.ClientInfo == nil && ip.Capabilities == nil {
		// What the SDK makes up for a request of a stateless HTTP server, which has no stream to the client.
		return "a stateless HTTP server cannot send requests to the client before protocol 2026-07-28"
	}
	if ip.Capabilities == nil || !has(ip.Capabilities, capability) {
		if !slices.Contains(c.missing, capability) {
			c.missing = append(c.missing, capability)
		}
		return "the client did not declare the " + string(capability) + " capability"
	}
	return ""
}

func (c *sessionClient) Sample(ctx context.Context, req wink.SampleRequest) (wink.SampleResult, error) {
	if why := c.cannotAsk(wink.CapSampling); why != "" {
		return wink.SampleResult{}, wink.NotAvailable("sampling", why)
	}
	p, err := sampleParams(req)
	if err != nil {
		return wink.SampleResult{}, err
	}
	if c.mrtr {
		a, err := c.ask(wink.AskSampling, p)
		if err != nil {
			return wink.SampleResult{}, err
		}
		return a.sample, nil
	}
	//lint:ignore SA1019 sampling is deprecated as of 2026-07-28 but every earlier version has it.
	res, err := c.ss.CreateMessage(ctx, p)
	if err != nil {
		return wink.SampleResult{}, err
	}
	out := wink.SampleResult{Role: string(res.Role), Model: res.Model, StopReason: res.StopReason}
	if res.Content != nil {
		wc, ok := winkContent(res.Content)
		if !ok {
			return out, errors.New("the client's model answered with content a tool cannot read")
		}
		out.Content = wc
	}
	return out, nil
}

func (c *sessionClient) Elicit(ctx context.Context, message string, schema []byte) (wink.ElicitAction, []byte, error) {
	if why := c.cannotAsk(wink.CapElicitation); why != "" {
		return "", nil, wink.NotAvailable("elicitation", why)
	}
	params := &mcp.ElicitParams{Mode: "form", Message: message, RequestedSchema: rawJSON(schema)}
	if c.mrtr {
		a, err := c.ask(wink.AskElicitation, params)
		if err != nil {
			return "", nil, err
		}
		return a.action, a.content, nil
	}
	kept := &keptAnswer{}
	res, err := c.ss.Elicit(context.WithValue(ctx, keptAnswerKey{}, kept), params)
	if err != nil {
		return "", nil, err
	}
	action := wink.ElicitAction(res.Action)
	if action != wink.ElicitAccept {
		return action, nil, nil
	}
	content := res.Content
	if kept.set {
		content = kept.content // the answer as the client sent it, judged by the form's decoder (keepAnswer)
	}
	b, err := appendFlatJSON(nil, content)
	if err != nil {
		return action, nil, err
	}
	return action, b, nil
}

// sampleParams is the sampling/createMessage request of req.
func sampleParams(req wink.SampleRequest) (*mcp.CreateMessageParams, error) {
	p := &mcp.CreateMessageParams{
		MaxTokens:     int64(req.MaxTokens),
		SystemPrompt:  req.SystemPrompt,
		Temperature:   req.Temperature,
		StopSequences: req.StopSequences,
		Messages:      make([]*mcp.SamplingMessage, 0, len(req.Messages)),
	}
	for i, m := range req.Messages {
		switch m.Content.Kind {
		case wink.KindText, wink.KindImage, wink.KindAudio:
		default:
			return nil, errors.New("sampling message " + strconv.Itoa(i) + " holds " + m.Content.Kind.String() + " content; sampling takes text, image and audio")
		}
		p.Messages = append(p.Messages, &mcp.SamplingMessage{Role: mcp.Role(m.Role), Content: mcpContent(m.Content)})
	}
	if len(req.ModelHints) > 0 {
		p.ModelPreferences = &mcp.ModelPreferences{}
		for _, h := range req.ModelHints {
			p.ModelPreferences.Hints = append(p.ModelPreferences.Hints, &mcp.ModelHint{Name: h})
		}
	}
	return p, nil
}

// appendFlatJSON appends the JSON object of an elicitation answer, keys
// sorted. Its values should be strings, numbers, booleans and arrays of
// strings (MCP's elicitation subset); whatever JSON the client sent is
// written as sent, so the form's generated decoder judges it.
func appendFlatJSON(dst []byte, m map[string]any) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strictjson.AppendString(dst, k)
		dst = append(dst, ':')
		var err error
		if dst, err = appendFlatValue(dst, m[k]); err != nil {
			return nil, errors.New("elicitation answer: field " + strconv.Quote(k) + ": " + err.Error())
		}
	}
	return append(dst, '}'), nil
}

func appendFlatValue(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return strictjson.AppendString(dst, v), nil
	case bool:
		return strictjson.AppendBool(dst, v), nil
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, errors.New("not a JSON number")
		}
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return strictjson.AppendInt(dst, int64(v)), nil
		}
		return strictjson.AppendFloat(dst, v, 64), nil
	case int:
		return strictjson.AppendInt(dst, int64(v)), nil
	case int64:
		return strictjson.AppendInt(dst, v), nil
	case []string:
		dst = append(dst, '[')
		for i, s := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strictjson.AppendString(dst, s)
		}
		return append(dst, ']'), nil
	case []any:
		// Any items: the form's decoder says, in its words, which are not what the form asks.
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendFlatValue(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		return appendFlatJSON(dst, v)
	}
	return nil, errors.New("a value of a kind elicitation does not allow")
}
