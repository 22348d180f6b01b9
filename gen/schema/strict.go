package schema

import (
	"strconv"
	"strings"

	"github.com/winkgen/wink/gen/model"
	"github.com/winkgen/wink/runtime/adapters/openai"
)

// Strict returns the OpenAI strict-mode form of t's params or result: the runtime's own derivation
// (openai.StrictSchema) of the plain schema, so what winkgen checks is what the adapter sends. ok is true
// for every type winkgen accepts.
func Strict(t *model.Type) (b []byte, ok bool, err error) {
	plain, err := Plain(t)
	if err != nil {
		return nil, false, err
	}
	if b, err = openai.StrictSchema(plain); err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// strictFormats are the "format" values OpenAI strict mode accepts.
var strictFormats = map[string]bool{
	"date-time": true,
	"time":      true,
	"date":      true,
	"duration":  true,
	"email":     true,
	"hostname":  true,
	"ipv4":      true,
	"ipv6":      true,
	"uuid":      true,
}

// lengthNotes phrases minLength/maxLength for a description: "at least 1 character", "at most 200
// characters", or "exactly 2 characters" when both are equal.
func lengthNotes(min, max *int) []string {
	chars := func(n int) string {
		if n == 1 {
			return "1 character"
		}
		return strconv.Itoa(n) + " characters"
	}
	if min != nil && max != nil && *min == *max {
		return []string{"exactly " + chars(*min)}
	}
	var notes []string
	if min != nil {
		notes = append(notes, "at least "+chars(*min))
	}
	if max != nil {
		notes = append(notes, "at most "+chars(*max))
	}
	return notes
}

// restate appends the notes for dropped keywords to s's description: "Doc. (note; note)", or "(note; note)"
// when there is no description.
func restate(s *obj, notes []string) {
	if len(notes) == 0 {
		return
	}
	text := "(" + strings.Join(notes, "; ") + ")"
	if d, ok := s.get("description").(str); ok && d != "" {
		text = string(d) + " " + text
	}
	s.set("description", str(text))
}

// isolateRef moves a "$ref" that has sibling keywords into a one-element "anyOf" (OpenAI strict mode
// rejects keywords beside "$ref").
func isolateRef(s *obj) {
	r := s.get("$ref")
	if r == nil || len(s.keys) == 1 {
		return
	}
	s.del("$ref")
	inner := newSchema()
	inner.set("$ref", r)
	s.set("anyOf", list{inner})
}
