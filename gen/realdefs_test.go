package gen

import (
	"strings"
	"testing"

	"github.com/winkgen/wink/gen/testdata/realdefs"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/gemini"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// TestNumberEnumsAndRealDefinitions: gen/testdata/realdefs, written as function-calling benchmarks write
// tools (number enums, string enums with commas, pipes and quotes, defaults of every kind, free-form
// values, arrays of arrays, tuples): the generated decoder accepts each enum value however it is spelled
// (1.5, 15e-1) and refuses others in the schema's words, fills the defaults, and each dialect states the
// number enum (OpenAI strict and Anthropic as "enum", Gemini, whose enum holds strings only, in the
// description).
func TestNumberEnumsAndRealDefinitions(t *testing.T) {
	decode := func(args string) (realdefs.SearchParams, error) {
		return wink.DecodeParams[realdefs.SearchParams](realdefs.WinkSearch, []byte(args), strictjson.Limits{})
	}
	for args, want := range map[string]string{
		`{"query":"q","temperature":0.7}`:    "- temperature: must be one of 0, 0.5, 1.5; got 0.7",
		`{"query":"q","ratio":0.3}`:          "- ratio: must be one of 0.1, 0.25; got 0.3",
		`{"query":"q","unit":"Los Angeles"}`: `- unit: must be one of "m/s", "km/h", "Los Angeles, CA", "a|b", "say \"hi\""; got "Los Angeles"`,
		`{"query":"q","port":81}`:            "- port: must be one of 80, 443, 8080; got 81",
	} {
		if _, err := decode(args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
	for args, want := range map[string]float64{`{"query":"q","temperature":1.5}`: 1.5, `{"query":"q","temperature":15e-1}`: 1.5, `{"query":"q","temperature":0.0}`: 0, `{"query":"q"}`: 0.5} {
		p, err := decode(args)
		if err != nil || p.Temperature != want {
			t.Errorf("%s: %v %v, want %v", args, p.Temperature, err, want)
		}
	}
	p, err := decode(`{"query":"q","ratio":0.1,"unit":"a|b"}`)
	if err != nil || p.Ratio != float32(0.1) || p.Unit != realdefs.Pipe || p.Limit != 10 || p.Port != 443 || p.Labels["env"] != "prod" {
		t.Fatalf("%+v %v", p, err)
	}
	spec := realdefs.WinkSearch.Spec()
	strict, _ := openai.Schema(spec)
	a, _, _ := anthropic.StrictSchema(spec.ParamsSchema)
	if a == nil {
		a = spec.ParamsSchema
	}
	g, _ := gemini.Schema(spec.ParamsSchema)
	for name, want := range map[string][2]string{
		"openai":    {string(strict), `"enum":[0,0.5,1.5,null]`},
		"anthropic": {string(a), `"enum":[0,0.5,1.5,null]`},
		"gemini":    {string(g), `"temperature":{"type":"NUMBER","description":"Temperature, one of a few numbers. (one of 0, 0.5, 1.5, null)"`},
	} {
		if !strings.Contains(want[0], want[1]) {
			t.Errorf("%s: %s not in\n%s", name, want[1], want[0])
		}
	}
}
