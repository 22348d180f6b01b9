package wink

// RawJSON is a free-form JSON value in a tool's params or result: a field of this type takes any JSON
// value (an "options" object whose shape the tool does not fix), kept as its raw JSON text. The generated
// decoder reads it as strictly as every value (syntax, UTF-8, depth, and its size within the arguments'
// limit) and stores a copy of its bytes, whitespace and key order kept; it is nil when the field was left
// out (or, for an optional field, given as null, which means the same). The encoder writes it back as is
// (null when nil).
//
// How each dialect states it: the plain schema (MCP, Anthropic) has a schema without "type" (any value),
// with the field's description; OpenAI strict mode and Gemini cannot state an arbitrary value, so there
// the field is a string holding the value's JSON text, described "(JSON text)", which the decoder parses
// with the same strictness (the calls their adapters return set Call.PairMaps); Anthropic's strict tool use
// cannot state it either, so a tool with such a field is sent without strict (anthropic.StrictTools names
// it).
type RawJSON []byte

// MarshalJSON returns r itself, or null when r is empty, as encoding/json's RawMessage does.
func (r RawJSON) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// UnmarshalJSON sets *r to a copy of data.
func (r *RawJSON) UnmarshalJSON(data []byte) error {
	*r = append((*r)[:0], data...)
	return nil
}
