package strictjson

import (
	"strconv"
	"unicode/utf8"
)

// DefaultMaxBytes is the input size limit used when Limits.MaxBytes is zero (1 MiB).
const DefaultMaxBytes = 1 << 20

// DefaultMaxDepth is the nesting limit used when Limits.MaxDepth is zero.
const DefaultMaxDepth = 64

// DefaultMaxErrors is the error cap used when Limits.MaxErrors is zero.
const DefaultMaxErrors = 20

// Limits bounds one decode. A zero (or negative) field selects its default.
type Limits struct {
	MaxBytes, MaxDepth, MaxErrors int
	// PairMaps makes maps arrive as arrays of {"key": k, "value": v} objects, the form OpenAI's strict
	// mode gives them (see PairMaps), instead of JSON objects.
	PairMaps bool
}

// Kind is the kind of a JSON value, as told by its first byte.
type Kind uint8

// The kinds of JSON values. KindInvalid is returned for a byte that cannot start a value and at the end
// of the input.
const (
	KindInvalid Kind = iota
	KindNull
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

// String returns the JSON Schema name of the kind: "null", "boolean", "number", "string", "array",
// "object" ("invalid" for KindInvalid).
func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindBool:
		return "boolean"
	case KindNumber:
		return "number"
	case KindString:
		return "string"
	case KindArray:
		return "array"
	case KindObject:
		return "object"
	}
	return "invalid"
}

var kindOfByte = [256]Kind{
	'n': KindNull, 't': KindBool, 'f': KindBool, '"': KindString, '[': KindArray, '{': KindObject,
	'-': KindNumber, '0': KindNumber, '1': KindNumber, '2': KindNumber, '3': KindNumber, '4': KindNumber,
	'5': KindNumber, '6': KindNumber, '7': KindNumber, '8': KindNumber, '9': KindNumber,
}

const (
	lvObject uint8 = iota
	lvArray
)

// level is one open object or array pushed by ObjectStart / ArrayStart. Keys are kept as offsets into the
// input so that paths are only built when an error is recorded.
type level struct {
	keyStart, keyEnd int // raw key text (between the quotes); keyEnd < 0: no current key
	valPos           int // offset of the current member's / element's value
	idx              int // element index (arrays) or member count - 1 (objects); -1 before the first
	kind             uint8
	keyEsc           bool // the raw key contains escapes
	closed           bool // the closing bracket was consumed
}

const inlineLevels = 16

// noCopy makes go vet report copies of the struct holding it (Lock and Unlock are what copylocks looks for).
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// Decoder is a strict, reflection-free JSON reader driven by generated code. The zero value is ready after
// Reset; it is meant to live on the caller's stack (no method retains a pointer to it). A Decoder must not
// be copied between Reset and the end of its decode.
//
// Errors are of two sorts. Fatal errors (syntax, limits) stop decoding: every later call returns false or
// a zero value without consuming input. Value errors (wrong type, range, constraint, unknown, missing or
// duplicate field) are recorded with their JSON path; the offending value is skipped and decoding goes
// on, so that all of them are reported at once.
type Decoder struct {
	_ noCopy // go vet's copylocks check reports a copied Decoder: a copy would write into the block its original's strings share

	data     []byte
	pos      int
	depth    int
	maxDepth int
	fatal    bool
	pairMaps bool // Limits.PairMaps
	inKey    bool // scanning an object key (stringErr names the object's path)

	numStart, numEnd int // last number literal

	// The current key: data[keyStart:keyEnd], or keyBuf (unescaped) when keyEsc. Offsets rather than a
	// slice, so that NextKey stores no pointer into the (usually pooled, heap-allocated) Decoder.
	keyStart, keyEnd int
	keyEsc           bool
	keyBuf           []byte // storage for escaped keys
	strBuf           []byte // storage for StringBytes and escaped strings

	strs     []byte // the block decoded strings are copied into (keep); strs[:strsUsed] is handed out
	strsUsed int    // how much of strs is taken
	strsNext int    // the size of the next block

	errs   Errors
	levels [inlineLevels]level
	deep   []level // levels beyond inlineLevels
}

// Reset prepares d to decode data. A zero field of lim selects its default. When data is longer than
// MaxBytes the size error is recorded and the decoder is failed: every call then returns quickly.
func (d *Decoder) Reset(data []byte, lim Limits) {
	maxBytes := lim.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	d.maxDepth = lim.MaxDepth
	if d.maxDepth <= 0 {
		d.maxDepth = DefaultMaxDepth
	}
	d.pairMaps = lim.PairMaps
	// Pointer fields are written only when they change: a pooled Decoder lives on the heap, where every
	// pointer store pays a write barrier while the collector runs.
	if d.errs.List != nil {
		d.errs.List = nil
	}
	d.errs.Omitted = 0
	d.errs.max = lim.MaxErrors
	if d.errs.max <= 0 {
		d.errs.max = DefaultMaxErrors
	}
	d.data = data
	if d.strs != nil {
		d.strs = nil // the strings handed out keep the block; it is never written again
	}
	d.strsUsed, d.strsNext = 0, 0
	d.pos = 0
	d.depth = 0
	d.fatal = false
	d.numStart, d.numEnd = 0, 0
	d.keyStart, d.keyEnd, d.keyEsc = 0, 0, false
	if len(d.deep) != 0 {
		d.deep = d.deep[:0]
	}
	if len(data) > maxBytes {
		d.fatal = true
		d.errs.Add("", "arguments are "+strconv.Itoa(len(data))+" bytes; the limit is "+strconv.Itoa(maxBytes)+" bytes")
	}
}

// Drop forgets the input and the block strings were copied into, so that a Decoder kept for later use
// (pooled) keeps neither alive: what Reset(nil, Limits{}) does for them, without resetting the rest. Reset
// the Decoder before using it again.
func (d *Decoder) Drop() {
	if d.data != nil {
		d.data = nil
	}
	if d.strs != nil {
		d.strs = nil
	}
}

// Failed reports whether a fatal (syntax or limit) error happened.
func (d *Decoder) Failed() bool { return d.fatal }

// Finish checks that only whitespace follows the decoded value and returns the errors, or nil when there
// were none. The returned value does not alias the decoder, which may be Reset and reused.
func (d *Decoder) Finish() *Errors {
	if !d.fatal {
		d.skipWS()
		if d.pos < len(d.data) {
			d.syntax(d.pos, "unexpected data after the arguments object")
		}
	}
	if len(d.errs.List) == 0 && d.errs.Omitted == 0 {
		return nil
	}
	e := new(Errors)
	*e = d.errs
	d.errs = Errors{max: d.errs.max}
	return e
}

func (d *Decoder) top() *level {
	i := d.depth - 1
	if i < 0 {
		return nil
	}
	if i < inlineLevels {
		return &d.levels[i]
	}
	return &d.deep[i-inlineLevels]
}

func (d *Decoder) lvl(i int) *level {
	if i < inlineLevels {
		return &d.levels[i]
	}
	return &d.deep[i-inlineLevels]
}

func (d *Decoder) push(kind uint8) {
	l := level{keyEnd: -1, idx: -1, valPos: -1, kind: kind}
	if d.depth < inlineLevels {
		d.levels[d.depth] = l
	} else if i := d.depth - inlineLevels; i < len(d.deep) {
		d.deep[i] = l
	} else {
		d.deep = append(d.deep, l)
	}
	d.depth++
}

// ObjectStart consumes '{' and pushes a path level. For any other value it records "expected object, got
// ..." (the value is skipped) and returns false without pushing a level.
func (d *Decoder) ObjectStart() bool {
	if p, n := d.pos, d.depth; p < len(d.data) && d.data[p] == '{' && n < d.maxDepth && n < inlineLevels && !d.fatal {
		d.pos = p + 1 // the common case: '{' at once
		d.levels[n] = level{keyEnd: -1, idx: -1, valPos: -1, kind: lvObject}
		d.depth = n + 1
		return true
	}
	return d.objectStart()
}

func (d *Decoder) objectStart() bool {
	if !d.begin() {
		return false
	}
	if d.data[d.pos] != '{' {
		d.mismatch("object")
		return false
	}
	if d.depth >= d.maxDepth {
		d.tooDeep(d.pos)
		return false
	}
	d.pos++
	d.push(lvObject)
	return true
}

// NextKey reads the next `"key":` of the current object and makes it the current key (and the last
// element of the path). It returns false at '}' (which it consumes), after a fatal error, and when the
// current level is not an open object. A value the caller left unread is skipped first.
func (d *Decoder) NextKey() bool {
	// Fast path, for compact JSON: the object's first key right after its '{', the next one right after
	// a ',' that follows a value that was read, or the '}' that ends the object. A key is of plain bytes
	// (plainEnd) and its value starts right after the ':'. Anything else (whitespace, escapes, an unread
	// value, errors) takes nextKey, which reports what is wrong.
	if i := uint(d.depth - 1); i < inlineLevels && !d.fatal {
		l := &d.levels[i]
		data, p := d.data, d.pos
		if l.kind == lvObject && !l.closed && p < len(data) {
			k := p + 1 // where the key's text starts, once past its '"'
			c := data[p]
			if l.idx >= 0 {
				if p == l.valPos { // the value was not read
					return d.nextKey()
				}
				if c == '}' {
					d.pos = k
					l.closed = true
					l.keyEnd = -1
					return false
				}
				if c != ',' || k >= len(data) {
					return d.nextKey()
				}
				c = data[k]
				k++
			}
			if c == '"' {
				q := plainEnd(data, k)
				if q < -1 {
					q = plainTail(data, ^q)
				}
				if q >= 0 && q < len(data)-2 && data[q+1] == ':' && data[q+2] > ' ' { // q+2 < len(data)
					d.pos = q + 2
					l.keyStart, l.keyEnd, l.keyEsc = k, q, false
					l.valPos = q + 2
					l.idx++
					d.keyStart, d.keyEnd, d.keyEsc = k, q, false
					return true
				}
			}
		}
	}
	return d.nextKey()
}

// nextKey is NextKey's general path.
func (d *Decoder) nextKey() bool {
	if d.fatal || d.depth == 0 {
		return false
	}
	l := d.top()
	if l.kind != lvObject || l.closed {
		return false
	}
	data := d.data
	if l.idx >= 0 {
		if d.pos == l.valPos {
			d.Skip()
			if d.fatal {
				return false
			}
		}
		if p := d.pos; p+1 < len(data) && data[p] == ',' && data[p+1] == '"' {
			// compact JSON: the next key follows the comma at once
			d.pos = p + 1
			goto key
		}
		d.skipWS()
		if d.pos >= len(data) {
			d.eof()
			return false
		}
		switch data[d.pos] {
		case ',':
			d.pos++
			d.skipWS()
			if d.pos < len(data) && data[d.pos] == '}' {
				d.syntax(d.pos, "trailing comma before '}'")
				return false
			}
			if d.pos < len(data) && data[d.pos] != '"' {
				d.syntax(d.pos, "expected a string key after ','")
				return false
			}
		case '}':
			d.pos++
			l.closed = true
			l.keyEnd = -1
			return false
		default:
			d.syntax(d.pos, "expected ',' or '}' after object member")
			return false
		}
	} else {
		d.skipWS()
		if d.pos < len(data) {
			switch data[d.pos] {
			case '}':
				d.pos++
				l.closed = true
				return false
			case '"':
			default:
				d.syntax(d.pos, "expected a string key or '}'")
				return false
			}
		}
	}
	if d.pos >= len(data) {
		d.eof()
		return false
	}
key:
	var ks, ke int
	var esc bool
	// Fast path: a key of plain bytes, scanned a word at a time (plainEnd), which most keys are; anything
	// else (escapes, non-ASCII, control bytes) takes scanString.
	q := plainEnd(data, d.pos+1)
	if q < -1 {
		q = plainTail(data, ^q)
	}
	if q >= 0 {
		ks, ke = d.pos+1, q
		d.pos = q + 1
		goto scanned
	}
	{
		var ok bool
		d.inKey = true
		ks, ke, esc, ok = d.scanString()
		d.inKey = false
		if !ok {
			return false
		}
	}
scanned:
	d.skipWS()
	if d.pos >= len(data) {
		d.eof()
		return false
	}
	if data[d.pos] != ':' {
		d.syntax(d.pos, "expected ':' after object key")
		return false
	}
	d.pos++
	d.skipWS()
	l.keyStart, l.keyEnd, l.keyEsc = ks, ke, esc
	l.valPos = d.pos
	l.idx++
	d.keyStart, d.keyEnd, d.keyEsc = ks, ke, esc
	if esc {
		d.keyBuf = appendUnescaped(d.keyBuf[:0], data[ks:ke])
	}
	return true
}

// Key returns the current key, unescaped. The bytes are valid until the next NextKey.
func (d *Decoder) Key() []byte {
	if d.keyEsc {
		return d.keyBuf
	}
	if d.keyEnd == 0 {
		return nil // no key read since Reset
	}
	return d.data[d.keyStart:d.keyEnd]
}

// KeyString returns the current key as a string (for map keys), copied into the block String's strings
// share.
func (d *Decoder) KeyString() string {
	l := d.top()
	if l == nil || l.kind != lvObject || l.keyEnd < 0 {
		return ""
	}
	if l.keyEsc {
		return d.keep(d.Key()) // unescaped by NextKey
	}
	return d.keep(d.data[l.keyStart:l.keyEnd])
}

// ObjectEnd pops the level pushed by a successful ObjectStart. Members the caller did not read are
// skipped (strictly) first.
func (d *Decoder) ObjectEnd() { d.end() }

// ArrayStart consumes '[' and pushes an index level. For any other value it records "expected array, got
// ..." (the value is skipped) and returns false without pushing a level.
func (d *Decoder) ArrayStart() bool { return d.arrayStart("array") }

// arrayStart is ArrayStart naming what was expected as want.
func (d *Decoder) arrayStart(want string) bool {
	if p, n := d.pos, d.depth; p < len(d.data) && d.data[p] == '[' && n < d.maxDepth && n < inlineLevels && !d.fatal {
		d.pos = p + 1 // the common case: '[' at once
		d.levels[n] = level{keyEnd: -1, idx: -1, valPos: -1, kind: lvArray}
		d.depth = n + 1
		return true
	}
	if !d.begin() {
		return false
	}
	if d.data[d.pos] != '[' {
		d.mismatch(want)
		return false
	}
	if d.depth >= d.maxDepth {
		d.tooDeep(d.pos)
		return false
	}
	d.pos++
	d.push(lvArray)
	return true
}

// NextElem reports whether another element follows in the current array and makes its index (0, 1, 2, ...)
// the last element of the path. It returns false at ']' (which it consumes) and after a fatal error. An
// element the caller left unread is skipped first.
func (d *Decoder) NextElem() bool {
	// Fast path, for compact JSON: the array's first element right after its '[', the next one right
	// after a ',' that follows an element that was read, or the ']' that ends the array. Anything else
	// (whitespace, an unread element, errors) takes nextElem, which reports what is wrong.
	if i := d.depth - 1; i >= 0 && i < inlineLevels {
		l := &d.levels[i]
		data, p := d.data, d.pos
		if p < len(data) && l.kind == lvArray && !l.closed && !d.fatal {
			switch c := data[p]; {
			case c == ']':
				if l.idx < 0 || p != l.valPos {
					d.pos = p + 1
					l.closed = true
					return false
				}
			case l.idx < 0:
				if c > ' ' {
					l.idx, l.valPos = 0, p
					return true
				}
			case p == l.valPos: // the element was not read
			case c == ',':
				if p+1 < len(data) && data[p+1] > ' ' && data[p+1] != ']' {
					d.pos = p + 1
					l.idx++
					l.valPos = p + 1
					return true
				}
			}
		}
	}
	return d.nextElem()
}

// nextElem is NextElem's general path.
func (d *Decoder) nextElem() bool {
	l := d.top()
	if d.fatal || l == nil || l.kind != lvArray || l.closed {
		return false
	}
	data := d.data
	if l.idx >= 0 {
		if d.pos == l.valPos {
			d.Skip()
			if d.fatal {
				return false
			}
		}
		d.skipWS()
		if d.pos >= len(data) {
			d.eof()
			return false
		}
		switch data[d.pos] {
		case ',':
			d.pos++
			d.skipWS()
			if d.pos < len(data) && data[d.pos] == ']' {
				d.syntax(d.pos, "trailing comma before ']'")
				return false
			}
		case ']':
			d.pos++
			l.closed = true
			return false
		default:
			d.syntax(d.pos, "expected ',' or ']' after array element")
			return false
		}
	} else {
		d.skipWS()
		if d.pos < len(data) && data[d.pos] == ']' {
			d.pos++
			l.closed = true
			return false
		}
	}
	if d.pos >= len(data) {
		d.eof()
		return false
	}
	l.idx++
	l.valPos = d.pos
	return true
}

// ArrayEnd pops the level pushed by a successful ArrayStart. Elements the caller did not read are skipped
// (strictly) first.
func (d *Decoder) ArrayEnd() { d.end() }

// Index returns the index of the current array element (-1 outside arrays or before the first element).
func (d *Decoder) Index() int {
	l := d.top()
	if l == nil || l.kind != lvArray {
		return -1
	}
	return l.idx
}

func (d *Decoder) end() {
	if i := uint(d.depth - 1); i < inlineLevels && d.levels[i].closed {
		d.depth-- // the common case: the closing bracket was read
		return
	}
	l := d.top()
	if l == nil {
		return
	}
	if !d.fatal && !l.closed {
		if l.kind == lvObject {
			for d.NextKey() {
			}
		} else {
			for d.NextElem() {
			}
		}
	}
	d.depth--
}

// begin skips whitespace before a value; false (with the error recorded) after a fatal error or at the
// end of the input.
func (d *Decoder) begin() bool {
	if p := d.pos; p < len(d.data) && d.data[p] > ' ' && !d.fatal {
		return true // the common case: the value starts at once
	}
	return d.beginSlow()
}

func (d *Decoder) beginSlow() bool {
	if d.fatal {
		return false
	}
	d.skipWS()
	if d.pos >= len(d.data) {
		d.eof()
		return false
	}
	return true
}

// Peek returns the kind of the next value (after whitespace) from its first byte without consuming it;
// KindInvalid at the end of the input, for a byte that cannot start a value and after a fatal error.
func (d *Decoder) Peek() Kind {
	if d.fatal {
		return KindInvalid
	}
	d.skipWS()
	if d.pos >= len(d.data) {
		return KindInvalid
	}
	return kindOfByte[d.data[d.pos]]
}

// Null consumes a null and returns true if the next value is null; otherwise it consumes nothing.
func (d *Decoder) Null() bool {
	if d.fatal {
		return false
	}
	d.skipWS()
	if d.pos >= len(d.data) || d.data[d.pos] != 'n' {
		return false
	}
	return d.literal("null")
}

// Bool reads true or false; any other value records "expected boolean, got ..." and is skipped.
func (d *Decoder) Bool() (bool, bool) {
	if !d.begin() {
		return false, false
	}
	data, p := d.data, d.pos
	switch data[p] {
	case 't':
		if p+4 <= len(data) && string(data[p:p+4]) == "true" {
			d.pos = p + 4
			return true, true
		}
		return true, d.literal("true")
	case 'f':
		if p+5 <= len(data) && string(data[p:p+5]) == "false" {
			d.pos = p + 5
			return false, true
		}
		return false, d.literal("false")
	}
	d.mismatch("boolean")
	return false, false
}

// ---- error recording ----

// addErr records a value error. After a fatal error nothing more is recorded: the rest of the input was
// not read, so "missing field" or length errors would be wrong.
func (d *Decoder) addErr(path, msg string) {
	if !d.fatal {
		d.errs.Add(path, msg)
	}
}

// syntax records a fatal error at byte offset at.
func (d *Decoder) syntax(at int, what string) {
	if d.fatal {
		return
	}
	d.fatal = true
	d.errs.Add("", "invalid JSON at byte "+strconv.Itoa(at)+": "+what)
}

func (d *Decoder) eof() { d.syntax(len(d.data), "unexpected end of input") }

func (d *Decoder) tooDeep(at int) {
	d.syntax(at, "nesting deeper than "+strconv.Itoa(d.maxDepth)+" levels")
}

// mismatch records "expected <want>, got <got>" for the value at d.pos and skips it.
func (d *Decoder) mismatch(want string) {
	start := d.pos
	k := kindOfByte[d.data[start]]
	if k == KindInvalid {
		d.unexpected(start)
		return
	}
	d.Skip()
	if d.fatal {
		return
	}
	d.addErr(d.path(d.depth), "expected "+want+", got "+d.describe(k, start, d.pos))
}

// describe names a (valid) value for "got ..." messages.
func (d *Decoder) describe(k Kind, start, end int) string {
	raw := d.data[start:end]
	switch k {
	case KindString:
		s := appendUnescaped(nil, raw[1:len(raw)-1])
		return "string " + quote(string(s))
	case KindNumber:
		return "number " + truncate(string(raw))
	case KindBool:
		return "boolean " + string(raw)
	}
	return k.String()
}

// unexpected records the fatal error for a byte that cannot start a value.
func (d *Decoder) unexpected(at int) {
	if bytes := d.data[at:]; len(bytes) >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
		d.syntax(at, "unexpected byte order mark (U+FEFF); expected a value")
		return
	}
	d.syntax(at, "unexpected "+describeByte(d.data[at])+"; expected a value")
}

func describeByte(c byte) string {
	if c > ' ' && c < 0x7f {
		return "character '" + string(rune(c)) + "'"
	}
	const hex = "0123456789ABCDEF"
	return "byte 0x" + string([]byte{hex[c>>4], hex[c&15]})
}

// path renders the path of the first n levels.
func (d *Decoder) path(n int) string {
	var b []byte
	for i := 0; i < n; i++ {
		l := d.lvl(i)
		if l.kind == lvArray {
			if l.idx >= 0 && !l.closed {
				b = append(b, '[')
				b = strconv.AppendInt(b, int64(l.idx), 10)
				b = append(b, ']')
			}
			continue
		}
		if l.keyEnd < 0 {
			continue
		}
		raw := d.data[l.keyStart:l.keyEnd]
		if l.keyEsc {
			raw = appendUnescaped(nil, raw)
		}
		b = appendKeySegment(b, raw)
	}
	return string(b)
}

// appendKeySegment appends ".key" (plain key; no dot at the start of the path) or `["key"]` for keys that
// are not identifiers ([A-Za-z_][A-Za-z0-9_]*).
func appendKeySegment(b, key []byte) []byte {
	if isIdent(key) {
		if len(b) > 0 {
			b = append(b, '.')
		}
		return append(b, key...)
	}
	b = append(b, '[')
	b = append(b, quote(string(key))...)
	return append(b, ']')
}

func isIdent(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// maxQuoted is how many runes of a value are shown in a message before "…".
const maxQuoted = 60

// quote renders s as a JSON string, truncated to maxQuoted runes with "…" inside the quotes.
func quote(s string) string {
	cut := false
	if len(s) > maxQuoted {
		n := 0
		for i := range s {
			if n == maxQuoted {
				s, cut = s[:i], true
				break
			}
			n++
		}
	}
	b := AppendString(nil, s)
	if cut {
		b = append(b[:len(b)-1], "…\""...)
	}
	return string(b)
}

// truncate shortens a raw literal (a number) for a message.
func truncate(s string) string {
	if utf8.RuneCountInString(s) <= maxQuoted {
		return s
	}
	return s[:maxQuoted] + "…" // number literals are ASCII
}

// ---- errors at the current path ----

// Fail records msg at the current path.
func (d *Decoder) Fail(msg string) { d.addErr(d.path(d.depth), msg) }

// FailInt records msg + "; got " + v at the current path.
func (d *Decoder) FailInt(msg string, v int64) {
	d.addErr(d.path(d.depth), msg+"; got "+strconv.FormatInt(v, 10))
}

// FailUint records msg + "; got " + v at the current path.
func (d *Decoder) FailUint(msg string, v uint64) {
	d.addErr(d.path(d.depth), msg+"; got "+strconv.FormatUint(v, 10))
}

// FailFloat records msg + "; got " + v at the current path, v formatted as the encoder does.
func (d *Decoder) FailFloat(msg string, v float64) {
	d.addErr(d.path(d.depth), msg+"; got "+string(AppendFloat(nil, v, 64)))
}

// FailLen records msg + "; got " + n at the current path.
func (d *Decoder) FailLen(msg string, n int) {
	d.addErr(d.path(d.depth), msg+"; got "+strconv.Itoa(n))
}

// FailString records msg + "; got " + s quoted (truncated to 60 runes with "…") at the current path.
func (d *Decoder) FailString(msg string, s string) {
	d.addErr(d.path(d.depth), msg+"; got "+quote(s))
}

// Missing records "missing required field" at the path of the current object plus name. Call it after
// the NextKey loop, before ObjectEnd.
func (d *Decoder) Missing(name string) {
	p := d.path(d.depth - 1)
	d.addErr(string(appendKeySegment([]byte(p), []byte(name))), "missing required field")
}

// Duplicate records "duplicate field; each field may appear once" at the current key's path. The caller
// skips the value.
func (d *Decoder) Duplicate() {
	d.addErr(d.path(d.depth), "duplicate field; each field may appear once")
}

// Unknown records, at the current object's path, `unknown field "k"; did you mean "x"? (allowed: a, b)`
// (without the suggestion when none is close) and skips the value.
func (d *Decoder) Unknown(allowed []string) {
	if d.fatal {
		return
	}
	key := string(d.Key())
	msg := "unknown field " + quote(key)
	if len(allowed) == 0 {
		msg += "; this object takes no fields"
	} else {
		if s, ok := suggest(key, allowed); ok {
			msg += "; did you mean " + quote(s) + "?"
		}
		msg += " (allowed: "
		for i, a := range allowed {
			if i > 0 {
				msg += ", "
			}
			msg += a
		}
		msg += ")"
	}
	d.addErr(d.path(d.depth-1), msg)
	d.skipUnread()
}

// skipUnread skips the current member's value if the caller has not consumed it.
func (d *Decoder) skipUnread() {
	if l := d.top(); l != nil && d.pos == l.valPos {
		d.Skip()
	}
}

// EnumMismatch records `must be one of <allowed>; got "<got>"` at the current path.
func (d *Decoder) EnumMismatch(got []byte, allowed string) {
	d.addErr(d.path(d.depth), "must be one of "+allowed+"; got "+quote(string(got)))
}

// EnumMismatchInt records `must be one of <allowed>; got <got>` at the current path.
func (d *Decoder) EnumMismatchInt(got int64, allowed string) {
	d.addErr(d.path(d.depth), "must be one of "+allowed+"; got "+strconv.FormatInt(got, 10))
}

// DecodeEmpty decodes the arguments of a parameterless tool: `{}`, `null` and an empty or whitespace-only
// input are accepted; each key is reported as `unknown field "x"; this tool takes no arguments`.
func DecodeEmpty(d *Decoder) {
	if d.fatal {
		return
	}
	d.skipWS()
	if d.pos >= len(d.data) || d.Null() {
		return
	}
	if !d.ObjectStart() {
		return
	}
	for d.NextKey() {
		d.addErr(d.path(d.depth-1), "unknown field "+quote(string(d.Key()))+"; this tool takes no arguments")
		d.Skip()
	}
	d.ObjectEnd()
}
