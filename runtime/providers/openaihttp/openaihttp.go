package openaihttp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	"github.com/winkgen/wink/runtime/strictjson"
)

// DefaultBaseURL is the base URL used when neither Config.BaseURL nor OPENAI_BASE_URL is set.
const DefaultBaseURL = "https://api.openai.com/v1"

// MaxResponseBytes bounds the response body the provider reads.
const MaxResponseBytes = 32 << 20

// The environment variables New reads for the fields Config leaves empty.
const (
	EnvBaseURL = "OPENAI_BASE_URL"
	EnvModel   = "OPENAI_MODEL"
	EnvAPIKey  = "OPENAI_API_KEY"
)

// Config configures a Provider. Empty BaseURL, Model and APIKey are read from the environment.
type Config struct {
	// BaseURL is the API's base URL, up to and excluding "/chat/completions" (for example
	// "http://localhost:11434/v1"); default OPENAI_BASE_URL, else DefaultBaseURL.
	BaseURL string
	// Model is the model name sent with every request; default OPENAI_MODEL. Required.
	Model string
	// APIKey is sent as "Authorization: Bearer <key>"; default OPENAI_API_KEY. Empty sends no
	// Authorization header (local servers).
	APIKey string
	// Temperature, when set, is sent as "temperature".
	Temperature *float64
	// Header holds extra request headers (organisation, project, proxies' keys).
	Header http.Header
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Stream asks for a streamed answer ("stream":true, with usage), assembled from its chunks: text
	// deltas, and tool calls whose arguments arrive in fragments. A stream cut before its finish_reason
	// gives Stop "incomplete" and the arguments received so far, which the dispatcher's decoder refuses
	// with a message the model can act on.
	Stream bool
	// Retry configures retries of 408, 409, 429 and 5xx responses and transport errors (the zero value
	// retries 4 times; see package httpcall's Retry).
	Retry httpcall.Retry
}

// Provider is a loop.Provider speaking the OpenAI chat completions API over HTTP: any server that
// implements POST {BaseURL}/chat/completions with function tools (OpenAI, Azure-compatible gateways,
// vLLM, Ollama, llama.cpp, LiteLLM, ...). It is safe for concurrent use.
type Provider struct {
	cfg Config
	url string
}

// New returns a provider for cfg, filling empty fields from the environment. It fails when no model is
// configured or the base URL is not an http(s) URL.
func New(cfg Config) (*Provider, error) {
	url, err := httpcall.Settings("openaihttp", &cfg.BaseURL, &cfg.Model, &cfg.APIKey,
		[3]string{EnvBaseURL, EnvModel, EnvAPIKey}, DefaultBaseURL, "/chat/completions")
	if err != nil {
		return nil, err
	}
	return &Provider{cfg: cfg, url: url}, nil
}

// Config returns the provider's configuration, environment defaults applied.
func (p *Provider) Config() Config { return p.cfg }

// Complete sends one chat completions request for req and reads the model's turn: the first choice's
// text and tool calls, its finish_reason and the usage. An HTTP status other than 2xx is an error carrying
// the API's error message; a request abandoned because ctx is done returns an error wrapping ctx.Err().
func (p *Provider) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	body, err := p.RequestBody(req)
	if err != nil {
		return loop.Response{}, err
	}
	resp, attempts, err := httpcall.Do(ctx, p.cfg.HTTPClient, p.cfg.Retry, func() (*http.Request, error) {
		hreq, err := http.NewRequest(http.MethodPost, p.url, bytes.NewReader(body))
		if err != nil {
			return nil, errors.New("openaihttp: " + err.Error())
		}
		for k, vs := range p.cfg.Header {
			for _, v := range vs {
				hreq.Header.Add(k, v)
			}
		}
		hreq.Header.Set("Content-Type", "application/json")
		if p.cfg.Stream {
			hreq.Header.Set("Accept", "text/event-stream")
		} else {
			hreq.Header.Set("Accept", "application/json")
		}
		if p.cfg.APIKey != "" {
			hreq.Header.Set("Authorization", "Bearer "+p.cfg.APIKey)
		}
		return hreq, nil
	})
	if err != nil {
		return loop.Response{}, err // wraps the context error when there is one
	}
	defer resp.Body.Close()
	if p.cfg.Stream && resp.StatusCode/100 == 2 {
		return readStream(ctx, resp.Body)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return loop.Response{}, errors.Join(errors.New("openaihttp: reading the response"), err)
	}
	if len(data) > MaxResponseBytes {
		return loop.Response{}, errors.New("openaihttp: response larger than " + strconv.Itoa(MaxResponseBytes) + " bytes")
	}
	c, perr := readCompletion(data)
	if resp.StatusCode/100 != 2 {
		msg := c.errMessage
		if msg == "" {
			msg = strings.TrimSpace(string(data[:min(len(data), 200)]))
		}
		return loop.Response{}, &StatusError{StatusCode: resp.StatusCode, Status: resp.Status, Message: msg, Attempts: attempts}
	}
	if perr != nil {
		return loop.Response{}, errors.New("openaihttp: reading the response: " + perr.Error())
	}
	if c.errMessage != "" {
		return loop.Response{}, errors.New("openaihttp: the API returned an error: " + c.errMessage)
	}
	calls, err := openai.ParseChatCompletion(data)
	if err != nil {
		return loop.Response{}, errors.New("openaihttp: " + err.Error())
	}
	return loop.Response{Text: c.text, ToolCalls: calls, Usage: c.usage, Stop: c.finish}, nil
}

// StatusError reports a response whose HTTP status is not 2xx.
type StatusError struct {
	// StatusCode is the HTTP status code.
	StatusCode int
	// Status is the HTTP status line ("401 Unauthorized").
	Status string
	// Message is the API's error message (error.message), else the start of the body.
	Message string
	// Attempts are the requests sent, retries included, and how long they took.
	Attempts httpcall.Attempts
}

// Error returns "openaihttp: 401 Unauthorized: Incorrect API key provided", followed by the attempts when
// there were retries: " (after 5 attempts over 7.5s)".
func (e *StatusError) Error() string {
	return "openaihttp: " + e.Status + ": " + e.Message + e.Attempts.Suffix()
}

// RequestBody returns the JSON body Complete sends for req:
//
//	{"model":M,"messages":[{"role":"system","content":S}, ...],"tools":[...],"temperature":T}
//
// The system message is left out when req.System is empty, "tools" when there are none (the API rejects
// an empty array), "temperature" when Config.Temperature is nil. Assistant messages carry their tool
// calls (arguments as the raw text, in a JSON string; "content":null when there is no text), tool
// messages are openai.ChatToolMessage.
func (p *Provider) RequestBody(req loop.Request) ([]byte, error) {
	b := make([]byte, 0, 1024)
	b = append(b, `{"model":`...)
	b = strictjson.AppendString(b, p.cfg.Model)
	b = append(b, `,"messages":[`...)
	first := true
	sep := func() {
		if !first {
			b = append(b, ',')
		}
		first = false
	}
	if req.System != "" {
		sep()
		b = append(b, `{"role":"system","content":`...)
		b = strictjson.AppendString(b, req.System)
		b = append(b, '}')
	}
	for i, m := range req.Messages {
		sep()
		switch m.Role {
		case loop.RoleUser:
			b = append(b, `{"role":"user","content":`...)
			b = strictjson.AppendString(b, m.Text)
			b = append(b, '}')
		case loop.RoleAssistant:
			b = append(b, `{"role":"assistant","content":`...)
			if m.Text == "" && len(m.ToolCalls) > 0 {
				b = append(b, "null"...)
			} else {
				b = strictjson.AppendString(b, m.Text)
			}
			if len(m.ToolCalls) > 0 {
				b = append(b, `,"tool_calls":[`...)
				for j, c := range m.ToolCalls {
					if j > 0 {
						b = append(b, ',')
					}
					b = append(b, `{"id":`...)
					b = strictjson.AppendString(b, c.ID)
					b = append(b, `,"type":"function","function":{"name":`...)
					b = strictjson.AppendString(b, c.Name)
					b = append(b, `,"arguments":`...)
					b = strictjson.AppendString(b, string(c.Arguments))
					b = append(b, "}}"...)
				}
				b = append(b, ']')
			}
			b = append(b, '}')
		case loop.RoleTool:
			b = append(b, openai.ChatToolMessage(m.Result.CallID, m.Result)...)
		default:
			return nil, errors.New("openaihttp: message " + strconv.Itoa(i) + " has unknown role " + strconv.Quote(string(m.Role)))
		}
	}
	b = append(b, ']')
	if len(req.Tools) > 0 {
		tools, err := openai.ChatTools(req.Tools)
		if err != nil {
			return nil, errors.New("openaihttp: " + err.Error())
		}
		b = append(b, `,"tools":`...)
		b = append(b, tools...)
	}
	if t := p.cfg.Temperature; t != nil {
		b = append(b, `,"temperature":`...)
		b = strconv.AppendFloat(b, *t, 'g', -1, 64)
	}
	if p.cfg.Stream {
		b = append(b, `,"stream":true,"stream_options":{"include_usage":true}`...)
	}
	return append(b, '}'), nil
}

// completion is what readCompletion takes from a response body besides the tool calls.
type completion struct {
	text, finish, errMessage string
	usage                    loop.Usage
}

// readCompletion reads, without reflection, the first choice's message content and finish_reason, the
// usage and an error object's message. Members it does not need are skipped (strictly: the body must be
// valid JSON).
func readCompletion(body []byte) (completion, error) {
	var c completion
	var d strictjson.Decoder
	d.Reset(body, strictjson.Limits{MaxBytes: len(body) + 1, MaxDepth: 128, MaxErrors: 4})
	if d.ObjectStart() {
		for d.NextKey() {
			switch string(d.Key()) {
			case "choices":
				if d.Null() || !d.ArrayStart() {
					continue
				}
				for d.NextElem() {
					if d.Index() == 0 {
						readChoice(&d, &c)
					}
				}
				d.ArrayEnd()
			case "usage":
				if d.Null() || !d.ObjectStart() {
					continue
				}
				for d.NextKey() {
					switch string(d.Key()) {
					case "prompt_tokens":
						n, _ := d.Int(0, 1<<53)
						c.usage.Input = int(n)
					case "completion_tokens":
						n, _ := d.Int(0, 1<<53)
						c.usage.Output = int(n)
					}
				}
				d.ObjectEnd()
			case "error":
				if d.Null() {
					continue
				}
				if d.Peek() == strictjson.KindString {
					c.errMessage, _ = d.String()
					continue
				}
				if !d.ObjectStart() {
					continue
				}
				for d.NextKey() {
					if string(d.Key()) == "message" && !d.Null() {
						c.errMessage, _ = d.String()
					}
				}
				d.ObjectEnd()
				if c.errMessage == "" {
					c.errMessage = "(no message)"
				}
			}
		}
		d.ObjectEnd()
	}
	if errs := d.Finish(); errs != nil {
		return c, errs
	}
	return c, nil
}

func readChoice(d *strictjson.Decoder, c *completion) {
	if !d.ObjectStart() {
		return
	}
	for d.NextKey() {
		switch string(d.Key()) {
		case "finish_reason":
			if !d.Null() {
				c.finish, _ = d.String()
			}
		case "message":
			if d.Null() || !d.ObjectStart() {
				continue
			}
			for d.NextKey() {
				if string(d.Key()) == "content" && !d.Null() {
					c.text = readContent(d)
				}
			}
			d.ObjectEnd()
		}
	}
	d.ObjectEnd()
}

// readContent reads a message's content: a string, or an array of parts whose "text" members are
// concatenated (as some OpenAI-compatible servers send).
func readContent(d *strictjson.Decoder) string {
	if d.Peek() != strictjson.KindArray {
		s, _ := d.String()
		return s
	}
	var text string
	d.ArrayStart()
	for d.NextElem() {
		if d.Peek() != strictjson.KindObject {
			d.Skip()
			continue
		}
		d.ObjectStart()
		for d.NextKey() {
			if string(d.Key()) == "text" && !d.Null() {
				s, _ := d.String()
				text += s
			}
		}
		d.ObjectEnd()
	}
	d.ArrayEnd()
	return text
}
