package strictjson

import (
	"bytes"
	"encoding/json"
	"testing"
)

// object200 is a typical ~200-byte tool-arguments object.
var object200 = []byte(`{"query":"how do I configure the filesystem sandbox","limit":25,"file_types":["go","md","txt"],` +
	`"filters":{"max_size":1000,"ext":"go"},"mode":"fuzzy","labels":{"team":"core","env":"dev"},"score":0.75}`)

type stdFilters struct {
	MaxSize uint64 `json:"max_size"`
	Ext     string `json:"ext"`
}

type stdParams struct {
	Query     string            `json:"query"`
	Limit     *int              `json:"limit"`
	FileTypes []string          `json:"file_types"`
	Filters   stdFilters        `json:"filters"`
	Mode      string            `json:"mode"`
	Labels    map[string]string `json:"labels"`
	Score     float32           `json:"score"`
}

func TestTypicalPayloadAllocations(t *testing.T) {
	if _, errs := decodeParams(string(object200), Limits{}); errs != nil {
		t.Fatal(errs)
	}
	// input string (1), file_types clone (1), labels map (1; small maps need one more for the bucket)
	allocs := testing.AllocsPerRun(100, func() {
		var d Decoder
		var p testParams
		d.Reset(object200, Limits{})
		decodeTestParams(&d, &p)
		if d.Finish() != nil {
			t.Fatal("errors")
		}
	})
	if allocs > 6 {
		t.Errorf("typical payload: %v allocations, want <= 6", allocs)
	}
	// without strings and collections: nothing but what the values need
	in := []byte(`{"limit": 25, "score": 1.5e3, "filters": {"max_size": 10, "ext": "go"}, "mode": "exact"}`)
	allocs = testing.AllocsPerRun(100, func() {
		var d Decoder
		var p testParams
		d.Reset(in, Limits{})
		decodeTestParams(&d, &p)
		d.Finish()
	})
	// the "ext" string makes the one input copy; the missing "query" error costs its own allocations
	if allocs > 1+4 {
		t.Errorf("scalar payload: %v allocations", allocs)
	}
	allocs = testing.AllocsPerRun(100, func() {
		var d Decoder
		d.Reset(object200, Limits{})
		d.Skip()
		d.Finish()
	})
	if allocs != 0 {
		t.Errorf("Skip: %v allocations, want 0", allocs)
	}
}

func BenchmarkSkip200(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(object200)))
	for b.Loop() {
		var d Decoder
		d.Reset(object200, Limits{})
		d.Skip()
		if d.Finish() != nil {
			b.Fatal("errors")
		}
	}
}

func BenchmarkString200(b *testing.B) {
	in := []byte(`"` + string(bytes.Repeat([]byte("abcdefghij"), 20)) + `"`)
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		var d Decoder
		d.Reset(in, Limits{})
		if _, ok := d.String(); !ok {
			b.Fatal("error")
		}
	}
}

func BenchmarkStringBytesEscaped(b *testing.B) {
	in := []byte(`"line\none \u00e9\ttab \"quoted\" and a longer tail of plain text"`)
	b.ReportAllocs()
	for b.Loop() {
		var d Decoder
		d.Reset(in, Limits{})
		if _, ok := d.StringBytes(); !ok {
			b.Fatal("error")
		}
	}
}

func BenchmarkDecodeGeneratedShape(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(object200)))
	for b.Loop() {
		var d Decoder
		var p testParams
		d.Reset(object200, Limits{})
		decodeTestParams(&d, &p)
		if d.Finish() != nil {
			b.Fatal("errors")
		}
	}
}

func BenchmarkDecodeEncodingJSONStrict(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(object200)))
	for b.Loop() {
		var p stdParams
		dec := json.NewDecoder(bytes.NewReader(object200))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendString(b *testing.B) {
	s := "how do I configure the filesystem sandbox <with> \"quotes\" and é"
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendString(buf[:0], s)
	}
}

// typicalArgs is the payload of the design example (no map).
var typicalArgs = []byte(`{"query":"how do I configure the sandbox","limit":25,"file_types":["go","md"],` +
	`"filters":{"max_size":1000,"ext":"go"},"mode":"fuzzy"}`)

func BenchmarkTypicalGeneratedShape(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var d Decoder
		var p testParams
		d.Reset(typicalArgs, Limits{})
		decodeTestParams(&d, &p)
		if d.Finish() != nil {
			b.Fatal("errors")
		}
	}
}

func BenchmarkTypicalEncodingJSONStrict(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var p stdParams
		dec := json.NewDecoder(bytes.NewReader(typicalArgs))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			b.Fatal(err)
		}
	}
}
