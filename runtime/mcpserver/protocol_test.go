package mcpserver_test

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/mcpservertest"
	"github.com/winkgen/wink/runtime/wink"
)

// shapeCalls are calls of every result shape: a value of each type, a struct result answered by Done,
// a value kept out of the context, a nil pointer, wink.NoValue and a failure.
var shapeCalls = []struct {
	tool, args string
	value      string // the result value's JSON; "" when the call returns none
	isError    bool
}{
	{"words", `{"text":"a bb"}`, `["a","bb"]`, false},
	{"measure", `{"text":"four"}`, `4`, false},
	{"lookup", `{"text":"known"}`, `{"text":"known","length":5}`, false},
	{"lookup", `{"text":"other"}`, `null`, false},
	{"echo", `{"text":"hi"}`, `{"text":"hi","length":2}`, false},
	{"quiet", `{}`, "", false},
	{"count_outline", `{"root":{"title":"Plan"}}`, "", false},
	{"get_status", `{}`, `{"healthy":true,"uptime_seconds":12.5}`, false},
	{"archive_docs", `{"paths":["/docs/a.md"]}`, "", false},
	{"reject", `{"text":"no"}`, "", true},
	{"echo", `{"text":5}`, "", true},
}

// wireClient speaks raw lines to a LineTransport server of the test tools.
func wireClient(t *testing.T, version string) *lineClient {
	t.Helper()
	c := startLineServerWith(t, testDispatcherTB(t), 0)
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	var init struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(c.recv()), &init); err != nil || init.Result.ProtocolVersion != version {
		t.Fatalf("initialize at %s: negotiated %q (%v)", version, init.Result.ProtocolVersion, err)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

// request sends one request and decodes the result of its answer into v.
func (c *lineClient) request(id int, method, params string, v any) {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":` + params + `}`)
	var resp struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	line := c.recv()
	if err := json.Unmarshal([]byte(line), &resp); err != nil || resp.Result == nil {
		c.t.Fatalf("%s answered %s", method, line)
	}
	if err := json.Unmarshal(resp.Result, v); err != nil {
		c.t.Fatal(err)
	}
}

// wireTool is a listed tool as sent.
type wireTool struct {
	Name         string          `json:"name"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// wireResult is a tools/call result as sent.
type wireResult struct {
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	Content           json.RawMessage `json:"content"`
}

// TestResultShapes checks, for every protocol version the SDK negotiates, what tools/list states and what
// tools/call answers for results of every shape, and validates each structuredContent against the
// listed outputSchema (as the TypeScript client does):
//   - before 2025-06-18: no outputSchema, no structuredContent (neither exists in those versions);
//   - 2025-06-18, 2025-11-25 and 2026-07-28: outputSchema {"type":"object","properties":{"result":S},...},
//     and structuredContent {"result":value} on every success of a tool with a value type, {} when the
//     call returned none.
func TestResultShapes(t *testing.T) {
	specs := map[string]*wink.Spec{}
	for _, tl := range append(tools.WinkTools(), mcpservertest.WinkTools()...) {
		specs[tl.Name()] = tl.Spec()
	}
	for _, version := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			c := wireClient(t, version)
			var list struct {
				Tools []wireTool `json:"tools"`
			}
			c.request(1, "tools/list", `{}`, &list)
			schemas := map[string]*jsonschema.Schema{}
			for _, lt := range list.Tools {
				sp := specs[lt.Name]
				hasValue := !isNull(t, sp.ResultSchema)
				switch {
				case version < "2025-06-18" || !hasValue:
					if lt.OutputSchema != nil {
						t.Errorf("%s: outputSchema %s, want none", lt.Name, lt.OutputSchema)
					}
				default:
					want := envelopeOf(t, mcpserver.OutputSchema(sp.ResultSchema))
					if !jsonEqual(t, want, string(lt.OutputSchema)) {
						t.Errorf("%s: outputSchema\n%s\nwant\n%s", lt.Name, lt.OutputSchema, want)
					}
					schemas[lt.Name] = compileSchema(t, lt.OutputSchema)
				}
			}
			for i, sc := range shapeCalls {
				var res wireResult
				c.request(10+i, "tools/call", `{"name":"`+sc.tool+`","arguments":`+sc.args+`}`, &res)
				if res.IsError != sc.isError {
					t.Errorf("%s %s: isError %v", sc.tool, sc.args, res.IsError)
				}
				want := ""
				if schemas[sc.tool] != nil && !sc.isError {
					want = `{}`
					if sc.value != "" {
						want = `{"result":` + sc.value + `}`
					}
				}
				checkStructured(t, sc.tool+" "+sc.args, res.StructuredContent, want, schemas[sc.tool])
			}
		})
	}
	t.Run("2026-07-28", func(t *testing.T) {
		cs := inMemory(t, testDispatcher(t))
		if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
			t.Fatalf("negotiated %s", v)
		}
		list, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		schemas := map[string]*jsonschema.Schema{}
		for _, lt := range list.Tools {
			sp := specs[lt.Name]
			got, _ := json.Marshal(lt.OutputSchema)
			if isNull(t, sp.ResultSchema) {
				if lt.OutputSchema != nil {
					t.Errorf("%s: outputSchema %s, want none", lt.Name, got)
				}
				continue
			}
			// The same envelope as earlier versions: a bare value could not say "no value" (wink.Done).
			if want := envelopeOf(t, mcpserver.OutputSchema(sp.ResultSchema)); !jsonEqual(t, want, string(got)) {
				t.Errorf("%s: outputSchema %s, want %s", lt.Name, got, want)
			}
			schemas[lt.Name] = compileSchema(t, got)
		}
		for _, sc := range shapeCalls {
			res := call(t, cs, sc.tool, sc.args)
			var got json.RawMessage
			if res.StructuredContent != nil {
				got, _ = json.Marshal(res.StructuredContent)
			}
			want := ""
			if schemas[sc.tool] != nil && !sc.isError {
				want = `{}`
				if sc.value != "" {
					want = `{"result":` + sc.value + `}`
				}
			}
			checkStructured(t, sc.tool+" "+sc.args, got, want, schemas[sc.tool])
		}
	})
}

// isNull reports a result schema of type "null" (wink.NoValue).
func isNull(t *testing.T, schema []byte) bool {
	var m map[string]any
	if err := json.Unmarshal(schema, &m); err != nil {
		t.Fatal(err)
	}
	return m["type"] == "null"
}

// envelopeOf is the object schema stating a result of schema S under "result", with S's "$schema" and
// "$defs" at the envelope's root.
func envelopeOf(t *testing.T, schema []byte) string {
	var inner map[string]any
	if err := json.Unmarshal(schema, &inner); err != nil {
		t.Fatal(err)
	}
	env := map[string]any{"type": "object", "properties": map[string]any{"result": inner}, "additionalProperties": false}
	for _, k := range []string{"$schema", "$defs"} {
		if v, ok := inner[k]; ok {
			env[k] = v
			delete(inner, k)
		}
	}
	b, _ := json.Marshal(env)
	return string(b)
}

// checkStructured compares a structuredContent with want ("" for none) and validates it against schema.
func checkStructured(t *testing.T, what string, got json.RawMessage, want string, schema *jsonschema.Schema) {
	t.Helper()
	if want == "" {
		if got != nil {
			t.Errorf("%s: structuredContent %s, want none", what, got)
		}
		return
	}
	if got == nil || !jsonEqual(t, want, string(got)) {
		t.Errorf("%s: structuredContent %s, want %s", what, got, want)
		return
	}
	if schema != nil {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(got))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s: structuredContent %s does not match the listed outputSchema: %v", what, got, err)
		}
	}
}

func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		return false
	}
	return cmp.Equal(x, y)
}

func compileSchema(t *testing.T, b []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem://schema.json")
	if err != nil {
		t.Fatalf("compiling %s: %v", b, err)
	}
	return s
}

// An envelope keeps "$schema" and "$defs" at its root, so that references still resolve.
func TestEnvelopeHoistsDefinitions(t *testing.T) {
	c := wireClient(t, "2025-11-25")
	var list struct {
		Tools []struct {
			Name         string         `json:"name"`
			OutputSchema map[string]any `json:"outputSchema"`
		} `json:"tools"`
	}
	c.request(1, "tools/list", `{}`, &list)
	n := 0
	for _, lt := range list.Tools {
		sp := specs(t)[lt.Name]
		if !strings.Contains(string(sp.ResultSchema), `"$defs"`) {
			continue
		}
		n++
		if lt.OutputSchema["$defs"] == nil {
			t.Errorf("%s: $defs not at the envelope's root: %v", lt.Name, lt.OutputSchema)
		}
		inner := lt.OutputSchema["properties"].(map[string]any)["result"].(map[string]any)
		if inner["$defs"] != nil || inner["$schema"] != nil {
			t.Errorf("%s: $defs or $schema left inside the envelope", lt.Name)
		}
	}
	if n == 0 {
		// No example result uses $defs today: check the rule on a schema that does.
		got, err := mcpserver.EnvelopeSchema([]byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"N":{"type":"object","properties":{"c":{"type":"array","items":{"$ref":"#/$defs/N"}}}}},"$ref":"#/$defs/N"}`))
		if err != nil {
			t.Fatal(err)
		}
		want := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"result":{"$ref":"#/$defs/N"}},"additionalProperties":false,"$defs":{"N":{"type":"object","properties":{"c":{"type":"array","items":{"$ref":"#/$defs/N"}}}}}}`
		if string(got) != want {
			t.Errorf("envelope\n%s\nwant\n%s", got, want)
		}
		s := compileSchema(t, got)
		for _, inst := range []string{`{"result":{"c":[{"c":[]}]}}`, `{}`} {
			v, _ := jsonschema.UnmarshalJSON(strings.NewReader(inst))
			if err := s.Validate(v); err != nil {
				t.Errorf("%s: %v", inst, err)
			}
		}
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"result":{"c":[{"c":5}]}}`))
		if s.Validate(v) == nil {
			t.Error("a value breaking the referenced definition validates")
		}
	}
}

func specs(t *testing.T) map[string]*wink.Spec {
	m := map[string]*wink.Spec{}
	for _, tl := range append(tools.WinkTools(), mcpservertest.WinkTools()...) {
		m[tl.Name()] = tl.Spec()
	}
	return m
}

// Examples reach the client three ways: in the description the model reads, as the inputSchema's JSON
// Schema "examples", and in _meta for programs; on every protocol version.
func TestExamplesReachTheClient(t *testing.T) {
	for _, version := range []string{"2024-11-05", "2025-06-18", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			c := wireClient(t, version)
			var list struct {
				Tools []struct {
					Name        string `json:"name"`
					Description string `json:"description"`
					InputSchema struct {
						Examples []json.RawMessage `json:"examples"`
					} `json:"inputSchema"`
					Meta map[string][]struct {
						Description string          `json:"description"`
						Input       json.RawMessage `json:"input"`
						Output      json.RawMessage `json:"output"`
					} `json:"_meta"`
				} `json:"tools"`
			}
			c.request(1, "tools/list", `{}`, &list)
			seen := 0
			for _, lt := range list.Tools {
				sp := specs(t)[lt.Name]
				if len(sp.Examples) == 0 {
					if lt.Description != sp.Description || lt.InputSchema.Examples != nil || lt.Meta != nil {
						t.Errorf("%s: no examples, yet %q %s %v", lt.Name, lt.Description, lt.InputSchema.Examples, lt.Meta)
					}
					continue
				}
				seen++
				meta := lt.Meta[mcpserver.ExamplesMetaKey]
				if len(lt.InputSchema.Examples) != len(sp.Examples) || len(meta) != len(sp.Examples) {
					t.Fatalf("%s: %d schema examples, %d in _meta, want %d", lt.Name, len(lt.InputSchema.Examples), len(meta), len(sp.Examples))
				}
				if !strings.HasPrefix(lt.Description, sp.Description+"\n\nExamples:\n- ") {
					t.Errorf("%s: description %q", lt.Name, lt.Description)
				}
				for i, ex := range sp.Examples {
					if !jsonEqual(t, string(ex.Input), string(lt.InputSchema.Examples[i])) || !jsonEqual(t, string(ex.Input), string(meta[i].Input)) {
						t.Errorf("%s: example %d input %s / %s, want %s", lt.Name, i, lt.InputSchema.Examples[i], meta[i].Input, ex.Input)
					}
					if meta[i].Description != ex.Description || (len(ex.Output) > 0 && !jsonEqual(t, string(ex.Output), string(meta[i].Output))) {
						t.Errorf("%s: example %d in _meta %+v", lt.Name, i, meta[i])
					}
					call := "`" + sp.Name + "(" + string(ex.Input) + ")`"
					if !strings.Contains(lt.Description, call) {
						t.Errorf("%s: description lacks %s: %q", lt.Name, call, lt.Description)
					}
				}
			}
			if seen == 0 {
				t.Fatal("no tool with examples")
			}
		})
	}
}

var _ = mcp.Implementation{}

// TestOutputSchemaStatesWhatTheEncoderGuarantees: a result type's value rules (an enum-typed field, a
// length, a pattern, bounds, a format from its tags) are not enforced on what a handler returns, so the
// listed outputSchema leaves them out; a value breaking every one of them (a zero enum, an empty string, a
// short slice) is valid against it, while a value of another shape is not. "date-time" (every time.Time is
// written in RFC 3339) and the descriptions stay.
func TestOutputSchemaStatesWhatTheEncoderGuarantees(t *testing.T) {
	result := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{` +
		`"unit":{"type":"string","description":"Unit.","enum":["celsius","fahrenheit"]},` +
		`"email":{"type":"string","format":"email","minLength":3,"pattern":"^[^@]+@[^@]+$"},` +
		`"at":{"type":"string","format":"date-time"},` +
		`"n":{"type":"integer","minimum":1,"maximum":7,"multipleOf":2},` +
		`"tags":{"type":"array","items":{"type":"string","enum":["a"]},"minItems":2,"uniqueItems":true},` +
		`"kids":{"type":"array","items":{"$ref":"#/$defs/K"}}},` +
		`"required":["unit","email","at","n","tags","kids"],"additionalProperties":false,` +
		`"$defs":{"K":{"type":"object","properties":{"k":{"type":"string","maxLength":1}},"required":["k"],"additionalProperties":false}}}`
	got := mcpserver.OutputSchema([]byte(result))
	for _, kw := range []string{`"enum"`, `"minLength"`, `"maxLength"`, `"pattern"`, `"minimum"`, `"maximum"`,
		`"multipleOf"`, `"minItems"`, `"uniqueItems"`, `"format":"email"`} {
		if bytes.Contains(got, []byte(kw)) {
			t.Errorf("outputSchema keeps %s: %s", kw, got)
		}
	}
	for _, kw := range []string{`"date-time"`, `"Unit."`, `"required"`, `"additionalProperties":false`, `"#/$defs/K"`} {
		if !bytes.Contains(got, []byte(kw)) {
			t.Errorf("outputSchema lost %s: %s", kw, got)
		}
	}
	broken := `{"unit":"","email":"","at":"2026-11-26T10:00:00Z","n":0,"tags":["b","b"],"kids":[{"k":"long"}]}`
	for name, sch := range map[string][]byte{"bare": got, "envelope": nil} {
		v := []byte(broken)
		if sch == nil {
			e, err := mcpserver.EnvelopeSchema(got)
			if err != nil {
				t.Fatal(err)
			}
			sch, v = e, []byte(`{"result":`+broken+`}`)
		}
		s := compileSchema(t, sch)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(v))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(inst); err != nil {
			t.Errorf("%s: a value the handler may return is refused: %v", name, err)
		}
		other, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(`{"unit":1}`)))
		if name == "bare" && s.Validate(other) == nil {
			t.Errorf("%s: a value of another shape is accepted", name)
		}
	}
}
