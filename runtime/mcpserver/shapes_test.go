package mcpserver_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/shapestest"
	"github.com/winkgen/wink/runtime/wink"
)

// shapesDispatcher serves the tools of every result shape (internal/shapestest).
func shapesDispatcher(t testing.TB) *wink.Dispatcher {
	return &wink.Dispatcher{Registry: wink.MustRegistry(shapestest.WinkTools())}
}

// shapeArgs are the arguments each shapestest tool is called with: its examples' inputs, each also with
// "absent" (answered by wink.Done), "fail" and "panic" when its params have them; {} for the tool without
// params.
func shapeArgs(sp *wink.Spec) []string {
	if len(sp.Examples) == 0 {
		return []string{`{}`}
	}
	var out []string
	for _, ex := range sp.Examples {
		in := strings.TrimSpace(string(ex.Input))
		out = append(out, in)
		if !strings.Contains(string(sp.ParamsSchema), `"absent":`) {
			continue // params without the flags (TreeParams)
		}
		for _, flag := range []string{"absent", "fail", "panic"} {
			out = append(out, in[:len(in)-1]+`,"`+flag+`":true}`)
		}
	}
	return out
}

// checkShapeCall checks one tools/call answer of a shapestest tool: a failure (asked for, or the tool
// answering a Go error) is isError with no structuredContent; a success carries structuredContent exactly
// when the tool lists an outputSchema, valid against it (as the TypeScript client checks with AJV), and
// holding the example's output when it states one.
func checkShapeCall(t *testing.T, what string, sp *wink.Spec, args string, res wireResult, schema *jsonschema.Schema, envelope bool) {
	t.Helper()
	wantError := strings.Contains(args, `"fail":true`) || strings.Contains(args, `"panic":true`) || sp.Name == "error_result"
	if res.IsError != wantError {
		t.Errorf("%s: isError %v, want %v (%s)", what, res.IsError, wantError, res.Content)
		return
	}
	if wantError || schema == nil {
		if res.StructuredContent != nil {
			t.Errorf("%s: structuredContent %s on a failure or without an outputSchema", what, res.StructuredContent)
		}
		return
	}
	if res.StructuredContent == nil {
		t.Errorf("%s: a success without structuredContent, yet the tool lists an outputSchema", what)
		return
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(res.StructuredContent)))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("%s: structuredContent %s does not match the listed outputSchema: %v", what, res.StructuredContent, err)
	}
	for _, ex := range sp.Examples {
		if len(ex.Output) == 0 || strings.TrimSpace(string(ex.Input)) != args {
			continue
		}
		want := string(ex.Output)
		if envelope {
			want = `{"result":` + want + `}`
		}
		if !jsonEqual(t, withoutNulls(t, want), withoutNulls(t, string(res.StructuredContent))) {
			t.Errorf("%s: structuredContent %s, want %s", what, res.StructuredContent, want)
		}
	}
}

// TestEveryResultShapeOnEveryVersion drives the tools of every result shape over the wire, for every
// version a client may ask for in initialize: each the SDK speaks, 2026-07-28 (which initialize cannot
// negotiate: the server answers 2025-11-25 and must then list and answer as 2025-11-25 requires), a
// future and an older unknown version (answered 2025-11-25). Each listed outputSchema is compiled as
// JSON Schema 2020-12 and every structuredContent is validated against it; recursive types ("$ref":"#"),
// shared structs under $defs, maps, nested slices, raw JSON, times and durations included.
func TestEveryResultShapeOnEveryVersion(t *testing.T) {
	specs := map[string]*wink.Spec{}
	for _, tl := range shapestest.WinkTools() {
		specs[tl.Name()] = tl.Spec()
	}
	for _, v := range []struct{ ask, negotiated string }{
		{"2024-11-05", "2024-11-05"}, {"2025-03-26", "2025-03-26"}, {"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"}, {"2026-07-28", "2025-11-25"}, {"2099-01-01", "2025-11-25"},
		{"2024-10-07", "2025-11-25"}, {"not-a-version", "2025-11-25"},
	} {
		t.Run(v.ask, func(t *testing.T) {
			c := startLineServerWith(t, shapesDispatcher(t), 0)
			if got := initializeAt(c, v.ask); got != v.negotiated {
				t.Fatalf("asked %s: negotiated %s, want %s", v.ask, got, v.negotiated)
			}
			checkShapesListAndCalls(t, c, specs, v.negotiated >= "2025-06-18")
		})
	}
}

// initializeAt initializes c asking for version and returns the version the server answered.
func initializeAt(c *lineClient, version string) string {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	var init struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if line := c.recv(); json.Unmarshal([]byte(line), &init) != nil {
		c.t.Fatalf("initialize answered %s", line)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return init.Result.ProtocolVersion
}

// checkShapesListAndCalls lists the shapestest tools on c and calls each with shapeArgs; envelope says
// the negotiated version requires object outputSchemas (else there are none).
func checkShapesListAndCalls(t *testing.T, c *lineClient, specs map[string]*wink.Spec, envelope bool) {
	t.Helper()
	var list struct {
		Tools []wireTool `json:"tools"`
	}
	c.request(1, "tools/list", `{}`, &list)
	if len(list.Tools) != len(specs) {
		t.Fatalf("%d tools listed, want %d", len(list.Tools), len(specs))
	}
	id := 2
	for _, lt := range list.Tools {
		sp := specs[lt.Name]
		var schema *jsonschema.Schema
		noValue := isNull(t, sp.ResultSchema)
		switch {
		case !envelope || noValue:
			if lt.OutputSchema != nil {
				t.Errorf("%s: outputSchema %s, want none", lt.Name, lt.OutputSchema)
			}
		default:
			var root struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(lt.OutputSchema, &root) != nil || root.Type != "object" {
				t.Errorf("%s: outputSchema %s is not of type object", lt.Name, lt.OutputSchema)
				continue
			}
			schema = compileSchema(t, lt.OutputSchema)
		}
		for _, args := range shapeArgs(sp) {
			var res wireResult
			c.request(id, "tools/call", `{"name":"`+lt.Name+`","arguments":`+args+`}`, &res)
			id++
			checkShapeCall(t, lt.Name+"("+args+")", sp, args, res, schema, envelope)
		}
	}
}

// A server restricted to some protocol versions (mcp.ServerOptions.SupportedProtocolVersions) lists and
// answers at the version the handshake negotiated, not the one the client asked for.
func TestRestrictedVersionsShapeResults(t *testing.T) {
	specs := map[string]*wink.Spec{}
	for _, tl := range shapestest.WinkTools() {
		specs[tl.Name()] = tl.Spec()
	}
	for _, v := range []struct {
		supported       []string
		ask, negotiated string
	}{
		{[]string{"2024-11-05"}, "2025-11-25", "2024-11-05"},
		{[]string{"2025-06-18", "2024-11-05"}, "2025-03-26", "2025-06-18"},
		{[]string{"2026-07-28", "2025-06-18"}, "2026-07-28", "2025-06-18"},
	} {
		t.Run(strings.Join(v.supported, ",")+"/"+v.ask, func(t *testing.T) {
			c := startLineServerWith(t, shapesDispatcher(t), 0, mcpserver.WithServerOptions(&mcp.ServerOptions{SupportedProtocolVersions: v.supported}))
			if got := initializeAt(c, v.ask); got != v.negotiated {
				t.Fatalf("asked %s: negotiated %s, want %s", v.ask, got, v.negotiated)
			}
			checkShapesListAndCalls(t, c, specs, v.negotiated >= "2025-06-18")
		})
	}
}

// TestEveryResultConformsToItsOutputSchema: with the official Go SDK client at 2025-06-18, 2025-11-25 and
// 2026-07-28 (its default, without initialize), every tool that lists an outputSchema answers every
// success with structuredContent valid against it (compiled as JSON Schema 2020-12): a value, a nil
// pointer, a value kept out of the context, a value that renders itself with a message, and a call
// answered without a value (wink.Done) included; a failure has isError and no structuredContent.
func TestEveryResultConformsToItsOutputSchema(t *testing.T) {
	srv, err := mcpserver.New(shapesDispatcher(t))
	if err != nil {
		t.Fatal(err)
	}
	tools := shapestest.WinkTools()
	for _, version := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			cs := connectServer(t, srv, version, nil)
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Fatalf("negotiated %s, want %s", got, version)
			}
			lr, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(lr.Tools) != len(tools) {
				t.Fatalf("%d tools listed, want %d", len(lr.Tools), len(tools))
			}
			for _, lt := range lr.Tools {
				sp := tools[slices.IndexFunc(tools, func(x *wink.Tool) bool { return x.Name() == lt.Name })].Spec()
				var schema *jsonschema.Schema
				if lt.OutputSchema != nil {
					b, _ := json.Marshal(lt.OutputSchema)
					schema = compileSchema(t, b)
				} else if !isNull(t, sp.ResultSchema) {
					t.Errorf("%s: no outputSchema", lt.Name)
				}
				for _, args := range shapeArgs(sp) {
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: lt.Name, Arguments: json.RawMessage(args)})
					if err != nil {
						t.Fatalf("%s(%s): %v", lt.Name, args, err)
					}
					var sc json.RawMessage
					if res.StructuredContent != nil {
						sc, _ = json.Marshal(res.StructuredContent)
					}
					checkShapeCall(t, lt.Name+"("+args+")", sp, args, wireResult{IsError: res.IsError, StructuredContent: sc}, schema, true)
					if strings.Contains(args, `"absent":true`) || lt.Name == "hidden_result" {
						if !res.IsError && schema != nil && string(sc) != "{}" {
							t.Errorf("%s(%s): structuredContent %s for a call without a value, want {}", lt.Name, args, sc)
						}
					}
					if lt.Name == "rendered_result" && args == `{"name":"abc"}` && resultText(res) != "Rendered.\n\nabc x3\n" {
						t.Errorf("%s(%s): text %q, want the message and the rendered value", lt.Name, args, resultText(res))
					}
				}
			}
		})
	}
}

// The envelope rebases references into the result schema's root (a recursive type's "$ref":"#", also
// from inside a definition or under a property named "default") onto the result's place, and keeps
// "#/$defs/..." ones and "$ref" members of data (a default, an example): the TypeScript client
// rejected every result of a recursive type on 2025-06-18 and 2025-11-25 ("must NOT have additional
// properties"), since "#" named the envelope.
func TestEnvelopeRebasesRootReferences(t *testing.T) {
	schema := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}},"link":{"$ref":"#/$defs/L"},"again":{"$ref": "#/properties/name"},"default":{"anyOf":[{"$ref":"#"},{"type":"null"}],"default":{"$ref":"#"},"examples":[{"$ref":"#"}]}},"required":["name","children"],"additionalProperties":false,"$defs":{"L":{"type":"object","properties":{"to":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"additionalProperties":false}}}`
	got, err := mcpserver.EnvelopeSchema([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"result":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/properties/result"}},"link":{"$ref":"#/$defs/L"},"again":{"$ref":"#/properties/result/properties/name"},"default":{"anyOf":[{"$ref":"#/properties/result"},{"type":"null"}],"default":{"$ref":"#"},"examples":[{"$ref":"#"}]}},"required":["name","children"],"additionalProperties":false}},"additionalProperties":false,"$defs":{"L":{"type":"object","properties":{"to":{"anyOf":[{"$ref":"#/properties/result"},{"type":"null"}]}},"additionalProperties":false}}}`
	if string(got) != want {
		t.Fatalf("envelope\n%s\nwant\n%s", got, want)
	}
	s := compileSchema(t, got)
	for inst, valid := range map[string]bool{
		`{"result":{"name":"a","children":[{"name":"b","children":[]}],"link":{"to":{"name":"c","children":[]}},"again":"x"}}`: true,
		`{}`: true,
		`{"result":{"name":"a","children":[{"result":{"name":"b","children":[]}}]}}`:   false,
		`{"result":{"name":"a","children":[],"link":{"to":{"name":1,"children":[]}}}}`: false,
		`{"result":{"name":"a","children":[],"again":5}}`:                              false,
	} {
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(inst))
		if err := s.Validate(v); (err == nil) != valid {
			t.Errorf("%s: valid %v, want %v (%v)", inst, err == nil, valid, err)
		}
	}
}

// withoutNulls is the JSON text j without object members whose value is null (an example's canonical
// output leaves optional members out; the encoder writes them as null).
func withoutNulls(t *testing.T, j string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(j), &v); err != nil {
		t.Fatalf("%v: %s", err, j)
	}
	var strip func(any) any
	strip = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if x == nil {
					delete(v, k)
				} else {
					v[k] = strip(x)
				}
			}
		case []any:
			for i, x := range v {
				v[i] = strip(x)
			}
		}
		return v
	}
	b, _ := json.Marshal(strip(v))
	return string(b)
}

// A client that asks for 2026-07-28 in initialize is answered 2025-11-25, and a handler's question
// reaches it as a 2025-11-25 elicitation/create request, not as an input-required result (a 2026-07-28
// form it cannot read).
func TestInitializeAskingNewVersionGetsLegacyElicitation(t *testing.T) {
	c := startLineServerWith(t, &wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())}, 0)
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"0"}}}`)
	if got := c.recv(); !strings.Contains(got, `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("initialize answered %s", got)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sign_up","arguments":{}}}`)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	line := c.recv()
	if err := json.Unmarshal([]byte(line), &req); err != nil || req.Method != "elicitation/create" {
		t.Fatalf("the call answered %s, want an elicitation/create request", line)
	}
	c.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"action":"cancel"}}`)
	// The answer is a 2025-11-25 result: no 2026-07-28 "resultType".
	if got := c.recv(); !strings.Contains(got, `"id":1,"result"`) || !strings.Contains(got, `\"action\":\"cancel\"`) || strings.Contains(got, `"resultType"`) {
		t.Errorf("after cancel: %s", got)
	}
}
