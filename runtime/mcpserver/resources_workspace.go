package mcpserver

import (
	"context"
	"errors"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// WorkspaceOptions configure WithWorkspace.
type WorkspaceOptions struct {
	// Prefix starts every file's URI, followed by its path in the
	// filesystem; "" means "workspace:///".
	Prefix string
	// MaxList bounds the files resources/list names (0 means 1000); every
	// file can be read whatever the bound.
	MaxList int
	// Poll is how often a background watcher looks at the subscribed files
	// for changes (0 means one second; negative: only when woken by a
	// tools/call). A tools/call wakes it too, without waiting for it.
	Poll time.Duration
	// MaxHashBytes bounds the bytes the watcher reads per round to confirm
	// changes (0 means DefaultMaxHashBytes); files past it are looked at
	// in the next round.
	MaxHashBytes int64
	// Scopes are the OAuth scopes a caller's token must hold to see the
	// workspace's files and template listed, read them, complete their
	// paths and subscribe to them when the server is a resource server
	// (WithAuth; as Resource.Scopes); none: any authenticated caller.
	Scopes []string
}

// DefaultMaxHashBytes is how many bytes of changed subscribed files the
// workspace watcher reads per round unless WorkspaceOptions.MaxHashBytes
// says otherwise.
const DefaultMaxHashBytes int64 = 64 << 20

// WithWorkspace serves the files of fs as resources: resources/list names
// them (Prefix + path, MIME type from the extension), the template
// Prefix{+path} reads any of them (text when it is UTF-8 and not of a binary
// type, else a blob), completion suggests paths, and a client subscribed to
// a file (resources/subscribe) is sent notifications/resources/updated when
// its content changes. The same fs serves every client.
//
// A file has one URI: Prefix followed by its cleaned path, each segment
// percent-escaped (workspace:///a%20b.txt). Subscriptions are keyed by it:
// "workspace:///./a/../README.md", "workspace:///%52EADME.md" and
// "workspace:///README.md" are one subscription, and notifications name the
// file by its one URI. They count against WithSubscriptionLimits and end
// with the client's session. Changes are found by a background watcher,
// never on a client's request: every WorkspaceOptions.Poll, and soon after
// any tools/call, it compares each subscribed file's size and modification
// time and reads only files whose size or time changed (or changed within
// the last two seconds, which a coarse clock could hide), at most
// MaxHashBytes per round, to compare their content's hash.
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
		if o.MaxHashBytes <= 0 {
			o.MaxHashBytes = DefaultMaxHashBytes
		}
		c.extras().workspace = &workspace{fs: fs, o: o, watched: map[string]*watch{}}
	}
}

// workspace serves a filesystem as resources.
//
// DESIGN-notes (choices made here):
//   - URIs are WorkspaceOptions.Prefix ("workspace:///" by default, not file://: the paths are the
//     filesystem's, not the host's) followed by the path, each segment percent-escaped.
//   - resources/list is a tool-free walk of the filesystem, appended to the SDK's first page only (the
//     SDK pages the fixed resources by cursor), bounded by MaxList; every file can be read whatever
//     the bound, through the {+path} template.
//   - Subscriptions and change detection: resources_subs.go and resources_watch.go.
type workspace struct {
	fs vfs.Filesystem
	o  WorkspaceOptions
	ms *mcp.Server

	mu      sync.Mutex
	watched map[string]*watch // by canonical URI
	stop    chan struct{}     // closes the watcher; nil when none runs
	kick    chan struct{}     // wakes the watcher (buffered, one pending wake at most)
	// scanned, when set (tests), is called after each round of the watcher.
	scanned func()
}

// uriOf is the URI of the file p (cleaned): the one spelling of its URI.
func (w *workspace) uriOf(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return w.o.Prefix + strings.Join(segs, "/")
}

// pathOf is the cleaned path of a workspace URI, or false.
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
	return p, err == nil && p != "."
}

// canonical returns the one URI of the file a workspace URI names (percent-decoded, dot segments and
// repeated slashes removed, re-escaped) and its path; ours is false for a URI outside the workspace's
// prefix, ok false for one inside it that names no path in the workspace.
func (w *workspace) canonical(uri string) (canon, p string, ours, ok bool) {
	if w == nil || !strings.HasPrefix(uri, w.o.Prefix) {
		return uri, "", false, false
	}
	p, ok = w.pathOf(uri)
	if !ok {
		return uri, "", true, false
	}
	return w.uriOf(p), p, true, true
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

// middleware adds the workspace's files to the first page of resources/list; gives the SDK the one URI
// of every workspace file a subscription names (resources/subscribe, resources/unsubscribe,
// subscriptions/listen), so that it records and notifies one subscription per file and session; and
// wakes the watcher after a tools/call (a send that never waits: the call does no work for subscribers).
func (w *workspace) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch p := req.GetParams().(type) {
		case *mcp.SubscribeParams:
			if p != nil {
				p.URI, _, _, _ = w.canonical(p.URI)
			}
		case *mcp.UnsubscribeParams:
			if p != nil {
				p.URI, _, _, _ = w.canonical(p.URI)
			}
		case *mcp.SubscriptionsListenParams:
			if p != nil && p.Notifications != nil {
				for i, u := range p.Notifications.ResourceSubscriptions {
					p.Notifications.ResourceSubscriptions[i], _, _, _ = w.canonical(u)
				}
			}
		}
		res, err := next(ctx, method, req)
		switch method {
		case "resources/list":
			if lr, ok := res.(*mcp.ListResourcesResult); ok && err == nil {
				if p, ok := req.GetParams().(*mcp.ListResourcesParams); !ok || p == nil || p.Cursor == "" {
					lr.Resources = append(lr.Resources, w.files()...)
				}
			}
		case "tools/call":
			w.wake()
		}
		return res, err
	}
}
