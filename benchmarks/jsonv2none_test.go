//go:build !goexperiment.jsonv2 || !go1.27

package benchmarks

// stdJSONv2Decoder is nil: this build has no encoding/json/v2 (run with GOEXPERIMENT=jsonv2 on Go 1.25 or
// later, as make bench does, to measure it).
func stdJSONv2Decoder() func([]byte) (SearchArgs, error) { return nil }
