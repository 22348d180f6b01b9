// Package anthropichttp is a loop.Provider for the Anthropic Messages API over HTTP: tool use and parallel
// tool use, streamed (server-sent events) and assembled from the stream's deltas, with retries.
//
//	p, err := anthropichttp.New(anthropichttp.Config{Model: "claude-sonnet-4-5"}) // ANTHROPIC_API_KEY
//	res, err := loop.Run(ctx, loop.Config{Provider: p, Dispatcher: d}, msgs)
//
// Decisions:
//   - Every request streams ("stream":true); the text, the tool calls and the usage are assembled from
//     the events. A tool call's arguments are the concatenated input_json_delta fragments, passed to the
//     dispatcher as they arrived: when the stream is cut in the middle of them, or they are not a JSON
//     object, the call fails with the decoder's message and the model can send it again. Response.Stop is
//     the API's stop_reason, or "incomplete" when the stream ended without message_stop.
//   - When an earlier assistant turn's arguments were not a JSON object, the request sends {} as that
//     tool_use's input (the API requires an object); its tool_result already told the model why it failed.
//   - Consecutive tool results are sent as one user message, results in call order, as the API requires.
//   - Retries (httpcall.Retry): 408, 409, 429, 5xx and 529 (overloaded) are retried with exponential backoff
//     and jitter, honouring retry-after-ms and Retry-After, up to Config.Retry.MaxRetries and never past the
//     context's deadline; other statuses (400, 401, 403, 404, 413) are returned at once as a
//     *httpcall.StatusError. An error event inside the stream is an error of its own (*StreamError).
//   - Tool search and programs: deferred tools are sent with defer_loading, the client search
//     (loop.Config.Search) as a custom tool answered with tool_reference blocks, Config.ToolSearch adds
//     Anthropic's server search, Config.CodeExecution the code execution tool and allowed_callers;
//     containers, callers and the server blocks of a program's turn are kept and sent back exactly
//     (native.go).
//   - No SDK and no encoding/json: requests are written and events read with strictjson.
package anthropichttp

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// The defaults and environment variables New reads for the fields Config leaves empty.
const (
	DefaultBaseURL   = "https://api.anthropic.com"
	DefaultMaxTokens = 4096
	APIVersion       = "2023-06-01"
	EnvBaseURL       = "ANTHROPIC_BASE_URL"
	EnvModel         = "ANTHROPIC_MODEL"
	EnvAPIKey        = "ANTHROPIC_API_KEY"
)

// Config configures a Provider.
type Config struct {
	// BaseURL is the API's base URL, up to and excluding "/v1/messages"; default ANTHROPIC_BASE_URL, else
	// DefaultBaseURL.
	BaseURL string
	// Model is the model name; default ANTHROPIC_MODEL. Required.
	Model string
	// APIKey is sent as x-api-key; default ANTHROPIC_API_KEY.
	APIKey string
	// MaxTokens bounds each response; default DefaultMaxTokens.
	MaxTokens int
	// Temperature, when set, is sent as "temperature".
	Temperature *float64
	// Strict turns on strict tool use for the tools that allow it, within the API's per-request limits
	// (anthropic.StrictTools; the others are sent as before).
	Strict bool
	// ToolSearch adds Anthropic's server tool search over the deferred tools (loop.Request.Deferred, sent
	// with defer_loading): anthropic.SearchBM25 or anthropic.SearchRegex; "" for none. The client search
	// (loop.Config.Search) needs no setting here.
	ToolSearch string
	// CodeExecution adds the code execution tool, whose programs call the tools their declaration
	// allows (allowed_callers; see native.go for what is kept and sent back).
	CodeExecution bool
	// Examples sends the tools' validated examples as input_examples.
	Examples bool
	// Retry configures retries (the zero value retries 4 times).
	Retry httpcall.Retry
	// Header holds extra request headers (anthropic-beta, proxies' keys).
	Header http.Header
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
}

// Provider speaks the Messages API. It is safe for concurrent use.
type Provider struct {
	cfg Config
	url string
}

// New returns a provider for cfg, filling empty fields from the environment.
func New(cfg Config) (*Provider, error) {
	url, err := httpcall.Settings("anthropichttp", &cfg.BaseURL, &cfg.Model, &cfg.APIKey,
		[3]string{EnvBaseURL, EnvModel, EnvAPIKey}, DefaultBaseURL, "/v1/messages")
	if err != nil {
		return nil, err
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	return &Provider{cfg: cfg, url: url}, nil
}

// StreamError is an error event received inside the stream ({"type":"error","error":{...}}).
type StreamError struct {
	// Type is the error's type ("overloaded_error", "api_error", ...).
	Type string
	// Message is its message.
	Message string
}

func (e *StreamError) Error() string {
	return "anthropichttp: stream error " + e.Type + ": " + e.Message
}

// Complete sends req and assembles the streamed answer.
func (p *Provider) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	body, err := p.RequestBody(req)
	if err != nil {
		return loop.Response{}, err
	}
	set := map[string]string{"anthropic-version": APIVersion}
	if p.cfg.APIKey != "" {
		set["x-api-key"] = p.cfg.APIKey
	}
	var a assembler
	err = httpcall.PostStream(ctx, httpcall.Request{Provider: "anthropichttp", URL: p.url, Body: body, Header: p.cfg.Header,
		Set: set, Client: p.cfg.HTTPClient, Retry: p.cfg.Retry}, a.event, func() bool { return a.started })
	if err != nil {
		return loop.Response{}, err
	}
	if err := ctx.Err(); err != nil && !a.stopped {
		return loop.Response{}, err
	}
	return a.response(), nil
}

// assembler builds a response from the stream's events.
type assembler struct {
	text    strings.Builder
	blocks  []block // by content block index
	usage   loop.Usage
	stop    string
	started bool // message_start arrived
	stopped bool // message_stop arrived
	// container is the code execution container's id (message_start's message or message_delta's delta).
	container string
	native    bool // a block the neutral form cannot carry arrived (native.go)
}

type block struct {
	tool     bool
	kind     string // the block's type
	id, name string
	input    []byte // the content_block_start input (used when no delta arrives)
	args     []byte // the concatenated partial_json
	deltas   bool
	caller   []byte // a tool_use's caller, when a program made the call
	raw      []byte // the content_block_start block (kept for blocks sent back as they came)
	text     []byte // a text block's text
}

func (a *assembler) response() loop.Response {
	r := loop.Response{Text: a.text.String(), Usage: a.usage, Stop: a.stop}
	if !a.stopped {
		r.Stop = "incomplete"
	}
	for _, b := range a.blocks {
		if !b.tool {
			continue
		}
		r.ToolCalls = append(r.ToolCalls, wink.Call{ID: b.id, Name: b.name, Arguments: b.arguments(), Caller: b.caller})
	}
	r.Container = a.container
	if a.native {
		r.Native = a.nativeContent()
	}
	return r
}

var eventLimits = strictjson.Limits{MaxBytes: httpcall.MaxEvent + 1, MaxDepth: 256, MaxErrors: 4}

// event handles one server-sent event.
func (a *assembler) event(ev httpcall.Event) error {
	var d strictjson.Decoder
	d.Reset(ev.Data, eventLimits)
	if !d.ObjectStart() {
		return nil // not an object (a bare keep-alive): ignored
	}
	var typ string
	index := -1
	var delta, cblock, message, usage, errObj []byte
	for d.NextKey() {
		switch string(d.Key()) {
		case "type":
			typ, _ = d.String()
		case "index":
			n, _ := d.Int(0, 1<<20)
			index = int(n)
		case "delta":
			delta, _ = d.Raw()
		case "content_block":
			cblock, _ = d.Raw()
		case "message":
			message, _ = d.Raw()
		case "usage":
			usage, _ = d.Raw()
		case "error":
			errObj, _ = d.Raw()
		}
	}
	d.ObjectEnd()
	if errs := d.Finish(); errs != nil {
		return errors.New("anthropichttp: malformed " + strconv.Quote(ev.Name) + " event: " + errs.Error())
	}
	switch typ {
	case "message_start":
		a.started = true
		if u, ok := strictjson.Member(message, "usage"); ok {
			a.readUsage(u)
		}
		a.readContainer(message)
	case "content_block_start":
		if index < 0 {
			return errors.New("anthropichttp: content_block_start without an index")
		}
		for len(a.blocks) <= index {
			a.blocks = append(a.blocks, block{})
		}
		b := &a.blocks[index]
		b.kind, b.raw = httpcall.String(cblock, "type"), bytes.Clone(cblock)
		switch b.kind {
		case "tool_use":
			b.tool, b.id, b.name = true, httpcall.String(cblock, "id"), httpcall.String(cblock, "name")
			b.input, _ = strictjson.Member(cblock, "input")
			if c, ok := strictjson.Member(cblock, "caller"); ok && programCaller(c) {
				b.caller, a.native = bytes.Clone(c), true
			}
		case "text":
			t := httpcall.String(cblock, "text")
			a.text.WriteString(t)
			b.text = append(b.text, t...)
		case "server_tool_use":
			b.id, b.name = httpcall.String(cblock, "id"), httpcall.String(cblock, "name")
			b.input, _ = strictjson.Member(cblock, "input")
			a.native = true
		case "thinking", "redacted_thinking":
		default:
			a.native = true // a server tool's result: sent back as it came
		}
	case "content_block_delta":
		if index < 0 || index >= len(a.blocks) {
			return errors.New("anthropichttp: content_block_delta for an unknown block")
		}
		switch httpcall.String(delta, "type") {
		case "text_delta":
			t := httpcall.String(delta, "text")
			a.text.WriteString(t)
			a.blocks[index].text = append(a.blocks[index].text, t...)
		case "input_json_delta":
			b := &a.blocks[index]
			b.args = append(b.args, httpcall.String(delta, "partial_json")...)
			b.deltas = true
		}
	case "message_delta":
		if s := httpcall.String(delta, "stop_reason"); s != "" {
			a.stop = s
		}
		if usage != nil {
			a.readUsage(usage)
		}
		a.readContainer(delta)
	case "message_stop":
		a.stopped = true
	case "error":
		return &StreamError{Type: httpcall.String(errObj, "type"), Message: httpcall.String(errObj, "message")}
	}
	return nil
}

func (a *assembler) readUsage(u []byte) {
	if n, ok := httpcall.Int(u, "input_tokens"); ok {
		a.usage.Input = n
	}
	if n, ok := httpcall.Int(u, "output_tokens"); ok {
		a.usage.Output = n
	}
}

// RequestBody returns the JSON body Complete sends for req:
//
//	{"model":M,"max_tokens":N,"stream":true,"system":S,"messages":[...],"tools":[...],"temperature":T}
func (p *Provider) RequestBody(req loop.Request) ([]byte, error) {
	b := make([]byte, 0, 1024)
	b = append(b, `{"model":`...)
	b = strictjson.AppendString(b, p.cfg.Model)
	b = append(b, `,"max_tokens":`...)
	b = strconv.AppendInt(b, int64(p.cfg.MaxTokens), 10)
	b = append(b, `,"stream":true`...)
	if req.System != "" {
		b = append(b, `,"system":`...)
		b = strictjson.AppendString(b, req.System)
	}
	b = append(b, `,"messages":[`...)
	msgs := req.Messages
	for i := 0; i < len(msgs); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		m := msgs[i]
		switch m.Role {
		case loop.RoleUser:
			b = append(b, `{"role":"user","content":`...)
			b = strictjson.AppendString(b, m.Text)
			b = append(b, '}')
		case loop.RoleAssistant:
			b = append(b, `{"role":"assistant","content":`...)
			if m.Native != nil {
				b = append(b, m.Native...)
				b = append(b, '}')
				continue
			}
			if len(m.ToolCalls) == 0 {
				b = strictjson.AppendString(b, m.Text)
				b = append(b, '}')
				continue
			}
			b = append(b, '[')
			if m.Text != "" {
				b = append(b, `{"type":"text","text":`...)
				b = strictjson.AppendString(b, m.Text)
				b = append(b, "},"...)
			}
			for j, c := range m.ToolCalls {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"type":"tool_use","id":`...)
				b = strictjson.AppendString(b, c.ID)
				b = append(b, `,"name":`...)
				b = strictjson.AppendString(b, c.Name)
				b = append(b, `,"input":`...)
				if isObject(c.Arguments) {
					b = append(b, c.Arguments...)
				} else {
					b = append(b, "{}"...)
				}
				if c.Caller != nil {
					b = append(b, `,"caller":`...)
					b = append(b, c.Caller...)
				}
				b = append(b, '}')
			}
			b = append(b, "]}"...)
		case loop.RoleTool:
			// This and the following tool messages: one user message of tool_result blocks.
			b = append(b, `{"role":"user","content":[`...)
			for j := i; j < len(msgs) && msgs[j].Role == loop.RoleTool; j++ {
				if j > i {
					b = append(b, ',')
				}
				if r := msgs[j].Result; req.Search && r.Name == toolsearch.Name {
					b = append(b, anthropic.ToolReferences(r.CallID, msgs[j].Found, r)...)
				} else {
					b = append(b, anthropic.ToolResult(r.CallID, r)...)
				}
				i = j
			}
			b = append(b, "]}"...)
		default:
			return nil, errors.New("anthropichttp: message " + strconv.Itoa(i) + " has unknown role " + strconv.Quote(string(m.Role)))
		}
	}
	b = append(b, ']')
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Container != "" {
			b = append(b, `,"container":`...)
			b = strictjson.AppendString(b, msgs[i].Container)
			break
		}
	}
	o := anthropic.Options{Deferred: req.Deferred, Search: p.cfg.ToolSearch, Examples: p.cfg.Examples,
		CodeExecution: p.cfg.CodeExecution, Strict: p.cfg.Strict}
	if req.Search {
		o.Search = anthropic.SearchClient
	}
	if len(req.Tools)+len(req.Deferred) > 0 || o.Search != "" || o.CodeExecution {
		offered := req.Tools
		if o.CodeExecution && len(req.Programs) > 0 { // the tools only programs may call, for its programs
			offered = append(offered[:len(offered):len(offered)], req.Programs...)
		}
		tools, err := anthropic.ToolsWith(offered, o)
		if err != nil {
			return nil, errors.New("anthropichttp: " + err.Error())
		}
		b = append(b, `,"tools":`...)
		b = append(b, tools...)
	}
	if t := p.cfg.Temperature; t != nil {
		b = append(b, `,"temperature":`...)
		b = strconv.AppendFloat(b, *t, 'g', -1, 64)
	}
	return append(b, '}'), nil
}

// isObject reports whether args is one valid JSON object.
func isObject(args []byte) bool {
	var d strictjson.Decoder
	d.Reset(args, strictjson.Limits{MaxBytes: len(args) + 1, MaxDepth: 256})
	if d.Peek() != strictjson.KindObject {
		return false
	}
	d.Skip()
	return d.Finish() == nil
}
