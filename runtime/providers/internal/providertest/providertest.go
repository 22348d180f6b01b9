// Package providertest holds what the HTTP providers' tests share: a tool to call, an httptest server
// that answers each request with the next scripted reply and records the requests, and the checks every
// streaming provider passes (StreamEdgeCases, LargeEvents).
package providertest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// WeatherTool takes {"city": string} (required) and answers "<city>: sunny".
func WeatherTool() *wink.Tool {
	spec := wink.Spec{Name: "get_weather", Description: "Weather of a city.",
		ParamsSchema: []byte(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`)}
	return wink.NewTool(spec, &wink.Funcs[struct{ City string }, wink.NoValue]{
		Decode: func(d *strictjson.Decoder, p *struct{ City string }) {
			if !d.ObjectStart() {
				return
			}
			seen := false
			for d.NextKey() {
				if d.KeyString() == "city" {
					p.City, _ = d.String()
					seen = true
				} else {
					d.Unknown([]string{"city"})
				}
			}
			if !seen {
				d.Missing("city")
			}
			d.ObjectEnd()
		},
		EncodeResult: wink.EncodeNoValue,
		Handler: func(_ *wink.ToolContext, p struct{ City string }) (wink.ToolResult[wink.NoValue], error) {
			return wink.Done[wink.NoValue](p.City + ": sunny"), nil
		},
	})
}

// Server answers each request with the next reply and records the requests' bodies and headers.
type Server struct {
	URL string

	mu      sync.Mutex
	replies []func(w http.ResponseWriter)
	bodies  [][]byte
	headers []http.Header
}

// NewServer starts a server with replies, closed when the test ends.
func NewServer(t *testing.T, replies ...func(w http.ResponseWriter)) *Server {
	s := &Server{replies: replies}
	ts := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	return s
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.bodies)
	s.bodies = append(s.bodies, body)
	s.headers = append(s.headers, r.Header.Clone())
	s.mu.Unlock()
	if n >= len(s.replies) {
		http.Error(w, "no more replies", http.StatusTeapot)
		return
	}
	s.replies[n](w)
}

// Bodies returns the request bodies received so far.
func (s *Server) Bodies() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.bodies...)
}

// Header returns the headers of request i.
func (s *Server) Header(i int) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.headers[i]
}

// Stream replies with an event stream.
func Stream(body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body)
	}
}

// Status replies with code, extra headers and a JSON body.
func Status(code int, header http.Header, body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for k, v := range header {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

// Trickle replies with an event stream written n bytes at a time, each piece flushed, so that the client
// reads events (and UTF-8 sequences) split across many reads.
func Trickle(body string, n int) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		f, _ := w.(http.Flusher)
		for i := 0; i < len(body); i += n {
			io.WriteString(w, body[i:min(i+n, len(body))])
			if f != nil {
				f.Flush()
			}
		}
	}
}

// Awkward rewrites an event stream of "field: value" lines and blank-line separators into the same events
// spelled as awkwardly as the protocol allows: a UTF-8 byte order mark before the first line, CRLF line endings, a comment
// line before every event and between its lines, "data:" without the space, an unknown field and an id
// field, and each data value that starts with '{' split into two data lines after the brace (the lines
// are joined with "\n", JSON whitespace).
func Awkward(body string) string {
	var b strings.Builder
	b.WriteString("\uFEFF") // then the first line as it is: the mark must not hide it
	for i, line := range strings.Split(body, "\n") {
		switch {
		case i == 0:
			b.WriteString(line + "\r\n")
		case line == "":
			b.WriteString("\r\n")
		case strings.HasPrefix(line, "data: {"):
			b.WriteString(": keep-alive\r\nid: 7\r\nx-unknown: 1\r\ndata:{\r\n: between\r\ndata:" + line[len("data: {"):] + "\r\n")
		case strings.HasPrefix(line, "data: "):
			b.WriteString(": keep-alive\r\ndata:" + line[len("data: "):] + "\r\n")
		default:
			b.WriteString(": keep-alive\r\n" + line + "\r\n")
		}
	}
	return b.String()
}
