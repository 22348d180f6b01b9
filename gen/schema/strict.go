package schema

import (
	"strconv"
	"strings"

	"github.com/winkgen/wink/gen/model"
)

// Strict returns the OpenAI strict-mode variant. It differs from Plain in four ways: every property is
// listed in "required" (optional ones stay nullable), keywords OpenAI strict does not support are dropped
// and restated in the property's description, a "$ref" never has sibling keywords (it moves into a
// one-element "anyOf"), and a map is an array of {"key","value"} pairs (strict mode cannot state an object
// with arbitrary keys; the generated decoder reads that form under strictjson.Limits.PairMaps). ok is true
// for every type winkgen accepts; it is kept for callers that check it.
func Strict(t *model.Type) (b []byte, ok bool, err error) {
	b, err = build(t, true)
	if err != nil {
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
