package handwrittencheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winkgen/wink/benchmarks"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// payload is the benchmark's input (package benchmarks' decode_test.go), byte for byte.
const payload = `{"query":"filesystem snapshot rollback","limit":25,"case_sensitive":false,"file_types":["go","md","txt"],"filters":{"path_prefix":"/workspace/src","max_size":1048576},"mode":"fuzzy"}`

// decodeWinkgen is the generated decoder through the public API, as a dispatcher runs it.
func decodeWinkgen(data []byte) (benchmarks.SearchArgs, error) {
	return wink.DecodeParams[benchmarks.SearchArgs](benchmarks.WinkSearchDocs, data, strictjson.Limits{})
}

// TestHandwrittenMatchesWinkgen checks that the floor is as strict as the generated decoder: on inputs
// chosen to hit each rule, both accept or both reject, and when both accept they agree on the value.
func TestHandwrittenMatchesWinkgen(t *testing.T) {
	for _, in := range agreementSeeds {
		checkAgreement(t, []byte(in))
	}
}

// agreementSeeds hit each strictness rule once, accepted and rejected.
var agreementSeeds = []string{
	payload,
	` {"mode":"exact","filters":{"max_size":0,"path_prefix":""},"file_types":[],"case_sensitive":true,"limit":-3,"query":""} ` + "\n",
	`{"query":"q","limit":25.0,"case_sensitive":false,"file_types":["a"],"filters":{"path_prefix":"/","max_size":2.5e1},"mode":"fuzzy"}`,
	`{"query":"q","limit":1000e-1,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":-0},"mode":"fuzzy"}`,
	`{"query":"q","limit":0e-400,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":0.000},"mode":"fuzzy"}`,
	`{"query":"q","limit":1,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1e-400},"mode":"fuzzy"}`,
	`{"query":"q","limit":9223372036854775807,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":-9223372036854775808},"mode":"fuzzy"}`,
	`{"query":"q","limit":9223372036854775808,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`{"query":"q","limit":-9223372036854775809,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`{"query":"q","limit":1e19,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`{"query":"q","limit":01,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`{"query":"q","limit":1.,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`{"query":"q","limit":null,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`{"query":"q","limit":1,"case_sensitive":null,"file_types":null,"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`{"query":"q","limit":1,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy","query":"q"}`,
	`{"query":"q","limit":1,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/"},"mode":"fuzzy"}`,
	`{"query":"q","limit":1,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1}}`,
	`{"Query":"q","limit":1,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`{"qu\u0065ry":"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00","limit":1,"case_sensitive":false,"file_types":["\u0067o"],"filters":{"path_prefix":"/","max_size":1},"mode":"fu\u007Azy"}`,
	`{"query":"\ud83d","limit":1,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`{"query":"\ude00x","limit":1,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`{"query":"\x","limit":1,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	"{\"query\":\"a\xffb\",\"limit\":1,\"case_sensitive\":false,\"file_types\":[],\"filters\":{\"path_prefix\":\"/\",\"max_size\":1},\"mode\":\"fuzzy\"}",
	"{\"query\":\"a\tb\",\"limit\":1,\"case_sensitive\":false,\"file_types\":[],\"filters\":{\"path_prefix\":\"/\",\"max_size\":1},\"mode\":\"fuzzy\"}",
	"{\"query\":\"h\u00e9llo \u4e16\u754c\",\"limit\":1,\"case_sensitive\":false,\"file_types\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\"],\"filters\":{\"path_prefix\":\"/\",\"max_size\":1},\"mode\":\"fuzzy\"}",
	`{"query":"q","limit":1,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}x`,
	`{"query":"q","limit":1,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}{}`,
	`{"query":"q","limit":1,"case_sensitive":false,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy",}`,
	`{"query":"q","limit":1,"case_sensitive":false,"file_types":["a",],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`{"query":"q","limit":1,"case_sensitive":fals,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`{"query":"q","limit":1,"case_sensitive":truex,"file_types":[],"filters":{"path_prefix":"/","max_size":1},"mode":"fuzzy"}`,
	`[]`, `null`, ``, `{}`, `{"query":"q"`, "\ufeff{}",
}

// checkAgreement fails t unless the handwritten and generated decoders agree on in.
func checkAgreement(t *testing.T, in []byte) {
	t.Helper()
	wv, werr := decodeWinkgen(in)
	hv, herr := benchmarks.DecodeHandwritten(in)
	if (werr == nil) != (herr == nil) {
		t.Fatalf("disagree on %q:\nwinkgen: %v\nhandwritten: %v", in, werr, herr)
	}
	if werr == nil {
		if diff := cmp.Diff(wv, hv); diff != "" {
			t.Fatalf("decoded values differ on %q (-winkgen +handwritten):\n%s", in, diff)
		}
	}
}

// FuzzHandwrittenAgreesWithWinkgen: on arbitrary input the handwritten and generated decoders agree.
func FuzzHandwrittenAgreesWithWinkgen(f *testing.F) {
	for _, s := range agreementSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkAgreement(t, in)
	})
}
