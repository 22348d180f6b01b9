package anthropic

import (
	"strconv"

	"github.com/winkgen/wink/runtime/adapters/internal/jsontree"
	"github.com/winkgen/wink/runtime/wink"
)

// WhyNotStrict says, in one sentence for the developer, why StrictTools sends a tool without strict:
// the params' first member whose schema strict mode cannot state (a map, free-form JSON), a recursive
// type, or the per-request limits the tools before it used up. It returns "" for a tool that StrictTools
// sends strict; tools is the whole request, in order, as given to StrictTools.
func WhyNotStrict(tools []*wink.Tool, name string) string {
	var strict, optional, unions int
	for _, t := range tools {
		s := t.Spec()
		st := strictSchema(s.ParamsSchema)
		if st == nil {
			if s.Name == name {
				return notStrictSchema(s.ParamsSchema)
			}
			continue
		}
		o, u := countStrict(st)
		within := strict+1 <= MaxStrictTools && optional+o <= MaxStrictOptional && unions+u <= MaxStrictUnions
		if s.Name != name {
			if within {
				strict, optional, unions = strict+1, optional+o, unions+u
			}
			continue
		}
		switch {
		case within:
			return ""
		case strict+1 > MaxStrictTools:
			return "the request already has " + strconv.Itoa(MaxStrictTools) + " strict tools, Anthropic's limit"
		case optional+o > MaxStrictOptional:
			return "its " + strconv.Itoa(o) + " optional properties would bring the request's strict schemas to " +
				strconv.Itoa(optional+o) + ", past Anthropic's limit of " + strconv.Itoa(MaxStrictOptional) +
				" (make some required, or send fewer tools)"
		default:
			return "its " + strconv.Itoa(u) + " union types (optional fields are sent as [T, \"null\"]) would bring the request's strict schemas to " +
				strconv.Itoa(unions+u) + ", past Anthropic's limit of " + strconv.Itoa(MaxStrictUnions) +
				" (make some fields required, or send fewer tools)"
		}
	}
	return ""
}

// notStrictSchema names what in plain has no strict form.
func notStrictSchema(plain []byte) string {
	root, err := jsontree.ParseObject(plain)
	if err != nil {
		return "its params schema is not a JSON object"
	}
	if jsontree.Recursive(root) {
		return "its params are recursive (a type that contains itself), which strict mode cannot state"
	}
	if why := firstUnstrict(root, ""); why != "" {
		return why
	}
	return "its params schema has no strict form"
}

// firstUnstrict walks s in document order and names the first schema strict mode cannot state.
func firstUnstrict(s *jsontree.Obj, path string) string {
	at := func() string {
		if path == "" {
			return "its params"
		}
		return strconv.Quote(path)
	}
	if jsontree.IsAny(s) {
		return at() + " takes any JSON value (wink.RawJSON or a free-form type), which strict mode cannot state"
	}
	if ap, ok := s.Get("additionalProperties").(*jsontree.Obj); ok && ap != nil || s.Has("propertyNames") {
		return at() + " is a map (an object with arbitrary keys), which strict mode cannot state"
	}
	if v, ok := s.Get("additionalProperties").(bool); ok && v {
		return at() + " is a map (an object with arbitrary keys), which strict mode cannot state"
	}
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	if m, ok := s.Get("properties").(*jsontree.Obj); ok && m != nil {
		for _, k := range m.Keys {
			if ps, ok := m.Vals[k].(*jsontree.Obj); ok {
				if why := firstUnstrict(ps, join(k)); why != "" {
					return why
				}
			}
		}
	}
	if is, ok := s.Get("items").(*jsontree.Obj); ok && is != nil {
		if why := firstUnstrict(is, path+"[]"); why != "" {
			return why
		}
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		arr, _ := s.Get(k).([]any)
		for _, a := range arr {
			if as, ok := a.(*jsontree.Obj); ok {
				if why := firstUnstrict(as, path); why != "" {
					return why
				}
			}
		}
	}
	return ""
}
