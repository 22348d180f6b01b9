package mcpserver

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/wink"
)

// Prompt is an MCP prompt the server offers (prompts/list, prompts/get):
// WithPrompt serves one written by hand, WithPrompts and WithPromptSections
// make them from package prompt's prompts and sections.
type Prompt struct {
	// Name identifies the prompt (required, unique).
	Name string
	// Title and Description are what the client shows.
	Title, Description string
	// Icons are images the client may show beside it (Icon says which are accepted).
	Icons []Icon
	// Arguments are the prompt's arguments, in order.
	Arguments []PromptArgument
	// Get returns the prompt's messages for the arguments given (absent
	// optional arguments are absent from args). A missing required argument
	// is refused before Get is called.
	Get func(ctx context.Context, args map[string]string) ([]PromptMessage, error)
	// Complete, when set, suggests values for an argument
	// (completion/complete); the values are filtered by the prefix typed.
	Complete Completer
	// Scopes are the OAuth scopes a caller's token must hold to see it
	// listed and to get it when the server is a resource server (WithAuth;
	// auth_items.go); none: any authenticated caller.
	Scopes []string
}

// PromptArgument is one argument of a Prompt.
type PromptArgument struct {
	Name, Title, Description string
	Required                 bool
}

// PromptMessage is one message of a prompt: a role ("user" or "assistant")
// and one content block (text, image, audio, an embedded resource or a
// resource link).
type PromptMessage struct {
	Role    string
	Content wink.Content
}

// WithPrompt serves p as an MCP prompt.
func WithPrompt(p Prompt) Option {
	return func(c *config) { c.extras().prompts = append(c.extras().prompts, p) }
}

// WithPrompts serves each prompt of package prompt as an MCP prompt named by
// its key: its arguments are the params of its sections (required when a
// section requires it; described by the sections that use it and the
// default), and prompts/get renders it with the arguments given and answers
// one user message holding the markdown. Completion suggests a param's
// default.
func WithPrompts(ps ...*prompt.Prompt) Option {
	return func(c *config) {
		for _, p := range ps {
			if p == nil {
				c.extras().errs = append(c.extras().errs, errors.New("mcpserver: WithPrompts: nil prompt"))
				continue
			}
			c.extras().prompts = append(c.extras().prompts, promptOf(p.Key(), "", p, p.Sections()))
		}
	}
}

// WithPromptSections serves each section (with its children) as an MCP
// prompt named by its key and described by its title, as WithPrompts does
// for a prompt holding that section alone.
func WithPromptSections(sections ...*prompt.Section) Option {
	return func(c *config) {
		for _, s := range sections {
			if s == nil {
				c.extras().errs = append(c.extras().errs, errors.New("mcpserver: WithPromptSections: nil section"))
				continue
			}
			p, err := prompt.New(s.Key(), s)
			if err != nil {
				c.extras().errs = append(c.extras().errs, errors.New("mcpserver: WithPromptSections: "+err.Error()))
				continue
			}
			c.extras().prompts = append(c.extras().prompts, promptOf(s.Key(), s.Title(), p, []*prompt.Section{s}))
		}
	}
}

// promptOf is the MCP prompt of p, whose top sections are top.
func promptOf(name, title string, p *prompt.Prompt, top []*prompt.Section) Prompt {
	type argInfo struct {
		required bool
		def      string
		hasDef   bool
		users    []string
	}
	args := map[string]*argInfo{}
	var order []string
	var titles []string
	var walk func(s *prompt.Section)
	walk = func(s *prompt.Section) {
		for _, prm := range s.Params() {
			a := args[prm.Name]
			if a == nil {
				a = &argInfo{}
				args[prm.Name] = a
				order = append(order, prm.Name)
			}
			a.required = a.required || prm.Required
			if !prm.Required && prm.Default != "" && !a.hasDef {
				a.def, a.hasDef = prm.Default, true
			}
			a.users = append(a.users, strconv.Quote(s.Title()))
		}
		for _, c := range s.Children() {
			walk(c)
		}
	}
	for _, s := range top {
		titles = append(titles, s.Title())
		walk(s)
	}
	out := Prompt{Name: name, Title: title}
	if title != "" {
		out.Description = "The " + strconv.Quote(title) + " section of the agent's prompt."
	} else {
		out.Description = "The agent's prompt " + strconv.Quote(name) + ": " + strings.Join(titles, ", ") + "."
	}
	for _, n := range order {
		a := args[n]
		d := "Value of ${" + n + "} in " + strings.Join(a.users, ", ")
		if a.hasDef {
			d += "; default " + strconv.Quote(a.def)
		}
		out.Arguments = append(out.Arguments, PromptArgument{Name: n, Description: d + ".", Required: a.required})
	}
	out.Get = func(_ context.Context, vars map[string]string) ([]PromptMessage, error) {
		r, err := p.Render(prompt.Vars(vars))
		if err != nil {
			return nil, err
		}
		return []PromptMessage{{Role: "user", Content: wink.Text(r.Text)}}, nil
	}
	out.Complete = func(_ context.Context, arg, _ string, _ map[string]string) ([]string, error) {
		if a := args[arg]; a != nil && a.hasDef {
			return []string{a.def}, nil
		}
		return nil, nil
	}
	return out
}

// addPrompts registers the prompts on ms.
func (x *extras) addPrompts(ms *mcp.Server) error {
	seen := map[string]bool{}
	for i := range x.prompts {
		p := &x.prompts[i]
		if p.Name == "" || p.Get == nil {
			return errors.New("mcpserver: prompt " + strconv.Quote(p.Name) + ": a prompt needs a Name and a Get function")
		}
		if seen[p.Name] {
			return errors.New("mcpserver: two prompts are named " + strconv.Quote(p.Name))
		}
		seen[p.Name] = true
		icons, err := mcpIcons("prompt "+strconv.Quote(p.Name), p.Icons)
		if err != nil {
			return err
		}
		mp := &mcp.Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Icons: icons}
		for _, a := range p.Arguments {
			mp.Arguments = append(mp.Arguments, &mcp.PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
		}
		ms.AddPrompt(mp, promptHandler(p))
	}
	return nil
}

// promptHandler answers prompts/get for p.
func promptHandler(p *Prompt) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (res *mcp.GetPromptResult, err error) {
		defer func() {
			if pv := recover(); pv != nil {
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "prompt " + strconv.Quote(p.Name) + " failed: " + wink.PanicText(pv)}
			}
		}()
		args := map[string]string{}
		if req.Params != nil && req.Params.Arguments != nil {
			args = req.Params.Arguments
		}
		known := map[string]bool{}
		var missing []string
		for _, a := range p.Arguments {
			known[a.Name] = true
			if _, ok := args[a.Name]; a.Required && !ok {
				missing = append(missing, strconv.Quote(a.Name))
			}
		}
		var unknown []string
		for k := range args {
			if !known[k] {
				unknown = append(unknown, strconv.Quote(k))
			}
		}
		if len(missing) > 0 || len(unknown) > 0 {
			msg := "prompt " + strconv.Quote(p.Name) + ":"
			if len(missing) > 0 {
				msg += " missing required argument " + strings.Join(missing, ", ") + ";"
			}
			if len(unknown) > 0 {
				sortStrings(unknown)
				msg += " unknown argument " + strings.Join(unknown, ", ") + ";"
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: strings.TrimSuffix(msg, ";")}
		}
		msgs, err := p.Get(ctx, args)
		if ir, state, perr, ok := itemAnswer(ctx, err); ok { // Get asks the client (asking_items.go)
			if perr != nil {
				return nil, perr
			}
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{}, InputRequests: ir, RequestState: state}, nil
		}
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "prompt " + strconv.Quote(p.Name) + ": " + err.Error()}
		}
		res = &mcp.GetPromptResult{Description: p.Description, Messages: make([]*mcp.PromptMessage, 0, len(msgs))}
		for _, m := range msgs {
			role := m.Role
			if role == "" {
				role = "user"
			}
			res.Messages = append(res.Messages, &mcp.PromptMessage{Role: mcp.Role(role), Content: mcpContent(m.Content)})
		}
		return res, nil
	}
}
