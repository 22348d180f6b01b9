package toolset

import (
	"unicode"
	"unicode/utf8"

	"github.com/winkgen/wink/runtime/strictjson"
)

// Reader reads a provider response with a strictjson.Decoder, reproducing what json.Unmarshal into small
// structs did (the adapters' former implementation): unknown keys are skipped, keys match field names
// case-insensitively (Match), a null leaves a field as it is, a repeated key decodes again into the same
// field, and a value of the wrong kind is skipped and recorded as encoding/json's type error (the first
// one wins, after any syntax error). Use D for the structure, String and Object/Array for typed members,
// D.Raw for json.RawMessage members, and Err at the end.
type Reader struct {
	// D is the underlying decoder.
	D       strictjson.Decoder
	data    []byte
	typeErr string
}

// Reset prepares r to read data: no size limit beyond data itself, encoding/json's depth limit.
func (r *Reader) Reset(data []byte) {
	r.data = data
	r.typeErr = ""
	r.D.Reset(data, strictjson.Limits{MaxBytes: len(data) + 1, MaxDepth: maxDepth, MaxErrors: 1})
}

// Err finishes the read and returns the error text json.Unmarshal gave for the same input, or "":
// the syntax error if data is not valid JSON (SyntaxError's text; the strict decoder's own text for what
// only it rejects: invalid UTF-8, lone surrogate escapes), else the first type error.
func (r *Reader) Err() string {
	if errs := r.D.Finish(); errs != nil {
		if msg := SyntaxError(r.data); msg != "" {
			return msg
		}
		return errs.Error()
	}
	return r.typeErr
}

// Mismatch skips the next value and records (unless one was recorded before) encoding/json's type error
// for it: "json: cannot unmarshal <kind> into Go struct field <field> of type <goType>", or "into Go
// value of type <goType>" when field is "". field is written as encoding/json does: the name of the
// struct type holding the field, a dot, and the path of JSON names from the root ("chatToolCall.tool_calls.id").
func (r *Reader) Mismatch(field, goType string) {
	k := r.D.Peek()
	r.D.Skip()
	if r.typeErr != "" || r.D.Failed() {
		return
	}
	var kind string
	switch k {
	case strictjson.KindString:
		kind = "string"
	case strictjson.KindNumber:
		kind = "number"
	case strictjson.KindBool:
		kind = "bool"
	case strictjson.KindArray:
		kind = "array"
	default:
		kind = "object"
	}
	if field == "" {
		r.typeErr = "json: cannot unmarshal " + kind + " into Go value of type " + goType
		return
	}
	r.typeErr = "json: cannot unmarshal " + kind + " into Go struct field " + field + " of type " + goType
}

// String reads a string member into *dst: a string sets it, null leaves it, any other value is a type
// error for field (see Mismatch).
func (r *Reader) String(dst *string, field string) {
	switch r.D.Peek() {
	case strictjson.KindString:
		*dst, _ = r.D.String()
	case strictjson.KindNull:
		r.D.Null()
	default:
		r.Mismatch(field, "string")
	}
}

// Object starts reading a struct-typed value: it returns true after ObjectStart for an object (the
// caller loops on D.NextKey and calls D.ObjectEnd), and false for null (consumed; the struct is left as
// is) and for any other value (a type error for field of type goType).
func (r *Reader) Object(field, goType string) bool {
	switch r.D.Peek() {
	case strictjson.KindObject:
		return r.D.ObjectStart()
	case strictjson.KindNull:
		r.D.Null()
	default:
		r.Mismatch(field, goType)
	}
	return false
}

// Array starts reading a slice-typed value: it returns true after ArrayStart for an array (the caller
// loops on D.NextElem and calls D.ArrayEnd). For null it returns false and sets *isNull (the slice
// becomes nil); for any other value it returns false after a type error for field of type goType.
func (r *Reader) Array(field, goType string, isNull *bool) bool {
	switch r.D.Peek() {
	case strictjson.KindArray:
		return r.D.ArrayStart()
	case strictjson.KindNull:
		r.D.Null()
		*isNull = true
	default:
		r.Mismatch(field, goType)
	}
	return false
}

// Match reports whether a JSON key selects the field named name (lower-case ASCII) as encoding/json
// matches them: equal, or equal after its folding (ASCII letters upper-cased, any other rune r mapped to
// unicode.ToUpper(unicode.ToLower(r)), so "ID", "Tool_Calls" and "tool_callſ" match too).
func Match(key []byte, name string) bool {
	if string(key) == name {
		return true
	}
	j := 0
	for i := 0; i < len(key); j++ {
		c := rune(key[i])
		if c < utf8.RuneSelf {
			i++
		} else {
			r, n := utf8.DecodeRune(key[i:])
			c = unicode.ToUpper(unicode.ToLower(r))
			i += n
		}
		if j >= len(name) || upper(c) != upper(rune(name[j])) {
			return false
		}
	}
	return j == len(name)
}

func upper(c rune) rune {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}
