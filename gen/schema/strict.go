package schema

import (
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
