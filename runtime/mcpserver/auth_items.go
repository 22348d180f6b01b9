package mcpserver

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/wink"
)

// Prompts, resources and resource templates may declare the OAuth scopes a caller's token must hold
// (Prompt.Scopes, Resource.Scopes, ResourceTemplate.Scopes, WorkspaceOptions.Scopes, and WithScopes for
// what an option makes, such as WithPrompts' and WithPromptSections' prompts), as a tool does with
// //wink:tool scopes=. With WithAuth, for a caller whose token lacks any of them:
//
//   - prompts/list, resources/list and resources/templates/list leave them out, marked private for
//     caching (cacheScope "private"); a listed resource whose URI a scoped template matches (a
//     workspace's files) needs that template's scopes, as reading it does;
//   - prompts/get, resources/read, completion/complete of a prompt's argument or a template's variable,
//     and resources/subscribe get HTTP 403 with the step-up challenge naming every scope the prompt or
//     resource needs (as a tools/call does); where no status can be set (a batch, a body too large to
//     read first, subscriptions/listen, a server behind the SDK's own bearer middleware) a JSON-RPC
//     error that names the missing scopes;
//   - with auth.Config.HideTools, each is answered exactly as for a prompt, resource or template that
//     does not exist ("unknown prompt", "Resource not found", completion's "no prompt named"/"no
//     resource template"), and a subscription to a resource (resources/subscribe, or one URI of
//     subscriptions/listen) is accepted as one to an unknown URI is, but its session is never sent
//     notifications/resources/updated for it.
//
// A resource read by a URI that several templates match needs the scopes of every one of them (the
// server cannot know which one the SDK will pick before it picks it). Nothing declaring no scopes is
// restricted beyond the token being valid; a caller without a principal (stdio) sees everything.

// WithScopes gives the prompts, resources, resource templates and workspace that opts add (WithPrompt,
// WithPrompts, WithPromptSections, WithResource, WithResourceTemplate, WithWorkspace) the OAuth scopes
// scopes besides those they declare themselves, for prompts made from package prompt, which have no
// Scopes field of their own:
//
//	mcpserver.WithScopes([]string{"prompts:read"}, mcpserver.WithPrompts(support, billing))
//
// Tools declare theirs with //wink:tool scopes=; opts adding anything else apply as given.
func WithScopes(scopes []string, opts ...Option) Option {
	return func(c *config) {
		x := c.extras()
		np, nr, nt, w := len(x.prompts), len(x.resources), len(x.templates), x.workspace
		for _, o := range opts {
			o(c)
		}
		for i := np; i < len(x.prompts); i++ {
			x.prompts[i].Scopes = withScopes(x.prompts[i].Scopes, scopes)
		}
		for i := nr; i < len(x.resources); i++ {
			x.resources[i].Scopes = withScopes(x.resources[i].Scopes, scopes)
		}
		for i := nt; i < len(x.templates); i++ {
			x.templates[i].Scopes = withScopes(x.templates[i].Scopes, scopes)
		}
		if x.workspace != nil && x.workspace != w {
			x.workspace.o.Scopes = withScopes(x.workspace.o.Scopes, scopes)
		}
	}
}

// withScopes returns own with the scopes of more it lacks appended (a new slice).
func withScopes(own, more []string) []string {
	out := slices.Clone(own)
	for _, sc := range more {
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// itemScopes are the scopes the prompts, resources and templates of a server declare.
type itemScopes struct {
	prompts   map[string][]string
	resources map[string][]string
	templates []scopedTemplate
	all       []string   // every scope declared, for the metadata's scopes_supported
	ws        *workspace // its URIs are canonicalized for subscriptions; may be nil
	muted     mutedSubs  // hidden subscriptions (auth_subs.go)
}

type scopedTemplate struct {
	uriTemplate string
	t           *tmpl
	scopes      []string
}

// itemScopesOf checks and collects the scopes x declares; nil when none does.
func itemScopesOf(x *extras) (*itemScopes, error) {
	if x == nil {
		return nil, nil
	}
	s := &itemScopes{prompts: map[string][]string{}, resources: map[string][]string{}, ws: x.workspace}
	check := func(what string, scopes []string) error {
		for i, sc := range scopes {
			if !wink.ValidScope(sc) {
				return errors.New("mcpserver: " + what + ": scope " + strconv.Quote(sc) + " is not an RFC 6749 scope-token (printable ASCII without space, '\"' or '\\\\')")
			}
			if slices.Contains(scopes[:i], sc) {
				return errors.New("mcpserver: " + what + ": scope " + strconv.Quote(sc) + " is given twice")
			}
			if !slices.Contains(s.all, sc) {
				s.all = append(s.all, sc)
			}
		}
		return nil
	}
	for _, p := range x.prompts {
		if err := check("prompt "+strconv.Quote(p.Name), p.Scopes); err != nil {
			return nil, err
		}
		if len(p.Scopes) > 0 {
			s.prompts[p.Name] = p.Scopes
		}
	}
	for _, r := range x.resources {
		if err := check("resource "+strconv.Quote(r.URI), r.Scopes); err != nil {
			return nil, err
		}
		if len(r.Scopes) > 0 {
			s.resources[r.URI] = r.Scopes
		}
	}
	templates := x.allTemplates() // the workspace's too
	for i := range templates {
		t := &templates[i]
		if err := check("resource template "+strconv.Quote(t.URITemplate), t.Scopes); err != nil {
			return nil, err
		}
		if len(t.Scopes) == 0 {
			continue
		}
		pt, err := parseTemplate(t)
		if err != nil {
			return nil, err
		}
		s.templates = append(s.templates, scopedTemplate{uriTemplate: t.URITemplate, t: pt, scopes: t.Scopes})
	}
	if len(s.all) == 0 {
		return nil, nil
	}
	return s, nil
}

// of returns the scopes a request needs: prompts/get of the prompt name, resources/read or
// resources/subscribe of the URI name, completion/complete of a variable of the template name (a
// prompt's argument needs what prompts/get of it needs); ok is false for any other method and for
// what declares none.
func (s *itemScopes) of(method, name string) (need []string, ok bool) {
	if s == nil {
		return nil, false
	}
	switch method {
	case "prompts/get":
		need = s.prompts[name]
	case "resources/read", "resources/subscribe":
		if need = s.resources[name]; need == nil {
			for _, t := range s.templates {
				if _, m := t.t.match(name); m {
					need = withScopes(need, t.scopes)
				}
			}
		}
	case "completion/complete":
		for _, t := range s.templates {
			if t.uriTemplate == name {
				need = withScopes(need, t.scopes)
			}
		}
	}
	return need, len(need) > 0
}

// itemsByScopes is the receiving middleware that filters prompts/list, resources/list and
// resources/templates/list by the caller's principal and refuses (or, hiding, answers as unknown)
// prompts/get and resources/read of what the principal may not get.
func itemsByScopes(cfg *auth.Config, items *itemScopes) mcp.Middleware {
	hide := cfg != nil && cfg.HideTools
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		if items == nil {
			return next
		}
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if req == nil || req.GetExtra() == nil || req.GetExtra().TokenInfo == nil {
				return next(ctx, method, req)
			}
			p := auth.PrincipalOf(req.GetExtra().TokenInfo)
			switch method {
			case "prompts/get":
				if gp, ok := req.GetParams().(*mcp.GetPromptParams); ok && gp != nil {
					if need, ok := items.of(method, gp.Name); ok && len(p.Missing(need)) > 0 {
						if hide {
							return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown prompt " + strconv.Quote(gp.Name)}
						}
						return nil, scopeRefusal("prompt "+strconv.Quote(gp.Name)+" was not read", need, p.Missing(need))
					}
				}
			case "resources/read":
				if rp, ok := req.GetParams().(*mcp.ReadResourceParams); ok && rp != nil {
					if need, ok := items.of(method, rp.URI); ok && len(p.Missing(need)) > 0 {
						if hide {
							return nil, mcp.ResourceNotFoundError(rp.URI)
						}
						return nil, scopeRefusal("resource "+strconv.Quote(rp.URI)+" was not read", need, p.Missing(need))
					}
				}
			case "completion/complete":
				if cp, ok := req.GetParams().(*mcp.CompleteParams); ok && cp != nil && cp.Ref != nil {
					if err := items.completion(p, cp.Ref, hide); err != nil {
						return nil, err
					}
				}
				return next(ctx, method, req)
			case "resources/subscribe", "subscriptions/listen":
				if err := items.subscription(p, req, hide); err != nil {
					return nil, err
				}
				return next(ctx, method, req)
			case "prompts/list", "resources/list", "resources/templates/list":
			default:
				return next(ctx, method, req)
			}
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			switch r := res.(type) {
			case *mcp.ListPromptsResult:
				out := *r
				out.Prompts = slices.DeleteFunc(slices.Clone(r.Prompts), func(x *mcp.Prompt) bool {
					return len(p.Missing(items.prompts[x.Name])) > 0
				})
				out.CacheScope = "private"
				return &out, nil
			case *mcp.ListResourcesResult:
				out := *r
				out.Resources = slices.DeleteFunc(slices.Clone(r.Resources), func(x *mcp.Resource) bool {
					need, _ := items.of("resources/read", x.URI) // a workspace's files: its template's
					return len(p.Missing(need)) > 0
				})
				out.CacheScope = "private"
				return &out, nil
			case *mcp.ListResourceTemplatesResult:
				out := *r
				out.ResourceTemplates = slices.DeleteFunc(slices.Clone(r.ResourceTemplates), func(x *mcp.ResourceTemplate) bool {
					for _, t := range items.templates {
						if t.uriTemplate == x.URITemplate && len(p.Missing(t.scopes)) > 0 {
							return true
						}
					}
					return false
				})
				out.CacheScope = "private"
				return &out, nil
			}
			return res, err
		}
	}
}

// scopeRefusal is the JSON-RPC error of a request lacking scopes, where no HTTP status says so: what
// says what was refused ("prompt \"x\" was not read").
func scopeRefusal(what string, need, missing []string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: what + ": the caller's token lacks the scope" +
		plural(missing) + " " + strings.Join(missing, " ") + "; obtain a token granting \"" + strings.Join(need, " ") +
		"\" from the authorization server and ask again"}
}

func plural(s []string) string {
	if len(s) > 1 {
		return "s"
	}
	return ""
}
