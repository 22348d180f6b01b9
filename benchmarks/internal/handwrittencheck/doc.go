// Package handwrittencheck checks that the benchmark's handwritten decoder (benchmarks.DecodeHandwritten,
// the floor winkgen's generated decoder is measured against) is exactly as strict as the generated one:
// on inputs chosen to hit each strictness rule (TestHandwrittenMatchesWinkgen) and on arbitrary input
// (FuzzHandwrittenAgreesWithWinkgen) both accept or both reject, and when both accept they decode the same
// value.
//
// It is a package of its own, with no code besides its tests, so that its test binary links only the
// benchmark's package and the runtime: package benchmarks' tests also link the peers it is measured
// against (encoding/json v2, segmentio, jsonschema-go), which `go test -fuzz` would rebuild with coverage
// instrumentation.
package handwrittencheck
