package benchmarks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// payload is the benchmark input, byte for byte.
var payload = []byte(`{"query":"filesystem snapshot rollback","limit":25,"case_sensitive":false,"file_types":["go","md","txt"],"filters":{"path_prefix":"/workspace/src","max_size":1048576},"mode":"fuzzy"}`)

// want is payload decoded.
func want() SearchArgs {
	var v SearchArgs
	v.Query = "filesystem snapshot rollback"
	v.Limit = 25
	v.FileTypes = []string{"go", "md", "txt"}
	v.Filters.PathPrefix = "/workspace/src"
	v.Filters.MaxSize = 1048576
	v.Mode = SearchFuzzy
	return v
}

var errBadMode = errors.New(`mode must be one of "fuzzy", "exact"`)

func checkMode(m SearchMode) error {
	if m != SearchFuzzy && m != SearchExact {
		return errBadMode
	}
	return nil
}

// decodeWinkgen is the generated decoder through the public API, as a dispatcher runs it: wink.DecodeParams
// takes a pooled strictjson.Decoder, runs winkDecodeSearchArgs, Finish (trailing data, errors) and
// returns the decoder to the pool.
func decodeWinkgen(data []byte) (SearchArgs, error) {
	return wink.DecodeParams[SearchArgs](WinkSearchDocs, data, strictjson.Limits{})
}

// decodeEncodingJSON is the strictest encoding/json offers: DisallowUnknownFields, then the enum check
// and a check that only whitespace follows the object. (It still matches keys case-insensitively,
// accepts duplicate keys, null for any field and missing keys, and replaces invalid UTF-8.)
func decodeEncodingJSON(data []byte) (SearchArgs, error) {
	var v SearchArgs
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return SearchArgs{}, err
	}
	if err := checkMode(v.Mode); err != nil {
		return SearchArgs{}, err
	}
	if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) != 0 {
		return SearchArgs{}, errors.New("data after the arguments object")
	}
	return v, nil
}

// decodeJSONv2 is github.com/go-json-experiment/json with RejectUnknownMembers, plus the enum check. v2
// already rejects duplicate keys, invalid UTF-8 and trailing data, and matches keys case-sensitively; it
// does not check missing keys.
func decodeJSONv2(data []byte) (SearchArgs, error) {
	var v SearchArgs
	if err := jsonv2.Unmarshal(data, &v, jsonv2.RejectUnknownMembers(true)); err != nil {
		return SearchArgs{}, err
	}
	if err := checkMode(v.Mode); err != nil {
		return SearchArgs{}, err
	}
	return v, nil
}

// mcpResolved is the tool's plain params schema (the bytes winkgen generated) resolved once by
// github.com/google/jsonschema-go, as the MCP Go SDK does when a tool is added.
var mcpResolved = func() *jsonschema.Resolved {
	var s jsonschema.Schema
	if err := json.Unmarshal(WinkSearchDocs.Spec().ParamsSchema, &s); err != nil {
		panic(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		panic(err)
	}
	return r
}()

// decodeMCPPath is the MCP Go SDK's path for a typed tool: unmarshal the arguments into a map, validate
// the map against the resolved schema, then unmarshal the arguments into the struct. (The SDK also applies
// schema defaults and re-marshals the map before the last step; this path leaves that out, so it is a
// lower bound of the SDK's cost.)
func decodeMCPPath(data []byte) (SearchArgs, error) {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return SearchArgs{}, err
	}
	if err := mcpResolved.Validate(m); err != nil {
		return SearchArgs{}, err
	}
	var v SearchArgs
	if err := json.Unmarshal(data, &v); err != nil {
		return SearchArgs{}, err
	}
	return v, nil
}

// stdJSONv2 is the standard library's encoding/json/v2 decoder where the build has it (jsonv2std_test.go:
// GOEXPERIMENT=jsonv2), else nil.
var stdJSONv2 = stdJSONv2Decoder()

// implementation is one decoder compared.
type implementation struct {
	name   string
	decode func([]byte) (SearchArgs, error)
}

// implementations are the decoders compared, in the order the table lists them.
var implementations = func() []implementation {
	impls := []implementation{
		{"winkgen", decodeWinkgen},
		{"encoding_json_strict", decodeEncodingJSON},
		{"json_v2", decodeJSONv2},
	}
	if stdJSONv2 != nil {
		impls = append(impls, implementation{"encoding_json_v2", stdJSONv2})
	}
	return append(impls,
		implementation{"segmentio_sdk_call", decodeSegmentioSDK},
		implementation{"segmentio_parse", decodeSegmentioParse},
		implementation{"mcp_go_sdk_path", decodeMCPPath},
		implementation{"handwritten", DecodeHandwritten},
	)
}()

func TestEveryImplementationDecodesThePayloadToTheSameStruct(t *testing.T) {
	for _, impl := range implementations {
		got, err := impl.decode(payload)
		if err != nil {
			t.Errorf("%s: %v", impl.name, err)
			continue
		}
		if diff := cmp.Diff(want(), got); diff != "" {
			t.Errorf("%s: decoded value differs (-want +got):\n%s", impl.name, diff)
		}
	}
}

func TestEveryImplementationRejectsTheBadInputs(t *testing.T) {
	bad := []struct{ name, input string }{
		{"unknown key", `{"query":"q","limit":25,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy","querry":"x"}`},
		{"unknown nested key", `{"query":"q","limit":25,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1,"min_size":0},"mode":"fuzzy"}`},
		{"bad enum", `{"query":"q","limit":25,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"regex"}`},
		{"string for int", `{"query":"q","limit":"25","case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`},
		{"fraction for int", `{"query":"q","limit":2.5,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`},
		{"bool for string", `{"query":true,"limit":25,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`},
		{"syntax error", `{"query":"q","limit":25,`},
	}
	for _, tc := range bad {
		for _, impl := range implementations {
			if _, err := impl.decode([]byte(tc.input)); err == nil {
				t.Errorf("%s accepted %s: %s", impl.name, tc.name, tc.input)
			}
		}
	}
}

var sink SearchArgs

// BenchmarkDecodeSearchArgs decodes the benchmark payload with each implementation; each op starts from a
// zero SearchArgs, as a dispatcher's does.
func BenchmarkDecodeSearchArgs(b *testing.B) {
	for _, impl := range implementations {
		b.Run(impl.name, func(b *testing.B) {
			if _, err := impl.decode(payload); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(payload)))
			done := cpuPerOp(b)
			for b.Loop() {
				v, err := impl.decode(payload)
				if err != nil {
					b.Fatal(err)
				}
				sink = v
			}
			done()
		})
	}
}

// BenchmarkDispatchSearch runs the whole dispatch of a search_docs call: lookup, strict decoding, the
// no-op handler, the ToolInvoked event (kept by the sink, so it is built in full) and rendering.
func BenchmarkDispatchSearch(b *testing.B) {
	var last *wink.ToolInvoked
	d := &wink.Dispatcher{
		Registry: wink.MustRegistry(WinkTools()),
		Events:   func(e *wink.ToolInvoked) { last = e },
	}
	call := wink.Call{ID: "call_1", Name: "search_docs", Arguments: payload}
	ctx := context.Background()
	out, err := d.Dispatch(ctx, call)
	if err != nil || !out.Success || out.Output != "Found 0 matches.\n\n{\"total\":0}" {
		b.Fatalf("Dispatch = %+v, %v", out, err)
	}
	if p, ok := last.Params.(SearchArgs); !ok || !cmp.Equal(p, want()) {
		b.Fatalf("event params = %#v", last.Params)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(payload)))
	done := cpuPerOp(b)
	for b.Loop() {
		out, err = d.Dispatch(ctx, call)
		if err != nil || !out.Success {
			b.Fatal(out, err)
		}
	}
	done()
}
