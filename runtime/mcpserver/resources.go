package mcpserver

import (
	"context"
	"errors"
	"hash/fnv"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
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
	// Read returns its contents: a wink.EmbeddedResource (text) or
	// wink.EmbeddedBlob (bytes); an empty URI or MIME type is filled in.
	Read func(ctx context.Context) (wink.Content, error)
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
	// Read returns the contents of uri, which matched the template with the
	// variables vars (percent-decoded, checked as URITemplate says).
	Read func(ctx context.Context, uri string, vars map[string]string) (wink.Content, error)
	// Complete, when set, suggests values for a variable
	// (completion/complete with a ref/resource).
	Complete Completer
}

// WithResource serves r.
func WithResource(r Resource) Option {
	return func(c *config) { c.extras().resources = append(c.extras().resources, r) }
}

// WithResourceTemplate serves t.
func WithResourceTemplate(t ResourceTemplate) Option {
	return func(c *config) { c.extras().templates = append(c.extras().templates, t) }
}

// WorkspaceOptions configure WithWorkspace.
type WorkspaceOptions struct {
	// Prefix starts every file's URI, followed by its path in the
	// filesystem; "" means "workspace:///".
	Prefix string
	// MaxList bounds the files resources/list names (0 means 1000); every
	// file can be read whatever the bound.
	MaxList int
	// Poll is how often the subscribed files are checked for changes made
	// outside tool calls (0 means one second; negative: never). They are
	// always checked after every tools/call.
	Poll time.Duration
}

// WithWorkspace serves the files of fs as resources: resources/list names
// them (Prefix + path, MIME type from the extension), the template
// Prefix{+path} reads any of them (text when it is UTF-8 and not of a binary
// type, else a blob), completion suggests paths, and a client subscribed to
// a file (resources/subscribe) is sent notifications/resources/updated when
// its content changes: checked after every tools/call and every
// WorkspaceOptions.Poll. The same fs serves every client.
func WithWorkspace(fs vfs.Filesystem, o WorkspaceOptions) Option {
	return func(c *config) {
		if fs == nil {
			c.extras().errs = append(c.extras().errs, errors.New("mcpserver: WithWorkspace: nil filesystem"))
			return
		}
		if o.Prefix == "" {
			o.Prefix = "workspace:///"
		}
		if o.MaxList <= 0 {
			o.MaxList = 1000
		}
		if o.Poll == 0 {
			o.Poll = time.Second
		}
		c.extras().workspace = &workspace{fs: fs, o: o, watched: map[string]*watch{}}
	}
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
		ms.AddResource(&mcp.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType},
			readHandler(r.URI, r.MIMEType, func(ctx context.Context, _ string) (wink.Content, error) { return r.Read(ctx) }))
	}
	if w := x.workspace; w != nil {
		x.templates = append(x.templates, ResourceTemplate{
			URITemplate: w.o.Prefix + "{+path}", Name: "workspace",
			Description: "A file of the agent's workspace, by its path.",
			Read: func(_ context.Context, uri string, vars map[string]string) (wink.Content, error) {
				return w.read(uri, vars["path"])
			},
			Complete: func(_ context.Context, _, value string, _ map[string]string) ([]string, error) {
				return w.complete(value)
			},
		})
	}
	for i := range x.templates {
		t := &x.templates[i]
		if t.URITemplate == "" || t.Name == "" || t.Read == nil {
			return errors.New("mcpserver: resource template " + strconv.Quote(t.URITemplate) + ": a template needs a URITemplate, a Name and a Read function")
		}
		pt, err := parseTemplate(t)
		if err != nil {
			return err
		}
		x.tmpls = append(x.tmpls, pt)
		ms.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType},
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

// workspace serves a filesystem as resources.
//
// DESIGN-notes (where the issue is silent):
//   - URIs are WorkspaceOptions.Prefix ("workspace:///" by default, not file://: the paths are the
//     filesystem's, not the host's) followed by the path, each segment percent-escaped.
//   - resources/list is a tool-free walk of the filesystem, appended to the SDK's first page only (the
//     SDK pages the fixed resources by cursor), bounded by MaxList; every file can be read whatever
//     the bound, through the {+path} template.
//   - Change detection is by content (an FNV-64a hash of each subscribed file), checked after every
//     tools/call and every Poll while anything is subscribed: it works for every vfs.Filesystem and for
//     changes made outside the tools, and costs a read of each subscribed file per check. The poller
//     stops when the last subscription ends.
type workspace struct {
	fs vfs.Filesystem
	o  WorkspaceOptions
	ms *mcp.Server

	mu      sync.Mutex
	watched map[string]*watch // by URI
	stop    chan struct{}     // closes the poller; nil when none runs
}

// watch is one subscribed file.
type watch struct {
	path  string
	subs  int
	print uint64 // the content's hash, 0 when absent
}

// uriOf is the URI of the file p.
func (w *workspace) uriOf(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return w.o.Prefix + strings.Join(segs, "/")
}

// pathOf is the path of a workspace URI, or false.
func (w *workspace) pathOf(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, w.o.Prefix)
	if !ok || rest == "" {
		return "", false
	}
	p, err := url.PathUnescape(rest)
	if err != nil {
		return "", false
	}
	p, err = vfs.Clean(p)
	return p, err == nil
}

// mimeTypes are the MIME types of common extensions (a table of its own, so that a file's type does not
// depend on the machine's mime.types).
var mimeTypes = map[string]string{
	".txt": "text/plain", ".md": "text/markdown", ".go": "text/x-go", ".py": "text/x-python", ".sh": "text/x-shellscript",
	".html": "text/html", ".css": "text/css", ".js": "text/javascript", ".csv": "text/csv", ".ts": "text/x-typescript",
	".json": "application/json", ".yaml": "application/yaml", ".yml": "application/yaml", ".toml": "application/toml",
	".xml": "application/xml", ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".webp": "image/webp", ".pdf": "application/pdf", ".wav": "audio/wav", ".mp3": "audio/mpeg",
	".zip": "application/zip", ".gz": "application/gzip",
}

// mimeOf guesses the MIME type of the file p with content data (nil: unknown): by its extension, else
// text/plain for UTF-8 text and application/octet-stream for other bytes.
func mimeOf(p string, data []byte) string {
	if t, ok := mimeTypes[strings.ToLower(path.Ext(p))]; ok {
		return t
	}
	if data != nil && !utf8.Valid(data) {
		return "application/octet-stream"
	}
	return "text/plain"
}

// binaryType reports a MIME type whose content is not text.
func binaryType(t string) bool {
	t, _, _ = strings.Cut(t, ";")
	switch {
	case strings.HasPrefix(t, "text/"), strings.HasSuffix(t, "+json"), strings.HasSuffix(t, "+xml"):
		return false
	case t == "application/json", t == "application/xml", t == "application/javascript", t == "application/yaml", t == "application/toml":
		return false
	}
	return true
}

// read returns the contents of the file p.
func (w *workspace) read(uri, p string) (wink.Content, error) {
	cp, err := vfs.Clean(p)
	if err != nil {
		return wink.Content{}, errNotFound
	}
	data, err := w.fs.Read(cp)
	if err != nil {
		return wink.Content{}, err
	}
	t := mimeOf(cp, data)
	if utf8.Valid(data) && !binaryType(t) {
		return wink.EmbeddedResource(uri, t, string(data)), nil
	}
	return wink.EmbeddedBlob(uri, t, data), nil
}

// files lists up to MaxList files, depth first in name order.
func (w *workspace) files() []*mcp.Resource {
	var out []*mcp.Resource
	var walk func(dir string)
	walk = func(dir string) {
		es, err := w.fs.List(dir)
		if err != nil {
			return
		}
		for _, e := range es {
			if len(out) >= w.o.MaxList {
				return
			}
			if e.IsDir {
				if !e.Link {
					walk(e.Path)
				}
				continue
			}
			r := &mcp.Resource{URI: w.uriOf(e.Path), Name: e.Path, MIMEType: mimeOf(e.Path, nil)}
			if e.Size > 0 {
				r.Size = e.Size
			}
			out = append(out, r)
		}
	}
	walk(".")
	return out
}

// complete suggests file paths starting with value (the server filters by prefix).
func (w *workspace) complete(value string) ([]string, error) {
	var out []string
	for _, r := range w.files() {
		if strings.HasPrefix(r.Name, value) {
			out = append(out, r.Name)
		}
	}
	return out, nil
}

// middleware adds the workspace's files to the first page of resources/list, and checks the subscribed
// files after every tools/call.
func (w *workspace) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		switch method {
		case "resources/list":
			if lr, ok := res.(*mcp.ListResourcesResult); ok && err == nil {
				if p, ok := req.GetParams().(*mcp.ListResourcesParams); !ok || p == nil || p.Cursor == "" {
					lr.Resources = append(lr.Resources, w.files()...)
				}
			}
		case "tools/call":
			w.check(context.WithoutCancel(ctx))
		}
		return res, err
	}
}

// fingerprint is a hash of the file p's content; 0 when it cannot be read.
func (w *workspace) fingerprint(p string) uint64 {
	data, err := w.fs.Read(p)
	if err != nil {
		return 0
	}
	h := fnv.New64a()
	h.Write(data)
	return h.Sum64() | 1
}

// subscribe starts watching a workspace URI (other URIs are accepted: the SDK records the subscription,
// and the application may call the server's ResourceUpdated itself).
func (x *extras) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	w := x.workspace
	if w == nil || req.Params == nil {
		return nil
	}
	p, ok := w.pathOf(req.Params.URI)
	if !ok {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	wt := w.watched[req.Params.URI]
	if wt == nil {
		wt = &watch{path: p, print: w.fingerprint(p)}
		w.watched[req.Params.URI] = wt
	}
	wt.subs++
	if w.stop == nil && w.o.Poll > 0 {
		w.stop = make(chan struct{})
		go w.poll(w.stop)
	}
	return nil
}

// unsubscribe stops watching a URI when its last subscriber leaves.
func (x *extras) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	w := x.workspace
	if w == nil || req.Params == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if wt := w.watched[req.Params.URI]; wt != nil {
		wt.subs--
		if wt.subs <= 0 {
			delete(w.watched, req.Params.URI)
		}
	}
	if len(w.watched) == 0 && w.stop != nil {
		close(w.stop)
		w.stop = nil
	}
	return nil
}

// poll checks the watched files every Poll until stop is closed.
func (w *workspace) poll(stop chan struct{}) {
	t := time.NewTicker(w.o.Poll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			w.check(context.Background())
		}
	}
}

// check notifies the subscribers of every watched file whose content changed.
func (w *workspace) check(ctx context.Context) {
	w.mu.Lock()
	var changed []string
	for uri, wt := range w.watched {
		if fp := w.fingerprint(wt.path); fp != wt.print {
			wt.print = fp
			changed = append(changed, uri)
		}
	}
	w.mu.Unlock()
	sortStrings(changed)
	for _, uri := range changed {
		_ = w.ms.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
	}
}
