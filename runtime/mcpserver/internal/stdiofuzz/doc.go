// Package stdiofuzz holds FuzzStdioLine, the fuzz target of runtime/mcpserver's line transport (what
// ServeStdio speaks): an arbitrary line, then a ping, and the connection must survive. It lives apart
// from runtime/mcpserver's tests so that fuzzing instruments only what the target runs (the server, the
// example tools): go test -fuzz instruments every package of the test binary, and runtime/mcpserver's
// test binary links the test-only dependencies of all its tests (the evaluator and its interpreter, the
// files suite, schema validators, go-cmp). It has no code outside its tests.
package stdiofuzz
