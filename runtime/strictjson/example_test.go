package strictjson_test

import (
	"fmt"

	"github.com/winkgen/wink/runtime/strictjson"
)

// searchParams is decoded by decodeSearch, written the way winkgen writes a generated decoder.
type searchParams struct {
	Query string
	Limit int64
}

var searchKeys = []string{"query", "limit"}

func decodeSearch(data []byte) (searchParams, *strictjson.Errors) {
	var v searchParams
	var d strictjson.Decoder
	d.Reset(data, strictjson.Limits{})
	if d.ObjectStart() {
		var seen uint64
		for d.NextKey() {
			switch string(d.Key()) {
			case "query":
				if d.Repeated(&seen, 1) {
					continue
				}
				if s, ok := d.String(); ok && d.CheckLength(s, 1, 200) {
					v.Query = s
				}
			case "limit":
				if d.Repeated(&seen, 2) {
					continue
				}
				if n, ok := d.Int(1, 100); ok {
					v.Limit = n
				}
			default:
				d.Unknown(searchKeys)
			}
		}
		if seen&1 == 0 {
			d.Missing("query")
		}
		d.ObjectEnd()
	}
	return v, d.Finish()
}

// A decoder is a key switch over Decoder calls. It goes on after a bad value, so one decode reports every
// problem, each at its JSON path, in input order.
func ExampleDecoder() {
	v, errs := decodeSearch([]byte(`{"query":"vfs","limit":10}`))
	fmt.Println(v, errs == nil)

	_, errs = decodeSearch([]byte(`{"limit":1000,"qeury":"vfs"}`))
	for _, line := range errs.Lines() {
		fmt.Println(line)
	}
	// Output:
	// {vfs 10} true
	// limit: must be <= 100; got 1000
	// unknown field "qeury"; did you mean "query"? (allowed: query, limit)
	// query: missing required field
}

// Generated encoders append JSON with the Append functions: no reflection, no encoding/json.
func ExampleAppendString() {
	b := []byte(`{"query":`)
	b = strictjson.AppendString(b, "say \"hi\"\n")
	b = append(b, `,"limit":`...)
	b = strictjson.AppendInt(b, 10)
	b = append(b, '}')
	fmt.Println(string(b))
	// Output: {"query":"say \"hi\"\n","limit":10}
}

// Member reads one top-level member of a JSON object without decoding the rest.
func ExampleMember() {
	raw, ok := strictjson.Member([]byte(`{"path":"src/a.go","content":"..."}`), "path")
	fmt.Println(string(raw), ok)
	// Output: "src/a.go" true
}
