package eval

// The evaluator's side of run_program: each callable tool is a builtin taking keyword arguments, whose
// call is a request to the parent ('T': the tool's name and the arguments as JSON), answered with the
// result value as JSON ('V') or the failure text the model would read for a direct call ('F'). The child
// holds no tool handler: the parent dispatches every call. A held inner call gets no answer (the parent
// kills the child); a failed one stops the program with its text, unless the call was made through
// attempt(), which returns it as a value.

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/winkgen/wink/runtime/strictjson"
)

// maxValueDepth bounds the nesting of the values crossing the pipe, both ways.
const maxValueDepth = 64

// toolFailure is a failed inner call: the program stops with it, or attempt returns it.
type toolFailure struct{ tool, text string }

func (f *toolFailure) Error() string { return "tool " + f.tool + " failed: " + f.text }

// programBuiltins returns the predeclared names of a program: a builtin per tool, and attempt.
// call sends a frame and returns the parent's answer.
func programBuiltins(tools []string, call func(kind byte, parts ...[]byte) (byte, []byte)) starlark.StringDict {
	d := starlark.StringDict{}
	for _, name := range tools {
		d[name] = starlark.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 0 {
				return nil, errors.New(name + " takes keyword arguments only: write " + name + "(name=value, ...), with the names its signature shows")
			}
			obj := []byte{'{'}
			for i, kv := range kwargs {
				if i > 0 {
					obj = append(obj, ',')
				}
				obj = strictjson.AppendString(obj, string(kv[0].(starlark.String)))
				obj = append(obj, ':')
				var err error
				if obj, err = appendJSON(obj, kv[1], 0); err != nil {
					return nil, errors.New(name + ": argument " + string(kv[0].(starlark.String)) + ": " + err.Error())
				}
			}
			obj = append(obj, '}')
			kind, reply := call('T', lenPrefixed([]byte(name)), obj)
			if kind == 'F' {
				return nil, &toolFailure{tool: name, text: string(reply)}
			}
			return fromJSON(reply)
		})
	}
	d["attempt"] = starlark.NewBuiltin("attempt", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 {
			return nil, errors.New("attempt takes the tool and its keyword arguments: attempt(search_docs, query=\"x\")")
		}
		fn, ok := args[0].(*starlark.Builtin)
		if !ok || d[fn.Name()] != fn || fn.Name() == "attempt" {
			return nil, errors.New("attempt's first argument must be one of the tools, such as attempt(" + firstTool(tools) + ", ...)")
		}
		v, err := starlark.Call(th, fn, nil, kwargs)
		var f *toolFailure
		if errors.As(err, &f) {
			return starlarkstruct.FromStringDict(starlarkstruct.Default, starlark.StringDict{
				"ok": starlark.False, "value": starlark.None, "error": starlark.String(f.text)}), nil
		}
		if err != nil {
			return nil, err
		}
		return starlarkstruct.FromStringDict(starlarkstruct.Default, starlark.StringDict{
			"ok": starlark.True, "value": v, "error": starlark.String("")}), nil
	})
	return d
}

func firstTool(tools []string) string {
	if len(tools) == 0 {
		return "a_tool"
	}
	return tools[0]
}

// appendJSON appends v as JSON: None, bools, ints, finite floats, strings, lists, tuples and dicts with
// string keys.
func appendJSON(dst []byte, v starlark.Value, depth int) ([]byte, error) {
	if depth > maxValueDepth {
		return nil, errors.New("value nested more than " + strconv.Itoa(maxValueDepth) + " deep")
	}
	switch x := v.(type) {
	case starlark.NoneType:
		return append(dst, "null"...), nil
	case starlark.Bool:
		return strconv.AppendBool(dst, bool(x)), nil
	case starlark.Int:
		if i, ok := x.Int64(); ok {
			return strconv.AppendInt(dst, i, 10), nil
		}
		return append(dst, x.String()...), nil
	case starlark.Float:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, errors.New(x.String() + " is not a JSON number")
		}
		return strconv.AppendFloat(dst, f, 'g', -1, 64), nil
	case starlark.String:
		return strictjson.AppendString(dst, string(x)), nil
	case *starlark.List:
		return appendSeq(dst, x, depth)
	case starlark.Tuple:
		return appendSeq(dst, x, depth)
	case *starlark.Dict:
		dst = append(dst, '{')
		for i, item := range x.Items() {
			k, ok := item[0].(starlark.String)
			if !ok {
				return nil, errors.New("dict key " + item[0].String() + " is not a string (JSON objects have string keys)")
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strictjson.AppendString(dst, string(k))
			dst = append(dst, ':')
			var err error
			if dst, err = appendJSON(dst, item[1], depth+1); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	}
	return nil, errors.New("a " + v.Type() + " cannot be passed to a tool (use None, bool, int, float, string, list, tuple or dict)")
}

func appendSeq(dst []byte, s starlark.Indexable, depth int) ([]byte, error) {
	dst = append(dst, '[')
	for i := 0; i < s.Len(); i++ {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendJSON(dst, s.Index(i), depth+1); err != nil {
			return nil, err
		}
	}
	return append(dst, ']'), nil
}

// fromJSON converts a result value's JSON (the tool's generated encoding) into a Starlark value: objects
// become dicts (members in their order), arrays lists, integers ints, other numbers floats.
func fromJSON(b []byte) (starlark.Value, error) {
	var d strictjson.Decoder
	d.Reset(b, strictjson.Limits{MaxBytes: len(b) + 1, MaxDepth: maxValueDepth})
	v := jsonValue(&d)
	if errs := d.Finish(); errs != nil {
		return nil, errors.New("the tool's result could not be read: " + errs.Error())
	}
	return v, nil
}

func jsonValue(d *strictjson.Decoder) starlark.Value {
	switch d.Peek() {
	case strictjson.KindNull:
		d.Null()
		return starlark.None
	case strictjson.KindBool:
		v, _ := d.Bool()
		return starlark.Bool(v)
	case strictjson.KindString:
		s, _ := d.String()
		return starlark.String(s)
	case strictjson.KindNumber:
		raw, _ := d.Raw()
		lit := string(raw)
		if !strings.ContainsAny(lit, ".eE") {
			if i, err := strconv.ParseInt(lit, 10, 64); err == nil {
				return starlark.MakeInt64(i)
			}
			if bi, ok := new(big.Int).SetString(lit, 10); ok {
				return starlark.MakeBigInt(bi)
			}
		}
		f, _ := strconv.ParseFloat(lit, 64)
		return starlark.Float(f)
	case strictjson.KindArray:
		var items []starlark.Value
		if d.ArrayStart() {
			for d.NextElem() {
				items = append(items, jsonValue(d))
			}
			d.ArrayEnd()
		}
		return starlark.NewList(items)
	case strictjson.KindObject:
		dict := starlark.NewDict(0)
		if d.ObjectStart() {
			for d.NextKey() {
				k := d.KeyString()
				_ = dict.SetKey(starlark.String(k), jsonValue(d))
			}
			d.ObjectEnd()
		}
		return dict
	}
	d.Skip()
	return starlark.None
}
