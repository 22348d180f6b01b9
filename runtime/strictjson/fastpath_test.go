package strictjson

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// fastPathSeeds are inputs for FuzzFastPathsAgree: compact and spaced JSON, strings of every length
// around a word and at the very end of the input, escapes, non-ASCII, integers of 1 to 20 digits, unread
// values and broken input.
var fastPathSeeds = []string{
	`{"query":"filesystem snapshot rollback","limit":25,"case_sensitive":false,"file_types":["go","md","txt"],"filters":{"path_prefix":"/workspace/src","max_size":1048576},"mode":"fuzzy"}`,
	`{ "query" : "a" , "limit" : 7 , "file_types" : [ "x" , "yz" ] }`,
	`{"a":"","bb":"1","ccc":"12","dddd":"123","e":"1234","f":"12345","g":"123456","h":"1234567","i":"12345678"}`,
	`{"a":"123456789","b":"1234567890abcdef","c":"1234567890abcdefg","d":"1234567890abcdefghijklmnop"}`,
	`["a","ab","abc","abcd","abcde","abcdef","abcdefg"]`,
	`[1,22,333,4444,55555,666666,7777777,88888888,999999999,-1,-22,0,-0,01,1.5,2e3,12345678901234567890]`,
	`{"k":[[],[1],{},{"x":[2,3]},"s",true,false,null]}`,
	`{"esc\u0061ped":"a\"b\\c\n\u00e9\ud83d\ude00","é":"日本語","tab":"a` + "\t" + `b"}`,
	`{"a":1,}`, `[1,]`, `{"a":}`, `{,"a":1}`, `[,1]`, `{"a" 1}`, `{"a":1 "b":2}`, `["a" "b"]`,
	`{"a":"unterminated`, `["x`, `{"abcdefghijk`, `{"a":12`, `[12`, "[\"\xff\"]", `{"a":"b"}  `, `{"a":"b"}x`,
	`"abc"`, `"abcdefghij"`, `12345`, `[]`, `{}`, ``, ` `, `{"a":[1,2,3],"b":{"c":"d"}}`,
}

// FuzzFastPathsAgree checks that the fast paths of NextKey, NextElem, String and Int give what their
// general paths (nextKey, nextElem, stringSlow, intLiteral) give on every input: the same keys, indexes,
// values, verdicts and errors, and decoding stops at the same byte. Some values are left unread, so
// that the skipping of unread values is compared too.
func FuzzFastPathsAgree(f *testing.F) {
	for _, s := range fastPathSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, fastPos, fastErr := walkAll(data, false)
		slow, slowPos, slowErr := walkAll(data, true)
		if fast != slow || fastPos != slowPos || fastErr != slowErr {
			t.Fatalf("%q:\nfast paths:    %s at %d, errors %s\ngeneral paths: %s at %d, errors %s", data, fast, fastPos, fastErr, slow, slowPos, slowErr)
		}
	})
}

func TestFastPathsAgreeOnTheSeeds(t *testing.T) {
	for _, s := range fastPathSeeds {
		// every seed, and every prefix of it (input cut anywhere, so that each value lies at the end)
		for n := len(s); n >= 0; n-- {
			data := []byte(s[:n])
			fast, fastPos, fastErr := walkAll(data, false)
			slow, slowPos, slowErr := walkAll(data, true)
			if fast != slow || fastPos != slowPos || fastErr != slowErr {
				t.Fatalf("%q:\nfast paths:    %s at %d, errors %s\ngeneral paths: %s at %d, errors %s", data, fast, fastPos, fastErr, slow, slowPos, slowErr)
			}
		}
	}
}

// walkAll decodes data as any JSON value, with the public methods or (slow) their general paths, and
// returns what it read, where it stopped and the errors.
func walkAll(data []byte, slow bool) (events string, pos int, errs string) {
	var d Decoder
	d.Reset(data, Limits{})
	var ev strings.Builder
	walkValue(&d, slow, &ev, 0)
	pos = d.pos
	if e := d.Finish(); e != nil {
		errs = e.Error()
	}
	return ev.String(), pos, errs
}

func walkValue(d *Decoder, slow bool, ev *strings.Builder, depth int) {
	var c byte
	if d.pos < len(d.data) {
		c = d.data[d.pos]
	}
	switch {
	case c == '{' && depth < 8:
		if !d.ObjectStart() {
			return
		}
		for {
			more := false
			if slow {
				more = d.nextKey()
			} else {
				more = d.NextKey()
			}
			if !more {
				break
			}
			ev.WriteString("key " + strconv.Quote(string(d.Key())) + "; ")
			if len(d.Key())%4 == 3 {
				continue // left unread: the next NextKey skips it
			}
			walkValue(d, slow, ev, depth+1)
		}
		d.ObjectEnd()
	case c == '[' && depth < 8:
		if !d.ArrayStart() {
			return
		}
		for {
			more := false
			if slow {
				more = d.nextElem()
			} else {
				more = d.NextElem()
			}
			if !more {
				break
			}
			ev.WriteString("elem " + strconv.Itoa(d.Index()) + "; ")
			if d.Index()%5 == 4 {
				continue // left unread
			}
			walkValue(d, slow, ev, depth+1)
		}
		d.ArrayEnd()
	case c == '-' || c >= '0' && c <= '9':
		var v int64
		var ok bool
		if slow {
			v, ok = d.intLiteral(-1000, 1<<40)
		} else {
			v, ok = d.Int(-1000, 1<<40)
		}
		ev.WriteString("int " + strconv.FormatInt(v, 10) + " " + strconv.FormatBool(ok) + " " + string(d.NumberLiteral()) + "; ")
	case depth%2 == 1 && c == '"':
		// StringBytes has no general path of its own: it is checked against String's.
		var s string
		var ok bool
		if slow {
			s, ok = d.stringSlow()
		} else {
			var b []byte
			b, ok = d.StringBytes()
			s = string(b)
		}
		ev.WriteString("string " + strconv.Quote(s) + " " + strconv.FormatBool(ok) + "; ")
	default:
		var s string
		var ok bool
		if slow {
			s, ok = d.stringSlow()
		} else {
			s, ok = d.String()
		}
		ev.WriteString("string " + strconv.Quote(s) + " " + strconv.FormatBool(ok) + "; ")
	}
}

// TestPlainScanReachesTheEndOfTheInput checks that the word-at-a-time scan of keys and strings
// (plainEnd, then plainTail for the input's last bytes) finds the closing quote of a plain string
// wherever it lies, also within the input's last 8 bytes, where a whole word no longer fits after the
// string's start; and that it declines (-1) a string it must leave to scanString.
func TestPlainScanReachesTheEndOfTheInput(t *testing.T) {
	scan := func(data []byte, p int) int {
		q := plainEnd(data, p)
		if q < -1 {
			q = plainTail(data, ^q)
		}
		return q
	}
	for n := 0; n <= 20; n++ {
		content := strings.Repeat("abcdefghij", 3)[:n]
		for tail := 0; tail <= 9; tail++ {
			for _, prefix := range []string{`"`, `{"key":"`, `[1,2,3,4,5,6,7,8,9,"`} {
				in := prefix + content + `"` + strings.Repeat("}", tail)
				if got, want := scan([]byte(in), len(prefix)), len(prefix)+n; len(in) >= 8 && got != want {
					t.Errorf("%q from %d: %d, want the closing quote at %d", in, len(prefix), got, want)
				}
				for _, bad := range []string{`\n`, "\x01", "é"} {
					in := prefix + content + bad + `"` + strings.Repeat("}", tail)
					if got := scan([]byte(in), len(prefix)); got != -1 {
						t.Errorf("%q from %d: %d, want -1 (scanString's work)", in, len(prefix), got)
					}
				}
				if got := scan([]byte(prefix+content), len(prefix)); got != -1 {
					t.Errorf("unterminated %q from %d: %d, want -1", prefix+content, len(prefix), got)
				}
			}
		}
	}
}

// TestCopySmallWritesOnlyItsBytes checks that copySmall copies 0 to 16 bytes exactly, writing nothing
// before or after them (the bytes of a string block past the strings handed out stay as they were).
func TestCopySmallWritesOnlyItsBytes(t *testing.T) {
	src := []byte("0123456789abcdefXYZ")
	for n := 0; n <= 16; n++ {
		buf := []byte(strings.Repeat("#", 40))
		copySmall(buf[10:10+n], src[:n])
		if want := strings.Repeat("#", 10) + string(src[:n]) + strings.Repeat("#", 30-n); string(buf) != want {
			t.Errorf("n=%d: %q, want %q", n, buf, want)
		}
	}
}

// TestIntReadsEveryDigitCount checks Int's word-at-a-time path against strconv for 1 to 20 digits, at
// the end of the input and followed by other bytes, with leading zeros, signs, fractions and exponents
// going to the general path.
func TestIntReadsEveryDigitCount(t *testing.T) {
	for n := 1; n <= 20; n++ {
		lit := "98765432109876543210"[:n]
		for _, tail := range []string{"", ",", "}        ", "]", " ", ".5", "e1", "E1", "x"} {
			var d Decoder
			in := lit + tail
			d.Reset([]byte(in), Limits{})
			got, ok := d.Int(math.MinInt64, math.MaxInt64)
			want, err := strconv.ParseInt(lit, 10, 64)
			var slow Decoder
			slow.Reset([]byte(in), Limits{})
			sv, sok := slow.intLiteral(math.MinInt64, math.MaxInt64)
			if got != sv || ok != sok || d.pos != slow.pos {
				t.Errorf("%q: Int %d %v at %d; general path %d %v at %d", in, got, ok, d.pos, sv, sok, slow.pos)
			}
			if err == nil && (tail == "" || tail[0] != '.' && tail[0] != 'e' && tail[0] != 'E') && (!ok || got != want || d.pos != n) {
				t.Errorf("%q: %d %v at %d, want %d at %d", in, got, ok, d.pos, want, n)
			}
		}
	}
}
