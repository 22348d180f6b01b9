// Package readersfuzz holds the fuzz target of the adapters' response readers
// (FuzzReadersRejectInvalidResponses). It is a package of its own so that fuzzing links only the
// readers: the adapters' own tests also compile the providers' SDKs (several megabytes of source each),
// which `go test -fuzz` would otherwise rebuild with coverage instrumentation.
package readersfuzz
