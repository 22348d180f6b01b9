//go:build goexperiment.jsonv2 && go1.27

package benchmarks

import jsonv2std "encoding/json/v2"

// The standard library's encoding/json/v2 (Go 1.25 and later behind GOEXPERIMENT=jsonv2): make bench runs
// with GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=jsonv2, so that it is measured in the same run as the others.
func stdJSONv2Decoder() func([]byte) (SearchArgs, error) { return decodeStdJSONv2 }

// decodeStdJSONv2 is encoding/json/v2's Unmarshal with RejectUnknownMembers, plus the enum check. Like
// github.com/go-json-experiment/json it rejects duplicate keys, invalid UTF-8 and trailing data and
// matches keys case-sensitively; it does not check missing keys.
func decodeStdJSONv2(data []byte) (SearchArgs, error) {
	var v SearchArgs
	if err := jsonv2std.Unmarshal(data, &v, jsonv2std.RejectUnknownMembers(true)); err != nil {
		return SearchArgs{}, err
	}
	if err := checkMode(v.Mode); err != nil {
		return SearchArgs{}, err
	}
	return v, nil
}
