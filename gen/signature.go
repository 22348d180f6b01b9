package gen

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/winkgen/wink/gen/model"
)

// The signature of a tool that programs may call (wink.Spec.Signature): what a model writing a program
// reads about the tool, derived from the plain schemas here, at generation time, so that the run time only
// joins lines. One line, Python-flavoured, since programs are Starlark:
//
//	search_docs(query: str, filters: {path_prefix: str, max_size: int}, limit: int = 10, mode: "fuzzy"|"exact" = "fuzzy") -> {matches: [str], total_count: int}  # Search the docs.
//
// Required parameters first, in schema order, then the optional ones with their defaults (None when the
// schema has none); enums as their values joined by |; objects as {name: type} (name? for an optional
// member); maps as {str: type}; arrays as [type]; a named recursive type by its name; free-form JSON as any.
// Nested objects deeper than signatureDepth are shown as {...}: the signature is an overview, the
// decoder's error text says the rest.

const signatureDepth = 3

// callableFromPrograms is wink.Spec.Callable's program answer, decided here from the declaration.
func callableFromPrograms(t *model.Tool) bool {
	switch t.Callers {
	case "program", "both":
		return true
	case "direct":
		return false
	}
	destructive := t.Destructive != nil && *t.Destructive
	idempotent := t.Idempotency != nil && t.Idempotency.Strategy != "none"
	return !destructive && (t.ReadOnly || idempotent)
}

// signature returns the tool's one-line signature from its plain params and result schemas.
func signature(name, description string, params, result []byte) (string, error) {
	var p, r map[string]any
	if err := json.Unmarshal(params, &p); err != nil {
		return "", err
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	props, _ := p["properties"].(map[string]any)
	order := propertyOrder(params)
	req := requiredSet(p)
	first := true
	for pass := 0; pass < 2; pass++ { // required, then optional
		for _, k := range order {
			ps, ok := props[k].(map[string]any)
			if !ok || req[k] != (pass == 0) {
				continue
			}
			if !first {
				b.WriteString(", ")
			}
			first = false
			b.WriteString(k)
			b.WriteString(": ")
			b.WriteString(sigType(ps, p, 1))
			if pass == 1 {
				b.WriteString(" = ")
				if d, ok := ps["default"]; ok {
					b.WriteString(sigLiteral(d))
				} else {
					b.WriteString("None")
				}
			}
		}
	}
	b.WriteString(") -> ")
	if t, _ := r["type"].(string); t == "null" {
		b.WriteString("None")
	} else {
		b.WriteString(sigType(r, r, 1))
	}
	if d := strings.TrimSpace(description); d != "" {
		b.WriteString("  # ")
		b.WriteString(d)
	}
	return b.String(), nil
}

// propertyOrder returns the top-level property names of schema in their order in the text (the
// generator writes them in field order; a Go map has none).
func propertyOrder(schema []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(schema))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil
		}
		if k != "properties" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return nil
		}
		var names []string
		for dec.More() {
			name, err := dec.Token()
			if err != nil {
				return names
			}
			if s, ok := name.(string); ok {
				names = append(names, s)
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return names
			}
		}
		return names
	}
	return nil
}

func requiredSet(s map[string]any) map[string]bool {
	req := map[string]bool{}
	if list, ok := s["required"].([]any); ok {
		for _, v := range list {
			if k, ok := v.(string); ok {
				req[k] = true
			}
		}
	}
	return req
}

// sigType writes the type of schema s (root holds the $defs) at depth.
func sigType(s, root map[string]any, depth int) string {
	if ref, ok := s["$ref"].(string); ok {
		return strings.TrimPrefix(ref, "#/$defs/")
	}
	if enum, ok := s["enum"].([]any); ok {
		var parts []string
		for _, v := range enum {
			if v != nil {
				parts = append(parts, sigLiteral(v))
			}
		}
		return strings.Join(parts, "|")
	}
	typ := ""
	switch t := s["type"].(type) {
	case string:
		typ = t
	case []any:
		for _, v := range t {
			if x, ok := v.(string); ok && x != "null" {
				typ = x
			}
		}
	}
	switch typ {
	case "string":
		return "str"
	case "integer":
		return "int"
	case "number":
		return "float"
	case "boolean":
		return "bool"
	case "array":
		if it, ok := s["items"].(map[string]any); ok {
			return "[" + sigType(it, root, depth+1) + "]"
		}
		return "list"
	case "object":
		props, _ := s["properties"].(map[string]any)
		if len(props) == 0 {
			if ap, ok := s["additionalProperties"].(map[string]any); ok {
				return "{str: " + sigType(ap, root, depth+1) + "}"
			}
			return "{}"
		}
		if depth > signatureDepth {
			return "{...}"
		}
		req := requiredSet(s)
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			ps, _ := props[k].(map[string]any)
			opt := ""
			if !req[k] {
				opt = "?"
			}
			parts = append(parts, k+opt+": "+sigType(ps, root, depth+1))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "any"
}

// sigLiteral writes a JSON value as a Starlark literal.
func sigLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
