package model

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Dump writes what the analyzer understood about a package as an indented text tree: each tool with its
// name, description, handler, idempotency and examples, then every named type once, in first-use order, with
// its fields, JSON names, requiredness and constraints. Named types inside other types are written by name,
// so recursive types print finitely. `winkgen -dump-ir` prints it.
func Dump(w io.Writer, p *Package) {
	fmt.Fprintf(w, "package %s (%s)\n", p.Name, p.Path)
	for _, t := range p.Tools {
		fmt.Fprintf(w, "tool %s\n", t.Name)
		fmt.Fprintf(w, "  description: %q\n", t.Description)
		fmt.Fprintf(w, "  handler: %s at %s:%d:%d\n", t.Func.Name, baseName(t.Pos.File), t.Pos.Line, t.Pos.Col)
		fmt.Fprintf(w, "  params: %s\n", typeRef(t.Params, "none"))
		fmt.Fprintf(w, "  result: %s\n", typeRef(t.Result, "wink.NoValue"))
		var flags []string
		if t.ParamsValidate {
			flags = append(flags, "params.Validate")
		}
		if t.ResultValidate {
			flags = append(flags, "result.Validate")
		}
		if t.ResultRender {
			flags = append(flags, "result.Render")
		}
		if t.Overrides {
			flags = append(flags, "overrides")
		}
		if t.ReadOnly {
			flags = append(flags, "readonly")
		}
		if t.Title != "" {
			flags = append(flags, "title="+strconv.Quote(t.Title))
		}
		if t.Destructive != nil {
			flags = append(flags, "destructive="+strconv.FormatBool(*t.Destructive))
		}
		if t.OpenWorld != nil {
			flags = append(flags, "openworld="+strconv.FormatBool(*t.OpenWorld))
		}
		if len(t.Scopes) > 0 {
			flags = append(flags, "scopes="+strings.Join(t.Scopes, ","))
		}
		if t.Task != "" {
			flags = append(flags, "task="+t.Task)
		}
		if t.Defer {
			flags = append(flags, "defer")
		}
		if r := t.Rate; r != nil {
			flags = append(flags, "rate="+strconv.FormatInt(r.Count, 10)+"/"+strconv.FormatInt(r.PerNanos, 10)+"ns burst="+strconv.FormatInt(r.Burst, 10))
		}
		if t.Callers != "" {
			flags = append(flags, "callers="+t.Callers)
		}
		if len(flags) > 0 {
			fmt.Fprintf(w, "  methods and flags: %s\n", strings.Join(flags, ", "))
		}
		if id := t.Idempotency; id != nil {
			fmt.Fprintf(w, "  idempotent: strategy=%s keys=%v func=%s ttl=%dns scope=%s\n", id.Strategy, id.Keys, id.Func.Name, id.TTLNanos, id.Scope)
		}
		for _, ex := range t.Examples {
			fmt.Fprintf(w, "  example %q: input %s", ex.Description, ex.Input)
			if ex.Output != "" {
				fmt.Fprintf(w, " output %s", ex.Output)
			}
			fmt.Fprintln(w)
		}
	}
	for _, t := range p.Types {
		if t.Named == nil {
			continue
		}
		fmt.Fprintf(w, "type %s", t.Named.Name)
		if t.Recursive {
			fmt.Fprint(w, " (recursive)")
		}
		if len(t.Enum) > 0 {
			var vs []string
			for _, e := range t.Enum {
				vs = append(vs, e.Const.Name+"="+e.JSON)
			}
			fmt.Fprintf(w, " enum %s: %s\n", t.Basic, strings.Join(vs, ", "))
			continue
		}
		fmt.Fprintln(w, " struct")
		for _, f := range t.Fields {
			req := "optional"
			if f.Required {
				req = "required"
			}
			fmt.Fprintf(w, "  %s (%s) %s %s", f.JSONName, strings.Join(f.GoPath, "."), typeRef(f.Type, "?"), req)
			if c := f.Cons; c != nil {
				fmt.Fprintf(w, " %s", consString(c))
			}
			fmt.Fprintln(w)
		}
	}
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// typeRef spells a type briefly: named types by name, composites structurally.
func typeRef(t *Type, none string) string {
	if t == nil {
		return none
	}
	if t.Named != nil {
		return t.Named.Name
	}
	switch t.Kind {
	case KindPointer:
		return "*" + typeRef(t.Elem, none)
	case KindSlice:
		return "[]" + typeRef(t.Elem, none)
	case KindArray:
		return fmt.Sprintf("[%d]%s", t.Len, typeRef(t.Elem, none))
	case KindMap:
		return "map[string]" + typeRef(t.Elem, none)
	case KindStruct:
		var fs []string
		for _, f := range t.Fields {
			fs = append(fs, f.JSONName+" "+typeRef(f.Type, none))
		}
		return "struct{" + strings.Join(fs, "; ") + "}"
	case KindTime:
		return "time.Time"
	}
	return t.Basic
}

func consString(c *Constraints) string {
	var parts []string
	num := func(k string, n *Number) {
		if n != nil {
			parts = append(parts, k+"="+n.Literal)
		}
	}
	num("min", c.Min)
	num("max", c.Max)
	num("exclusiveMin", c.ExclusiveMin)
	num("exclusiveMax", c.ExclusiveMax)
	num("multipleOf", c.MultipleOf)
	count := func(k string, n *int) {
		if n != nil {
			parts = append(parts, fmt.Sprintf("%s=%d", k, *n))
		}
	}
	count("minLength", c.MinLength)
	count("maxLength", c.MaxLength)
	count("minItems", c.MinItems)
	count("maxItems", c.MaxItems)
	if c.Pattern != "" {
		parts = append(parts, fmt.Sprintf("pattern=%q", c.Pattern))
	}
	if c.PatternDesc != "" {
		parts = append(parts, fmt.Sprintf("patternDesc=%q", c.PatternDesc))
	}
	if c.Header != "" {
		parts = append(parts, "header="+c.Header)
	}
	if c.Format != "" {
		parts = append(parts, "format="+c.Format)
	}
	if c.UniqueItems {
		parts = append(parts, "uniqueItems")
	}
	if len(c.Enum) > 0 {
		parts = append(parts, "enum="+strings.Join(c.Enum, "|"))
	}
	if c.Default != "" {
		parts = append(parts, "default="+c.Default)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
