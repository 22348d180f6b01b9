package wink

// TypedExample is a tool example as typed Go values. winkgen emits a function per tool returning them
// (WinkSearchDocsExamples), so the compiler checks every example against the params and result types
// again; the JSON forms are in Spec.Examples.
type TypedExample[P, R any] struct {
	Description string
	Input       P
	Output      R
	HasOutput   bool // the example states an output
}
