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

// Format is how a provider spells one tool's entry in the tools array of a request:
//
//	Open N ,"description": D SchemaKey S Extra Close
//
// where N and D are the tool's name and description as JSON strings, S its schema in the provider's
// dialect (embedded byte for byte; left out with SchemaKey when the tool has none) and Extra what the
// entry adds after it (`,"strict":true`): Write's entry function gives S and Extra per tool.
type Format struct {
	Pkg       string // prefixes every error: "openai"
	Open      string // the entry up to the name's value: `{"name":`
	SchemaKey string // the member holding the schema: `,"parameters":`
	Close     string // the end of the entry: `}`
	PerEntry  int    // bytes of envelope per entry, for sizing the payload

	// Checked is the schema check judges: the one sent, or the plain schema when none is sent.
	Checked func(*wink.Spec) []byte
	// Sized, when set, is the schema the payload is sized by when it differs from Checked.
	Sized func(*wink.Spec) []byte
	// Usable, when set, is a further check of each tool, reported (all at once, each prefixed with Pkg
	// and the tool's name) when check finds nothing.
	Usable func(*wink.Spec) error
}

// Write returns the tools array of a request, one entry per tool in order as f spells it, or every
// problem of the list (check, then f.Usable). entry gives a tool's schema (nil: the schema member is
// left out) and the members after it; it is called once per tool, in order, and only when the list
// passes the checks. An empty list gives `[]`. A tool only programs may call (Direct) is left out: the
// model is never offered it as a tool of its own; WritePrograms writes it, for a request whose
// provider runs programs.
func Write(f *Format, tools []*wink.Tool, entry func(*wink.Spec) (schema []byte, extra string)) ([]byte, error) {
	return WritePrograms(f, Direct(tools), entry)
}

// Direct returns the tools the model may call directly (wink.Spec.Callable): tools without the tools
// only programs may call (//wink:tool callers=program), in order; tools itself when there is none. Nil
// tools are kept, for the checks to report.
func Direct(tools []*wink.Tool) []*wink.Tool {
	for i, t := range tools {
		if t == nil {
			continue
		}
		if direct, _ := t.Spec().Callable(); direct {
			continue
		}
		out := append(make([]*wink.Tool, 0, len(tools)-1), tools[:i]...)
		for _, u := range tools[i+1:] {
			if u == nil {
				out = append(out, u)
			} else if direct, _ := u.Spec().Callable(); direct {
				out = append(out, u)
			}
		}
		return out
	}
	return tools
}

// WritePrograms is Write keeping the tools only programs may call: for a request whose provider runs
// the programs that call them (the entry says so, allowed_callers).
func WritePrograms(f *Format, tools []*wink.Tool, entry func(*wink.Spec) (schema []byte, extra string)) ([]byte, error) {
	if err := check(f.Pkg, tools, f.Checked); err != nil {
		return nil, err
	}
	if f.Usable != nil {
		var errs []error
		for _, t := range tools {
			if err := f.Usable(t.Spec()); err != nil {
				errs = append(errs, errors.New(f.Pkg+": tool "+strconv.Quote(t.Name())+": "+err.Error()))
			}
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
	}
	sized := f.Sized
	if sized == nil {
		sized = f.Checked
	}
	b := grow(tools, f.PerEntry, sized)
	b = append(b, '[')
	for i, t := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		s := t.Spec()
		schema, extra := entry(s)
		b = append(b, f.Open...)
		b = strictjson.AppendString(b, s.Name)
		b = append(b, `,"description":`...)
		b = strictjson.AppendString(b, s.Description)
		if schema != nil {
			b = append(b, f.SchemaKey...)
			b = append(b, schema...)
		}
		b = append(b, extra...)
		b = append(b, f.Close...)
	}
	return append(b, ']'), nil
}

// check reports every problem of a tools list at once (joined with errors.Join), each prefixed with
// pkg: a nil tool, two tools with the same name (the provider would reject the request), a tool whose
// schema (as chosen by schema) is not a JSON object. The schema bytes are validated with the strict
// decoder, never re-encoded.
func check(pkg string, tools []*wink.Tool, schema func(*wink.Spec) []byte) error {
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

// grow returns a buffer with room for the payload of tools: their schemas and descriptions plus
// perEntry bytes of envelope each.
func grow(tools []*wink.Tool, perEntry int, schema func(*wink.Spec) []byte) []byte {
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

// Callable reports who may call the tool: the model directly, and a program the provider runs: the
// declaration (//wink:tool callers=direct|program|both), else its default from the hints
// (wink.Spec.Callable).
func Callable(s *wink.Spec) (direct, program bool) { return s.Callable() }
