// Package openairesponses is a loop.Provider for the OpenAI Responses API over HTTP: function calls
// (strict where the tool's schema allows it), streamed (server-sent events) and assembled from the
// stream's deltas, with retries.
//
//	p, err := openairesponses.New(openairesponses.Config{Model: "gpt-5"}) // OPENAI_API_KEY
//	res, err := loop.Run(ctx, loop.Config{Provider: p, Dispatcher: d}, msgs)
//
// Decisions:
//   - Requests are stateless ("store":false): every turn sends the whole conversation as input items
//     (user and assistant messages, function_call items, function_call_output items), the system prompt
//     as "instructions".
//   - Every request streams. A call's arguments are its function_call_arguments.done text when that
//     event arrives, else the concatenated deltas: when the stream is cut in the middle of them the
//     truncated text reaches the dispatcher, whose decoder refuses it with a message the model can act
//     on. Response.Stop is the response's final status ("completed", "incomplete: <reason>"), or
//     "incomplete" when the stream ended before response.completed.
//   - Retries and errors as in package anthropichttp: 408, 409, 429 and 5xx retried with backoff, jitter
//     and Retry-After within the deadline; other statuses returned at once as *httpcall.StatusError; an
//     error event or a failed response is a *StreamError.
//   - Tool search and programs: deferred tools are sent with defer_loading, the client search
//     (loop.Config.Search) as a client-executed tool_search, and with Config.Programs the
//     programmatic_tool_calling tool; program items (with their fingerprint) and callers are kept and sent
//     back exactly (native.go).
//   - No SDK and no encoding/json: requests are written and events read with strictjson.
package openairesponses

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// The default base URL and the environment variables New reads for the fields Config leaves empty.
const (
	DefaultBaseURL = "https://api.openai.com/v1"
	EnvBaseURL     = "OPENAI_BASE_URL"
	EnvModel       = "OPENAI_MODEL"
	EnvAPIKey      = "OPENAI_API_KEY"
)

// Config configures a Provider.
type Config struct {
	// BaseURL is the API's base URL, up to and excluding "/responses"; default OPENAI_BASE_URL, else
	// DefaultBaseURL.
	BaseURL string
	// Model is the model name; default OPENAI_MODEL. Required.
	Model string
	// APIKey is sent as "Authorization: Bearer <key>"; default OPENAI_API_KEY.
	APIKey string
	// MaxOutputTokens, when positive, is sent as "max_output_tokens".
	MaxOutputTokens int
	// Temperature, when set, is sent as "temperature".
	Temperature *float64
	// ToolSearch, set to openai.SearchHosted, adds OpenAI's hosted tool search over the deferred tools
	// (loop.Request.Deferred, sent with defer_loading). The client search (loop.Config.Search) needs no
	// setting here.
	ToolSearch string
	// Programs adds programmatic tool calling: the functions' allowed_callers from their declarations
	// and the programmatic_tool_calling tool (see native.go for what is kept and sent back).
	Programs bool
	// OutputSchema sends the generated result schema as output_schema of each function whose output is
	// its value's JSON (openai.HasOutputSchema: not for wink.NoValue or a value with a Render method), and
	// answers a successful call of such a function with that JSON alone (openai.SchemaOutput): the
	// output is exactly what the schema describes. Failures are answered with their text.
	OutputSchema bool
	// Retry configures retries (the zero value retries 4 times).
	Retry httpcall.Retry
	// Header holds extra request headers.
	Header http.Header
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
}

// Provider speaks the Responses API. It is safe for concurrent use.
type Provider struct {
	cfg Config
	url string
}

// New returns a provider for cfg, filling empty fields from the environment.
func New(cfg Config) (*Provider, error) {
	url, err := httpcall.Settings("openairesponses", &cfg.BaseURL, &cfg.Model, &cfg.APIKey,
		[3]string{EnvBaseURL, EnvModel, EnvAPIKey}, DefaultBaseURL, "/responses")
	if err != nil {
		return nil, err
	}
	return &Provider{cfg: cfg, url: url}, nil
}

// StreamError is an error event received inside the stream, or a response that failed.
type StreamError struct {
	// Code is the error's code ("server_error", "rate_limit_exceeded", ...).
	Code string
	// Message is its message.
	Message string
}

func (e *StreamError) Error() string {
	return "openairesponses: stream error " + e.Code + ": " + e.Message
}

// Complete sends req and assembles the streamed answer.
func (p *Provider) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	body, err := p.RequestBody(req)
	if err != nil {
		return loop.Response{}, err
	}
	set := map[string]string{}
	if p.cfg.APIKey != "" {
		set["Authorization"] = "Bearer " + p.cfg.APIKey
	}
	var a assembler
	err = httpcall.PostStream(ctx, httpcall.Request{Provider: "openairesponses", URL: p.url, Body: body, Header: p.cfg.Header,
		Set: set, Client: p.cfg.HTTPClient, Retry: p.cfg.Retry}, a.event, func() bool { return a.started })
	if err != nil {
		return loop.Response{}, err
	}
	if err := ctx.Err(); err != nil && a.status == "" {
		return loop.Response{}, err
	}
	return a.response(), nil
}

// assembler builds a response from the stream's events.
type assembler struct {
	text    strings.Builder
	calls   []call
	usage   loop.Usage
	status  string // set by response.completed or response.incomplete
	started bool
	items   [][]byte // every output item as response.output_item.done gave it, by output_index
	native  bool     // an item the neutral form cannot carry arrived (native.go)
}

type call struct {
	index        int    // output_index
	itemID       string // the item's id (deltas name it)
	callID, name string
	args         []byte
	done         bool // function_call_arguments.done or output_item.done gave the whole text
	caller       []byte
}

func (a *assembler) response() loop.Response {
	r := loop.Response{Text: a.text.String(), Usage: a.usage, Stop: a.status}
	if r.Stop == "" {
		r.Stop = "incomplete"
	}
	calls := slices.Clone(a.calls)
	slices.SortStableFunc(calls, func(x, y call) int { return x.index - y.index })
	for _, c := range calls {
		r.ToolCalls = append(r.ToolCalls, wink.Call{ID: c.callID, Name: c.name, Arguments: c.args, PairMaps: c.name != toolsearch.Name, Caller: c.caller})
	}
	if a.native {
		r.Native = a.nativeItems()
	}
	return r
}

func (a *assembler) find(itemID string, index int) *call {
	for i := range a.calls {
		if itemID != "" && a.calls[i].itemID == itemID || itemID == "" && a.calls[i].index == index {
			return &a.calls[i]
		}
	}
	return nil
}

var eventLimits = strictjson.Limits{MaxBytes: httpcall.MaxEvent + 1, MaxDepth: 256, MaxErrors: 4}

func (a *assembler) event(ev httpcall.Event) error {
	var d strictjson.Decoder
	d.Reset(ev.Data, eventLimits)
	if d.Peek() != strictjson.KindObject {
		return nil // "[DONE]" or a keep-alive
	}
	d.ObjectStart()
	var typ, itemID, deltaText, argsText, code, message string
	index := -1
	var item, response []byte
	for d.NextKey() {
		switch string(d.Key()) {
		case "type":
			typ, _ = d.String()
		case "output_index":
			n, _ := d.Int(0, 1<<20)
			index = int(n)
		case "item_id":
			itemID, _ = d.String()
		case "delta":
			if d.Peek() == strictjson.KindString {
				deltaText, _ = d.String()
			}
		case "arguments":
			if d.Peek() == strictjson.KindString {
				argsText, _ = d.String()
			}
		case "item":
			item, _ = d.Raw()
		case "response":
			response, _ = d.Raw()
		case "code":
			if d.Peek() == strictjson.KindString {
				code, _ = d.String()
			}
		case "message":
			if d.Peek() == strictjson.KindString {
				message, _ = d.String()
			}
		}
	}
	d.ObjectEnd()
	if errs := d.Finish(); errs != nil {
		return errors.New("openairesponses: malformed " + strconv.Quote(ev.Name) + " event: " + errs.Error())
	}
	switch typ {
	case "response.created", "response.in_progress":
		a.started = true
	case "response.output_item.added", "response.output_item.done":
		if typ == "response.output_item.done" {
			a.keep(index, item)
		}
		switch httpcall.String(item, "type") {
		case "function_call":
		case "tool_search_call":
			a.searchCall(index, item)
			return nil
		case "message", "reasoning":
			return nil
		default:
			if typ == "response.output_item.done" {
				a.native = true // a program, its output, a hosted search: sent back as they came
			}
			return nil
		}
		id := httpcall.String(item, "id")
		c := a.find(id, index)
		if c == nil {
			a.calls = append(a.calls, call{index: index, itemID: id})
			c = &a.calls[len(a.calls)-1]
		}
		c.callID, c.name = httpcall.String(item, "call_id"), httpcall.String(item, "name")
		if cl, ok := strictjson.Member(item, "caller"); ok && programCaller(cl) {
			c.caller, a.native = bytes.Clone(cl), true
		}
		if typ == "response.output_item.done" {
			c.args, c.done = []byte(httpcall.String(item, "arguments")), true
		}
	case "response.function_call_arguments.delta":
		if c := a.find(itemID, index); c != nil && !c.done {
			c.args = append(c.args, deltaText...)
		}
	case "response.function_call_arguments.done":
		if c := a.find(itemID, index); c != nil {
			c.args, c.done = []byte(argsText), true
		}
	case "response.output_text.delta":
		a.text.WriteString(deltaText)
	case "response.completed", "response.incomplete":
		a.status = httpcall.String(response, "status")
		if r := httpcall.String(mustMember(response, "incomplete_details"), "reason"); r != "" {
			a.status += ": " + r
		}
		if u, ok := strictjson.Member(response, "usage"); ok {
			if n, ok := httpcall.Int(u, "input_tokens"); ok {
				a.usage.Input = n
			}
			if n, ok := httpcall.Int(u, "output_tokens"); ok {
				a.usage.Output = n
			}
		}
	case "response.failed":
		e := mustMember(response, "error")
		return &StreamError{Code: httpcall.String(e, "code"), Message: httpcall.String(e, "message")}
	case "error":
		return &StreamError{Code: code, Message: message}
	}
	return nil
}

func mustMember(obj []byte, name string) []byte {
	m, _ := strictjson.Member(obj, name)
	return m
}

// RequestBody returns the JSON body Complete sends for req:
//
//	{"model":M,"stream":true,"store":false,"instructions":S,"input":[...],"tools":[...],...}
func (p *Provider) RequestBody(req loop.Request) ([]byte, error) {
	b := make([]byte, 0, 1024)
	b = append(b, `{"model":`...)
	b = strictjson.AppendString(b, p.cfg.Model)
	b = append(b, `,"stream":true,"store":false`...)
	if req.System != "" {
		b = append(b, `,"instructions":`...)
		b = strictjson.AppendString(b, req.System)
	}
	b = append(b, `,"input":[`...)
	o := openai.ResponsesOptions{Deferred: req.Deferred, Search: p.cfg.ToolSearch, Programs: p.cfg.Programs, OutputSchema: p.cfg.OutputSchema}
	if req.Search {
		o.Search = openai.SearchClient
	}
	callers := map[string][]byte{}
	first := true
	sep := func() {
		if !first {
			b = append(b, ',')
		}
		first = false
	}
	for i, m := range req.Messages {
		switch m.Role {
		case loop.RoleUser:
			sep()
			b = append(b, `{"role":"user","content":`...)
			b = strictjson.AppendString(b, m.Text)
			b = append(b, '}')
		case loop.RoleAssistant:
			for _, c := range m.ToolCalls {
				if c.Caller != nil {
					callers[c.ID] = c.Caller
				}
			}
			if m.Native != nil {
				if items := inner(m.Native); len(items) > 0 {
					sep()
					b = append(b, items...)
				}
				continue
			}
			if m.Text != "" || len(m.ToolCalls) == 0 {
				sep()
				b = append(b, `{"role":"assistant","content":`...)
				b = strictjson.AppendString(b, m.Text)
				b = append(b, '}')
			}
			for _, c := range m.ToolCalls {
				sep()
				if req.Search && c.Name == toolsearch.Name {
					b = append(b, openai.ToolSearchCall(c)...)
					continue
				}
				b = append(b, `{"type":"function_call","call_id":`...)
				b = strictjson.AppendString(b, c.ID)
				b = append(b, `,"name":`...)
				b = strictjson.AppendString(b, c.Name)
				b = append(b, `,"arguments":`...)
				b = strictjson.AppendString(b, string(c.Arguments))
				if c.Caller != nil {
					b = append(b, `,"caller":`...)
					b = append(b, c.Caller...)
				}
				b = append(b, '}')
			}
		case loop.RoleTool:
			sep()
			if r := m.Result; req.Search && r.Name == toolsearch.Name {
				out, err := openai.ToolSearchOutput(r.CallID, pick(req, m.Found), o)
				if err != nil {
					return nil, errors.New("openairesponses: " + err.Error())
				}
				b = append(b, out...)
				continue
			}
			r := m.Result
			if o.OutputSchema { // the output is the value its output_schema describes
				r = openai.SchemaOutput(toolNamed(req, r.Name), r)
			}
			out := openai.ResponsesToolOutput(r.CallID, r)
			if c := callers[m.Result.CallID]; c != nil { // the answer names the program that called
				out = append(append(append(out[:len(out)-1], `,"caller":`...), c...), '}')
			}
			b = append(b, out...)
		default:
			return nil, errors.New("openairesponses: message " + strconv.Itoa(i) + " has unknown role " + strconv.Quote(string(m.Role)))
		}
	}
	b = append(b, ']')
	if len(req.Tools)+len(req.Deferred) > 0 || o.Search != "" || o.Programs {
		offered := req.Tools
		if o.Programs && len(req.Programs) > 0 { // the tools only programs may call, for its programs
			offered = append(offered[:len(offered):len(offered)], req.Programs...)
		}
		tools, err := openai.ResponsesToolsWith(offered, o)
		if err != nil {
			return nil, errors.New("openairesponses: " + err.Error())
		}
		b = append(b, `,"tools":`...)
		b = append(b, tools...)
	}
	if p.cfg.MaxOutputTokens > 0 {
		b = append(b, `,"max_output_tokens":`...)
		b = strconv.AppendInt(b, int64(p.cfg.MaxOutputTokens), 10)
	}
	if t := p.cfg.Temperature; t != nil {
		b = append(b, `,"temperature":`...)
		b = strconv.AppendFloat(b, *t, 'g', -1, 64)
	}
	return append(b, '}'), nil
}

// toolNamed returns the request's tool named name (loaded, deferred or for programs), nil for none.
func toolNamed(req loop.Request, name string) *wink.Tool {
	for _, ts := range [...][]*wink.Tool{req.Tools, req.Programs, req.Deferred} {
		for _, t := range ts {
			if t != nil && t.Name() == name {
				return t
			}
		}
	}
	return nil
}
