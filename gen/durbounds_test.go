package gen

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/gen/testdata/durbounds"
	"github.com/winkgen/wink/runtime/adapters/anthropic"
	"github.com/winkgen/wink/runtime/adapters/gemini"
	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// TestDurationBoundsAndCompositeDefaults: the generated decoder of gen/testdata/durbounds enforces
// min=1s,max=24h on a time.Duration (and max=1m on each of a slice's), in the words the schema states, and
// fills defaults of a slice, a struct and a map afresh for each call that leaves them out.
func TestDurationBoundsAndCompositeDefaults(t *testing.T) {
	decode := func(args string) (durbounds.Params, error) {
		return wink.DecodeParams[durbounds.Params](durbounds.WinkWaitFor, []byte(args), strictjson.Limits{})
	}
	for args, want := range map[string]string{
		`{"timeout":"500ms"}`:                     "- timeout: must be at least 1s; got 500ms",
		`{"timeout":"25h"}`:                       "- timeout: must be at most 24h; got 25h0m0s",
		`{"timeout":"1m","poll":"10ms"}`:          "- poll: must be at least 100ms; got 10ms",
		`{"timeout":"1m","backoffs":["1s","2m"]}`: "- backoffs[1]: must be at most 1m; got 2m0s",
	} {
		_, err := decode(args)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
	for _, bound := range []string{`"1s"`, `"24h"`} {
		if _, err := decode(`{"timeout":` + bound + `}`); err != nil {
			t.Errorf("timeout %s: %v", bound, err)
		}
	}
	p, err := decode(`{"timeout":"1m"}`)
	if err != nil {
		t.Fatal(err)
	}
	if p.Timeout != time.Minute || p.Poll == nil || *p.Poll != time.Second || !slices.Equal(p.Tags, []string{"a", "b"}) ||
		p.Window != (durbounds.Window{From: 1, To: 2}) || len(p.Weights) != 1 || p.Weights["x"] != 1 {
		t.Fatalf("defaults not applied: %+v", p)
	}
	p.Tags[0] = "changed"
	p.Weights["x"] = 9
	q, _ := decode(`{"timeout":"1m"}`)
	if q.Tags[0] != "a" || q.Weights["x"] != 1 {
		t.Fatalf("a default is shared between calls: %+v", q)
	}
	given, err := decode(`{"timeout":"1m","tags":["z"],"window":{"from":5,"to":6},"weights":{}}`)
	if err != nil || !slices.Equal(given.Tags, []string{"z"}) || given.Window.From != 5 || len(given.Weights) != 0 {
		t.Fatalf("given values: %+v %v", given, err)
	}
	schema := string(durbounds.WinkWaitFor.Spec().ParamsSchema)
	for _, want := range []string{`"Timeout bounds the wait. (at least 1s; at most 24h)"`, `(each item at most 1m)`, `"default":["a","b"]`, `"default":{"from":1,"to":2}`} {
		if !strings.Contains(schema, want) {
			t.Errorf("schema lacks %s:\n%s", want, schema)
		}
	}
}

// TestFreeFormJSON: a wink.RawJSON field takes any JSON value, read as strictly as every value and kept as
// its raw text; under PairMaps (OpenAI strict, Gemini) a string holds the JSON text; each dialect states it
// as the field's docs say.
func TestFreeFormJSON(t *testing.T) {
	decode := func(args string, pairs bool) (durbounds.Params, error) {
		return wink.DecodeParams[durbounds.Params](durbounds.WinkWaitFor, []byte(args), strictjson.Limits{PairMaps: pairs, MaxDepth: 8})
	}
	for _, raw := range []string{`{"a": [1, {"b": null}], "c": "d"}`, `[1,2]`, `"text"`, `3.5e1`, `true`} {
		p, err := decode(`{"timeout":"1s","options":`+raw+`}`, false)
		if err != nil || string(p.Options) != raw {
			t.Errorf("%s: kept %q, %v", raw, p.Options, err)
		}
	}
	for _, args := range []string{`{"timeout":"1s"}`, `{"timeout":"1s","options":null}`} {
		p, err := decode(args, false)
		if err != nil || p.Options != nil {
			t.Fatalf("%s: left out, kept %q, %v", args, p.Options, err)
		}
	}
	for args, want := range map[string]string{
		`{"timeout":"1s","options":{"a":}}`:                            "invalid JSON",
		"{\"timeout\":\"1s\",\"options\":\"\xff\"}":                    "UTF-8",
		`{"timeout":"1s","options":[[[[[[[[[[1]]]]]]]]]]}`:             "deep",
		`{"timeout":"1s","options":{"a":1}}` + "\n" + `{"extra":true}`: "unexpected data",
	} {
		if _, err := decode(args, false); err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(want)) {
			t.Errorf("%q: %v, want an error mentioning %q", args, err, want)
		}
	}
	// The JSON-text form, as OpenAI strict mode and Gemini send it.
	p, err := decode(`{"timeout":"1s","options":"{\"mode\": \"fast\"}"}`, true)
	if err != nil || string(p.Options) != `{"mode": "fast"}` {
		t.Fatalf("JSON text: %q %v", p.Options, err)
	}
	p, err = decode(`{"timeout":"1s","options":{"mode":"fast"}}`, true)
	if err != nil || string(p.Options) != `{"mode":"fast"}` {
		t.Fatalf("an object under PairMaps: %q %v", p.Options, err)
	}
	if _, err := decode(`{"timeout":"1s","options":"not json"}`, true); err == nil || !strings.Contains(err.Error(), "options: must be JSON text") {
		t.Fatalf("a string that is not JSON text: %v", err)
	}
	if _, err := decode(`{"timeout":"1s","options":"[[[[[[[[[1]]]]]]]]]"}`, true); err == nil {
		t.Fatal("JSON text deeper than the limit left at its level is accepted")
	}
	// The encoder writes the raw text back.
	enc, ok := durbounds.WinkWaitFor.EncodeParams(nil, durbounds.Params{Timeout: time.Second, Options: wink.RawJSON(`{"k": [1]}`)})
	if !ok || !strings.Contains(string(enc), `"options":{"k": [1]}`) {
		t.Errorf("encoded %s", enc)
	}

	// Each dialect's statement of it.
	sp := durbounds.WinkWaitFor.Spec()
	strict, isStrict := openai.Schema(sp)
	if !isStrict || !strings.Contains(string(strict), `"options":{"type":["string","null"],"description":"Options are passed to the backend as they are. (JSON text)"}`) {
		t.Errorf("OpenAI strict form (strict=%v):\n%s", isStrict, strict)
	}
	g, err := gemini.Schema(sp.ParamsSchema)
	if err != nil || !strings.Contains(string(g), `"options":{"type":"STRING","description":"Options are passed to the backend as they are. (JSON text)"}`) {
		t.Errorf("Gemini form: %v\n%s", err, g)
	}
	if _, ok, err := anthropic.StrictSchema(sp.ParamsSchema); ok || err != nil {
		t.Errorf("Anthropic strict form: ok=%v err=%v, want none (sent without strict)", ok, err)
	}
	if !strings.Contains(string(sp.ParamsSchema), `"options":{"description":"Options are passed to the backend as they are."}`) {
		t.Errorf("plain form:\n%s", sp.ParamsSchema)
	}
	// End to end through the OpenAI adapter: the model writes the JSON text, the handler gets the value.
	calls, err := openai.ParseChatToolCalls([]byte(`{"tool_calls":[{"id":"c1","type":"function","function":{"name":"wait_for","arguments":` +
		`"{\"timeout\":\"1s\",\"options\":\"{\\\"mode\\\":\\\"fast\\\"}\",\"poll\":null,\"backoffs\":null,\"tags\":null,\"window\":null,\"weights\":null}"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := durbounds.WinkWaitFor.Decode(calls[0].Arguments, strictjson.Limits{PairMaps: calls[0].PairMaps})
	if err != nil || string(got.(durbounds.Params).Options) != `{"mode":"fast"}` {
		t.Fatalf("through the OpenAI adapter: %v %v", got, err)
	}
}
