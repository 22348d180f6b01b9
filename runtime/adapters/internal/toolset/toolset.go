// Package toolset holds what the provider adapters share: the check of a tools list and the writer of its
// payload (Write), and the reading of provider responses (Unmarshal, ErrorBody).
package toolset

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// maxDepth is the nesting limit of encoding/json (10000 levels), which the readers keep.
const maxDepth = 10000

// Check reports every problem of a tools list at once (joined with errors.Join), each prefixed with
// pkg: a nil tool, two tools with the same name (the provider would reject the request), a tool whose
// schema (as chosen by schema) is not a JSON object. The schema bytes are validated with the strict
// decoder, never re-encoded.
func Check(pkg string, tools []*wink.Tool, schema func(*wink.Spec) []byte) error {
	var errs []error
	first := make(map[string]int, len(tools))
	for i, t := range tools {
		if t == nil {
			errs = append(errs, errors.New(pkg+": tool "+strconv.Itoa(i)+" is nil"))
			continue
		}
		name := t.Name()
		if j, dup := first[name]; dup {
			errs = append(errs, errors.New(pkg+": duplicate tool name "+strconv.Quote(name)+" (tools "+strconv.Itoa(j)+" and "+strconv.Itoa(i)+")"))
		} else {
			first[name] = i
		}
		s := bytes.TrimSpace(schema(t.Spec()))
		if len(s) == 0 || s[0] != '{' || !valid(s) {
			errs = append(errs, errors.New(pkg+": tool "+strconv.Quote(name)+": parameters schema is not a JSON object"))
		}
	}
	return errors.Join(errs...)
}

// valid reports whether b is one valid JSON value (strictly: UTF-8 and escapes are checked too).
func valid(b []byte) bool {
	var d strictjson.Decoder
	d.Reset(b, strictjson.Limits{MaxBytes: len(b) + 1, MaxDepth: maxDepth, MaxErrors: 1})
	d.Skip()
	return d.Finish() == nil
}

// Grow returns a buffer with room for the payload of tools: their schemas and descriptions plus
// perEntry bytes of envelope each.
func Grow(tools []*wink.Tool, perEntry int, schema func(*wink.Spec) []byte) []byte {
	n := 2
	for _, t := range tools {
		s := t.Spec()
		n += perEntry + len(s.Name) + len(s.Description) + len(schema(s))
	}
	return make([]byte, 0, n)
}

// ErrorBody returns the message of a provider error body ({"error":{"message":...}}, with or without an
// outer "type":"error"), or "" when body's "error" member is absent or null. errMember is the raw
// member, already read (and so valid). A member that is not an object with a string "type" or "message",
// or has neither, is returned as its JSON text.
func ErrorBody(errMember []byte) string {
	t := bytes.TrimSpace(errMember)
	if len(t) == 0 || string(t) == "null" {
		return ""
	}
	var e struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	if json.Unmarshal(t, &e) != nil || (e.Message == "" && e.Type == "") {
		return string(t)
	}
	if e.Type == "" {
		return e.Message
	}
	return e.Type + ": " + e.Message
}

// IsNull reports whether raw is absent (empty) or the JSON literal null.
func IsNull(raw []byte) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// FirstByte returns the first non-space byte of data, or 0.
func FirstByte(data []byte) byte {
	t := bytes.TrimSpace(data)
	if len(t) == 0 {
		return 0
	}
	return t[0]
}
