package mcpserver

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// Resource is a resource with a fixed URI (resources/list, resources/read).
type Resource struct {
	// URI identifies the resource (required, absolute: "test://static-text").
	URI string
	// Name (required), Title, Description and MIMEType describe it.
	Name, Title, Description, MIMEType string
	// Icons are images the client may show beside it (Icon says which are accepted).
	Icons []Icon
	// Read returns its contents: a wink.EmbeddedResource (text) or
	// wink.EmbeddedBlob (bytes); an empty URI or MIME type is filled in.
	Read func(ctx context.Context) (wink.Content, error)
	// Scopes are the OAuth scopes a caller's token must hold to see it
	// listed and to read it when the server is a resource server (WithAuth;
	// auth_items.go); none: any authenticated caller.
	Scopes []string
}

// ResourceTemplate is a family of resources named by a URI template
// (resources/templates/list; resources/read of a URI it matches).
type ResourceTemplate struct {
	// URITemplate is an RFC 6570 template using simple ("{id}") and
	// reserved ("{+path}") expansions only.
	//
	// A simple variable holds one path segment's text, checked after
	// percent-decoding (so that "..%2Fsecret" is not "../secret"): a URI
	// whose decoded value is empty, "." or "..", or holds "/", a backslash, "?",
	// "#", "[", "]", "%" (double encoding), a control character or invalid
	// UTF-8 does not match the template, and its Read is never called
	// ("Resource not found"). A reserved variable may hold "/" and ".."
	// segments, as RFC 6570 reserved expansion allows: a Read that maps it
	// to a file must clean and confine it itself (vfs.Clean); only NUL,
	// control characters and invalid UTF-8 are refused there.
	URITemplate string
	// Name (required), Title, Description and MIMEType describe it.
	Name, Title, Description, MIMEType string
	// Icons are images the client may show beside it (Icon says which are accepted).
	Icons []Icon
	// Read returns the contents of uri, which matched the template with the
	// variables vars (percent-decoded, checked as URITemplate says).
	Read func(ctx context.Context, uri string, vars map[string]string) (wink.Content, error)
	// Complete, when set, suggests values for a variable
	// (completion/complete with a ref/resource).
	Complete Completer
	// Scopes are the OAuth scopes a caller's token must hold to see it
	// listed and to read the resources of it when the server is a resource server (WithAuth;
	// auth_items.go); none: any authenticated caller.
	Scopes []string
}

// WithResource serves r.
func WithResource(r Resource) Option {
	return func(c *config) { c.extras().resources = append(c.extras().resources, r) }
}

// WithResourceTemplate serves t.
func WithResourceTemplate(t ResourceTemplate) Option {
	return func(c *config) { c.extras().templates = append(c.extras().templates, t) }
}

// tmpl is a parsed resource template.
type tmpl struct {
	*ResourceTemplate
	re       *regexp.Regexp
	vars     []string
	reserved []bool // by variable: a {+var}
}

// tmplVar matches one expression of a URI template.
var tmplVar = regexp.MustCompile(`\{([^{}]*)\}`)

// parseTemplate parses t.URITemplate.
func parseTemplate(t *ResourceTemplate) (*tmpl, error) {
	var re strings.Builder
	re.WriteString("^")
	var vars []string
	var res []bool
	last := 0
	for _, m := range tmplVar.FindAllStringSubmatchIndex(t.URITemplate, -1) {
		re.WriteString(regexp.QuoteMeta(t.URITemplate[last:m[0]]))
		expr := t.URITemplate[m[2]:m[3]]
		reserved := strings.HasPrefix(expr, "+")
		name := strings.TrimPrefix(expr, "+")
		if name == "" || strings.ContainsAny(name, "#./;?&,*:=") {
			return nil, errors.New("mcpserver: resource template " + strconv.Quote(t.URITemplate) + ": expression {" + expr + "} is not supported (use {name} or {+name})")
		}
		vars = append(vars, name)
		res = append(res, reserved)
		if reserved {
			re.WriteString("(.+)")
		} else {
			re.WriteString("([^/?#]+)")
		}
		last = m[1]
	}
	re.WriteString(regexp.QuoteMeta(t.URITemplate[last:]) + "$")
	if strings.ContainsAny(t.URITemplate[last:], "{}") {
		return nil, errors.New("mcpserver: resource template " + strconv.Quote(t.URITemplate) + ": unbalanced braces")
	}
	return &tmpl{ResourceTemplate: t, re: regexp.MustCompile(re.String()), vars: vars, reserved: res}, nil
}

// match returns the variables of uri, percent-decoded and checked (validValue), or false.
func (t *tmpl) match(uri string) (map[string]string, bool) {
	m := t.re.FindStringSubmatch(uri)
	if m == nil {
		return nil, false
	}
	vars := make(map[string]string, len(t.vars))
	for i, n := range t.vars {
		v, err := url.PathUnescape(m[i+1])
		if err != nil || !validValue(v, t.reserved[i]) {
			return nil, false
		}
		vars[n] = v
	}
	return vars, true
}

// validValue reports whether v, a variable's percent-decoded value, is one the template's expansion
// could stand for (the rules are in ResourceTemplate.URITemplate's doc). The matching expression keeps
// a simple variable's raw text free of "/", "?" and "#"; this is the check after decoding, where "%2F",
// "%2e%2e" and "%252F" are seen for what they are.
//
// DESIGN-note: RFC 6570 simple expansion percent-encodes everything but the unreserved characters, so
// "%2F" could in principle expand a value holding "/". The server promises handlers a single segment
// instead, which is what a template such as "docs://{id}" joined to a directory relies on, and so
// refuses what would break that promise: separators, dot segments, query and fragment delimiters, the
// "%" of a second encoding, and control characters. Other characters ("@", ":", "+", spaces, any
// Unicode letter) are ordinary values.
func validValue(v string, reserved bool) bool {
	if !utf8.ValidString(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < 0x20 || c == 0x7f {
			return false
		}
		if !reserved && strings.IndexByte(`/\?#[]%`, c) >= 0 {
			return false
		}
	}
	return reserved || (v != "" && v != "." && v != "..")
}

// template returns the parsed template whose URI template is uriTemplate, or nil.
func (x *extras) template(uriTemplate string) *tmpl {
	for _, t := range x.parsed() {
		if t.URITemplate == uriTemplate {
			return t
		}
	}
	return nil
}

// parsed returns the templates, the workspace's last; parsed once by addResources.
func (x *extras) parsed() []*tmpl {
	return x.tmpls
}

// allTemplates returns the templates, the workspace's (which reads its files) last.
func (x *extras) allTemplates() []ResourceTemplate {
	w := x.workspace
	if w == nil {
		return x.templates
	}
	return append(x.templates[:len(x.templates):len(x.templates)], ResourceTemplate{
		URITemplate: w.o.Prefix + "{+path}", Name: "workspace",
		Description: "A file of the agent's workspace, by its path.",
		Read: func(_ context.Context, uri string, vars map[string]string) (wink.Content, error) {
			return w.read(uri, vars["path"])
		},
		Complete: func(_ context.Context, _, value string, _ map[string]string) ([]string, error) {
			return w.complete(value)
		},
		Scopes: w.o.Scopes,
	})
}

// addResources registers the resources, the templates and the workspace on ms.
func (x *extras) addResources(ms *mcp.Server) error {
	for i := range x.resources {
		r := &x.resources[i]
		if r.URI == "" || r.Name == "" || r.Read == nil {
			return errors.New("mcpserver: resource " + strconv.Quote(r.URI) + ": a resource needs a URI, a Name and a Read function")
		}
		if u, err := url.Parse(r.URI); err != nil || u.Scheme == "" {
			return errors.New("mcpserver: resource URI " + strconv.Quote(r.URI) + " is not an absolute URI")
		}
		icons, err := mcpIcons("resource "+strconv.Quote(r.URI), r.Icons)
		if err != nil {
			return err
		}
		ms.AddResource(&mcp.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Icons: icons},
			readHandler(r.URI, r.MIMEType, func(ctx context.Context, _ string) (wink.Content, error) { return r.Read(ctx) }))
	}
	templates := x.allTemplates()
	for i := range templates {
		t := &templates[i]
		if t.URITemplate == "" || t.Name == "" || t.Read == nil {
			return errors.New("mcpserver: resource template " + strconv.Quote(t.URITemplate) + ": a template needs a URITemplate, a Name and a Read function")
		}
		pt, err := parseTemplate(t)
		if err != nil {
			return err
		}
		icons, err := mcpIcons("resource template "+strconv.Quote(t.URITemplate), t.Icons)
		if err != nil {
			return err
		}
		x.tmpls = append(x.tmpls, pt)
		ms.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType, Icons: icons},
			readHandler(t.URITemplate, t.MIMEType, func(ctx context.Context, uri string) (wink.Content, error) {
				vars, ok := pt.match(uri)
				if !ok {
					return wink.Content{}, errNotFound
				}
				return t.Read(ctx, uri, vars)
			}))
	}
	if w := x.workspace; w != nil {
		w.ms = ms
		ms.AddReceivingMiddleware(w.middleware)
	}
	return nil
}

// errNotFound makes resources/read answer "Resource not found".
var errNotFound = errors.New("not found")

// readHandler answers resources/read with what read returns.
func readHandler(name, mimeType string, read func(ctx context.Context, uri string) (wink.Content, error)) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (res *mcp.ReadResourceResult, err error) {
		uri := req.Params.URI
		defer func() {
			if pv := recover(); pv != nil {
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "resource " + strconv.Quote(uri) + ": " + wink.PanicText(pv)}
			}
		}()
		c, err := read(ctx, uri)
		if ir, state, perr, ok := itemAnswer(ctx, err); ok { // Read asks the client (asking_items.go)
			if perr != nil {
				return nil, perr
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{}, InputRequests: ir, RequestState: state}, nil
		}
		if errors.Is(err, errNotFound) || errors.Is(err, vfs.ErrNotFound) || errors.Is(err, vfs.ErrIsDir) {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "resource " + strconv.Quote(uri) + ": " + err.Error()}
		}
		if c.Kind != wink.KindResource {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "resource " + strconv.Quote(uri) + ": Read returned a " + c.Kind.String() + " block, not a resource (wink.EmbeddedResource or wink.EmbeddedBlob)"}
		}
		if c.URI == "" {
			c.URI = uri
		}
		if c.MIMEType == "" {
			c.MIMEType = mimeType
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{resourceContents(c)}}, nil
	}
}
