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
// (Prompt.Scopes, Resource.Scopes, ResourceTemplate.Scopes), as a tool does with //wink:tool scopes=.
// With WithAuth:
//
//   - prompts/list, resources/list and resources/templates/list show a caller only what its token
//     permits, marked private for caching (cacheScope "private");
//   - prompts/get and resources/read of what the token does not permit get HTTP 403 with the step-up
//     challenge naming every scope the prompt or resource needs (as a tools/call does); where no status
//     can be set (a batch, a body too large to read first) a JSON-RPC error that names the missing
//     scopes;
//   - with auth.Config.HideTools, they are answered exactly as a prompt or resource that does not
//     exist ("unknown prompt", "Resource not found").
//
// A resource read by a URI that several templates match needs the scopes of every one of them (the
// server cannot know which one the SDK will pick before it picks it). Nothing declaring no scopes is
// restricted beyond the token being valid; a caller without a principal (stdio) sees everything.

// itemScopes are the scopes the prompts, resources and templates of a server declare.
type itemScopes struct {
	prompts   map[string][]string
	resources map[string][]string
	templates []scopedTemplate
	all       []string // every scope declared, for the metadata's scopes_supported
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
	s := &itemScopes{prompts: map[string][]string{}, resources: map[string][]string{}}
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
	for i := range x.templates {
		t := &x.templates[i]
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

// of returns the scopes prompts/get of name, or resources/read of the URI name, needs; ok is false for
// any other method and for what declares none.
func (s *itemScopes) of(method, name string) (need []string, ok bool) {
	if s == nil {
		return nil, false
	}
	switch method {
	case "prompts/get":
		need = s.prompts[name]
	case "resources/read":
		if need = s.resources[name]; need == nil {
			for _, t := range s.templates {
				if _, m := t.t.match(name); m {
					for _, sc := range t.scopes {
						if !slices.Contains(need, sc) {
							need = append(need, sc)
						}
					}
				}
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
						return nil, scopeRefusal("prompt "+strconv.Quote(gp.Name), need, p.Missing(need))
					}
				}
			case "resources/read":
				if rp, ok := req.GetParams().(*mcp.ReadResourceParams); ok && rp != nil {
					if need, ok := items.of(method, rp.URI); ok && len(p.Missing(need)) > 0 {
						if hide {
							return nil, mcp.ResourceNotFoundError(rp.URI)
						}
						return nil, scopeRefusal("resource "+strconv.Quote(rp.URI), need, p.Missing(need))
					}
				}
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
					return len(p.Missing(items.resources[x.URI])) > 0
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

// scopeRefusal is the JSON-RPC error of a get or read lacking scopes, where no HTTP status says so.
func scopeRefusal(what string, need, missing []string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: what + " was not read: the caller's token lacks the scope" +
		plural(missing) + " " + strings.Join(missing, " ") + "; obtain a token granting \"" + strings.Join(need, " ") +
		"\" from the authorization server and ask again"}
}

func plural(s []string) string {
	if len(s) > 1 {
		return "s"
	}
	return ""
}
