// Package benchmarks measures winkgen's generated strict decoder and the whole dispatch against the
// ways Go programs decode tool arguments today. `make bench`
// (scripts/bench.sh) runs it six times and prints the table of medians with the targets checked.
//
// # What is measured
//
// One type and one payload: SearchArgs (search.go; no wink constraints beyond
// what the Go types imply, so every implementation checks the same things: types, integer range, the
// mode enum, unknown keys) and
//
//	{"query":"filesystem snapshot rollback","limit":25,"case_sensitive":false,"file_types":["go","md","txt"],"filters":{"path_prefix":"/workspace/src","max_size":1048576},"mode":"fuzzy"}
//
// BenchmarkDecodeSearchArgs has one sub-benchmark per implementation, all in one run, each starting from a
// zero SearchArgs per op:
//
//   - winkgen: the generated decoder through the public API, WinkSearchDocs.Decode(payload). That is the
//     path the dispatcher takes (pooled strictjson.Decoder, winkDecodeSearchArgs, Finish for trailing
//     data and errors), so the number is what a call pays, not a stripped-down inner loop;
//   - encoding_json_strict: json.Decoder with DisallowUnknownFields, the enum check and a check that
//     only whitespace follows the object;
//   - json_v2: github.com/go-json-experiment/json Unmarshal with RejectUnknownMembers(true) and the enum
//     check;
//   - mcp_go_sdk_path: what the MCP Go SDK does for a typed tool, with github.com/google/jsonschema-go:
//     unmarshal into map[string]any, validate against the tool's plain params schema (the generated
//     ParamsSchema bytes, resolved once outside the loop), then unmarshal into the struct. The SDK also
//     applies defaults and re-marshals the map; that is left out, so this is a lower bound of its cost;
//   - handwritten: the best strict decoder for this one struct written by hand with no library
//     (DecodeHandwritten, handwritten.go), as strict as the generated one (FuzzHandwrittenAgreesWithWinkgen
//     in benchmarks/internal/handwrittencheck checks they accept the same inputs and decode them to the
//     same value). It is the floor.
//
// BenchmarkDispatchSearch runs wink.Dispatcher.Dispatch end to end on the same payload: registry lookup,
// strict decoding, the no-op SearchDocs handler, the ToolInvoked event (kept by the Events sink, so it is
// built in full) and rendering the result for the model.
//
// # Why
//
// The targets this project holds itself to (medians of -count 6): winkgen at least 7x faster than encoding_json_strict, at
// least 50x faster than mcp_go_sdk_path, within 1.3x of handwritten, at most 6 allocs/op; the dispatch at
// most 2x the decode alone and faster than encoding_json_strict's decode alone. The peers are weaker than
// winkgen (encoding/json matches keys case-insensitively and accepts duplicates, nulls and missing keys;
// json_v2 does not check missing keys), so the comparison flatters them, not us. The tests check that all
// five decode the payload to the same value and reject an unknown key, a bad enum and a string for an
// integer.
package benchmarks
