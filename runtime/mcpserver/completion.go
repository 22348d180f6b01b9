package mcpserver

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/wink"
)

// Completer suggests values for one argument of a prompt or variable of a
// resource template (completion/complete): argument is its name, value what
// the user typed so far, args the other arguments already given. The server
// keeps the suggestions that start with value, in order, at most 100 (MCP's
// limit; hasMore and total say how many there were).
type Completer func(ctx context.Context, argument, value string, args map[string]string) ([]string, error)

// extras are the prompts, resources and templates a server offers besides its tools (opt-in options).
type extras struct {
	prompts   []Prompt
	resources []Resource
	templates []ResourceTemplate
	workspace *workspace
	subs      subscriptions // per session, bounded (resources_subs.go)
	tmpls     []*tmpl       // the templates parsed (addResources)
	errs      []error       // option errors, reported by New
}

// extras returns c's extras, made on first use.
func (c *config) extras() *extras {
	if c.ext == nil {
		c.ext = &extras{}
	}
	return c.ext
}

// serverOptions returns the SDK options with what the extras need: the completion handler and, with
// resources, the subscription handlers (the SDK then records subscriptions and declares the
// capabilities). opts is not modified.
func (x *extras) serverOptions(opts *mcp.ServerOptions) *mcp.ServerOptions {
	if x == nil {
		return opts
	}
	var o mcp.ServerOptions
	if opts != nil {
		o = *opts
	}
	if o.CompletionHandler == nil {
		o.CompletionHandler = x.complete
	}
	if len(x.resources) > 0 || len(x.templates) > 0 || x.workspace != nil {
		if o.SubscribeHandler == nil {
			o.SubscribeHandler = x.subscribe
		}
		if o.UnsubscribeHandler == nil {
			o.UnsubscribeHandler = x.unsubscribe
		}
	}
	return &o
}

// install adds the prompts, resources and templates to ms.
func (x *extras) install(ms *mcp.Server) (err error) {
	if x == nil {
		return nil
	}
	if err := errors.Join(x.errs...); err != nil {
		return err
	}
	defer func() {
		if pv := recover(); pv != nil { // the SDK panics on a template it cannot parse
			err = errors.New("mcpserver: " + wink.PanicText(pv))
		}
	}()
	if err := x.addPrompts(ms); err != nil {
		return err
	}
	return x.addResources(ms)
}

// maxCompletions is MCP's bound on the values of one completion.
const maxCompletions = 100

// complete answers completion/complete for a prompt argument or a template variable.
func (x *extras) complete(ctx context.Context, req *mcp.CompleteRequest) (res *mcp.CompleteResult, err error) {
	defer func() {
		if pv := recover(); pv != nil {
			res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "completion failed: " + wink.PanicText(pv)}
		}
	}()
	p := req.Params
	var args map[string]string
	if p.Context != nil {
		args = p.Context.Arguments
	}
	var c Completer
	switch p.Ref.Type {
	case "ref/prompt":
		i := slices.IndexFunc(x.prompts, func(pr Prompt) bool { return pr.Name == p.Ref.Name })
		if i < 0 {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "completion: no prompt named " + strconv.Quote(p.Ref.Name)}
		}
		if !slices.ContainsFunc(x.prompts[i].Arguments, func(a PromptArgument) bool { return a.Name == p.Argument.Name }) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "completion: prompt " + strconv.Quote(p.Ref.Name) + " has no argument " + strconv.Quote(p.Argument.Name)}
		}
		c = x.prompts[i].Complete
	case "ref/resource":
		t := x.template(p.Ref.URI)
		if t == nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "completion: no resource template " + strconv.Quote(p.Ref.URI)}
		}
		if !slices.Contains(t.vars, p.Argument.Name) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "completion: template " + strconv.Quote(p.Ref.URI) + " has no variable " + strconv.Quote(p.Argument.Name)}
		}
		c = t.Complete
	default:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "completion: unknown reference type " + strconv.Quote(p.Ref.Type)}
	}
	res = &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
	if c == nil {
		return res, nil
	}
	vals, err := c(ctx, p.Argument.Name, p.Argument.Value, args)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "completion: " + err.Error()}
	}
	n := 0
	for _, v := range vals {
		if !strings.HasPrefix(v, p.Argument.Value) {
			continue
		}
		n++
		if len(res.Completion.Values) < maxCompletions {
			res.Completion.Values = append(res.Completion.Values, v)
		}
	}
	if n > maxCompletions {
		res.Completion.HasMore, res.Completion.Total = true, n
	}
	return res, nil
}

// sortStrings sorts ss in place.
func sortStrings(ss []string) { slices.Sort(ss) }
