package mcpserver

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/ratelimit"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// MetaRetryAfter is the _meta key of a tool result refused by a rate limit: the seconds until the call
// would be admitted (a JSON number, in milliseconds' precision), beside the text that says the same to
// the model.
const MetaRetryAfter = "io.github.winkgen/retryAfter"

// WithRateLimit applies l to every tool call the server answers: l becomes the dispatcher's RateLimit
// (every client's, with WithSessions), so a call past a limit is answered with a tool error
// (isError) that says when to call again, with the seconds in _meta[MetaRetryAfter]. Over HTTP
// (HTTPHandler), a request carrying a tools/call while l's server-wide bucket (ratelimit.Limits.Server) is
// empty is answered with HTTP 429 Too Many Requests and Retry-After (whole seconds, rounded up) before
// anything of it runs; the per-principal and per-tool bounds stay tool errors, which a client shows the
// model. The 429 check takes no token: a call let through takes its tokens in the dispatcher, where a
// concurrent call may still find the server's bucket empty (a tool error then).
func WithRateLimit(l *ratelimit.Limiter) Option {
	return func(c *config) { c.rateLimit = l }
}

// retryResult is the tool error of a call a rate limit refused.
func retryResult(out wink.Outcome) *mcp.CallToolResult {
	res := errorResult(out.Output)
	ms := (out.RetryAfter + time.Millisecond - 1) / time.Millisecond
	res.Meta = mcp.Meta{MetaRetryAfter: float64(ms) / 1000}
	return res
}

// serverBound answers HTTP 429 for a POST carrying a tools/call while the limiter's server-wide bucket is
// empty; anything else goes to next. The guard (httpcheck.go) has read and checked the body before.
type serverBound struct {
	next http.Handler
	l    *ratelimit.Limiter
}

func withServerBound(next http.Handler, l *ratelimit.Limiter) http.Handler {
	if l == nil || l.Limits().Server.IsZero() {
		return next
	}
	return &serverBound{next: next, l: l}
}

func (sb *serverBound) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.Body != nil && r.Body != http.NoBody {
		// The guard read the body (within the request bound) and put it back in memory.
		body, err := io.ReadAll(r.Body)
		_ = r.Body.Close()
		if err != nil {
			http.Error(w, "failed to read body", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if callsTool(body) {
			wait, err := sb.l.ServerWait(r.Context())
			if err != nil {
				http.Error(w, "the rate limiter could not be asked: "+err.Error(), http.StatusServiceUnavailable)
				return
			}
			if wait > 0 {
				secs := int64((wait + time.Second - 1) / time.Second)
				w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
				http.Error(w, "Too Many Requests: the server's rate limit ("+sb.l.Limits().Server.String()+
					") is used up; send the tool call again in "+strconv.FormatInt(secs, 10)+"s", http.StatusTooManyRequests)
				return
			}
		}
	}
	sb.next.ServeHTTP(w, r)
}

// callsTool reports whether body, a JSON-RPC message or a batch of them, holds a tools/call request.
func callsTool(body []byte) bool {
	var d strictjson.Decoder
	d.Reset(body, strictjson.Limits{MaxBytes: len(body) + 1, MaxDepth: 256, MaxErrors: 1})
	found := false
	message := func() {
		if d.Peek() != strictjson.KindObject {
			d.Skip()
			return
		}
		if !d.ObjectStart() {
			return
		}
		for d.NextKey() {
			if string(d.Key()) == "method" && d.Peek() == strictjson.KindString {
				m, _ := d.String()
				found = found || m == "tools/call"
				continue
			}
			d.Skip()
		}
		d.ObjectEnd()
	}
	if d.Peek() == strictjson.KindArray {
		if d.ArrayStart() {
			for d.NextElem() {
				message()
			}
			d.ArrayEnd()
		}
	} else {
		message()
	}
	return found
}
