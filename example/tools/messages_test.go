package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// TestStrictDecodingMessages checks, through the generated decoders and the dispatcher, the exact text a
// model reads for every rule of the README's "Strict decoding", and that a bad call never reaches the handler.
func TestStrictDecodingMessages(t *testing.T) {
	good := `"query":"q","filters":{"path_prefix":"/docs","max_size":1}`
	cases := []struct {
		rule, tool, args string
		want             []string // the "- ..." lines; nil means the call succeeds
	}{
		{"valid call", "search_docs", `{` + good + `}`, nil},
		{"integral number forms are integers", "search_docs", `{` + good + `,"limit":2.5e1}`, nil},
		{"25.0 is an integer", "search_docs", `{` + good + `,"limit":25.0}`, nil},
		{"null for an optional field means absent", "search_docs", `{` + good + `,"limit":null,"mode":null,"file_types":null}`, nil},
		{"unknown key with a suggestion", "search_docs", `{` + good + `,"querry":"x"}`,
			[]string{`unknown field "querry"; did you mean "query"? (allowed: query, limit, case_sensitive, file_types, filters, mode)`}},
		{"unknown key without a suggestion", "search_docs", `{` + good + `,"zzzzzzzz":1}`,
			[]string{`unknown field "zzzzzzzz" (allowed: query, limit, case_sensitive, file_types, filters, mode)`}},
		{"unknown key at depth", "search_docs", `{"query":"q","filters":{"path_prefix":"/","max_size":1,"maxsize":2}}`,
			[]string{`filters: unknown field "maxsize"; did you mean "max_size"? (allowed: path_prefix, max_size)`}},
		{"keys match case-sensitively", "search_docs", `{` + good + `,"Query":"x"}`,
			[]string{`unknown field "Query"; did you mean "query"? (allowed: query, limit, case_sensitive, file_types, filters, mode)`}},
		{"duplicate key", "search_docs", `{` + good + `,"query":"again"}`,
			[]string{`query: duplicate field; each field may appear once`}},
		{"missing required keys", "search_docs", `{}`,
			[]string{`query: missing required field`, `filters: missing required field`}},
		{"boolean is not an integer", "search_docs", `{` + good + `,"limit":true}`,
			[]string{`limit: expected integer, got boolean true`}},
		{"string is not a number", "search_docs", `{` + good + `,"limit":"10"}`,
			[]string{`limit: expected integer, got string "10"`}},
		{"non-integral number", "search_docs", `{` + good + `,"limit":2.5}`,
			[]string{`limit: expected integer, got number 2.5`}},
		{"out of the Go type's range (uint8)", "compute_stats", `{"samples":[1],"weights":[256]}`,
			[]string{`weights[0]: must be <= 255; got 256`}},
		{"out of the Go type's range (int16)", "compute_stats", `{"samples":[1],"window":[1,-32769,3]}`,
			[]string{`window[1]: must be >= -32768; got -32769`}},
		{"enum violation", "search_docs", `{` + good + `,"mode":"regex"}`,
			[]string{`mode: must be one of "fuzzy", "exact"; got "regex"`}},
		{"min and max", "search_docs", `{` + good + `,"limit":0}`,
			[]string{`limit: must be >= 1; got 0`}},
		{"minLength counts code points", "search_docs", `{"query":"","filters":{"path_prefix":"/","max_size":1}}`,
			[]string{`query: must be at least 1 character long; got 0`}},
		{"pattern is a full match", "search_docs", `{` + good + `,"file_types":["go","Markdown"]}`,
			[]string{`file_types[1]: must match the pattern ^(?:[a-z0-9]{1,8})$; got "Markdown"`}},
		{"uniqueItems", "search_docs", `{` + good + `,"file_types":["go","md","go"]}`,
			[]string{`file_types: items must be unique; item 2 repeats item 0`}},
		{"maxItems", "search_docs", `{` + good + `,"file_types":["a","b","c","d","e","f","g","h","i","j","k"]}`,
			[]string{`file_types: must contain at most 10 items; got 11`}},
		{"exclusiveMin and multipleOf on floats", "compute_stats", `{"samples":[1],"precision":0.0005}`,
			[]string{`precision: must be a multiple of 0.001; got 0.0005`}},
		{"exclusiveMin", "compute_stats", `{"samples":[1],"precision":0}`,
			[]string{`precision: must be > 0; got 0`}},
		{"minItems", "compute_stats", `{"samples":[]}`,
			[]string{`samples: must contain at least 1 item; got 0`}},
		{"fixed-length array", "compute_stats", `{"samples":[1],"window":[1,2]}`,
			[]string{`window: must contain exactly 3 items; got 2`}},
		{"format", "schedule_task", `{"title":"abc","at":"2026-01-02T03:04:05Z","assignee":"not-an-email"}`,
			[]string{`assignee: must be a valid email address; got "not-an-email"`}},
		{"date-time", "schedule_task", `{"title":"abc","at":"2026-13-02T03:04:05Z"}`,
			[]string{`at: must be a valid date-time (RFC 3339, e.g. "2026-01-02T15:04:05Z"); got "2026-13-02T03:04:05Z"`}},
		{"null for a required field", "search_docs", `{"query":null,"filters":{"path_prefix":"/","max_size":1}}`,
			[]string{`query: expected string, got null`}},
		{"wrong type for a nested object", "search_docs", `{"query":"q","filters":[]}`,
			[]string{`filters: expected object, got array`}},
		{"arguments must be an object", "search_docs", `["query"]`,
			[]string{`expected object, got array`}},
		{"invalid UTF-8", "search_docs", "{\"query\":\"\xff\",\"filters\":{\"path_prefix\":\"/\",\"max_size\":1}}",
			[]string{`query: invalid UTF-8 in string (byte 10)`}},
		{"lone surrogate escape", "search_docs", `{"query":"\ud800","filters":{"path_prefix":"/","max_size":1}}`,
			[]string{`query: lone surrogate \ud800 in string (byte 10)`}},
		{"trailing data", "search_docs", `{` + good + `} {}`,
			[]string{`invalid JSON at byte 61: unexpected data after the arguments object`}},
		{"syntax error", "search_docs", `{"query":"q",}`,
			[]string{`invalid JSON at byte 13: trailing comma before '}'`}},
		{"empty arguments for a tool with params mean {}", "search_docs", ``,
			[]string{`query: missing required field`, `filters: missing required field`}},

		{"several errors in one call, in input order", "search_docs", `{"querry":"x","limit":"10","mode":"regex","filters":{"path_prefix":"docs","max_size":-1}}`,
			[]string{
				`unknown field "querry"; did you mean "query"? (allowed: query, limit, case_sensitive, file_types, filters, mode)`,
				`limit: expected integer, got string "10"`,
				`mode: must be one of "fuzzy", "exact"; got "regex"`,
				`filters.path_prefix: must match the pattern ^(?:/[A-Za-z0-9_./-]*)$; got "docs"`,
				`filters.max_size: must be >= 0; got -1`,
				`query: missing required field`,
			}},
	}
	d := &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools())}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			out, err := d.Dispatch(context.Background(), wink.Call{ID: "1", Name: c.tool, Arguments: []byte(c.args)})
			if err != nil {
				t.Fatal(err)
			}
			if c.want == nil {
				if !out.Success {
					t.Fatalf("call failed:\n%s", out.Output)
				}
				return
			}
			want := "Invalid arguments for tool \"" + c.tool + "\":\n- " + strings.Join(c.want, "\n- ") + "\nFix the arguments and call " + c.tool + " again."
			if out.Success || out.Output != want {
				t.Errorf("got:\n%s\nwant:\n%s", out.Output, want)
			}
		})
	}
}

// TestLimits checks the size, depth and error-count limits.
func TestLimits(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools()), Limits: strictjson.Limits{MaxBytes: 64, MaxErrors: 3}}
	out, _ := d.Dispatch(context.Background(), wink.Call{Name: "search_docs", Arguments: []byte(`{"query":"` + strings.Repeat("a", 100) + `"}`)})
	if want := "- arguments are 112 bytes; the limit is 64 bytes"; !strings.Contains(out.Output, want) {
		t.Errorf("size limit: got\n%s", out.Output)
	}
	out, _ = d.Dispatch(context.Background(), wink.Call{Name: "search_docs", Arguments: []byte(`{"a":1,"b":2,"c":3,"d":4,"e":5}`)})
	if !strings.Contains(out.Output, "- and 4 more errors") {
		t.Errorf("error cap: got\n%s", out.Output)
	}
	deep := `{"root":` + strings.Repeat(`{"title":"t","children":[`, 40) + strings.Repeat(`]}`, 40) + `}`
	d = &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools())}
	out, _ = d.Dispatch(context.Background(), wink.Call{Name: "count_outline", Arguments: []byte(deep)})
	if !strings.Contains(out.Output, "nesting deeper than 64 levels") {
		t.Errorf("depth limit: got\n%s", out.Output)
	}
}
