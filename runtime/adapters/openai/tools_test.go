package openai_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/adapters/internal/adapterstest"
	"github.com/winkgen/wink/runtime/adapters/internal/wiretest"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

var (
	search = adapterstest.WinkSearch
	label  = adapterstest.WinkLabelIssue
	// plainOnly is a hand-built tool whose plain schema has no strict form (a map at the root): the non-strict path.
	plainOnly = wink.NewTool(wink.Spec{Name: "plain_only", Description: "Plain <only> & loose.",
		ParamsSchema: []byte(`{"type":"object","description":"a <b> & c","additionalProperties":{"type":"string"}}`)},
		&wink.Funcs[wink.NoParams, wink.NoValue]{Decode: wink.DecodeNoParams, EncodeResult: wink.EncodeNoValue,
			Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
				return wink.Done[wink.NoValue](""), nil
			}})
)

func TestChatToolsWritesStrictAndNonStrictEntriesExactly(t *testing.T) {
	got, err := openai.ChatTools([]*wink.Tool{search, label, plainOnly})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"function","function":{"name":"search","description":"Searches by the web search engine.","parameters":` +
		string(strictOf(t, search)) + `,"strict":true}},` +
		`{"type":"function","function":{"name":"label_issue","description":"Sets labels on an issue & shows them as <key>=<value>.","parameters":` +
		string(strictOf(t, label)) + `,"strict":true}},` +
		`{"type":"function","function":{"name":"plain_only","description":"Plain <only> & loose.","parameters":` +
		string(plainOnly.Spec().ParamsSchema) + `,"strict":false}}]`
	if string(got) != want {
		t.Errorf("ChatTools:\n got %s\nwant %s", got, want)
	}
	if !json.Valid(got) {
		t.Error("ChatTools output is not valid JSON")
	}
}

func TestResponsesToolsWritesStrictAndNonStrictEntriesExactly(t *testing.T) {
	got, err := openai.ResponsesTools([]*wink.Tool{search, label, plainOnly})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"function","name":"search","description":"Searches by the web search engine.","parameters":` +
		string(strictOf(t, search)) + `,"strict":true},` +
		`{"type":"function","name":"label_issue","description":"Sets labels on an issue & shows them as <key>=<value>.","parameters":` +
		string(strictOf(t, label)) + `,"strict":true},` +
		`{"type":"function","name":"plain_only","description":"Plain <only> & loose.","parameters":` +
		string(plainOnly.Spec().ParamsSchema) + `,"strict":false}]`
	if string(got) != want {
		t.Errorf("ResponsesTools:\n got %s\nwant %s", got, want)
	}
}

func TestToolsEmbedSchemaBytesVerbatimWithoutHTMLEscaping(t *testing.T) {
	for name, f := range map[string]func([]*wink.Tool) ([]byte, error){"chat": openai.ChatTools, "responses": openai.ResponsesTools} {
		got, err := f([]*wink.Tool{label, plainOnly})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(got, strictOf(t, label)) || !bytes.Contains(got, plainOnly.Spec().ParamsSchema) {
			t.Errorf("%s: schemas not embedded byte for byte", name)
		}
		if bytes.Contains(got, []byte(`\u003c`)) || bytes.Contains(got, []byte(`\u0026`)) {
			t.Errorf("%s: HTML characters escaped: %s", name, got)
		}
	}
}

func TestSchemaPicksStrictVariantOnlyWhenDerivable(t *testing.T) {
	s, strict := openai.Schema(search.Spec())
	if !strict || !bytes.Equal(s, strictOf(t, search)) {
		t.Errorf("search: strict=%v schema=%s", strict, s)
	}
	s, strict = openai.Schema(label.Spec())
	if !strict || !bytes.Equal(s, strictOf(t, label)) {
		t.Errorf("label_issue (a map, stated as pairs): strict=%v schema=%s", strict, s)
	}
	s, strict = openai.Schema(plainOnly.Spec())
	if strict || !bytes.Equal(s, plainOnly.Spec().ParamsSchema) {
		t.Errorf("plain_only: strict=%v schema=%s", strict, s)
	}
}

func badSchemaTool(name, schema string) *wink.Tool {
	return wink.NewTool(wink.Spec{Name: name, Description: "Bad.", ParamsSchema: []byte(schema)},
		&wink.Funcs[wink.NoParams, wink.NoValue]{
			Decode:       wink.DecodeNoParams,
			EncodeResult: wink.EncodeNoValue,
			Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
				return wink.Done[wink.NoValue]("ok"), nil
			},
		})
}

func TestToolsReportEveryProblemAtOnce(t *testing.T) {
	tools := []*wink.Tool{search, nil, search, badSchemaTool("bad", `not json`), badSchemaTool("arr", `[]`), badSchemaTool("empty", ``)}
	const want = "openai: tool 1 is nil\n" +
		"openai: duplicate tool name \"search\" (tools 0 and 2)\n" +
		"openai: tool \"bad\": parameters schema is not a JSON object\n" +
		"openai: tool \"arr\": parameters schema is not a JSON object\n" +
		"openai: tool \"empty\": parameters schema is not a JSON object"
	for name, f := range map[string]func([]*wink.Tool) ([]byte, error){"chat": openai.ChatTools, "responses": openai.ResponsesTools} {
		got, err := f(tools)
		if err == nil || err.Error() != want || got != nil {
			t.Errorf("%s: got %q, %v\nwant error %q", name, got, err, want)
		}
	}
}

func TestToolsOfEmptyListIsEmptyArray(t *testing.T) {
	for name, f := range map[string]func([]*wink.Tool) ([]byte, error){"chat": openai.ChatTools, "responses": openai.ResponsesTools} {
		got, err := f(nil)
		if err != nil || string(got) != "[]" {
			t.Errorf("%s: got %q, %v; want [] and no error", name, got, err)
		}
	}
}

// recordedRequest returns the request body and the tools of the only exchange of an httprr recording.
func recordedExchange(t *testing.T, file string) wiretest.Exchange {
	t.Helper()
	data, err := wiretest.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	exs, err := wiretest.ReadHTTPRR(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 1 {
		t.Fatalf("%s: %d exchanges, want 1", file, len(exs))
	}
	return exs[0]
}

// withTools returns body with its "tools" member replaced by tools.
func withTools(t *testing.T, body, tools []byte) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["tools"]; !ok {
		t.Fatal("recorded request has no tools")
	}
	m["tools"] = tools
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func shapeOf(t *testing.T, doc []byte) string {
	t.Helper()
	s, err := wiretest.Shape(doc, "parameters")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestChatToolsHaveTheShapeOfRecordedRequests puts our tools payload for the equivalent winkgen tool into
// each recorded chat request and compares the whole request's keys and nesting with the recording. The
// non-strict recording leaves "strict" out where we write "strict":false.
func TestChatToolsHaveTheShapeOfRecordedRequests(t *testing.T) {
	for _, tc := range []struct {
		file      string
		tool      *wink.Tool
		addStrict bool
	}{
		{"llms_openai_TestFunctionCall.httprr", adapterstest.WinkGetCurrentWeather, true},
		{"llms_openai_TestStructuredOutputFunctionCalling.httprr", search, false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			ex := recordedExchange(t, tc.file)
			ours, err := openai.ChatTools([]*wink.Tool{tc.tool})
			if err != nil {
				t.Fatal(err)
			}
			recorded := shapeOf(t, ex.RequestBody)
			if tc.addStrict {
				recorded = bytesReplace(recorded, "parameters:schema}", "parameters:schema,strict:bool}")
			}
			if got := shapeOf(t, withTools(t, ex.RequestBody, ours)); got != recorded {
				t.Errorf("request shape differs:\n ours     %s\n recorded %s", got, recorded)
			}
			// The recorded strict schema's top-level keywords are all in ours too.
			recParams, err := wiretest.Field(ex.RequestBody, "tools")
			if err != nil {
				t.Fatal(err)
			}
			var recTools []struct {
				Function struct {
					Parameters map[string]json.RawMessage `json:"parameters"`
					Strict     *bool                      `json:"strict"`
				} `json:"function"`
			}
			if err := json.Unmarshal(recParams, &recTools); err != nil {
				t.Fatal(err)
			}
			var ourTools []struct {
				Function struct {
					Parameters map[string]json.RawMessage `json:"parameters"`
					Strict     *bool                      `json:"strict"`
				} `json:"function"`
			}
			if err := json.Unmarshal(ours, &ourTools); err != nil {
				t.Fatal(err)
			}
			for k := range recTools[0].Function.Parameters {
				if _, ok := ourTools[0].Function.Parameters[k]; !ok {
					t.Errorf("recorded parameters keyword %q missing from ours", k)
				}
			}
			if rs := recTools[0].Function.Strict; rs != nil && *rs != *ourTools[0].Function.Strict {
				t.Errorf("strict: recorded %v, ours %v", *rs, *ourTools[0].Function.Strict)
			}
		})
	}
}

func bytesReplace(s, old, new string) string {
	return string(bytes.ReplaceAll([]byte(s), []byte(old), []byte(new)))
}

func TestResponsesToolsAreChatFunctionsFlattened(t *testing.T) {
	chat, err := openai.ChatTools([]*wink.Tool{search, label})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := openai.ResponsesTools([]*wink.Tool{search, label})
	if err != nil {
		t.Fatal(err)
	}
	var c []struct {
		Type     string         `json:"type"`
		Function map[string]any `json:"function"`
	}
	var r []map[string]any
	if err := json.Unmarshal(chat, &c); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		t.Fatal(err)
	}
	for i := range c {
		flat := map[string]any{"type": c[i].Type}
		for k, v := range c[i].Function {
			flat[k] = v
		}
		if d := cmp.Diff(flat, r[i]); d != "" {
			t.Errorf("tool %d (-chat flattened +responses):\n%s", i, d)
		}
	}
}

func fieldOf(doc []byte, path ...string) ([]byte, error) { return wiretest.Field(doc, path...) }

// strictOf is the strict form of tool's params, as StrictSchema derives it.
func strictOf(t *testing.T, tool *wink.Tool) []byte {
	t.Helper()
	b, err := openai.StrictSchema(tool.Spec().ParamsSchema)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStrictFormIsDerivedOncePerTool: the strict form is derived on first use and then served from the
// cache (the same bytes, no allocation), also for a WithDescription copy, which shares the plain schema.
func TestStrictFormIsDerivedOncePerTool(t *testing.T) {
	first, _ := openai.Schema(label.Spec())
	again, _ := openai.Schema(label.WithDescription("Other words.").Spec())
	if len(first) == 0 || &first[0] != &again[0] {
		t.Fatal("the strict form was derived again")
	}
	if n := testing.AllocsPerRun(100, func() { openai.Schema(label.Spec()) }); n != 0 {
		t.Errorf("%v allocations per cached lookup", n)
	}
}

// BenchmarkStrictSchema is what deriving a tool's strict form costs, once per tool.
func BenchmarkStrictSchema(b *testing.B) {
	plain := search.Spec().ParamsSchema
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openai.StrictSchema(plain); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSchemaCached is what every later request pays for it.
func BenchmarkSchemaCached(b *testing.B) {
	sp := search.Spec()
	openai.Schema(sp)
	b.ReportAllocs()
	for b.Loop() {
		openai.Schema(sp)
	}
}
