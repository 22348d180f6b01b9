package strictjson

import "testing"

func TestRawReturnsEachValueVerbatim(t *testing.T) {
	const in = `{"a": { "k" : [1, 2.50e1, "\u00e9\n"] } , "b":"x\"y", "c" :-0.5e+3,"d":null, "e":true,"f":[ ]}`
	want := map[string]string{
		"a": `{ "k" : [1, 2.50e1, "\u00e9\n"] }`, "b": `"x\"y"`, "c": `-0.5e+3`, "d": `null`, "e": `true`, "f": `[ ]`,
	}
	var d Decoder
	d.Reset([]byte(in), Limits{})
	if !d.ObjectStart() {
		t.Fatal("ObjectStart")
	}
	n := 0
	for d.NextKey() {
		k := string(d.Key())
		raw, ok := d.Raw()
		if !ok || string(raw) != want[k] {
			t.Errorf("%s: got %q, %v; want %q", k, raw, ok, want[k])
		}
		if cap(raw) != len(raw) {
			t.Errorf("%s: cap %d exceeds the value", k, cap(raw))
		}
		n++
	}
	d.ObjectEnd()
	if errs := d.Finish(); errs != nil || n != len(want) {
		t.Errorf("members %d, errors %v", n, errs)
	}
}

func TestRawAtTopLevelAndInArrays(t *testing.T) {
	var d Decoder
	d.Reset([]byte(" \t[ {\"x\":1} ,\n 7 ] \n"), Limits{})
	raw, ok := d.Raw()
	if !ok || string(raw) != "[ {\"x\":1} ,\n 7 ]" {
		t.Errorf("top level: got %q, %v", raw, ok)
	}
	if errs := d.Finish(); errs != nil {
		t.Error(errs)
	}
	d.Reset([]byte(`[{"x":1}, 7]`), Limits{})
	var got []string
	d.ArrayStart()
	for d.NextElem() {
		raw, _ := d.Raw()
		got = append(got, string(raw))
	}
	d.ArrayEnd()
	if len(got) != 2 || got[0] != `{"x":1}` || got[1] != "7" || d.Finish() != nil {
		t.Errorf("elements: got %q", got)
	}
}

func TestRawRejectsMalformedValues(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":[1,]}`, "invalid JSON at byte 8: trailing comma before ']'"},
		{"\"\xff\"", "invalid JSON at byte 1: invalid UTF-8 in string"},
		{`{"a":`, "invalid JSON at byte 5: unexpected end of input"},
		{`[[[1]]]`, "invalid JSON at byte 2: nesting deeper than 2 levels"},
	} {
		var d Decoder
		d.Reset([]byte(tc.in), Limits{MaxDepth: 2})
		raw, ok := d.Raw()
		if ok || raw != nil {
			t.Errorf("%q: got %q, true", tc.in, raw)
		}
		if again, ok := d.Raw(); ok || again != nil {
			t.Errorf("%q: Raw after a fatal error returned %q", tc.in, again)
		}
		if errs := d.Finish(); errs == nil || errs.Error() != tc.want {
			t.Errorf("%q: error %v, want %q", tc.in, errs, tc.want)
		}
	}
}

func TestMember(t *testing.T) {
	obj := []byte(` {"a":1, "b" : {"x":[1,"}"]}, "c":"s\"q", "\u0064":true, "a":2} `)
	for name, want := range map[string]string{"a": `1`, "b": `{"x":[1,"}"]}`, "c": `"s\"q"`, "d": `true`} {
		if raw, ok := Member(obj, name); !ok || string(raw) != want {
			t.Errorf("Member(%q) = %s, %v; want %s", name, raw, ok, want)
		}
	}
	for _, bad := range []string{`{"a":1`, `[1]`, `{"a":1} x`, `{"a":tru}`, `{"b":1}`, ``, `{"a":"\ud800"}`} {
		if raw, ok := Member([]byte(bad), "a"); ok {
			t.Errorf("Member(%s) = %s, want not ok", bad, raw)
		}
	}
}
