package anthropic_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"

	"github.com/winkgen/wink/example/quickstart"
	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/gen/schema"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/suites/digest"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/suites/planning"
	"github.com/winkgen/wink/runtime/suites/sandbox"
	"github.com/winkgen/wink/runtime/wink"
)

// TestEveryToolPassesAnthropicsStrictRules: every tool of the repository with a strict schema passes the
// checker of Anthropic's documented subset; StrictTools' payload unmarshals into the SDK's params with
// strict set on the strict tools; the runtime's counts agree with the generator's.
func TestEveryToolPassesAnthropicsStrictRules(t *testing.T) {
	n := 0
	for _, set := range [][]*wink.Tool{tools.WinkTools(), quickstart.WinkTools(), files.WinkTools(), planning.WinkTools(),
		sandbox.WinkTools(), eval.WinkTools(), digest.WinkTools()} {
		for _, tool := range set {
			s, ok, err := anthropic.StrictSchema(tool.Spec().ParamsSchema)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				continue
			}
			n++
			if err := schema.CheckAnthropicStrict(s); err != nil {
				t.Errorf("%s: %v\n%s", tool.Name(), err, s)
			}
		}
		payload, fellBack, err := anthropic.StrictTools(set)
		if err != nil {
			t.Fatal(err)
		}
		var p sdk.MessageNewParams
		body := `{"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":"Hi"}],"tools":` + string(payload) + `}`
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			t.Fatalf("StrictTools' payload does not unmarshal into MessageNewParams: %v", err)
		}
		for i, u := range p.Tools {
			strict := u.OfTool != nil && u.OfTool.Strict.Valid() && u.OfTool.Strict.Value
			want := !contains(fellBack, set[i].Name())
			if strict != want {
				t.Errorf("%s: strict %v, want %v", set[i].Name(), strict, want)
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d strict schemas checked", n)
	}
	if err := schema.CheckAnthropicStrict(quickstart.WinkGetForecast.Spec().ParamsSchema); err == nil ||
		!strings.Contains(err.Error(), "minLength") {
		t.Errorf("the plain schema passed the strict checker: %v", err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestStrictToolsKeepsToThePerRequestLimits: past 20 strict tools, or past 24 optional properties, the
// remaining tools are sent without strict and named.
func TestStrictToolsKeepsToThePerRequestLimits(t *testing.T) {
	mk := func(name string, optional int) *wink.Tool {
		props, plain := "", ""
		for i := range optional {
			if i > 0 {
				props += ","
			}
			props += `"p` + strconv.Itoa(i) + `":{"type":"string"}`
		}
		plain = `{"type":"object","properties":{` + props + `},"additionalProperties":false}`
		spec := wink.Spec{Name: name, Description: name, ParamsSchema: []byte(plain)}
		return wink.NewTool(spec, &wink.Funcs[wink.NoParams, wink.NoValue]{Decode: wink.DecodeNoParams, EncodeResult: wink.EncodeNoValue,
			Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
				return wink.Done[wink.NoValue](""), nil
			}})
	}
	var many []*wink.Tool
	for i := range 22 {
		many = append(many, mk("t"+strconv.Itoa(i), 0))
	}
	_, fellBack, err := anthropic.StrictTools(many)
	if err != nil || len(fellBack) != 2 || fellBack[0] != "t20" || fellBack[1] != "t21" {
		t.Fatalf("22 tools: fell back %v, %v", fellBack, err)
	}
	_, fellBack, err = anthropic.StrictTools([]*wink.Tool{mk("a", 20), mk("b", 5), mk("c", 4)})
	if err != nil || len(fellBack) != 1 || fellBack[0] != "b" {
		t.Fatalf("optional properties: fell back %v, %v (a uses 20, b would make 25, c makes 24)", fellBack, err)
	}
}

// TestRecursiveParamsFallBack: a params type that refers to itself ("$ref":"#") or a definition that
// reaches itself has no strict form (recursion is outside Anthropic's strict subset): StrictTools sends
// it without strict and names it; a map and free-form JSON fall back likewise.
func TestRecursiveParamsFallBack(t *testing.T) {
	for name, plain := range map[string]string{
		"root_recursive": `{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}}},"additionalProperties":false}`,
		"def_recursive": `{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"required":["n"],"additionalProperties":false,` +
			`"$defs":{"N":{"type":"object","properties":{"next":{"anyOf":[{"$ref":"#/$defs/N"},{"type":"null"}]}},"additionalProperties":false}}}`,
		"map":       `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}},"additionalProperties":false}`,
		"free_form": `{"type":"object","properties":{"options":{"description":"any JSON"}},"additionalProperties":false}`,
	} {
		if _, ok, err := anthropic.StrictSchema([]byte(plain)); ok || err != nil {
			t.Errorf("%s: StrictSchema ok=%v err=%v, want no strict form", name, ok, err)
		}
		tool := wink.NewTool(wink.Spec{Name: name, Description: name, ParamsSchema: []byte(plain)},
			&wink.Funcs[wink.NoParams, wink.NoValue]{Decode: wink.DecodeNoParams, EncodeResult: wink.EncodeNoValue,
				Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
					return wink.Done[wink.NoValue](""), nil
				}})
		payload, fellBack, err := anthropic.StrictTools([]*wink.Tool{tool})
		if err != nil || len(fellBack) != 1 || strings.Contains(string(payload), `"strict":true`) {
			t.Errorf("%s: fell back %v, %v: %s", name, fellBack, err, payload)
		}
	}
}

// TestPropertyKeysAnthropicRefuses: a top-level property key outside ^[a-zA-Z0-9_.-]{1,64}$ (a space, a
// bracket, 65 characters) is an error of Tools and StrictTools naming the tool, not a request the API
// answers with 400 ("Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'"); dots and dashes pass.
func TestPropertyKeysAnthropicRefuses(t *testing.T) {
	mk := func(name, key string) *wink.Tool {
		plain := `{"type":"object","properties":{` + strconv.Quote(key) + `:{"type":"string"}},"additionalProperties":false}`
		return wink.NewTool(wink.Spec{Name: name, Description: name, ParamsSchema: []byte(plain)},
			&wink.Funcs[wink.NoParams, wink.NoValue]{Decode: wink.DecodeNoParams, EncodeResult: wink.EncodeNoValue,
				Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
					return wink.Done[wink.NoValue](""), nil
				}})
	}
	for _, key := range []string{"dry-run", "a.b", "A_1", strings.Repeat("k", 64)} {
		if _, err := anthropic.Tools([]*wink.Tool{mk("ok", key)}); err != nil {
			t.Errorf("%q: %v", key, err)
		}
	}
	for _, key := range []string{"my field", "filter[id]", "$top", strings.Repeat("k", 65), ""} {
		_, err := anthropic.Tools([]*wink.Tool{mk("bad", key)})
		_, _, serr := anthropic.StrictTools([]*wink.Tool{mk("bad", key)})
		for _, e := range []error{err, serr} {
			if e == nil || !strings.Contains(e.Error(), `anthropic: tool "bad": property key `+strconv.Quote(key)+` does not match`) {
				t.Errorf("%q: %v", key, e)
			}
		}
	}
}
