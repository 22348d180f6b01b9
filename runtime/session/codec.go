package session

// Codec encodes and decodes the items of a slice for a session store,
// without reflection. winkgen emits one for every type marked //wink:state
// (its strict decoder and canonical encoder, the same machinery as tool
// params).
type Codec[T any] struct {
	// Encode appends the canonical JSON encoding of *v to dst: one JSON value, at
	// most MaxItemBytes long and MaxItemDepth deep, or the commit storing it
	// fails with an *UnstorableError.
	Encode func(dst []byte, v *T) []byte
	// Decode decodes one JSON value strictly into a T. Its error names the
	// JSON path of every problem.
	Decode func(data []byte) (T, error)
}
