package annotations

import (
	"go/token"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Tag is the parsed content of a wink:"..." struct tag value.
type Tag struct {
	// Items holds the valid items in source order; items with errors are left out.
	Items []TagItem
}

// TagItem is one key or key=value item of a wink tag.
type TagItem struct {
	Key      string
	KeyPos   token.Position
	Value    string         // unquoted value text ('' inside single quotes already turned into ')
	ValuePos token.Position // position of the value's first byte (inside the quotes when quoted)
	HasValue bool           // a value was given (a bare uniqueItems has none)
}

// Get returns the item with the given key, if present. It is safe on a nil *Tag.
func (t *Tag) Get(key string) (TagItem, bool) {
	if t == nil {
		return TagItem{}, false
	}
	for _, it := range t.Items {
		if it.Key == key {
			return it, true
		}
	}
	return TagItem{}, false
}

// tagKeys lists the keys a wink tag accepts, in the order messages show them.
var tagKeys = []string{"min", "max", "exclusiveMin", "exclusiveMax", "multipleOf", "minLength", "maxLength",
	"pattern", "patternDesc", "format", "minItems", "maxItems", "uniqueItems", "enum", "default", "header"}

// tagForm says how to write each key, for messages.
var tagForm = map[string]string{
	"min": "min=<number>", "max": "max=<number>", "exclusiveMin": "exclusiveMin=<number>",
	"exclusiveMax": "exclusiveMax=<number>", "multipleOf": "multipleOf=<positive number>",
	"minLength": "minLength=<count>", "maxLength": "maxLength=<count>", "minItems": "minItems=<count>",
	"maxItems": "maxItems=<count>", "pattern": "pattern='<RE2 regexp>'", "patternDesc": "patternDesc='<what the pattern accepts>'", "format": "format=<name>",
	"uniqueItems": "uniqueItems or uniqueItems=true|false", "enum": "enum=a|b|c", "default": "default=<value>",
	"header": "header=<HTTP field name>",
}

// ParseTag parses a tag value (the text between the quotes of wink:"...") whose first byte is at pos.
// It always returns a non-nil *Tag holding the items without errors.
func ParseTag(value string, pos token.Position) (*Tag, []*Error) {
	return parseTag(value, positioner(pos, value))
}

// ParseFieldTag finds the wink:"..." entry inside a raw Go struct tag literal exactly as it appears in source
// (including its quotes: a `backquoted` or "double-quoted" Go literal), located at pos, and parses it.
// Returns (nil, nil) if there is no wink key. Positions point at the exact column in the source line; inside
// a double-quoted literal, a byte produced by an escape is placed at the escape's backslash.
func ParseFieldTag(rawLiteral string, pos token.Position) (*Tag, []*Error) {
	at := positioner(pos, rawLiteral)
	fail := func(i int, msg string) (*Tag, []*Error) { return nil, []*Error{{Pos: at(i), Msg: msg}} }
	n := len(rawLiteral)
	if n < 2 || (rawLiteral[0] != '`' && rawLiteral[0] != '"') || rawLiteral[n-1] != rawLiteral[0] {
		return fail(0, "a struct tag must be a Go string literal, `...` or \"...\"")
	}
	var tag string
	var tagMap []int // tagMap[i] is the offset in rawLiteral of tag byte i (one extra entry for the end)
	if rawLiteral[0] == '`' {
		body := rawLiteral[1 : n-1]
		if i := strings.IndexByte(body, '`'); i >= 0 {
			return fail(1+i, "unexpected '`' inside a raw struct tag literal")
		}
		b := make([]byte, 0, len(body))
		for i := 0; i < len(body); i++ {
			if body[i] != '\r' { // Go drops carriage returns from raw string literals
				b = append(b, body[i])
				tagMap = append(tagMap, 1+i)
			}
		}
		tag = string(b)
		tagMap = append(tagMap, n-1)
	} else {
		s, m, bad, ok := unquoteGo(rawLiteral[1:n-1], '"')
		if !ok {
			return fail(1+bad, "invalid escape or character in the struct tag literal")
		}
		tag = s
		tagMap = make([]int, len(m))
		for i, o := range m {
			tagMap[i] = 1 + o
		}
	}

	// Walk key:"value" pairs as reflect.StructTag.Lookup does.
	valStart, valEnd, found := 0, 0, false
	for i := 0; ; {
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		if i >= len(tag) {
			break
		}
		j := i
		for j < len(tag) && tag[j] > ' ' && tag[j] != ':' && tag[j] != '"' && tag[j] != 0x7f {
			j++
		}
		k := j + 2
		for k < len(tag) && tag[k] != '"' {
			if tag[k] == '\\' {
				k++
			}
			k++
		}
		if j == i || j+1 >= len(tag) || tag[j] != ':' || tag[j+1] != '"' || k >= len(tag) {
			if !found && strings.Contains(tag[i:], "wink:") {
				return fail(tagMap[i], "malformed struct tag before its wink key; write key:\"value\" pairs separated by single spaces")
			}
			break
		}
		if tag[i:j] == "wink" {
			if found {
				return fail(tagMap[i], "duplicate wink key in struct tag; put all constraints in one wink:\"...\"")
			}
			valStart, valEnd, found = j+2, k, true
		}
		i = k + 1
	}
	if !found {
		return nil, nil
	}
	value, valMap, bad, ok := unquoteGo(tag[valStart:valEnd], '"')
	if !ok {
		return fail(tagMap[valStart+bad], "invalid escape or character in the wink tag value")
	}
	// A byte that is not UTF-8 (from a \x escape in a "..." literal) is read by reflect as U+FFFD: refuse
	// it rather than disagree with every other reader of the tag.
	for i := 0; i < len(value); {
		r, size := utf8.DecodeRuneInString(value[i:])
		if r == utf8.RuneError && size == 1 {
			return fail(tagMap[valStart+valMap[i]], "the wink tag value holds a byte that is not UTF-8; write the character itself")
		}
		i += size
	}
	return parseTag(value, func(i int) token.Position { return at(tagMap[valStart+valMap[i]]) })
}

// tagParser holds the state of one tag parse.
type tagParser struct {
	s    string
	at   func(int) token.Position
	i    int
	errs []*Error
	// The previous item when its value was unquoted: an unknown key right after it is most likely the
	// rest of that value, cut at a comma (pattern=^[a-z]{1,3}$), and the message says to quote it.
	prevKey      string
	prevValStart int
}

func (p *tagParser) errorf(off int, msg string) {
	p.errs = append(p.errs, &Error{Pos: p.at(off), Msg: msg})
}

func (p *tagParser) skipBlanks() {
	for p.i < len(p.s) && isBlank(p.s[p.i]) {
		p.i++
	}
}

// skipItem moves to the comma ending the current item, or the end.
func (p *tagParser) skipItem() {
	for p.i < len(p.s) && p.s[p.i] != ',' {
		p.i++
	}
}

// parseTag parses a wink tag value; at maps a byte offset in s to its source position.
func parseTag(s string, at func(int) token.Position) (*Tag, []*Error) {
	t := &Tag{}
	if strings.Trim(s, " \t") == "" {
		return t, nil
	}
	p := &tagParser{s: s, at: at}
	seen := map[string]bool{}
	prevComma := -1
	for {
		p.skipBlanks()
		if p.i >= len(s) || s[p.i] == ',' {
			off := p.i
			if off >= len(s) {
				off = prevComma // a trailing comma
			}
			p.errorf(off, "empty item in wink tag; remove the extra comma")
		} else if it, ok := p.item(); ok || it.Key != "" {
			p.prevKey, p.prevValStart = "", 0
			if it.eq && !it.quoted && it.Key != "" && knownTagKey(it.Key) {
				p.prevKey, p.prevValStart = it.Key, it.rawOff
			}
			if !ok {
				goto next
			}
			switch {
			case seen[it.Key]:
				p.errorf(it.keyOff, "duplicate key "+it.Key+" in wink tag; give each key once")
			default:
				seen[it.Key] = true
				if p.checkValue(it) {
					t.Items = append(t.Items, it.TagItem)
				}
			}
		}
	next:
		if p.i >= len(s) {
			return t, p.errs
		}
		prevComma = p.i
		p.i++ // ','
	}
}

// tagItem is an item under construction with the raw (still quoted) text of its value.
type tagItem struct {
	TagItem
	keyOff int    // offset of the key in the tag value
	eq     bool   // an '=' follows the key
	quoted bool   // the value is in single quotes
	raw    string // the value as written, inside the quotes if quoted
	rawOff int    // offset of raw in the tag value
}

// item lexes one item starting at p.i (not blank, not a comma) and leaves p.i at the comma ending it or
// at the end. ok is false when the item had a syntax error (already reported).
func (p *tagParser) item() (tagItem, bool) {
	s := p.s
	start := p.i
	for p.i < len(s) && s[p.i] != '=' && s[p.i] != ',' && !isBlank(s[p.i]) {
		p.i++
	}
	it := tagItem{TagItem: TagItem{Key: s[start:p.i], KeyPos: p.at(start)}, keyOff: start}
	ok := true
	if it.Key == "" {
		p.errorf(start, "missing key before '=' in wink tag; write key=value")
		ok = false
	} else if !knownTagKey(it.Key) && p.prevKey != "" && !strings.Contains(s[start:itemEnd(s, start)], "=") {
		whole := strings.TrimRight(s[p.prevValStart:itemEnd(s, start)], " \t")
		p.errorf(start, strconv.QuoteToASCII(it.Key)+" is not a key: the unquoted value of "+p.prevKey+
			" ends at the comma before it; quote values that contain commas: "+p.prevKey+"='"+strings.ReplaceAll(whole, "'", "''")+"'")
		ok = false
	} else if !knownTagKey(it.Key) {
		p.errorf(start, "unknown key "+strconv.QuoteToASCII(it.Key)+" in wink tag"+didYouMean(it.Key, tagKeys)+
			"; accepted keys: "+strings.Join(tagKeys, ", "))
		ok = false
	}
	p.skipBlanks()
	if p.i >= len(s) || s[p.i] == ',' {
		return it, ok
	}
	if s[p.i] != '=' {
		p.errorf(p.i, "unexpected "+strconv.QuoteRuneToASCII(firstRune(s[p.i:]))+" after key "+
			strconv.QuoteToASCII(it.Key)+" in wink tag; write key=value and separate items with commas")
		p.skipItem()
		return it, false
	}
	p.i++
	it.eq = true
	p.skipBlanks()
	vs := p.i
	it.ValuePos = p.at(vs)
	if p.i < len(s) && s[p.i] == '\'' {
		var b strings.Builder
		for p.i++; ; p.i++ {
			if p.i >= len(s) {
				p.errorf(vs, "unterminated quoted value in wink tag: missing closing \"'\" (write '' for a quote inside the value)")
				return it, false
			}
			if s[p.i] == '\'' {
				if p.i+1 < len(s) && s[p.i+1] == '\'' {
					b.WriteByte('\'')
					p.i++
					continue
				}
				break
			}
			b.WriteByte(s[p.i])
		}
		it.raw, it.rawOff, it.ValuePos, it.quoted = s[vs+1:p.i], vs+1, p.at(vs+1), true
		it.Value, it.HasValue = b.String(), true
		p.i++ // closing quote
		p.skipBlanks()
		if p.i < len(s) && s[p.i] != ',' {
			p.errorf(p.i, "unexpected "+strconv.QuoteRuneToASCII(firstRune(s[p.i:]))+" after the quoted value of "+
				it.Key+"; put the whole value inside the quotes and separate items with commas")
			p.skipItem()
			return it, false
		}
		return it, ok
	}
	if p.i < len(s) && (s[p.i] == '[' || s[p.i] == '{') && it.Key == "default" {
		// A JSON array or object (default=["a","b"]): it runs to its closing bracket, commas and quotes
		// included; the analyzer checks it as JSON against the field's type.
		end, closed := jsonValueEnd(s, p.i)
		if !closed {
			p.errorf(vs, "unterminated JSON value of "+it.Key+" in wink tag: missing closing "+strconv.QuoteRuneToASCII(rune(map[byte]byte{'[': ']', '{': '}'}[s[vs]])))
			return it, false
		}
		p.i = end
		it.raw, it.rawOff, it.Value, it.HasValue = s[vs:end], vs, s[vs:end], true
		p.skipBlanks()
		if p.i < len(s) && s[p.i] != ',' {
			p.errorf(p.i, "unexpected "+strconv.QuoteRuneToASCII(firstRune(s[p.i:]))+" after the JSON value of "+
				it.Key+"; separate items with commas")
			p.skipItem()
			return it, false
		}
		return it, ok
	}
	p.skipItem()
	v := strings.TrimRight(s[vs:p.i], " \t")
	it.raw, it.rawOff = v, vs
	it.Value, it.HasValue = v, v != ""
	if i := strings.IndexAny(v, " \t"); i >= 0 {
		p.errorf(vs+i, "the value of "+it.Key+" contains a space; write it in single quotes: "+it.Key+"='...'")
		return it, false
	}
	if i := strings.IndexAny(v, "'\""); i >= 0 {
		p.errorf(vs+i, "the value of "+it.Key+" contains a quote; write the whole value in single quotes, "+
			"doubling any ' inside: "+it.Key+"='it''s'")
		return it, false
	}
	return it, ok
}

// jsonValueEnd returns the offset just after the JSON array or object starting at s[i], skipping strings,
// and whether its brackets close.
func jsonValueEnd(s string, i int) (int, bool) {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
	}
	return len(s), false
}

// isDuration reports whether v is a Go duration literal (time.ParseDuration: "1s", "1m30s", "24h").
func isDuration(v string) bool {
	_, err := time.ParseDuration(v)
	return err == nil
}

func knownTagKey(k string) bool {
	for _, known := range tagKeys {
		if k == known {
			return true
		}
	}
	return false
}

// checkValue validates the value of a known key and reports whether it is good.
func (p *tagParser) checkValue(it tagItem) bool {
	keyOff := it.keyOff
	if it.Key == "uniqueItems" {
		if it.eq {
			if !it.HasValue {
				p.errorf(keyOff, "missing value after uniqueItems=; write "+tagForm[it.Key])
				return false
			}
			if it.Value != "true" && it.Value != "false" {
				p.errorf(it.rawOff, "invalid value "+strconv.QuoteToASCII(it.Value)+" for uniqueItems; expected true or false, or a bare uniqueItems")
				return false
			}
		}
		return true
	}
	if !it.HasValue {
		p.errorf(keyOff, "missing value for "+it.Key+"; write "+tagForm[it.Key])
		return false
	}
	switch it.Key {
	case "min", "max", "exclusiveMin", "exclusiveMax", "multipleOf":
		if (it.Key == "min" || it.Key == "max") && !isJSONNumber(it.Value) && isDuration(it.Value) {
			return true // a bound on a time.Duration field (min=1s,max=24h): the analyzer checks the field's type
		}
		if !isJSONNumber(it.Value) {
			p.errorf(it.rawOff, it.Key+" must be a JSON number such as 10, -2.5 or 1e3; got "+strconv.QuoteToASCII(it.Value))
			return false
		}
		if it.Key == "multipleOf" && !isPositive(it.Value) {
			p.errorf(it.rawOff, "multipleOf must be greater than 0; got "+it.Value)
			return false
		}
	case "minLength", "maxLength", "minItems", "maxItems":
		if !isCount(it.Value) {
			p.errorf(it.rawOff, it.Key+" must be a non-negative integer such as 0 or 10; got "+strconv.QuoteToASCII(it.Value))
			return false
		}
	case "enum":
		return p.checkEnum(it)
	}
	return true
}

// checkEnum reports empty and repeated alternatives of enum=a|b|c. The raw text is split, so positions are
// exact even inside quotes (” never contains '|').
func (p *tagParser) checkEnum(it tagItem) bool {
	ok := true
	seen := map[string]bool{}
	off := 0
	for _, alt := range strings.Split(it.raw, "|") {
		altOff := it.rawOff + off
		off += len(alt) + 1
		switch {
		case alt == "":
			if altOff == it.rawOff+len(it.raw) && altOff > it.rawOff {
				altOff-- // a trailing '|': point at it
			}
			p.errorf(altOff, "empty alternative in enum; write enum=a|b|c")
			ok = false
		case seen[alt]:
			p.errorf(altOff, "duplicate alternative "+strconv.QuoteToASCII(strings.ReplaceAll(alt, "''", "'"))+" in enum")
			ok = false
		}
		seen[alt] = true
	}
	return ok
}

// isJSONNumber reports whether s is a JSON number literal (RFC 8259 section 6).
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isPositive reports whether the JSON number literal s is greater than zero, exactly (no float rounding:
// 1e-400 is positive).
func isPositive(s string) bool {
	if strings.HasPrefix(s, "-") {
		return false
	}
	mantissa, _, _ := strings.Cut(strings.ToLower(s), "e")
	return strings.Trim(mantissa, "0.") != ""
}

// isCount reports whether s is a non-negative decimal integer without leading zeros that fits in an int64.
func isCount(s string) bool {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// itemEnd is the offset of the comma ending the item that starts at i, or len(s).
func itemEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], ','); j >= 0 {
		return i + j
	}
	return len(s)
}
