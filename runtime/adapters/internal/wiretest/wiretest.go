// Package wiretest holds the helpers the adapter tests share: a reader of the httprr recordings in
// testdata/wire (the format of golang.org/x/oscar/internal/httprr, as used by langchaingo), a
// locator for that folder, and Shape, which reduces a JSON document to its keys and nesting so that our
// payloads can be compared with recorded ones whose values (schemas, names) differ.
//
// It is test support: net/http and encoding/json are used freely.
package wiretest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Exchange is one recorded HTTP request and its response, with both bodies read in full.
type Exchange struct {
	// Request is the recorded request; its Body is already consumed (see RequestBody).
	Request *http.Request
	// RequestBody is the request's body.
	RequestBody []byte
	// Response is the recorded response; its Body is already consumed (see ResponseBody).
	Response *http.Response
	// ResponseBody is the response's body.
	ResponseBody []byte
}

// Dir returns the repository's wire recordings folder, testdata/wire at the module root (the nearest
// folder above the working directory that holds go.mod). It fails when there is none.
func Dir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			cand := filepath.Join(dir, "testdata", "wire")
			if st, err := os.Stat(cand); err != nil || !st.IsDir() {
				return "", errors.New("wiretest: no testdata/wire at the module root " + dir)
			}
			return cand, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("wiretest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// ReadFile reads the named file of Dir.
func ReadFile(name string) ([]byte, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(dir, name))
}

// ReadHTTPRR reads an httprr trace: a line "httprr trace v1", then per exchange a line "REQLEN RESPLEN"
// followed by the raw request and the raw response of exactly those byte lengths. A body is everything
// after its message's header block (the Content-Length header is not trusted).
func ReadHTTPRR(data []byte) ([]Exchange, error) {
	const magic = "httprr trace v1\n"
	if !bytes.HasPrefix(data, []byte(magic)) {
		return nil, errors.New("httprr: missing \"httprr trace v1\" header")
	}
	rest := data[len(magic):]
	var out []Exchange
	for len(rest) > 0 {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return nil, fmt.Errorf("httprr: exchange %d: missing length line", len(out))
		}
		var reqLen, respLen int
		f := strings.Fields(string(rest[:nl]))
		if len(f) != 2 {
			return nil, fmt.Errorf("httprr: exchange %d: bad length line %q", len(out), rest[:nl])
		}
		reqLen, err1 := strconv.Atoi(f[0])
		respLen, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || reqLen < 0 || respLen < 0 {
			return nil, fmt.Errorf("httprr: exchange %d: bad length line %q", len(out), rest[:nl])
		}
		rest = rest[nl+1:]
		if len(rest) < reqLen+respLen {
			return nil, fmt.Errorf("httprr: exchange %d: truncated (%d bytes left, %d needed)", len(out), len(rest), reqLen+respLen)
		}
		rawReq, rawResp := rest[:reqLen], rest[reqLen:reqLen+respLen]
		rest = rest[reqLen+respLen:]

		var ex Exchange
		br := bufio.NewReader(bytes.NewReader(rawReq))
		req, err := http.ReadRequest(br)
		if err != nil {
			return nil, fmt.Errorf("httprr: exchange %d: request: %w", len(out), err)
		}
		ex.Request = req
		if ex.RequestBody, err = io.ReadAll(br); err != nil {
			return nil, err
		}
		br = bufio.NewReader(bytes.NewReader(rawResp))
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			return nil, fmt.Errorf("httprr: exchange %d: response: %w", len(out), err)
		}
		ex.Response = resp
		if ex.ResponseBody, err = io.ReadAll(br); err != nil {
			return nil, err
		}
		out = append(out, ex)
	}
	return out, nil
}

// Shape reduces a JSON document to its structure: objects become {key:shape,...} with sorted keys,
// arrays [shape,...], and scalars their JSON type (string, number, bool, null). The value of a key named
// in opaque is written as "schema" when it is an object (so two tools with different JSON Schemas have
// the same shape) and by its shape otherwise.
func Shape(doc []byte, opaque ...string) (string, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return "", err
	}
	var b strings.Builder
	shape(&b, v, opaque)
	return b.String(), nil
}

func shape(b *strings.Builder, v any, opaque []string) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(k)
			b.WriteByte(':')
			if _, isObj := v[k].(map[string]any); isObj && slices.Contains(opaque, k) {
				b.WriteString("schema")
				continue
			}
			shape(b, v[k], opaque)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			shape(b, e, opaque)
		}
		b.WriteByte(']')
	case string:
		b.WriteString("string")
	case json.Number:
		b.WriteString("number")
	case bool:
		b.WriteString("bool")
	case nil:
		b.WriteString("null")
	}
}

// Field returns the raw JSON of doc's member at the path of keys (objects only), or an error naming the
// first missing key.
func Field(doc []byte, path ...string) ([]byte, error) {
	cur := json.RawMessage(doc)
	for _, k := range path {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(cur, &m); err != nil {
			return nil, fmt.Errorf("at %q: %w", k, err)
		}
		v, ok := m[k]
		if !ok {
			return nil, fmt.Errorf("no key %q", k)
		}
		cur = v
	}
	return cur, nil
}
