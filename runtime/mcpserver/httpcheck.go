package mcpserver

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// What HTTPHandler checks before the SDK sees a request.
//
//   - Origin. A browser names the page that sends a request in its Origin header; a web page on another
//     site could otherwise drive a server that a browser can reach (a local server, one on the intranet),
//     since the protocol's requests need no credentials the page lacks (before, only the Content-Type
//     check stood in its way). A request with an Origin is served only when that origin is the server's
//     own (its host and port are the request's Host), a loopback one (localhost, 127.0.0.0/8, [::1]: a
//     page the user runs on their own machine, such as the MCP Inspector), or one given with
//     WithAllowedOrigins; any other is refused with HTTP 403 before anything is read. A request without
//     Origin (every non-browser client: SDKs, CLIs, agents) is served. The origin "null" (sandboxed
//     frames, files) is refused unless allowed by name. DNS rebinding (a hostile name resolving to the
//     server's address, so that the page is "same-origin") is refused by the SDK's Host check on a
//     loopback address (StreamableHTTPOptions.DisableLocalhostProtection, on by default); a server on
//     another address checks Host where it is deployed (a reverse proxy's virtual host) or lists its
//     origins.
//   - The message. A POST body of JSON is read (within the request bound, WithMaxRequestBytes: HTTP 413
//     past it, the SDK's answer) and checked as a stdio line is (checkLine: a JSON-RPC 2.0 message, no
//     member given twice at any depth; unique.go), each message of a batch (which the SDK accepts from
//     clients before protocol 2025-06-18) too. A body that fails is answered with HTTP 400 and the
//     JSON-RPC error (-32700 Parse error or -32600 Invalid Request, the message's id when it could be
//     read) and nothing of it runs; the SDK reads the checked bytes.

// WithAllowedOrigins lets browser pages of the given origins ("https://app.example.com", scheme, host
// and port when not the scheme's default) call HTTPHandler's server, besides the server's own origin and
// loopback origins, which are always allowed. "*" allows every origin (do not, on a server a browser can
// reach that holds anything of value). Requests without an Origin header are always served.
func WithAllowedOrigins(origins ...string) Option {
	return func(c *config) { c.origins = append(c.origins, origins...) }
}

// guard is HTTPHandler's outermost handler: the checks above, then next.
type guard struct {
	next     http.Handler
	maxBytes int64                         // the request bound; < 0: none
	origins  map[string]bool               // WithAllowedOrigins, normalized
	anyOrig  bool                          // "*"
	headers  map[string][]wink.ParamHeader // the tools' Spec.Headers (headers.go)
}

func newGuard(next http.Handler, maxBytes int64, origins []string) *guard {
	g := &guard{next: next, maxBytes: maxBytes, origins: map[string]bool{}}
	if g.maxBytes == 0 {
		g.maxBytes = DefaultMaxRequestBytes
	}
	for _, o := range origins {
		if o == "*" {
			g.anyOrig = true
			continue
		}
		if n, ok := normalOrigin(o); ok {
			g.origins[n] = true
		} else {
			g.origins[o] = true // "null", or an origin as the browser spells it
		}
	}
	return g
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origins := r.Header.Values("Origin"); len(origins) > 0 && !g.allowed(origins, r.Host) {
		http.Error(w, "Forbidden: a page of origin "+strconv.Quote(strings.Join(origins, ", "))+
			" may not call this MCP server; serve the page from the server's own origin, or allow its origin with mcpserver.WithAllowedOrigins",
			http.StatusForbidden)
		return
	}
	if r.Method == http.MethodPost && r.Body != nil && isJSON(r.Header.Get("Content-Type")) {
		body := r.Body
		if g.maxBytes > 0 {
			body = http.MaxBytesReader(w, body, g.maxBytes)
		}
		data, err := io.ReadAll(body)
		_ = r.Body.Close()
		if err != nil {
			if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
				http.Error(w, "request body exceeds "+strconv.FormatInt(mbe.Limit, 10)+" bytes", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "failed to read body", http.StatusBadRequest)
			return
		}
		resp := checkHTTPBody(data)
		if resp == nil {
			resp = checkTaskHeaders(r.Header, data) // tasks_http.go
		}
		if resp == nil {
			resp = checkParamHeaders(r.Header, data, g.headers) // headers.go
		}
		if resp != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(resp)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(data))
	}
	g.next.ServeHTTP(w, r)
}

// allowed reports whether a request from origins (the Origin header's values; a browser sends one) to
// host may be served.
func (g *guard) allowed(origins []string, host string) bool {
	if g.anyOrig {
		return true
	}
	if len(origins) != 1 {
		return false
	}
	o := origins[0]
	if g.origins[o] {
		return true
	}
	n, ok := normalOrigin(o)
	if !ok {
		return false
	}
	if g.origins[n] {
		return true
	}
	u, _ := url.Parse(n)
	if ip := net.ParseIP(strings.Trim(u.Hostname(), "[]")); u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback()) {
		return true
	}
	// The server's own origin: the page's host and port are the ones the request was sent to.
	return u.Host == hostPort(u.Scheme, strings.ToLower(host))
}

// normalOrigin returns origin as scheme://host[:port], lower case, without the scheme's default port;
// ok is false when origin is not an http or https origin.
func normalOrigin(origin string) (string, bool) {
	u, err := url.Parse(strings.ToLower(origin))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	return u.Scheme + "://" + hostPort(u.Scheme, u.Host), true
}

// hostPort is host without the default port of scheme.
func hostPort(scheme, host string) string {
	switch {
	case scheme == "http" && strings.HasSuffix(host, ":80"):
		return strings.TrimSuffix(host, ":80")
	case scheme == "https" && strings.HasSuffix(host, ":443"):
		return strings.TrimSuffix(host, ":443")
	}
	return host
}

// isJSON reports whether a Content-Type is application/json (the only one the SDK reads).
func isJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// checkHTTPBody returns nil when body is a JSON-RPC message the SDK may read, or a batch of them, and
// otherwise the error response to send.
func checkHTTPBody(body []byte) []byte {
	i := skipWS(body, 0)
	if i >= len(body) || body[i] != '[' {
		return checkLine(body)
	}
	var d strictjson.Decoder
	d.Reset(body, strictjson.Limits{MaxBytes: len(body) + 1, MaxDepth: lineMaxDepth, MaxErrors: 1})
	if d.ArrayStart() {
		for d.NextElem() {
			msg, ok := d.Raw()
			if !ok {
				break
			}
			if resp := checkLine(msg); resp != nil {
				return resp
			}
		}
		d.ArrayEnd()
	}
	if d.Finish() != nil {
		return checkLine(body) // the syntax error, as a Parse error
	}
	return nil
}
