// Package matrixcheck tests the code winkgen generated for the type matrix (gen/testdata/matrix: one tool
// per supported base type, each held directly, through a pointer, in a slice, an array, a map, a map of
// slices and a slice of pointers): random values round-trip through the generated encoders and decoders
// and pass the generated schemas (TestMatrixRoundTrip, and in OpenAI strict mode's pair form
// TestMatrixRoundTripInPairForm), and on arbitrary input the generated decoders agree with an independent
// JSON Schema validator (FuzzMatrixAgreesWithValidator).
//
// The generator's own tests (package gen) write the matrix source and check that generating it gives the
// committed wink_gen.go; these tests run that generated code. They are a package of their own so that
// their test binary links only the generated code and the runtime, not the generator (go/types,
// golang.org/x/tools, the packages its golden cases import), which `go test -fuzz` would rebuild with
// coverage instrumentation. The package has no code besides its tests.
package matrixcheck
