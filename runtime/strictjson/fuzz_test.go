package strictjson

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"unicode/utf8"
)

// maxNesting returns the deepest bracket nesting outside strings (approximate for invalid input).
func maxNesting(b []byte) int {
	depth, max, inStr := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case !inStr && (c == '[' || c == '{'):
			depth++
			if depth > max {
				max = depth
			}
		case !inStr && (c == ']' || c == '}'):
			depth--
		}
	}
	return max
}

func FuzzDecoder(f *testing.F) {
	for _, file := range suiteFiles(f) {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		errs := skipAll(data) // must not panic
		// The verdicts agree on every input within the default limits (the fuzzer may grow an input past
		// DefaultMaxBytes, which this package refuses by design and encoding/json does not).
		if !utf8.Valid(data) || maxNesting(data) > DefaultMaxDepth || len(data) > DefaultMaxBytes {
			return
		}
		if errs != nil && contains(errs.List[0].Message, "lone surrogate") {
			return // encoding/json accepts lone surrogate escapes; this package rejects them by design
		}
		if got, want := errs == nil, json.Valid(data); got != want {
			t.Fatalf("accepted=%v, encoding/json.Valid=%v for %q (%v)", got, want, data, errs)
		}
		// the generated-code path must not panic either
		var d Decoder
		var p testParams
		d.Reset(data, Limits{MaxErrors: 3})
		decodeTestParams(&d, &p)
		d.Finish()
	})
}

func FuzzString(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\u12"`, "\"\xff\"", `"é"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var d Decoder
		d.Reset(data, Limits{})
		got, ok := d.String()
		errs := d.Finish()
		ok = ok && errs == nil
		var want string
		trimmed := bytes.TrimLeft(data, " \t\r\n")
		stdOK := json.Unmarshal(data, &want) == nil && len(trimmed) > 0 && trimmed[0] == '"'
		if !ok {
			if stdOK && utf8.Valid(data) && !hasLoneSurrogate(data) && len(data) <= DefaultMaxBytes {
				t.Fatalf("rejected %q that encoding/json accepts (%v)", data, errs)
			}
			return
		}
		if !stdOK || got != want {
			t.Fatalf("String(%q) = %q, encoding/json %q (ok=%v)", data, got, want, stdOK)
		}
		if b := []byte(data); true {
			d.Reset(b, Limits{})
			if sb, _ := d.StringBytes(); string(sb) != want {
				t.Fatalf("StringBytes(%q) = %q, want %q", data, sb, want)
			}
		}
	})
}

// hasLoneSurrogate reports whether a \u escape in data is a surrogate not in a valid pair (encoding/json
// replaces those with U+FFFD; this package rejects them).
func hasLoneSurrogate(data []byte) bool {
	var d Decoder
	d.Reset(data, Limits{})
	d.Skip()
	e := d.Finish()
	return e != nil && len(e.List) == 1 && len(e.List[0].Message) > 0 && contains(e.List[0].Message, "lone surrogate")
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
