package ledger

import (
	"testing"
)

func TestAutoKeyIsScopeToolAndFirst16HexOfSHA256(t *testing.T) {
	tests := []struct {
		name, scope, tool string
		canonical         string
		want              string
	}{
		// sha256(`{"amount":5,"order_id":"123"}`), the RFC 8785 form: members sorted.
		{"object", "session", "create_order", `{"order_id":"123","amount":5}`, "session:create_order:e41fdc19c4e92327"},
		{"object respelled", "session", "create_order", "{ \"amount\" : 5.0 ,\n\"order\\u005fid\":\"\\u0031\\u00323\"}", "session:create_order:e41fdc19c4e92327"},
		{"empty object", "session", "ping", `{}`, "session:ping:44136fa355b3678a"},
		{"empty input", "s1", "ping", ``, "s1:ping:e3b0c44298fc1c14"},
		{"long scope beyond stack buffer", "a-very-long-scope-name-that-is-longer-than-the-buffer-used-for-short-keys-0123456789-0123456789-0123456789", "t",
			`{}`, "a-very-long-scope-name-that-is-longer-than-the-buffer-used-for-short-keys-0123456789-0123456789-0123456789:t:44136fa355b3678a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AutoKey(tt.scope, tt.tool, []byte(tt.canonical)); got != tt.want {
				t.Errorf("AutoKey(%q, %q, %s) = %q, want %q", tt.scope, tt.tool, tt.canonical, got, tt.want)
			}
		})
	}
}

func TestParamsKeyHashesSelectedFieldsAsCanonicalJSONObject(t *testing.T) {
	tests := []struct {
		name   string
		fields []Field
		want   string
	}{
		{"one field", []Field{{"order_id", []byte(`"123"`)}}, "session:create_order:42ec9c7d61a8dce9"},
		{"no fields", nil, "session:create_order:44136fa355b3678a"},
		{"absent field hashes as null", []Field{{"order_id", []byte(`"123"`)}, {"note", nil}}, "session:create_order:75ab62ac428e741c"},
		{"explicit null equals absent", []Field{{"order_id", []byte(`"123"`)}, {"note", []byte(`null`)}}, "session:create_order:75ab62ac428e741c"},
		{"values respelled", []Field{{"order_id", []byte(`"\u0031\u00323"`)}, {"note", []byte(` null `)}}, "session:create_order:75ab62ac428e741c"},
		{"name escaped as JSON string", []Field{{"a\"b\\c\x01", nil}, {"x", []byte(`[1,2]`)}}, "session:create_order:81cde64b01c8dada"},
		{"all fields in declaration order equal AutoKey", []Field{{"order_id", []byte(`"123"`)}, {"amount", []byte(`5`)}},
			AutoKey("session", "create_order", []byte(`{"order_id":"123","amount":5}`))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParamsKey("session", "create_order", tt.fields); got != tt.want {
				t.Errorf("ParamsKey = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParamsKeyIgnoresFieldOrder(t *testing.T) {
	a := ParamsKey("s", "t", []Field{{"a", []byte("1")}, {"b", []byte(`{"x":1,"y":[2]}`)}})
	b := ParamsKey("s", "t", []Field{{"b", []byte(`{ "y" : [ 2 ], "x" : 1 }`)}, {"a", []byte("1e0")}})
	if a != b {
		t.Errorf("ParamsKey gave %q and %q for one selection given in two orders", a, b)
	}
	if c := ParamsKey("s", "t", []Field{{"a", []byte("1")}, {"b", []byte(`{"x":1,"y":[3]}`)}}); c == a {
		t.Errorf("ParamsKey gave %q for different values", c)
	}
}

// TestAutoKeyNeverMergesDifferentValues: numbers a double cannot tell apart (RFC 8785 would write both
// as 12345678901234567000) keep different keys; every spelling of one free-form value keeps one.
func TestAutoKeyNeverMergesDifferentValues(t *testing.T) {
	a := AutoKey("s", "pay", []byte(`{"account":12345678901234567891,"opts":{"a":1,"b":2}}`))
	b := AutoKey("s", "pay", []byte(`{"account":12345678901234567892,"opts":{"a":1,"b":2}}`))
	c := AutoKey("s", "pay", []byte(`{"opts":{"b":2,"\u0061":1.0},"account":1.2345678901234567891e19}`))
	if a == b || a != c {
		t.Errorf("keys: %s %s %s; want the first and last equal, the second different", a, b, c)
	}
}

func TestCustomKeyIsScopeToolCustom(t *testing.T) {
	if got, want := CustomKey("session", "create_order", "order:123:token-abc"), "session:create_order:order:123:token-abc"; got != want {
		t.Errorf("CustomKey = %q, want %q", got, want)
	}
}

func TestKeysDifferByScopeAndTool(t *testing.T) {
	in := []byte(`{"q":1}`)
	keys := map[string]bool{
		AutoKey("s1", "t", in): true, AutoKey("s2", "t", in): true,
		AutoKey("s1", "u", in): true, AutoKey("s2", "u", in): true,
	}
	if len(keys) != 4 {
		t.Errorf("want 4 distinct keys, got %v", keys)
	}
}

func TestStrategyStringAndParseRoundTrip(t *testing.T) {
	tests := []struct {
		s    Strategy
		name string
	}{{None, "none"}, {Auto, "auto"}, {Params, "params"}, {Custom, "custom"}}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.name {
			t.Errorf("Strategy(%d).String() = %q, want %q", tt.s, got, tt.name)
		}
		got, err := ParseStrategy(tt.name)
		if err != nil || got != tt.s {
			t.Errorf("ParseStrategy(%q) = %v, %v; want %v, nil", tt.name, got, err, tt.s)
		}
	}
	if got := Strategy(9).String(); got != "Strategy(9)" {
		t.Errorf("Strategy(9).String() = %q", got)
	}
	var zero Strategy
	if zero != None {
		t.Errorf("zero Strategy is %v, want none", zero)
	}
}

func TestParseStrategyRejectsUnknownWithMessage(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Auto", `unknown idempotency strategy "Auto" (allowed: auto, params, custom, none)`},
		{"", `unknown idempotency strategy "" (allowed: auto, params, custom, none)`},
		{"keys", `unknown idempotency strategy "keys" (allowed: auto, params, custom, none)`},
	}
	for _, tt := range tests {
		_, err := ParseStrategy(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseStrategy(%q) error = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestCheckScope(t *testing.T) {
	tests := []struct{ in, want string }{
		{"session", ""},
		{"run-42.user_7", ""},
		{"A", ""},
		{"", `invalid idempotency scope "": must be 1-128 characters from A-Z a-z 0-9 _ . -`},
		{"a:b", `invalid idempotency scope "a:b": must be 1-128 characters from A-Z a-z 0-9 _ . -`},
		{"has space", `invalid idempotency scope "has space": must be 1-128 characters from A-Z a-z 0-9 _ . -`},
		{"é", `invalid idempotency scope "é": must be 1-128 characters from A-Z a-z 0-9 _ . -`},
	}
	for _, tt := range tests {
		err := CheckScope(tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckScope(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	ok128 := make([]byte, 128)
	for i := range ok128 {
		ok128[i] = 'a'
	}
	if err := CheckScope(string(ok128)); err != nil {
		t.Errorf("CheckScope(128 chars) = %v, want nil", err)
	}
	if err := CheckScope(string(ok128) + "a"); err == nil {
		t.Error("CheckScope(129 chars) = nil, want error")
	}
}

func TestKeyBuildersAllocateLittle(t *testing.T) {
	in := []byte(`{"order_id":"123","amount":5}`)
	fields := []Field{{"order_id", []byte(`"123"`)}}
	// The key, and the canonical form's scratch (its recursion keeps the buffers off the stack).
	if n := testing.AllocsPerRun(100, func() { _ = AutoKey("session", "create_order", in) }); n > 6 {
		t.Errorf("AutoKey allocates %v times, want at most 6", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = ParamsKey("session", "create_order", fields) }); n > 6 {
		t.Errorf("ParamsKey allocates %v times, want at most 6", n)
	}
}

func BenchmarkAutoKey(b *testing.B) {
	in := []byte(`{"query":"filesystem","limit":10,"mode":"fuzzy","filters":{"max_size":1024}}`)
	b.ReportAllocs()
	for b.Loop() {
		_ = AutoKey("session", "search_docs", in)
	}
}

func BenchmarkParamsKey(b *testing.B) {
	fields := []Field{{"query", []byte(`"filesystem"`)}, {"limit", []byte(`10`)}}
	b.ReportAllocs()
	for b.Loop() {
		_ = ParamsKey("session", "search_docs", fields)
	}
}

// Keys are unambiguous by construction: parts holding the separator (or the escape character) never
// make two different (scope, tool, custom) triples, or two sessions' scopes, give one key.
func TestKeysAreUnambiguousWhateverThePartsHold(t *testing.T) {
	parts := []string{"", "a", "b", ":", "a:", ":b", "a:b", "a:t:b", "%", "%3A", "%25", "a%3Ab", "session", "session.", "session.a", "session.a:t", "session%2E", "session%2Ea", "session.%", "é", "\x00", "\xff:"}
	type triple struct{ scope, tool, custom string }
	seen := map[string]triple{}
	for _, sc := range parts {
		for _, scope := range []string{SessionScope(sc), Scope(sc)} {
			for _, tool := range parts {
				for _, custom := range parts {
					k := CustomKey(scope, tool, custom)
					if prev, dup := seen[k]; dup {
						t.Fatalf("key %q made by %+v and by %+v", k, prev, triple{scope, tool, custom})
					}
					seen[k] = triple{scope, tool, custom}
				}
			}
		}
	}
	scopes := map[string]string{}
	for _, id := range parts {
		for _, s := range []string{SessionScope(id), Scope(id)} {
			if s == "" {
				continue
			}
			if prev, dup := scopes[s]; dup {
				t.Fatalf("scope %q made twice (%q, %q)", s, prev, id)
			}
			scopes[s] = id
		}
	}
	// The collision that motivated the rule: session "a:t:b" with custom key "c" against session "a" with custom key "b:t:c".
	if CustomKey(SessionScope("a:t:b"), "t", "c") == CustomKey(SessionScope("a"), "t", "b:t:c") {
		t.Fatal("two sessions share a key")
	}
	// Valid parts are unchanged by the escaping: existing keys stay as they were.
	if got := CustomKey(SessionScope("0f1e-uuid"), "pay", "k1"); got != "session.0f1e-uuid:pay:k1" {
		t.Fatalf("got %q", got)
	}
	if got := AutoKey(SessionScope("x:y"), "t", []byte(`{}`)); got[:len("session.x%3Ay:t:")] != "session.x%3Ay:t:" {
		t.Fatalf("got %q", got)
	}
}
