package annotations

import (
	"go/token"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// tagBase is where the tag value's first byte sits in the tag tests: line 20, column 30, offset 500.
var tagBase = token.Position{Filename: "params.go", Line: 20, Column: 30, Offset: 500}

// tagAt returns tagBase advanced n bytes.
func tagAt(n int) token.Position { return advance(tagBase, n) }

func TestParseTagAcceptsValidTags(t *testing.T) {
	tests := []struct {
		value string
		want  []TagItem
	}{
		{``, nil},
		{`min=1,max=10`, []TagItem{
			{Key: "min", KeyPos: tagAt(0), Value: "1", ValuePos: tagAt(4), HasValue: true},
			{Key: "max", KeyPos: tagAt(6), Value: "10", ValuePos: tagAt(10), HasValue: true}}},
		{`exclusiveMin=-2.5,exclusiveMax=1e3,multipleOf=0.01`, []TagItem{
			{Key: "exclusiveMin", KeyPos: tagAt(0), Value: "-2.5", ValuePos: tagAt(13), HasValue: true},
			{Key: "exclusiveMax", KeyPos: tagAt(18), Value: "1e3", ValuePos: tagAt(31), HasValue: true},
			{Key: "multipleOf", KeyPos: tagAt(35), Value: "0.01", ValuePos: tagAt(46), HasValue: true}}},
		// Blanks around items, keys and '=' are ignored.
		{` minLength = 0 , maxLength=64 `, []TagItem{
			{Key: "minLength", KeyPos: tagAt(1), Value: "0", ValuePos: tagAt(13), HasValue: true},
			{Key: "maxLength", KeyPos: tagAt(17), Value: "64", ValuePos: tagAt(27), HasValue: true}}},
		{`pattern='^[a-z]{2,5}$',format=email`, []TagItem{
			{Key: "pattern", KeyPos: tagAt(0), Value: "^[a-z]{2,5}$", ValuePos: tagAt(9), HasValue: true},
			{Key: "format", KeyPos: tagAt(23), Value: "email", ValuePos: tagAt(30), HasValue: true}}},
		{`default='it''s, ok'`, []TagItem{
			{Key: "default", KeyPos: tagAt(0), Value: "it's, ok", ValuePos: tagAt(9), HasValue: true}}},
		{`default=''`, []TagItem{{Key: "default", KeyPos: tagAt(0), Value: "", ValuePos: tagAt(9), HasValue: true}}},
		{`default=a=b`, []TagItem{{Key: "default", KeyPos: tagAt(0), Value: "a=b", ValuePos: tagAt(8), HasValue: true}}},
		{`uniqueItems,minItems=1,maxItems=9223372036854775807`, []TagItem{
			{Key: "uniqueItems", KeyPos: tagAt(0)},
			{Key: "minItems", KeyPos: tagAt(12), Value: "1", ValuePos: tagAt(21), HasValue: true},
			{Key: "maxItems", KeyPos: tagAt(23), Value: "9223372036854775807", ValuePos: tagAt(32), HasValue: true}}},
		{`uniqueItems=false`, []TagItem{{Key: "uniqueItems", KeyPos: tagAt(0), Value: "false", ValuePos: tagAt(12), HasValue: true}}},
		{`enum=fuzzy|exact,default=fuzzy`, []TagItem{
			{Key: "enum", KeyPos: tagAt(0), Value: "fuzzy|exact", ValuePos: tagAt(5), HasValue: true},
			{Key: "default", KeyPos: tagAt(17), Value: "fuzzy", ValuePos: tagAt(25), HasValue: true}}},
		{`enum='a b|c,d'`, []TagItem{{Key: "enum", KeyPos: tagAt(0), Value: "a b|c,d", ValuePos: tagAt(6), HasValue: true}}},
		{`multipleOf=1e-400`, []TagItem{{Key: "multipleOf", KeyPos: tagAt(0), Value: "1e-400", ValuePos: tagAt(11), HasValue: true}}},
	}
	for _, tt := range tests {
		tag, errs := ParseTag(tt.value, tagBase)
		if len(errs) != 0 {
			t.Errorf("ParseTag(%q) errors: %v", tt.value, errs)
			continue
		}
		if !reflect.DeepEqual(tag.Items, tt.want) {
			t.Errorf("ParseTag(%q)\n got %+v\nwant %+v", tt.value, tag.Items, tt.want)
		}
	}
}

func TestParseTagReportsEveryErrorWithPositionAndMessage(t *testing.T) {
	tests := []struct {
		value string
		want  []string // "col: msg"
	}{
		{`min=1,,max=2`, []string{`36: empty item in wink tag; remove the extra comma`}},
		{`min=1,`, []string{`35: empty item in wink tag; remove the extra comma`}},
		{`,min=1`, []string{`30: empty item in wink tag; remove the extra comma`}},
		{`mni=1,minlength=3,foo`, []string{
			`30: unknown key "mni" in wink tag (did you mean "min"?); accepted keys: min, max, exclusiveMin, exclusiveMax, multipleOf, minLength, maxLength, pattern, patternDesc, format, minItems, maxItems, uniqueItems, enum, default, header`,
			`36: unknown key "minlength" in wink tag (did you mean "minLength"?); accepted keys: min, max, exclusiveMin, exclusiveMax, multipleOf, minLength, maxLength, pattern, patternDesc, format, minItems, maxItems, uniqueItems, enum, default, header`,
			`48: unknown key "foo" in wink tag; accepted keys: min, max, exclusiveMin, exclusiveMax, multipleOf, minLength, maxLength, pattern, patternDesc, format, minItems, maxItems, uniqueItems, enum, default, header`,
		}},
		{`min=1,min=2`, []string{`36: duplicate key min in wink tag; give each key once`}},
		{`min,max=,pattern=`, []string{
			`30: missing value for min; write min=<number>`,
			`34: missing value for max; write max=<number>`,
			`39: missing value for pattern; write pattern='<RE2 regexp>'`,
		}},
		{`min=abc,max=1.,exclusiveMin=01,exclusiveMax=+1`, []string{
			`34: min must be a JSON number such as 10, -2.5 or 1e3; got "abc"`,
			`42: max must be a JSON number such as 10, -2.5 or 1e3; got "1."`,
			`58: exclusiveMin must be a JSON number such as 10, -2.5 or 1e3; got "01"`,
			`74: exclusiveMax must be a JSON number such as 10, -2.5 or 1e3; got "+1"`,
		}},
		{`multipleOf=0`, []string{`41: multipleOf must be greater than 0; got 0`}},
		{`multipleOf=-0.5`, []string{`41: multipleOf must be greater than 0; got -0.5`}},
		{`multipleOf=0.0e5`, []string{`41: multipleOf must be greater than 0; got 0.0e5`}},
		{`minLength=-1,maxLength=01,minItems=1.0,maxItems=99999999999999999999`, []string{
			`40: minLength must be a non-negative integer such as 0 or 10; got "-1"`,
			`53: maxLength must be a non-negative integer such as 0 or 10; got "01"`,
			`65: minItems must be a non-negative integer such as 0 or 10; got "1.0"`,
			`78: maxItems must be a non-negative integer such as 0 or 10; got "99999999999999999999"`,
		}},
		{`uniqueItems=yes`, []string{`42: invalid value "yes" for uniqueItems; expected true or false, or a bare uniqueItems`}},
		// The likeliest mistake: an unquoted comma inside a pattern.
		{`pattern=^[a-z]{1,3}$`, []string{`47: "3}$" is not a key: the unquoted value of pattern ends at the comma before it; quote values that contain commas: pattern='^[a-z]{1,3}$'`}},
		{`minLength=1,pattern=[a,b]+,maxLength=3`, []string{`53: "b]+" is not a key: the unquoted value of pattern ends at the comma before it; quote values that contain commas: pattern='[a,b]+'`}},
		{`uniqueItems=`, []string{`30: missing value after uniqueItems=; write uniqueItems or uniqueItems=true|false`}},
		{`enum=a||b|`, []string{
			`37: empty alternative in enum; write enum=a|b|c`,
			`39: empty alternative in enum; write enum=a|b|c`,
		}},
		{`enum='x|y|x'`, []string{`40: duplicate alternative "x" in enum`}},
		{`enum=''`, []string{`36: empty alternative in enum; write enum=a|b|c`}},
		{`default=it's`, []string{`40: the value of default contains a quote; write the whole value in single quotes, doubling any ' inside: default='it''s'`}},
		{`default="x"`, []string{`38: the value of default contains a quote; write the whole value in single quotes, doubling any ' inside: default='it''s'`}},
		{`format=date time`, []string{`41: the value of format contains a space; write it in single quotes: format='...'`}},
		{`pattern='abc,max=1`, []string{`38: unterminated quoted value in wink tag: missing closing "'" (write '' for a quote inside the value)`}},
		{`pattern='a'b,max=x`, []string{
			`41: unexpected 'b' after the quoted value of pattern; put the whole value inside the quotes and separate items with commas`,
			`47: max must be a JSON number such as 10, -2.5 or 1e3; got "x"`,
		}},
		{`min 1,=3`, []string{
			`34: unexpected '1' after key "min" in wink tag; write key=value and separate items with commas`,
			`36: missing key before '=' in wink tag; write key=value`,
		}},
	}
	for _, tt := range tests {
		tag, errs := ParseTag(tt.value, tagBase)
		if tag == nil {
			t.Errorf("ParseTag(%q) returned a nil tag", tt.value)
		}
		var got []string
		for _, e := range errs {
			if e.Pos.Line != tagBase.Line || e.Pos.Filename != tagBase.Filename || e.Pos.Offset-tagBase.Offset != e.Pos.Column-tagBase.Column {
				t.Errorf("ParseTag(%q): inconsistent position %#v", tt.value, e.Pos)
			}
			got = append(got, itoa(e.Pos.Column)+": "+e.Msg)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseTag(%q) errors\n got %s\nwant %s", tt.value, strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
		}
	}
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

func TestParseTagKeepsValidItemsAndDropsBadOnes(t *testing.T) {
	tag, errs := ParseTag(`min=1,max=x,pattern='a+'`, tagBase)
	if len(errs) != 1 {
		t.Fatalf("errors = %v, want one", errs)
	}
	var keys []string
	for _, it := range tag.Items {
		keys = append(keys, it.Key)
	}
	if !reflect.DeepEqual(keys, []string{"min", "pattern"}) {
		t.Errorf("items = %v, want [min pattern]", keys)
	}
}

func TestTagGetFindsItemsAndIsNilSafe(t *testing.T) {
	tag, _ := ParseTag(`min=1,pattern='a+'`, tagBase)
	if it, ok := tag.Get("pattern"); !ok || it.Value != "a+" {
		t.Errorf("Get(pattern) = %+v, %v; want a+, true", it, ok)
	}
	if _, ok := tag.Get("max"); ok {
		t.Error("Get(max) found an absent key")
	}
	var nilTag *Tag
	if _, ok := nilTag.Get("min"); ok {
		t.Error("nil Tag Get found a key")
	}
}

func TestParseFieldTagPositionsPointIntoTheSourceLiteral(t *testing.T) {
	lit := token.Position{Filename: "params.go", Line: 20, Column: 10, Offset: 480}
	col := func(n int) token.Position { return advance(lit, n) }
	tests := []struct {
		raw       string
		wantItems []TagItem
		wantErrs  []string // "line:col: msg"
	}{
		{"`json:\"q\" wink:\"min=1,mx=2\"`",
			[]TagItem{{Key: "min", KeyPos: col(16), Value: "1", ValuePos: col(20), HasValue: true}},
			[]string{`20:32: unknown key "mx" in wink tag (did you mean "max"?); accepted keys: min, max, exclusiveMin, exclusiveMax, multipleOf, minLength, maxLength, pattern, patternDesc, format, minItems, maxItems, uniqueItems, enum, default, header`}},
		// In a double-quoted literal every \" takes two source bytes.
		{`"json:\"q\" wink:\"min=1,mx=2\""`,
			[]TagItem{{Key: "min", KeyPos: col(19), Value: "1", ValuePos: col(23), HasValue: true}},
			[]string{`20:35: unknown key "mx" in wink tag (did you mean "max"?); accepted keys: min, max, exclusiveMin, exclusiveMax, multipleOf, minLength, maxLength, pattern, patternDesc, format, minItems, maxItems, uniqueItems, enum, default, header`}},
		// The wink value is itself a Go string: \\d is one backslash; errors after it stay exact.
		{"`wink:\"pattern='\\\\d+',min=x\"`",
			[]TagItem{{Key: "pattern", KeyPos: col(7), Value: `\d+`, ValuePos: col(16), HasValue: true}},
			[]string{`20:36: min must be a JSON number such as 10, -2.5 or 1e3; got "x"`}},
		// Both layers of escaping at once: \\\\ in the literal is one backslash in the value.
		{`"wink:\"pattern='\\\\d',min=x\""`,
			[]TagItem{{Key: "pattern", KeyPos: col(8), Value: `\d`, ValuePos: col(17), HasValue: true}},
			[]string{`20:38: min must be a JSON number such as 10, -2.5 or 1e3; got "x"`}},
		// A raw literal spanning lines: positions follow the newline.
		{"`json:\"q\n\" wink:\"max=y\"`", nil, []string{`21:13: max must be a JSON number such as 10, -2.5 or 1e3; got "y"`}},
		// Like reflect.StructTag, only spaces separate pairs.
		{"`json:\"q\"\nwink:\"max=y\"`", nil, []string{`20:19: malformed struct tag before its wink key; write key:"value" pairs separated by single spaces`}},
		{"`json:\"q\"`", nil, nil},
		{"``", nil, nil},
		{"`json:q wink:\"min=1\"`", nil, []string{`20:11: malformed struct tag before its wink key; write key:"value" pairs separated by single spaces`}},
		{"`wink:\"min=1\" wink:\"max=2\"`", nil, []string{`20:24: duplicate wink key in struct tag; put all constraints in one wink:"..."`}},
		{"`wink:\"min=\\q\"`", nil, []string{`20:21: invalid escape or character in the wink tag value`}},
		{`"wink:\q"`, nil, []string{`20:16: invalid escape or character in the struct tag literal`}},
		{"wink", nil, []string{"20:10: a struct tag must be a Go string literal, `...` or \"...\""}},
		{"`a`b`", nil, []string{"20:12: unexpected '`' inside a raw struct tag literal"}},
	}
	for _, tt := range tests {
		tag, errs := ParseFieldTag(tt.raw, lit)
		var got []string
		for _, e := range errs {
			got = append(got, itoa(e.Pos.Line)+":"+itoa(e.Pos.Column)+": "+e.Msg)
		}
		if !reflect.DeepEqual(got, tt.wantErrs) {
			t.Errorf("ParseFieldTag(%s) errors\n got %s\nwant %s", tt.raw, strings.Join(got, "\n     "), strings.Join(tt.wantErrs, "\n     "))
		}
		var items []TagItem
		if tag != nil {
			items = tag.Items
		}
		if !reflect.DeepEqual(items, tt.wantItems) {
			t.Errorf("ParseFieldTag(%s) items\n got %+v\nwant %+v", tt.raw, items, tt.wantItems)
		}
	}
}

func TestParseFieldTagWithoutWinkKeyReturnsNil(t *testing.T) {
	tag, errs := ParseFieldTag("`json:\"q,omitempty\" xml:\"wink\"`", tagBase)
	if tag != nil || errs != nil {
		t.Errorf("ParseFieldTag = %+v, %v; want nil, nil", tag, errs)
	}
}

// checkTagPositions fails when an error or item position lies outside the input.
func checkTagPositions(t *testing.T, input string, pos token.Position, tag *Tag, errs []*Error) {
	t.Helper()
	in := func(p token.Position) bool {
		off := p.Offset - pos.Offset
		return off >= 0 && (off < len(input) || off == 0) && p.Line >= pos.Line
	}
	for _, e := range errs {
		if !in(e.Pos) || e.Msg == "" {
			t.Fatalf("error %v (offset %d) outside the %d-byte input %q", e, e.Pos.Offset-pos.Offset, len(input), input)
		}
	}
	if tag == nil {
		return
	}
	for _, it := range tag.Items {
		if !in(it.KeyPos) || (it.HasValue && !in(it.ValuePos) && it.Value != "") || !knownTagKey(it.Key) {
			t.Fatalf("item %+v outside the input %q", it, input)
		}
	}
}

func FuzzParseTag(f *testing.F) {
	for _, s := range []string{
		`min=1,max=10`, `min=1,,max=2`, `pattern='^[a-z]{2,5}$',format=email`, `default='it''s'`, `enum=a||b|`,
		`uniqueItems,minItems=1`, `multipleOf=1e-400`, `pattern='abc`, `min 1,=3`, " minLength = 0 , maxLength=64 ", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		tag, errs := ParseTag(value, tagBase)
		if tag == nil {
			t.Fatalf("nil tag for %q", value)
		}
		checkTagPositions(t, value, tagBase, tag, errs)
		if len(errs) == 0 {
			for _, it := range tag.Items {
				if it.Key != "uniqueItems" && !it.HasValue {
					t.Fatalf("item %+v without value accepted from %q", it, value)
				}
			}
		}
	})
}

func FuzzParseFieldTag(f *testing.F) {
	for _, s := range []string{
		"`json:\"q\" wink:\"min=1,mx=2\"`", `"json:\"q\" wink:\"min=1,mx=2\""`, "`wink:\"pattern='\\\\d+',min=x\"`",
		"`json:\"q\"\nwink:\"max=y\"`", "`json:q wink:\"min=1\"`", "`wink:\"min=1\" wink:\"max=2\"`", `"wink:\q"`, "``",
		// Bytes Go source cannot hold: reflect reads an invalid byte as U+FFFD, the parser keeps it.
		"`wink:\"enum=a|\xff\"`", "`wink:\"min=1\x00\"`", "`wink:\"\ufeffmin=1\"`", `"wink:\"enum=a|\xff\""`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		// Every input: no panic, positions inside the input, a message for every error.
		tag, errs := ParseFieldTag(raw, tagBase)
		checkTagPositions(t, raw, tagBase, tag, errs)
		// For a raw literal Go source can hold (UTF-8 without NUL or byte order mark, which the Go scanner
		// refuses, and no carriage return, which it drops), the value found is the one reflect.StructTag
		// finds. Other inputs never reach the parser: winkgen reads tags from parsed Go files.
		// A "..." literal compares the same way once unquoted as Go does (a byte that is not UTF-8, which
		// only a \x escape can make, is refused with an error: reflect would read it as U+FFFD).
		if len(raw) < 2 || !goSourceText(raw) {
			return
		}
		var structTag string
		switch {
		case raw[0] == '`' && raw[len(raw)-1] == '`' && !strings.ContainsAny(raw[1:len(raw)-1], "`\r"):
			structTag = raw[1 : len(raw)-1]
		case raw[0] == '"' && raw[len(raw)-1] == '"':
			s, err := strconv.Unquote(raw)
			if err != nil {
				return // the Go parser refuses the literal
			}
			structTag = s
		default:
			return
		}
		v, found := reflect.StructTag(structTag).Lookup("wink")
		switch {
		case tag != nil && !found:
			t.Fatalf("ParseFieldTag(%q) found a wink value that reflect does not", raw)
		case tag == nil && found && len(errs) == 0:
			t.Fatalf("ParseFieldTag(%q) missed the wink value %q", raw, v)
		case tag != nil:
			want, _ := ParseTag(v, tagBase)
			if len(want.Items) != len(tag.Items) {
				t.Fatalf("ParseFieldTag(%q) items %+v, but the value reflect finds gives %+v", raw, tag.Items, want.Items)
			}
			for i := range want.Items {
				if want.Items[i].Key != tag.Items[i].Key || want.Items[i].Value != tag.Items[i].Value {
					t.Fatalf("ParseFieldTag(%q) items %+v, but the value reflect finds gives %+v", raw, tag.Items, want.Items)
				}
			}
		}
	})
}

// goSourceText reports whether s can appear in a Go source file: valid UTF-8 without NUL or a byte order
// mark (the scanner refuses all three).
func goSourceText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsAny(s, "\x00\ufeff")
}

func BenchmarkParseTag(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ParseTag(`minLength=1,maxLength=64,pattern='^[a-z]{2,5}$',enum=a|b|c,default=a`, tagBase)
	}
}

func BenchmarkParseFieldTag(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ParseFieldTag("`json:\"query\" wink:\"minLength=1,maxLength=64,pattern='^[a-z]{2,5}$'\"`", tagBase)
	}
}

// A wink value holding a byte that is not UTF-8 (only a \x escape in a "..." literal can make one) is
// refused: reflect would read it as U+FFFD, so winkgen and reflect would disagree on the value.
func TestParseFieldTagRefusesBytesThatAreNotUTF8(t *testing.T) {
	raw := `"json:\"q\" wink:\"enum=a|\xff\""`
	tag, errs := ParseFieldTag(raw, tagBase)
	if tag != nil || len(errs) != 1 || errs[0].Msg != "the wink tag value holds a byte that is not UTF-8; write the character itself" {
		t.Fatalf("ParseFieldTag(%s) = %+v, %v", raw, tag, errs)
	}
	if want := tagAt(strings.Index(raw, `\xff`)); errs[0].Pos != want {
		t.Errorf("error at %v, want %v (the escape's backslash)", errs[0].Pos, want)
	}
	if tag, errs := ParseFieldTag(`"json:\"q\" wink:\"enum=a|\u00e9\""`, tagBase); len(errs) != 0 || tag.Items[0].Value != "a|é" {
		t.Errorf("an escaped UTF-8 character: %+v, %v", tag, errs)
	}
}
