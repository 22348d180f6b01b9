package toolset

import (
	"encoding/json"
	"errors"
	"unicode"
	"unicode/utf8"

	"github.com/winkgen/wink/runtime/strictjson"
)

// Unmarshal reads a provider response into v with encoding/json and returns the text of its error, or "".
// It adds one check to json.Unmarshal's, the one every reader of the runtime makes: invalid UTF-8 and
// lone surrogate escapes (which encoding/json would turn into U+FFFD) are an error, reported with the
// strict decoder's text at the place where walking shape (the containers v's type reads into) meets them.
// A syntax error is encoding/json's; after it comes that check, then encoding/json's first type error.
func Unmarshal(data []byte, v any, shape *Shape) string {
	err := json.Unmarshal(data, v)
	if _, ok := errors.AsType[*json.SyntaxError](err); ok {
		return err.Error()
	}
	var d strictjson.Decoder
	d.Reset(data, strictjson.Limits{MaxBytes: len(data) + 1, MaxDepth: maxDepth, MaxErrors: 1})
	walk(&d, shape)
	if errs := d.Finish(); errs != nil {
		return errs.Error()
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// Shape is the part of a response a reader descends into: an object some of whose members are read
// further (Object), or an array whose elements are (Array). Anything else, a nil *Shape included, is
// read whole.
type Shape struct {
	array  bool
	elem   *Shape
	fields []Field
}

// Field is a member of an object Shape: its name (matched as encoding/json matches keys, see Match) and
// its own shape (nil: read whole).
type Field struct {
	Name  string
	Shape *Shape
}

// Object is the shape of an object whose members fields are read further.
func Object(fields ...Field) *Shape { return &Shape{fields: fields} }

// Array is the shape of an array whose elements have shape elem.
func Array(elem *Shape) *Shape { return &Shape{array: true, elem: elem} }

func walk(d *strictjson.Decoder, s *Shape) {
	switch {
	case s != nil && s.array && d.Peek() == strictjson.KindArray:
		d.ArrayStart()
		for d.NextElem() {
			walk(d, s.elem)
		}
		d.ArrayEnd()
	case s != nil && !s.array && d.Peek() == strictjson.KindObject:
		d.ObjectStart()
		for d.NextKey() {
			var fs *Shape
			for _, f := range s.fields {
				if Match(d.Key(), f.Name) {
					fs = f.Shape
					break
				}
			}
			walk(d, fs)
		}
		d.ObjectEnd()
	default:
		d.Skip()
	}
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
