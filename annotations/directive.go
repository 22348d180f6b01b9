package annotations

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/winkgen/wink/runtime/strictjson"
)

// Prefix is the text every wink directive comment starts with.
const Prefix = "//wink:"

// Directive is one parsed //wink: directive: *Tool, *Example or *Idempotent.
type Directive interface {
	directive()
	// Position returns the position of the "//" of the directive.
	Position() token.Position
}

// Tool is a //wink:tool directive: it marks a function as a tool handler.
type Tool struct {
	Pos       token.Position // position of the "//" of the directive
	Name      string         // name=snake_name; syntax is checked by the generator
	NamePos   token.Position // position of the name value
	HasName   bool           // name= was given
	Overrides bool           // overrides=true|false (default false): the description may be overridden
	ReadOnly  bool           // readonly, or readonly=true|false (default false): the tool changes no state
	// Defer is defer, or defer=true|false (default false): the tool's definition is not loaded into the
	// model's context up front; the model finds it with tool search.
	Defer bool
	// Title is title="..." (MCP's human-readable title), unquoted; "" when not given.
	Title string
	// Destructive and OpenWorld are destructive=true|false and openworld=true|false (MCP's hints); nil
	// when not given.
	Destructive, OpenWorld *bool
	// Scopes is scopes=a,b: the OAuth scopes a caller must hold, each an RFC 6749 §3.3 scope-token
	// (printable ASCII other than space, '"' and '\'; a comma separates scopes, so none contains one);
	// nil when not given.
	Scopes         []string
	ScopePositions []token.Position // position of each element of Scopes
	// Task is task=optional|required (MCP's io.modelcontextprotocol/tasks extension): whether a call may
	// (optional) or must (required) run as a task; "" when not given (the tool is never a task).
	Task    string
	TaskPos token.Position // position of the task value
	// Rate is rate=<count>/<period> with an optional burst=<n> (rate.go): a token bucket per caller
	// for this tool; nil when not given.
	Rate *Rate
	// Callers is callers=direct|program|both: who may call the tool (the model directly, a program's
	// inner calls, or both); "" when not given (the default follows from the hints, see wink.Spec.Callable).
	Callers    string
	CallersPos token.Position // position of the callers value
}

// Example is a //wink:example directive: one documented, validated call of the tool.
type Example struct {
	Pos       token.Position
	Desc      string         // desc="Basic search" (required), unquoted
	DescPos   token.Position // position of the desc value
	Input     string         // input=<one JSON value> (required), compacted JSON text
	InputPos  token.Position // position of the input value
	Output    string         // output=<one JSON value> (optional), compacted JSON text
	OutputPos token.Position // position of the output value
	HasOutput bool           // output= was given
}

// Idempotent is a //wink:idempotent directive: how the tool's calls are keyed in the effect ledger.
type Idempotent struct {
	Pos          token.Position
	Strategy     string           // auto|params|custom|none (default auto)
	StrategyPos  token.Position   // position of the strategy value; zero when defaulted
	Keys         []string         // keys=a,b: JSON field names (strategy=params only)
	KeysPos      token.Position   // position of the keys value
	KeyPositions []token.Position // position of each element of Keys
	Func         string           // func=GoFuncName (strategy=custom only), a Go identifier
	FuncPos      token.Position   // position of the func value
	TTL          time.Duration    // ttl=1h (time.ParseDuration, > 0)
	HasTTL       bool             // ttl= was given and is valid
	TTLPos       token.Position   // position of the ttl value
	Scope        string           // session|global (default session)
	ScopePos     token.Position   // position of the scope value; zero when defaulted
}

func (*Tool) directive()        {}
func (*Example) directive()     {}
func (*Idempotent) directive()  {}
func (*Constraints) directive() {}

// Position returns the position of the "//" of the directive.
func (d *Tool) Position() token.Position { return d.Pos }

// Position returns the position of the "//" of the directive.
func (d *Example) Position() token.Position { return d.Pos }

// Position returns the position of the "//" of the directive.
func (d *Idempotent) Position() token.Position { return d.Pos }

// Constraints is a //wink:constraints directive in the doc comment of a named type: its body uses the
// wink:"..." tag grammar (//wink:constraints minLength=1,pattern='[a-z]+') and applies to every field of that
// type, as if written in each field's tag (a field's own tag adds to it and wins where both set a key).
type Constraints struct {
	Pos token.Position
	Tag *Tag
}

// Position reports where the directive starts.
func (d *Constraints) Position() token.Position { return d.Pos }

// State is a //wink:state directive on a named struct type: winkgen emits the type's strict decoder,
// canonical encoder and a session.Codec (Wink<Type>Codec), so that session slices of the type can be
// stored. It takes no keys.
type State struct {
	Pos token.Position
}

// Position reports where the directive starts.
func (d *State) Position() token.Position { return d.Pos }

func (*State) directive() {}

// Form is a //wink:form directive on a named struct type: winkgen emits the type's strict decoder and a
// wink.Form (WinkForm<Type>) whose schema is in MCP's elicitation subset, for wink.Elicit. It takes no keys.
type Form struct {
	Pos token.Position
}

// Position reports where the directive starts.
func (d *Form) Position() token.Position { return d.Pos }

func (*Form) directive() {}

// Enum is a //wink:enum directive. On an enum constant (in its doc or line comment), title="..." is the
// label a form shows for the value (a titled single- or multi-select in an elicitation schema). On an
// enum type, legacy asks forms to state the titles the deprecated way (enum and enumNames).
type Enum struct {
	Pos token.Position
	// Title is title="...", unquoted.
	Title string
	// Legacy is legacy (or legacy=true).
	Legacy bool
}

// Position reports where the directive starts.
func (d *Enum) Position() token.Position { return d.Pos }

func (*Enum) directive() {}

// IsDirective reports whether a comment text (as in ast.Comment.Text, e.g. "//wink:tool name=x") is a wink
// directive: it starts with exactly "//wink:" (no space after //).
func IsDirective(text string) bool { return strings.HasPrefix(text, Prefix) }

// NearMiss reports a comment that was probably meant as a wink directive but is not one, and so would be
// silently ignored: "// wink:tool" (space after //), "//wink tool" or "//wink" (no colon), "//Wink:tool".
// It returns nil for real directives and for ordinary comments.
func NearMiss(text string, pos token.Position) *Error {
	if IsDirective(text) || !strings.HasPrefix(text, "//") {
		return nil
	}
	rest := text[2:]
	trimmed := strings.TrimLeft(rest, " \t")
	// Only a known verb right after the near-miss counts, so prose such as `// wink:"..." tag grammar` or
	// "// wink is ..." is left alone.
	switch {
	case trimmed != rest && strings.HasPrefix(trimmed, "wink:") && knownVerbAt(trimmed[len("wink:"):]):
		return &Error{Pos: pos, Msg: "this comment is not a wink directive because of the space after \"//\"; write " +
			strconv.Quote(Prefix+trimmed[len("wink:"):])}
	case rest == "wink" || (strings.HasPrefix(rest, "wink ") || strings.HasPrefix(rest, "wink\t")) && knownVerbAt(strings.TrimLeft(rest[len("wink"):], " \t")):
		return &Error{Pos: pos, Msg: "this comment is not a wink directive: a colon must follow \"//wink\", as in //wink:tool"}
	case len(rest) >= 5 && rest[:5] != "wink:" && strings.EqualFold(rest[:5], "wink:") && knownVerbAt(rest[5:]):
		return &Error{Pos: pos, Msg: "this comment is not a wink directive: write \"//wink:\" in lower case"}
	}
	return nil
}

// knownVerbAt reports whether s starts with a directive verb followed by the end or a blank.
func knownVerbAt(s string) bool {
	for _, v := range verbs {
		if rest, ok := strings.CutPrefix(s, v); ok && (rest == "" || isBlank(rest[0])) {
			return true
		}
	}
	return false
}

// verbs lists the directive verbs in the order messages show them.
var verbs = []string{"tool", "example", "idempotent", "constraints", "state", "form", "enum"}

// keySpec describes one key of a verb: its name and how to write it.
type keySpec struct {
	name, form string
	flag       bool // the key may be written alone, meaning key=true
}

var verbKeys = map[string][]keySpec{
	"state": nil,
	"form":  nil,
	"enum":  {{"title", `title="<text>"`, false}, {"legacy", "legacy (or legacy=true|false)", true}},
	"tool": {{"name", "name=<tool_name>", false}, {"overrides", "overrides=true|false", false},
		{"readonly", "readonly (or readonly=true|false)", true}, {"title", `title="<text>"`, false},
		{"destructive", "destructive=true|false", false}, {"openworld", "openworld=true|false", false},
		{"scopes", "scopes=<scope>,<scope>", false}, {"task", "task=optional|required", false},
		{"defer", "defer (or defer=true|false)", true}, {"rate", "rate=<count>/<period> (for example rate=10/s or rate=100/m)", false},
		{"burst", "burst=<count>", false}, {"callers", "callers=direct|program|both", false}},
	"example": {{"desc", `desc="<text>"`, false}, {"input", "input=<JSON value>", false},
		{"output", "output=<JSON value>", false}},
	"idempotent": {{"strategy", "strategy=auto|params|custom|none", false}, {"keys", "keys=<field>,<field>", false},
		{"func", "func=<GoFuncName>", false}, {"ttl", "ttl=<duration such as 30m or 1h>", false},
		{"scope", "scope=session|global", false}},
}

// dirParser holds the state of one ParseDirective call.
type dirParser struct {
	text string
	pos  token.Position
	verb string
	errs []*Error
}

func (p *dirParser) errorf(off int, msg string) {
	p.errs = append(p.errs, &Error{Pos: advance(p.pos, off), Msg: msg})
}

// ParseDirective parses one directive comment. pos is the position of the comment's first '/'; every error
// position is pos advanced by the byte column of the offending token in text (same line; Offset and Column both
// advanced). It returns all errors it can find in the directive, not just the first. The directive is
// non-nil whenever the verb is known, even if there are errors; its fields then hold what could be parsed.
func ParseDirective(text string, pos token.Position) (Directive, []*Error) {
	p := &dirParser{text: text, pos: pos}
	if !IsDirective(text) {
		p.errorf(0, "not a wink directive: a directive starts with \"//wink:\" (no space after \"//\")")
		return nil, p.errs
	}
	end := len(Prefix)
	for end < len(text) && !isBlank(text[end]) {
		end++
	}
	p.verb = text[len(Prefix):end]
	var d Directive
	switch p.verb {
	case "tool":
		d = &Tool{Pos: pos}
	case "example":
		d = &Example{Pos: pos}
	case "idempotent":
		d = &Idempotent{Pos: pos, Strategy: "auto", Scope: "session"}
	case "state":
		d = &State{Pos: pos}
	case "form":
		d = &Form{Pos: pos}
	case "enum":
		d = &Enum{Pos: pos}
	case "constraints":
		body := end
		for body < len(text) && isBlank(text[body]) {
			body++
		}
		tag, errs := ParseTag(text[body:], advance(pos, body))
		if body == len(text) {
			errs = append(errs, &Error{Pos: advance(pos, end), Msg: "//wink:constraints needs constraints in the wink tag grammar, e.g. //wink:constraints minLength=1,maxLength=80"})
		}
		return &Constraints{Pos: pos, Tag: tag}, errs
	case "":
		p.errorf(0, "missing directive verb after \"//wink:\"; expected //wink:tool, //wink:example, //wink:idempotent, //wink:constraints, //wink:state, //wink:form or //wink:enum")
		return nil, p.errs
	default:
		p.errorf(len(Prefix), "unknown directive verb "+strconv.QuoteToASCII(p.verb)+didYouMean(p.verb, verbs)+
			"; expected //wink:tool, //wink:example, //wink:idempotent, //wink:constraints, //wink:state, //wink:form or //wink:enum")
		return nil, p.errs
	}
	args := p.checkKeys(lexArgs(text, end, p.errorf))
	switch d := d.(type) {
	case *Tool:
		p.tool(d, args)
	case *Example:
		p.example(d, args)
	case *Idempotent:
		p.idempotent(d, args)
	case *Enum:
		p.enum(d, args)
	}
	slices.SortStableFunc(p.errs, func(a, b *Error) int { return cmp.Compare(a.Pos.Offset, b.Pos.Offset) })
	return d, p.errs
}

// checkKeys reports unknown, duplicate and value-less keys, and returns the first argument of each known
// key indexed by key. Arguments whose value is broken are kept (so required-key checks do not cascade)
// but have kind argBad.
func (p *dirParser) checkKeys(args []arg) map[string]arg {
	specs := verbKeys[p.verb]
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.name
	}
	found := make(map[string]arg, len(args))
	for _, a := range args {
		var spec keySpec
		for _, s := range specs {
			if s.name == a.key {
				spec = s
			}
		}
		if spec.name == "" && len(specs) == 0 {
			p.errorf(a.keyOff, "//wink:"+p.verb+" takes no keys; remove "+keyName(a.key))
			continue
		}
		if spec.name == "" {
			p.errorf(a.keyOff, "unknown key "+keyName(a.key)+" in //wink:"+p.verb+didYouMean(a.key, names)+
				"; accepted keys: "+strings.Join(names, ", "))
			continue
		}
		if _, dup := found[a.key]; dup {
			p.errorf(a.keyOff, "duplicate key "+keyName(a.key)+" in //wink:"+p.verb+"; give each key once")
			continue
		}
		switch a.kind {
		case argNoEq:
			if !spec.flag {
				p.errorf(a.keyOff, "missing '=' after "+a.key+"; write "+spec.form)
				a.kind = argBad
			}
		case argNoValue:
			p.errorf(a.keyOff, "missing value after "+a.key+"=; write "+spec.form)
			a.kind = argBad
		}
		found[a.key] = a
	}
	return found
}

// word returns the text of a value written as a bare word or a quoted string, reporting other forms and
// empty values.
func (p *dirParser) word(a arg) (string, bool) {
	switch a.kind {
	case argBare:
		return a.val, true
	case argQuoted:
		s, ok := p.unquote(a)
		if ok && s == "" {
			p.errorf(a.valOff, "empty value for "+a.key+"; write "+formOf(p.verb, a.key))
			return "", false
		}
		return s, ok
	case argJSON:
		p.errorf(a.valOff, "the value of "+a.key+" must be a word or a double-quoted string, not a JSON "+
			jsonKind(a.val)+"; write "+formOf(p.verb, a.key))
	}
	return "", false
}

func formOf(verb, key string) string {
	for _, s := range verbKeys[verb] {
		if s.name == key {
			return s.form
		}
	}
	return key + "=<value>"
}

func jsonKind(v string) string {
	if strings.HasPrefix(v, "[") {
		return "array"
	}
	return "object"
}

// unquote decodes a double-quoted value with Go or JSON escapes.
func (p *dirParser) unquote(a arg) (string, bool) {
	if s, err := strconv.Unquote(a.val); err == nil {
		return s, true
	}
	var s string
	if json.Unmarshal([]byte(a.val), &s) == nil {
		return s, true
	}
	// Find the offending escape for the position.
	off := 1
	if _, _, bad, ok := unquoteGo(a.val[1:len(a.val)-1], '"'); !ok {
		off += bad
	}
	p.errorf(a.valOff+off, "invalid escape in the quoted value of "+a.key+"; use Go or JSON string escapes such as \\\" \\\\ \\n \\u00e9")
	return "", false
}

// jsonValue validates a value as exactly one JSON value and returns it compacted.
func (p *dirParser) jsonValue(a arg) (string, bool) {
	if a.kind == argBad {
		return "", false
	}
	if !utf8.ValidString(a.val) {
		p.errorf(a.valOff, "invalid JSON in "+a.key+": invalid UTF-8")
		return "", false
	}
	// The syntax is judged by strictjson (its own words and offsets, the same on every Go release, and a
	// member named twice or a lone surrogate is an error too); encoding/json's messages change between
	// releases, and diagnostics must not.
	if _, err := strictjson.CanonicalExact(nil, []byte(a.val)); err != nil {
		off, msg := 0, err.Error()
		var ce *strictjson.CanonicalError
		if errors.As(err, &ce) {
			off, msg = min(max(ce.Offset, 0), len(a.val)-1), ce.Msg
		}
		hint := ""
		if a.kind == argBare {
			hint = " (a bare value must be a JSON number, true, false or null; write strings in double quotes)"
		}
		p.errorf(a.valOff+off, "invalid JSON in "+a.key+": "+msg+hint)
		return "", false
	}
	raw := []byte(a.val)
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil { // cannot fail on a valid value
		p.errorf(a.valOff, "invalid JSON in "+a.key+": "+err.Error())
		return "", false
	}
	return buf.String(), true
}

func (p *dirParser) tool(d *Tool, args map[string]arg) {
	if a, ok := args["name"]; ok {
		if v, ok := p.word(a); ok {
			d.Name, d.NamePos, d.HasName = v, advance(p.pos, a.valOff), true
		}
	}
	if a, ok := args["overrides"]; ok {
		if v, ok := p.word(a); ok {
			switch v {
			case "true":
				d.Overrides = true
			case "false":
			default:
				p.errorf(a.valOff, "invalid value "+strconv.QuoteToASCII(v)+" for overrides; expected true or false")
			}
		}
	}
	if a, ok := args["readonly"]; ok {
		if a.kind == argNoEq {
			d.ReadOnly = true
		} else if v, ok := p.word(a); ok {
			switch v {
			case "true":
				d.ReadOnly = true
			case "false":
			default:
				p.errorf(a.valOff, "invalid value "+strconv.QuoteToASCII(v)+" for readonly; expected true or false, or a bare readonly")
			}
		}
	}
	if a, ok := args["defer"]; ok {
		d.Defer = p.flag(a, "defer")
	}
	if a, ok := args["title"]; ok {
		if v, ok := p.word(a); ok {
			if strings.TrimSpace(v) == "" || len(v) > 100 || strings.ContainsAny(v, "\r\n") {
				p.errorf(a.valOff, "title must be one line of 1-100 characters")
			} else {
				d.Title = v
			}
		}
	}
	if a, ok := args["scopes"]; ok {
		if v, ok := p.word(a); ok {
			p.scopes(d, a, v)
		}
	}
	if a, ok := args["task"]; ok {
		if v, ok := p.word(a); ok {
			switch v {
			case "optional", "required":
				d.Task, d.TaskPos = v, advance(p.pos, a.valOff)
			default:
				p.errorf(a.valOff, "invalid value "+strconv.QuoteToASCII(v)+" for task; expected optional (a client that declared the tasks extension gets a task, others a plain result) or required (only clients that declared it may call the tool)")
			}
		}
	}
	p.rate(d, args)
	if a, ok := args["callers"]; ok {
		if v, ok := p.word(a); ok {
			switch v {
			case "direct", "program", "both":
				d.Callers, d.CallersPos = v, advance(p.pos, a.valOff)
			default:
				p.errorf(a.valOff, "invalid value "+strconv.QuoteToASCII(v)+" for callers; expected direct (the model's calls only), program (calls from programs only) or both")
			}
		}
	}
	for _, k := range []struct {
		key string
		dst **bool
	}{{"destructive", &d.Destructive}, {"openworld", &d.OpenWorld}} {
		if a, ok := args[k.key]; ok {
			if v, ok := p.word(a); ok {
				switch v {
				case "true", "false":
					b := v == "true"
					*k.dst = &b
				default:
					p.errorf(a.valOff, "invalid value "+strconv.QuoteToASCII(v)+" for "+k.key+"; expected true or false")
				}
			}
		}
	}
}

// flag parses a key that may be written alone (key, meaning true) or as key=true|false.
func (p *dirParser) flag(a arg, key string) bool {
	if a.kind == argNoEq {
		return true
	}
	v, ok := p.word(a)
	if !ok {
		return false
	}
	switch v {
	case "true":
		return true
	case "false":
	default:
		p.errorf(a.valOff, "invalid value "+strconv.QuoteToASCII(v)+" for "+key+"; expected true or false, or a bare "+key)
	}
	return false
}

// scopes parses scopes=a,b into d: each element an RFC 6749 §3.3 scope-token, none repeated.
func (p *dirParser) scopes(d *Tool, a arg, v string) {
	seen := map[string]bool{}
	ok := true
	a.elements(v, func(sc string, sOff int) {
		switch {
		case sc == "":
			p.errorf(sOff, "empty scope in scopes; write scopes=<scope>,<scope> (for example scopes=tickets:read,tickets:write)")
			ok = false
		case seen[sc]:
			p.errorf(sOff, "duplicate scope "+strconv.QuoteToASCII(sc)+" in scopes")
			ok = false
		default:
			if i := badScopeChar(sc); i >= 0 {
				if a.kind == argBare {
					sOff += i
				}
				p.errorf(sOff, "scope "+strconv.QuoteToASCII(sc)+" is not an OAuth scope-token (RFC 6749 §3.3): it may hold printable ASCII other than space, '\"' and '\\', and no comma (which separates scopes)")
				ok = false
				return
			}
			seen[sc] = true
			d.Scopes = append(d.Scopes, sc)
			d.ScopePositions = append(d.ScopePositions, advance(p.pos, sOff))
		}
	})
	if !ok {
		d.Scopes, d.ScopePositions = nil, nil
	}
}

// elements calls each for every comma-separated element of the list value v of a, with the offset a
// diagnostic about the element points at: the element itself in a bare value, the opening quote in a
// quoted one, the comma for an empty element after a trailing comma.
func (a arg) elements(v string, each func(elem string, off int)) {
	off := 0
	for _, e := range strings.Split(v, ",") {
		eOff := a.valOff
		if a.kind == argBare {
			eOff += off
		}
		off += len(e) + 1
		if e == "" && a.kind == argBare && eOff == a.valOff+len(a.val) {
			eOff-- // a trailing comma: point at it
		}
		each(e, eOff)
	}
}

// badScopeChar returns the byte offset of the first character of s that no RFC 6749 scope-token holds
// (%x21 / %x23-5B / %x5D-7E), or -1.
func badScopeChar(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return i
		}
	}
	return -1
}

func (p *dirParser) enum(d *Enum, args map[string]arg) {
	if a, ok := args["legacy"]; ok {
		if a.kind == argNoEq {
			d.Legacy = true
		} else if v, ok := p.word(a); ok {
			switch v {
			case "true":
				d.Legacy = true
			case "false":
			default:
				p.errorf(a.valOff, "invalid value "+strconv.QuoteToASCII(v)+" for legacy; expected true or false, or a bare legacy")
			}
		}
	}
	a, ok := args["title"]
	if !ok {
		if _, legacy := args["legacy"]; !legacy {
			p.errorf(0, "//wink:enum is missing title; write title=\"<the label a form shows for this value>\" (on a constant) or legacy (on the type)")
		}
		return
	}
	if v, ok := p.word(a); ok {
		if strings.TrimSpace(v) == "" || len(v) > 100 || strings.ContainsAny(v, "\r\n") {
			p.errorf(a.valOff, "title must be one line of 1-100 characters")
		} else {
			d.Title = v
		}
	}
}

func (p *dirParser) example(d *Example, args map[string]arg) {
	a, ok := args["desc"]
	if ok {
		if v, ok := p.word(a); ok {
			d.Desc, d.DescPos = v, advance(p.pos, a.valOff)
		}
	} else {
		p.errorf(0, "//wink:example is missing desc; write desc=\"<what the example shows>\"")
	}
	if a, ok := args["input"]; ok {
		if v, ok := p.jsonValue(a); ok {
			d.Input, d.InputPos = v, advance(p.pos, a.valOff)
		}
	} else {
		p.errorf(0, "//wink:example is missing input; write input=<JSON value>, e.g. input={\"query\":\"x\"}")
	}
	if a, ok := args["output"]; ok {
		if v, ok := p.jsonValue(a); ok {
			d.Output, d.OutputPos, d.HasOutput = v, advance(p.pos, a.valOff), true
		}
	}
}

func (p *dirParser) idempotent(d *Idempotent, args map[string]arg) {
	strategyOK := true
	strategy, hasStrategy := args["strategy"]
	if hasStrategy {
		v, ok := p.word(strategy)
		switch {
		case !ok:
			strategyOK = false
		case v == "auto" || v == "params" || v == "custom" || v == "none":
			d.Strategy, d.StrategyPos = v, advance(p.pos, strategy.valOff)
		default:
			p.errorf(strategy.valOff, "invalid strategy "+strconv.QuoteToASCII(v)+
				didYouMean(v, []string{"auto", "params", "custom", "none"})+"; expected auto, params, custom or none")
			strategyOK = false
		}
	}
	// wrongStrategy reports a key that the (valid) strategy does not take.
	wrongStrategy := func(a arg, want string) {
		got := "strategy=" + d.Strategy
		if !hasStrategy {
			got += " (the default)"
		}
		p.errorf(a.keyOff, a.key+" is only allowed with strategy="+want+", not "+got)
	}
	if a, ok := args["keys"]; ok {
		if strategyOK && d.Strategy != "params" {
			wrongStrategy(a, "params")
		} else if v, ok := p.word(a); ok {
			p.keys(d, a, v)
		}
	} else if strategyOK && d.Strategy == "params" {
		p.errorf(strategy.valOff, "strategy=params requires keys=<field>,<field> naming the JSON fields that form the key")
	}
	if a, ok := args["func"]; ok {
		if strategyOK && d.Strategy != "custom" {
			wrongStrategy(a, "custom")
		} else if v, ok := p.word(a); ok {
			if token.IsIdentifier(v) {
				d.Func, d.FuncPos = v, advance(p.pos, a.valOff)
			} else {
				p.errorf(a.valOff, "func must be the name of a Go function in this package, got "+strconv.QuoteToASCII(v))
			}
		}
	} else if strategyOK && d.Strategy == "custom" {
		p.errorf(strategy.valOff, "strategy=custom requires func=<GoFuncName>, the function that computes the key")
	}
	for _, key := range []string{"ttl", "scope"} {
		if a, ok := args[key]; ok && strategyOK && d.Strategy == "none" {
			p.errorf(a.keyOff, key+" has no effect with strategy=none; remove it or choose another strategy")
		}
	}
	if a, ok := args["ttl"]; ok {
		if v, ok := p.word(a); ok {
			ttl, err := time.ParseDuration(v)
			switch {
			case err != nil:
				p.errorf(a.valOff, "invalid ttl "+strconv.QuoteToASCII(v)+"; expected a positive Go duration such as 30s, 15m or 1h")
			case ttl <= 0:
				p.errorf(a.valOff, "ttl must be positive, got "+strconv.QuoteToASCII(v)+"; write a duration such as 30s, 15m or 1h")
			default:
				d.TTL, d.HasTTL, d.TTLPos = ttl, true, advance(p.pos, a.valOff)
			}
		}
	}
	if a, ok := args["scope"]; ok {
		if v, ok := p.word(a); ok {
			if v == "session" || v == "global" {
				d.Scope, d.ScopePos = v, advance(p.pos, a.valOff)
			} else {
				p.errorf(a.valOff, "invalid scope "+strconv.QuoteToASCII(v)+"; expected session or global")
			}
		}
	}
}

// keys splits keys=a,b. For a quoted value, element positions point at the opening quote.
func (p *dirParser) keys(d *Idempotent, a arg, v string) {
	d.KeysPos = advance(p.pos, a.valOff)
	seen := map[string]bool{}
	ok := true
	a.elements(v, func(k string, kOff int) {
		switch {
		case k == "":
			p.errorf(kOff, "empty field name in keys; write keys=<field>,<field>")
			ok = false
		case seen[k]:
			p.errorf(kOff, "duplicate field "+strconv.QuoteToASCII(k)+" in keys")
			ok = false
		default:
			seen[k] = true
			d.Keys = append(d.Keys, k)
			d.KeyPositions = append(d.KeyPositions, advance(p.pos, kOff))
		}
	})
	if !ok {
		d.Keys, d.KeyPositions = nil, nil
	}
}
