package annotations

import (
	"encoding/json"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// base is the position of the directive's first '/' in the tests: line 12, column 1, byte offset 300.
var base = token.Position{Filename: "tools.go", Line: 12, Column: 1, Offset: 300}

// at returns base advanced to the 1-based column col.
func at(col int) token.Position { return advance(base, col-1) }

func TestParseDirectiveAcceptsValidDirectives(t *testing.T) {
	tests := []struct {
		text string
		want Directive
	}{
		{`//wink:tool`, &Tool{Pos: base}},
		{`//wink:tool name=search_docs overrides=true`,
			&Tool{Pos: base, Name: "search_docs", NamePos: at(18), HasName: true, Overrides: true}},
		{`//wink:tool readonly`, &Tool{Pos: base, ReadOnly: true}},
		{`//wink:tool callers=program`, &Tool{Pos: base, Callers: "program", CallersPos: at(21)}},
		{`//wink:tool scopes=tickets:write,https://api.example.com/read`, &Tool{Pos: base,
			Scopes: []string{"tickets:write", "https://api.example.com/read"}, ScopePositions: []token.Position{at(20), at(34)}}},
		{`//wink:tool scopes="a!#[]~"`, &Tool{Pos: base, Scopes: []string{"a!#[]~"}, ScopePositions: []token.Position{at(20)}}},
		{`//wink:state`, &State{Pos: base}},
		{`//wink:tool task=optional`, &Tool{Pos: base, Task: "optional", TaskPos: at(18)}},
		{`//wink:tool name=x task="required"`, &Tool{Pos: base, Name: "x", NamePos: at(18), HasName: true, Task: "required", TaskPos: at(25)}},
		{`//wink:tool name=ls readonly=true`, &Tool{Pos: base, Name: "ls", NamePos: at(18), HasName: true, ReadOnly: true}},
		{`//wink:tool readonly=false`, &Tool{Pos: base}},
		{`//wink:tool defer`, &Tool{Pos: base, Defer: true}},
		{`//wink:tool readonly defer=true`, &Tool{Pos: base, ReadOnly: true, Defer: true}},
		{`//wink:tool defer=false`, &Tool{Pos: base}},
		{`//wink:tool title="Echo the text" destructive=false openworld=true`, &Tool{Pos: base, Title: "Echo the text", Destructive: ptr(false), OpenWorld: ptr(true)}},
		{"//wink:tool\tname=\"quoted-name\"  overrides=false",
			&Tool{Pos: base, Name: "quoted-name", NamePos: at(18), HasName: true}},
		{`//wink:example desc="Basic search" input={"query":"filesystem","limit":10} output={"matches":["fs.md"],"total_count":1}`,
			&Example{Pos: base, Desc: "Basic search", DescPos: at(21), Input: `{"query":"filesystem","limit":10}`,
				InputPos: at(42), Output: `{"matches":["fs.md"],"total_count":1}`, OutputPos: at(83), HasOutput: true}},
		// JSON with spaces inside strings and between tokens is compacted, key order kept.
		{`//wink:example desc="Basic \"x\"" input={ "z": "a b",  "a" : [1, 2] }`,
			&Example{Pos: base, Desc: `Basic "x"`, DescPos: at(21), Input: `{"z":"a b","a":[1,2]}`, InputPos: at(41)}},
		// Scalars: a quoted value is a JSON string; a bare word is a JSON literal.
		{`//wink:example desc=one-word input=3 output="text"`,
			&Example{Pos: base, Desc: "one-word", DescPos: at(21), Input: "3", InputPos: at(36),
				Output: `"text"`, OutputPos: at(45), HasOutput: true}},
		{`//wink:example desc="a\/b \u00e9\ud83d\ude00" input=null output=[]`,
			&Example{Pos: base, Desc: "a/b é😀", DescPos: at(21), Input: "null", InputPos: at(53),
				Output: "[]", OutputPos: at(65), HasOutput: true}},
		{`//wink:example desc="tab\there \x41" input=false`,
			&Example{Pos: base, Desc: "tab\there A", DescPos: at(21), Input: "false", InputPos: at(44)}},
		{`//wink:idempotent`, &Idempotent{Pos: base, Strategy: "auto", Scope: "session"}},
		{`//wink:idempotent strategy=params keys=user_id,order_id ttl=1h30m scope=global`,
			&Idempotent{Pos: base, Strategy: "params", StrategyPos: at(28), Keys: []string{"user_id", "order_id"},
				KeysPos: at(40), KeyPositions: []token.Position{at(40), at(48)}, TTL: 90 * time.Minute, HasTTL: true,
				TTLPos: at(61), Scope: "global", ScopePos: at(73)}},
		{`//wink:idempotent strategy=custom func=orderKey`,
			&Idempotent{Pos: base, Strategy: "custom", StrategyPos: at(28), Func: "orderKey", FuncPos: at(40),
				Scope: "session"}},
		{`//wink:idempotent strategy=none`,
			&Idempotent{Pos: base, Strategy: "none", StrategyPos: at(28), Scope: "session"}},
	}
	for _, tt := range tests {
		got, errs := ParseDirective(tt.text, base)
		if len(errs) != 0 {
			t.Errorf("ParseDirective(%q) errors: %v", tt.text, errs)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseDirective(%q)\n got %+v\nwant %+v", tt.text, got, tt.want)
		}
		if got.Position() != base {
			t.Errorf("ParseDirective(%q).Position() = %v, want %v", tt.text, got.Position(), base)
		}
	}
}

func TestParseDirectiveReportsEveryErrorWithPositionAndMessage(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{`// wink:tool`, []string{`tools.go:12:1: not a wink directive: a directive starts with "//wink:" (no space after "//")`}},
		{`//wink:`, []string{`tools.go:12:1: missing directive verb after "//wink:"; expected //wink:tool, //wink:example, //wink:idempotent, //wink:constraints, //wink:state, //wink:form or //wink:enum`}},
		{`//wink:tol name=x`, []string{`tools.go:12:8: unknown directive verb "tol" (did you mean "tool"?); expected //wink:tool, //wink:example, //wink:idempotent, //wink:constraints, //wink:state, //wink:form or //wink:enum`}},
		{`//wink:handler`, []string{`tools.go:12:8: unknown directive verb "handler"; expected //wink:tool, //wink:example, //wink:idempotent, //wink:constraints, //wink:state, //wink:form or //wink:enum`}},
		{`//wink:tool nme=x overrides=yes name= name=y`, []string{
			`tools.go:12:13: unknown key "nme" in //wink:tool (did you mean "name"?); accepted keys: name, overrides, readonly, title, destructive, openworld, scopes, task, defer, rate, burst, callers`,
			`tools.go:12:29: invalid value "yes" for overrides; expected true or false`,
			`tools.go:12:33: missing value after name=; write name=<tool_name>`,
			`tools.go:12:39: duplicate key "name" in //wink:tool; give each key once`,
		}},
		{`//wink:tool scopes=a,,a,b\\c,d`, []string{
			`tools.go:12:22: empty scope in scopes; write scopes=<scope>,<scope> (for example scopes=tickets:read,tickets:write)`,
			`tools.go:12:23: duplicate scope "a" in scopes`,
			`tools.go:12:26: scope "b\\\\c" is not an OAuth scope-token (RFC 6749 §3.3): it may hold printable ASCII other than space, '"' and '\', and no comma (which separates scopes)`,
		}},
		{`//wink:tool scopes=a,`, []string{
			`tools.go:12:21: empty scope in scopes; write scopes=<scope>,<scope> (for example scopes=tickets:read,tickets:write)`,
		}},
		{`//wink:tool scopes="a b"`, []string{
			`tools.go:12:20: scope "a b" is not an OAuth scope-token (RFC 6749 §3.3): it may hold printable ASCII other than space, '"' and '\', and no comma (which separates scopes)`,
		}},
		{`//wink:tool task=always`, []string{
			`tools.go:12:18: invalid value "always" for task; expected optional (a client that declared the tasks extension gets a task, others a plain result) or required (only clients that declared it may call the tool)`,
		}},
		{`//wink:tool task`, []string{
			`tools.go:12:13: missing '=' after task; write task=optional|required`,
		}},
		{`//wink:state name=x`, []string{
			`tools.go:12:14: //wink:state takes no keys; remove "name"`,
		}},
		{`//wink:tool destructive=maybe title=" "`, []string{
			`tools.go:12:25: invalid value "maybe" for destructive; expected true or false`,
			`tools.go:12:37: title must be one line of 1-100 characters`,
		}},
		{`//wink:tool defer=later`, []string{
			`tools.go:12:19: invalid value "later" for defer; expected true or false, or a bare defer`,
		}},
		{`//wink:tool readonly=yes readonly`, []string{
			`tools.go:12:22: invalid value "yes" for readonly; expected true or false, or a bare readonly`,
			`tools.go:12:26: duplicate key "readonly" in //wink:tool; give each key once`,
		}},
		{`//wink:tool name="" overrides`, []string{
			`tools.go:12:18: empty value for name; write name=<tool_name>`,
			`tools.go:12:21: missing '=' after overrides; write overrides=true|false`,
		}},
		{`//wink:tool =x name={"a":1}`, []string{
			`tools.go:12:13: missing key before '='; write key=value`,
			`tools.go:12:21: the value of name must be a word or a double-quoted string, not a JSON object; write name=<tool_name>`,
		}},
		{`//wink:example input={"query":} output=hello`, []string{
			`tools.go:12:1: //wink:example is missing desc; write desc="<what the example shows>"`,
			`tools.go:12:31: invalid JSON in input: unexpected character '}'; expected a value`,
			`tools.go:12:40: invalid JSON in output: unexpected character 'h'; expected a value (a bare value must be a JSON number, true, false or null; write strings in double quotes)`,
		}},
		{`//wink:example desc="x`, []string{
			`tools.go:12:1: //wink:example is missing input; write input=<JSON value>, e.g. input={"query":"x"}`,
			`tools.go:12:21: unterminated string in the value of "desc": missing closing '"'`,
		}},
		{`//wink:example desc=x input={"a":[1}`, []string{
			`tools.go:12:36: invalid JSON in input: unexpected character '}' after an array element; expected ',' or ']'`,
		}},
		{`//wink:example desc=x input={"a":1}x output=[1,2`, []string{
			`tools.go:12:36: unexpected 'x' right after the value of "input"; separate key=value pairs with spaces`,
			`tools.go:12:45: unterminated JSON value of "output": missing closing ']'`,
		}},
		{`//wink:example desc=x input={"a":"b}`, []string{
			`tools.go:12:29: unterminated JSON value of "input": a string inside it is missing its closing '"'`,
		}},
		{`//wink:example desc="a\qb" input=1 input=2 expected=3`, []string{
			`tools.go:12:23: invalid escape in the quoted value of desc; use Go or JSON string escapes such as \" \\ \n \u00e9`,
			`tools.go:12:36: duplicate key "input" in //wink:example; give each key once`,
			`tools.go:12:44: unknown key "expected" in //wink:example; accepted keys: desc, input, output`,
		}},
		{"//wink:example desc=x input=\"\xff\"", []string{`tools.go:12:29: invalid JSON in input: invalid UTF-8`}},
		{`//wink:example desc=x input=1 output="\x41"`, []string{
			`tools.go:12:39: invalid JSON in output: invalid escape '\x' in a string; JSON has \" \\ \/ \b \f \n \r \t and \uXXXX`,
		}},
		{`//wink:idempotent strategy=params keys=a,b,,a`, []string{
			`tools.go:12:44: empty field name in keys; write keys=<field>,<field>`,
			`tools.go:12:45: duplicate field "a" in keys`,
		}},
		{`//wink:idempotent strategy=params keys=a,`, []string{`tools.go:12:41: empty field name in keys; write keys=<field>,<field>`}},
		{`//wink:idempotent strategy=params`, []string{
			`tools.go:12:28: strategy=params requires keys=<field>,<field> naming the JSON fields that form the key`,
		}},
		{`//wink:idempotent strategy=custom ttl=10m`, []string{
			`tools.go:12:28: strategy=custom requires func=<GoFuncName>, the function that computes the key`,
		}},
		{`//wink:idempotent keys=a func=x ttl=-1s scope=local`, []string{
			`tools.go:12:19: keys is only allowed with strategy=params, not strategy=auto (the default)`,
			`tools.go:12:26: func is only allowed with strategy=custom, not strategy=auto (the default)`,
			`tools.go:12:37: ttl must be positive, got "-1s"; write a duration such as 30s, 15m or 1h`,
			`tools.go:12:47: invalid scope "local"; expected session or global`,
		}},
		{`//wink:idempotent strategy=custom func=a.b ttl=xyz keys=a`, []string{
			`tools.go:12:40: func must be the name of a Go function in this package, got "a.b"`,
			`tools.go:12:48: invalid ttl "xyz"; expected a positive Go duration such as 30s, 15m or 1h`,
			`tools.go:12:52: keys is only allowed with strategy=params, not strategy=custom`,
		}},
		{`//wink:idempotent strategy=none ttl=1h scope=global`, []string{
			`tools.go:12:33: ttl has no effect with strategy=none; remove it or choose another strategy`,
			`tools.go:12:40: scope has no effect with strategy=none; remove it or choose another strategy`,
		}},
		// An invalid strategy does not cascade into keys/func errors.
		{`//wink:idempotent strategy=param keys=a`, []string{
			`tools.go:12:28: invalid strategy "param" (did you mean "params"?); expected auto, params, custom or none`,
		}},
		{`//wink:idempotent ttl=0s`, []string{
			`tools.go:12:23: ttl must be positive, got "0s"; write a duration such as 30s, 15m or 1h`,
		}},
	}
	for _, tt := range tests {
		_, errs := ParseDirective(tt.text, base)
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseDirective(%q) errors\n got %s\nwant %s", tt.text, strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
		}
	}
}

func TestParseDirectiveKeepsWhatItCouldParseAlongsideErrors(t *testing.T) {
	d, errs := ParseDirective(`//wink:idempotent strategy=params keys=a ttl=soon`, base)
	if len(errs) != 1 {
		t.Fatalf("errors = %v, want exactly the ttl error", errs)
	}
	idem, ok := d.(*Idempotent)
	if !ok || idem.Strategy != "params" || !reflect.DeepEqual(idem.Keys, []string{"a"}) || idem.HasTTL {
		t.Errorf("directive = %+v, want strategy params, keys [a], no ttl", d)
	}
	if d, _ := ParseDirective(`//wink:nope`, base); d != nil {
		t.Errorf("unknown verb: directive = %+v, want nil", d)
	}
}

func TestParseDirectiveErrorPositionAdvancesOffsetAndColumnFromPos(t *testing.T) {
	pos := token.Position{Filename: "a.go", Line: 7, Column: 5, Offset: 100}
	_, errs := ParseDirective(`//wink:tool bad=1`, pos)
	if len(errs) != 1 {
		t.Fatalf("errors = %v, want one", errs)
	}
	want := token.Position{Filename: "a.go", Line: 7, Column: 17, Offset: 112}
	if errs[0].Pos != want {
		t.Errorf("error position = %#v, want %#v", errs[0].Pos, want)
	}
}

func TestIsDirectiveRequiresExactPrefix(t *testing.T) {
	tests := map[string]bool{
		"//wink:tool": true, "//wink:": true, "//wink:example desc=x": true,
		"// wink:tool": false, "//wink tool": false, "/*wink:tool*/": false, "//Wink:tool": false, "": false,
		"//go:generate": false,
	}
	for text, want := range tests {
		if got := IsDirective(text); got != want {
			t.Errorf("IsDirective(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestNearMissFlagsMistypedDirectives(t *testing.T) {
	tests := []struct{ text, want string }{
		{"// wink:tool name=x", `this comment is not a wink directive because of the space after "//"; write "//wink:tool name=x"`},
		{"//\twink:example", `this comment is not a wink directive because of the space after "//"; write "//wink:example"`},
		{"//wink tool", `this comment is not a wink directive: a colon must follow "//wink", as in //wink:tool`},
		{"//wink", `this comment is not a wink directive: a colon must follow "//wink", as in //wink:tool`},
		{"//Wink:tool", `this comment is not a wink directive: write "//wink:" in lower case`},
		{"//wink:tool", ""},
		{"// winking is fun", ""},
		{"// wink:\"...\" tag grammar (prose, not a verb)", ""},
		{"//wink is the runtime", ""},
		{"//Wink:Tools lists", ""},
		{"// SearchDocs searches.", ""},
		{"/* wink:tool */", ""},
	}
	for _, tt := range tests {
		e := NearMiss(tt.text, base)
		got := ""
		if e != nil {
			got = e.Msg
			if e.Pos != base {
				t.Errorf("NearMiss(%q).Pos = %v, want %v", tt.text, e.Pos, base)
			}
		}
		if got != tt.want {
			t.Errorf("NearMiss(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestErrorFormatsPositionThenMessage(t *testing.T) {
	tests := []struct {
		pos  token.Position
		want string
	}{
		{token.Position{Filename: "a.go", Line: 3, Column: 9}, "a.go:3:9: boom"},
		{token.Position{Line: 3, Column: 9}, "3:9: boom"},
		{token.Position{}, "boom"},
	}
	for _, tt := range tests {
		if got := (&Error{Pos: tt.pos, Msg: "boom"}).Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func FuzzParseDirective(f *testing.F) {
	for _, s := range []string{
		`//wink:tool`, `//wink:tool name=search_docs overrides=true`, `//wink:tool nme=x overrides=yes name= name=y`,
		`//wink:example desc="Basic \"x\"" input={"query":"a b","limit":10} output="text"`,
		`//wink:example desc=x input={"a":[1} output=[1,2`, `//wink:example desc="\ud83d" input=-1.5e3`,
		`//wink:idempotent strategy=params keys=a,b,,a ttl=1h scope=global`,
		`//wink:idempotent strategy=custom func=keyFor`, `//wink:idempotent keys=a func=x ttl=-1s scope=local`,
		`//wink:tool =x "q" name={"a":1}`, `//wink:`, `//wink:tol`, `// wink:tool`, "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, errs := ParseDirective(text, base)
		for _, e := range errs {
			off := e.Pos.Offset - base.Offset
			if off < 0 || (off >= len(text) && off != 0) || e.Pos.Column-base.Column != off || e.Pos.Line != base.Line {
				t.Fatalf("error %v at offset %d outside the %d-byte input %q", e, off, len(text), text)
			}
			if e.Msg == "" {
				t.Fatalf("empty error message for %q", text)
			}
		}
		if d == nil {
			if len(errs) == 0 {
				t.Fatalf("nil directive without errors for %q", text)
			}
			return
		}
		if len(errs) != 0 {
			return
		}
		// A directive without errors satisfies every documented invariant.
		switch d := d.(type) {
		case *Tool:
			if d.HasName && d.Name == "" {
				t.Fatalf("empty name accepted in %q", text)
			}
		case *Example:
			if d.Desc == "" || !json.Valid([]byte(d.Input)) || (d.HasOutput && !json.Valid([]byte(d.Output))) {
				t.Fatalf("bad example accepted from %q: %+v", text, d)
			}
		case *Idempotent:
			switch {
			case d.Strategy == "params" && len(d.Keys) == 0,
				d.Strategy != "params" && len(d.Keys) != 0,
				d.Strategy == "custom" && !token.IsIdentifier(d.Func),
				d.Strategy != "custom" && d.Func != "",
				d.HasTTL && d.TTL <= 0,
				d.Scope != "session" && d.Scope != "global",
				len(d.Keys) != len(d.KeyPositions):
				t.Fatalf("bad idempotent accepted from %q: %+v", text, d)
			}
		}
	})
}

func BenchmarkParseDirective(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ParseDirective(`//wink:example desc="Basic search" input={"query":"filesystem","limit":10} output={"matches":["fs.md"],"total_count":1}`, base)
	}
}

func TestParseConstraintsDirective(t *testing.T) {
	pos := token.Position{Filename: "p.go", Line: 3, Column: 1, Offset: 40}
	d, errs := ParseDirective("//wink:constraints minLength=1,pattern='[a-z]+'", pos)
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	c, ok := d.(*Constraints)
	if !ok {
		t.Fatalf("got %T, want *Constraints", d)
	}
	if it, ok := c.Tag.Get("pattern"); !ok || it.Value != "[a-z]+" || it.KeyPos.Column != 32 {
		t.Errorf("pattern item = %+v", it)
	}
	_, errs = ParseDirective("//wink:constraints minLenght=1", pos)
	if len(errs) != 1 || errs[0].Pos.Column != 20 || !strings.Contains(errs[0].Msg, `unknown key "minLenght"`) {
		t.Errorf("bad key errors = %v", errs)
	}
	_, errs = ParseDirective("//wink:constraints", pos)
	if len(errs) != 1 || !strings.Contains(errs[0].Msg, "needs constraints") {
		t.Errorf("empty body errors = %v", errs)
	}
}

func ptr[T any](v T) *T { return &v }

// TestFormAndEnumDirectives: //wink:form takes no keys; //wink:enum needs a one-line title.
func TestFormAndEnumDirectives(t *testing.T) {
	pos := token.Position{Filename: "forms.go", Line: 3, Column: 1}
	d, errs := ParseDirective(`//wink:form`, pos)
	if _, ok := d.(*Form); !ok || len(errs) != 0 {
		t.Fatalf("form: %T %v", d, errs)
	}
	d, errs = ParseDirective(`//wink:enum title="First Option"`, pos)
	if e, ok := d.(*Enum); !ok || len(errs) != 0 || e.Title != "First Option" || e.Legacy {
		t.Fatalf("enum: %#v %v", d, errs)
	}
	d, errs = ParseDirective(`//wink:enum legacy`, pos)
	if e, ok := d.(*Enum); !ok || len(errs) != 0 || !e.Legacy {
		t.Fatalf("enum legacy: %#v %v", d, errs)
	}
	for text, want := range map[string]string{
		`//wink:form x=1`:         `forms.go:3:13: //wink:form takes no keys; remove "x"`,
		`//wink:enum`:             `forms.go:3:1: //wink:enum is missing title; write title="<the label a form shows for this value>" (on a constant) or legacy (on the type)`,
		`//wink:enum legacy=yes`:  `forms.go:3:20: invalid value "yes" for legacy; expected true or false, or a bare legacy`,
		`//wink:enum title="  "`:  `forms.go:3:19: title must be one line of 1-100 characters`,
		`//wink:enum titel="One"`: `forms.go:3:13: unknown key "titel" in //wink:enum (did you mean "title"?); accepted keys: title, legacy`,
	} {
		_, errs := ParseDirective(text, pos)
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if !slices.Contains(got, want) {
			t.Errorf("%s: got %q, want %q among them", text, got, want)
		}
	}
}
