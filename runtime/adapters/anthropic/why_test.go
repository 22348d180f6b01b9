package anthropic_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/wink"
)

// TestWhyNotStrictNamesTheReason: every tool StrictTools sends without strict gets a reason naming what
// stops it (the member that is a map or free-form JSON, recursion, the limit the tools before it used up),
// and a tool sent strict gets none.
func TestWhyNotStrictNamesTheReason(t *testing.T) {
	mk := func(name, plain string) *wink.Tool {
		return wink.NewTool(wink.Spec{Name: name, Description: name, ParamsSchema: []byte(plain)},
			&wink.Funcs[wink.NoParams, wink.NoValue]{Decode: wink.DecodeNoParams, EncodeResult: wink.EncodeNoValue,
				Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
					return wink.Done[wink.NoValue](""), nil
				}})
	}
	optional := func(n int) string {
		props := ""
		for i := range n {
			if i > 0 {
				props += ","
			}
			props += `"p` + strconv.Itoa(i) + `":{"type":"string"}`
		}
		return `{"type":"object","properties":{` + props + `},"additionalProperties":false}`
	}
	tools := []*wink.Tool{
		mk("fine", optional(20)),
		mk("labels", `{"type":"object","properties":{"q":{"type":"string"},"opts":{"type":"object","properties":{"labels":{"type":"object","additionalProperties":{"type":"string"}}},"required":["labels"],"additionalProperties":false}},"required":["q","opts"],"additionalProperties":false}`),
		mk("free", `{"type":"object","properties":{"options":{"description":"any JSON"}},"additionalProperties":false}`),
		mk("tree", `{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}}},"additionalProperties":false}`),
		mk("too_many_optional", optional(5)),
		mk("still_fits", optional(4)),
	}
	want := map[string]string{
		"fine":              "",
		"labels":            `"opts.labels" is a map`,
		"free":              `"options" takes any JSON value`,
		"tree":              "recursive",
		"too_many_optional": "its 5 optional properties would bring the request's strict schemas to 25, past Anthropic's limit of 24",
		"still_fits":        "",
	}
	_, fellBack, err := anthropic.StrictTools(tools)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(fellBack, ",") != "labels,free,tree,too_many_optional" {
		t.Fatalf("fell back %v", fellBack)
	}
	for name, w := range want {
		got := anthropic.WhyNotStrict(tools, name)
		if w == "" && got != "" || w != "" && !strings.Contains(got, w) {
			t.Errorf("%s: WhyNotStrict = %q, want it to say %q", name, got, w)
		}
	}
	var many []*wink.Tool
	for i := range 21 {
		many = append(many, mk("t"+strconv.Itoa(i), optional(0)))
	}
	if got := anthropic.WhyNotStrict(many, "t20"); !strings.Contains(got, "already has 20 strict tools") {
		t.Errorf("the 21st tool: %q", got)
	}
}
