package gemini_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"google.golang.org/genai"

	"github.com/winkgen/wink/example/quickstart"
	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/gen/schema"
	"github.com/winkgen/wink/runtime/adapters/gemini"
	"github.com/winkgen/wink/runtime/suites/digest"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/suites/planning"
	"github.com/winkgen/wink/runtime/suites/sandbox"
	"github.com/winkgen/wink/runtime/wink"
)

// everyTool is every tool of the repository: the examples and the suites.
func everyTool() [][]*wink.Tool {
	return [][]*wink.Tool{tools.WinkTools(), quickstart.WinkTools(), files.WinkTools(), planning.WinkTools(),
		sandbox.WinkTools(), eval.WinkTools(), digest.WinkTools()}
}

// TestEveryToolPassesGeminisRules: each tool's Gemini schema follows Gemini's documented subset, and the
// declarations unmarshal into the SDK's genai.Tool with every function's parameters.
func TestEveryToolPassesGeminisRules(t *testing.T) {
	n := 0
	for _, set := range everyTool() {
		for _, tool := range set {
			n++
			g, err := gemini.Schema(tool.Spec().ParamsSchema)
			if err != nil {
				t.Fatal(err)
			}
			if g == nil {
				continue // no parameters: the declaration has none
			}
			if err := schema.CheckGemini(g); err != nil {
				t.Errorf("%s: %v\n%s", tool.Name(), err, g)
			}
		}
		decls, err := gemini.FunctionDeclarations(set)
		if err != nil {
			t.Fatal(err)
		}
		var gt genai.Tool
		if err := json.Unmarshal([]byte(`{"functionDeclarations":`+string(decls)+`}`), &gt); err != nil {
			t.Fatalf("declarations do not unmarshal into genai.Tool: %v", err)
		}
		if len(gt.FunctionDeclarations) != len(set) {
			t.Fatalf("%d declarations for %d tools", len(gt.FunctionDeclarations), len(set))
		}
		for i, fd := range gt.FunctionDeclarations {
			// A tool without parameters leaves them out (Gemini refuses an OBJECT without properties).
			noParams := bytes.Contains(set[i].Spec().ParamsSchema, []byte(`"properties":{}`))
			if fd.Name != set[i].Name() || (fd.Parameters == nil) != noParams || (!noParams && fd.Parameters.Type != genai.TypeObject) {
				t.Errorf("declaration %d = %+v", i, fd)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d tools checked", n)
	}
}

// TestCheckGeminiRefusesWhatGeminiDoesNot: the plain schemas (type arrays, additionalProperties, $ref)
// fail the checker, so the checker can fail.
func TestCheckGeminiRefusesWhatGeminiDoesNot(t *testing.T) {
	err := schema.CheckGemini(quickstart.WinkGetForecast.Spec().ParamsSchema)
	if err == nil || !strings.Contains(err.Error(), "additionalProperties") || !strings.Contains(err.Error(), "type must be one string") {
		t.Fatalf("err = %v", err)
	}
}

func TestFunctionCallsRoundTrip(t *testing.T) {
	resp := genai.GenerateContentResponse{Candidates: []*genai.Candidate{{Content: &genai.Content{Role: "model", Parts: []*genai.Part{
		{Text: "Let me check."},
		{FunctionCall: &genai.FunctionCall{ID: "fc-1", Name: "get_forecast", Args: map[string]any{"city": "Lisbon", "days": 2}}},
		{FunctionCall: &genai.FunctionCall{Name: "get_forecast", Args: map[string]any{"city": ""}}},
	}}}}}
	body, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := gemini.ParseFunctionCalls(body)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 2 || calls[0].ID != "fc-1" || calls[1].ID != "gemini-1" || calls[0].Name != "get_forecast" {
		t.Fatalf("calls = %+v", calls)
	}
	d := &wink.Dispatcher{Registry: wink.MustRegistry(quickstart.WinkTools())}
	for i, c := range calls {
		out, err := d.Dispatch(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if out.Success != (i == 0) {
			t.Fatalf("call %d: %+v", i, out)
		}
		var part genai.Part
		if err := json.Unmarshal(gemini.FunctionResponse(c, out), &part); err != nil || part.FunctionResponse == nil {
			t.Fatalf("response part does not unmarshal into genai.Part: %v", err)
		}
		fr := part.FunctionResponse
		key := "output"
		if !out.Success {
			key = "error"
		}
		if fr.Name != "get_forecast" || fr.Response[key] != out.Output || (i == 0) != (fr.ID == "fc-1") {
			t.Errorf("call %d: function response %+v", i, fr)
		}
	}
	if _, err := gemini.ParseFunctionCalls([]byte(`{"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}}`)); err == nil ||
		!strings.Contains(err.Error(), "Resource exhausted") {
		t.Errorf("an error body gave %v", err)
	}
	if _, err := gemini.ParseFunctionCalls([]byte(`{"candidates":[`)); err == nil {
		t.Error("a truncated body was accepted")
	}
}

// TestGeminiFormsOfMapsRecursionAndNoParams: Gemini refuses an OBJECT without properties, so a tool
// without parameters has none in its declaration, a map is an ARRAY of key/value OBJECTs (decoded as pairs:
// ParseFunctionCalls sets PairMaps), and a recursive type is unrolled gemini.RecursionDepth levels, then
// cut where the schema can still be stated.
func TestGeminiFormsOfMapsRecursionAndNoParams(t *testing.T) {
	for name, plain := range map[string]string{
		"map":       `{"type":"object","properties":{"labels":{"type":["object","null"],"description":"Labels.","additionalProperties":{"type":"string"}}},"additionalProperties":false}`,
		"recursive": `{"type":"object","properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}},"parent":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["label","children"],"additionalProperties":false}`,
		"free-form": `{"type":"object","properties":{"options":{"description":"Any."}},"additionalProperties":false}`,
	} {
		g, err := gemini.Schema([]byte(plain))
		if err != nil || g == nil {
			t.Fatalf("%s: %s %v", name, g, err)
		}
		if err := schema.CheckGemini(g); err != nil {
			t.Errorf("%s: %v\n%s", name, err, g)
		}
		switch name {
		case "map":
			want := `{"type":"OBJECT","properties":{"labels":{"type":"ARRAY","description":"Labels. (key/value pairs, each key once)","items":{"type":"OBJECT","properties":{"key":{"type":"STRING"},"value":{"type":"STRING"}},"required":["key","value"]},"nullable":true}}}`
			if string(g) != want {
				t.Errorf("map:\n got %s\nwant %s", g, want)
			}
		case "recursive":
			if n := strings.Count(string(g), `"label":`); n < 1+gemini.RecursionDepth {
				t.Errorf("recursive: %d levels stated\n%s", n, g)
			}
			if !strings.Contains(string(g), `"maxItems":0`) || !strings.Contains(string(g), "always empty at this depth") {
				t.Errorf("recursive: the cut is not stated\n%s", g)
			}
		case "free-form":
			if !strings.Contains(string(g), `"options":{"type":"STRING","description":"Any. (JSON text)"}`) {
				t.Errorf("free-form: %s", g)
			}
		}
	}
	if g, err := gemini.Schema([]byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"additionalProperties":false}`)); g != nil || err != nil {
		t.Errorf("no params: %s %v, want no schema", g, err)
	}
	calls, err := gemini.ParseFunctionCalls([]byte(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"label","args":{"labels":[{"key":"a","value":"b"}]}}}]}}]}`))
	if err != nil || len(calls) != 1 || !calls[0].PairMaps {
		t.Fatalf("calls %+v %v: PairMaps must be set", calls, err)
	}
}

// TestNamesGeminiRefusesAreErrors: a property name outside Gemini's parameter names (a dash, a dot) and a
// function name starting with a digit are errors of FunctionDeclarations naming the tool, never a request
// Gemini's API answers with 400 (Sources: Vertex AI FunctionDeclaration reference, "Parameter names must
// start with a letter or an underscore and must only contain chars a-z, A-Z, 0-9, or underscores with a
// maximum length of 64", and "[the function name] Must start with a letter or an underscore").
func TestNamesGeminiRefusesAreErrors(t *testing.T) {
	mk := func(name, plain string) *wink.Tool {
		return wink.NewTool(wink.Spec{Name: name, Description: "A tool.", ParamsSchema: []byte(plain)},
			&wink.Funcs[wink.NoParams, wink.NoValue]{Decode: wink.DecodeNoParams, EncodeResult: wink.EncodeNoValue,
				Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
					return wink.Done[wink.NoValue](""), nil
				}})
	}
	for _, c := range []struct{ name, plain, want string }{
		{"dash", `{"type":"object","properties":{"dry-run":{"type":"boolean"}},"additionalProperties":false}`, `gemini: tool "dash": gemini: schema: property name "dry-run" is not one Gemini accepts`},
		{"nested_dot", `{"type":"object","properties":{"o":{"type":"object","properties":{"a.b":{"type":"string"}},"additionalProperties":false}},"additionalProperties":false}`, `property name "a.b" is not one Gemini accepts`},
		{"2fa", `{"type":"object","properties":{"code":{"type":"string"}},"additionalProperties":false}`, `gemini: tool "2fa": the name must start with a letter or an underscore`},
	} {
		_, err := gemini.FunctionDeclarations([]*wink.Tool{mk(c.name, c.plain)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	for _, ok := range []string{"_x", "a-b.c:d", strings.Repeat("a", 64)} {
		if !gemini.FuncNameOK(ok) {
			t.Errorf("FuncNameOK(%q) = false", ok)
		}
	}
	for _, bad := range []string{"", "9a", "-a", ".a", "a b", strings.Repeat("a", 65)} {
		if gemini.FuncNameOK(bad) {
			t.Errorf("FuncNameOK(%q) = true", bad)
		}
	}
}

// TestObjectsWithoutPropertiesAreErrors: Gemini refuses an OBJECT without properties, so an object
// without properties below the root (an empty struct: a property, required or optional, an array's items,
// a map's values, alone or beside other fields) makes Schema fail with an EmptyObjectError naming every
// such place, and FunctionDeclarations refuse the tool, never a declaration that leaves out a property the
// decoder requires ("missing required field" on every call) or describes it as "cannot be given at this
// depth". At the root it is a tool without parameters.
func TestObjectsWithoutPropertiesAreErrors(t *testing.T) {
	const empty = `{"type":"object","additionalProperties":false}`
	const emptyProps = `{"type":"object","properties":{},"additionalProperties":false}`
	plain := `{"type":"object","properties":{` +
		`"flag":` + empty + `,` +
		`"opt":{"type":["object","null"],"properties":{},"additionalProperties":false},` +
		`"set":{"type":"object","additionalProperties":` + emptyProps + `},` +
		`"list":{"type":"array","items":` + empty + `},` +
		`"inner":{"type":"object","properties":{"mark":` + emptyProps + `,"name":{"type":"string"}},"required":["mark","name"],"additionalProperties":false},` +
		`"name":{"type":"string"}},"required":["flag","set","list","inner","name"],"additionalProperties":false}`
	g, err := gemini.Schema([]byte(plain))
	var ee *gemini.EmptyObjectError
	if g != nil || !errors.As(err, &ee) {
		t.Fatalf("Schema = %s, %v; want an EmptyObjectError", g, err)
	}
	if want := []string{"flag", "opt", "set.*", "list[*]", "inner.mark"}; !slices.Equal(ee.Paths, want) {
		t.Errorf("paths %q, want %q", ee.Paths, want)
	}
	if strings.Contains(err.Error(), "at this depth") {
		t.Errorf("the error speaks of depth: %v", err)
	}
	tool := wink.NewTool(wink.Spec{Name: "use", Description: "A tool.", ParamsSchema: []byte(plain)},
		&wink.Funcs[wink.NoParams, wink.NoValue]{Decode: wink.DecodeNoParams, EncodeResult: wink.EncodeNoValue,
			Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
				return wink.Done[wink.NoValue](""), nil
			}})
	if _, err := gemini.FunctionDeclarations([]*wink.Tool{tool}); err == nil || !strings.Contains(err.Error(), `gemini: tool "use"`) ||
		!strings.Contains(err.Error(), "inner.mark") {
		t.Errorf("FunctionDeclarations: %v", err)
	}
	for _, root := range []string{empty, emptyProps} {
		if g, err := gemini.Schema([]byte(root)); g != nil || err != nil {
			t.Errorf("an empty root %s: %s, %v; want no parameters", root, g, err)
		}
	}
}

// TestRecursionThroughARequiredMapKeepsItRequired: where a type recurs through a required map past
// RecursionDepth, the map is stated as always empty there (maxItems 0), as an array is, and stays in
// "required" at every level: the decoder requires it.
func TestRecursionThroughARequiredMapKeepsItRequired(t *testing.T) {
	plain := `{"type":"object","properties":{"name":{"type":"string"},"entries":{"type":"object","additionalProperties":{"$ref":"#"}}},"required":["name","entries"],"additionalProperties":false}`
	g, err := gemini.Schema([]byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.CheckGemini(g); err != nil {
		t.Errorf("%v\n%s", err, g)
	}
	if n := strings.Count(string(g), `"required":["name","entries"]`); n != 1+gemini.RecursionDepth {
		t.Errorf("entries required at %d levels, want %d\n%s", n, 1+gemini.RecursionDepth, g)
	}
	if !strings.Contains(string(g), `"maxItems":0`) || !strings.Contains(string(g), "always empty at this depth") {
		t.Errorf("the cut is not stated\n%s", g)
	}
}
