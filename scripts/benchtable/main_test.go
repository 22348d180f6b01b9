package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// sample is go test output: three runs of every benchmark (one winkgen line without -benchmem's columns,
// which must be ignored) plus lines benchtable must skip.
const sample = `goos: linux
goarch: amd64
pkg: github.com/winkgen/wink/benchmarks
cpu: Test CPU @ 1GHz
BenchmarkDecodeSearchArgs/winkgen-2         	  1	       100 ns/op	 186.95 MB/s	     336 B/op	       3 allocs/op
BenchmarkDecodeSearchArgs/winkgen-2         	  1	       120 ns/op	 186.95 MB/s	     336 B/op	       3 allocs/op
BenchmarkDecodeSearchArgs/winkgen-2         	  1	       110 ns/op	 186.95 MB/s	     338 B/op	       3 allocs/op
BenchmarkDecodeSearchArgs/winkgen-2         	  1	       999 ns/op
BenchmarkDecodeSearchArgs/encoding_json_strict-2         	1	 800 ns/op	 1296 B/op	20 allocs/op
BenchmarkDecodeSearchArgs/encoding_json_strict-2         	1	 700 ns/op	 1296 B/op	20 allocs/op
BenchmarkDecodeSearchArgs/encoding_json_strict-2         	1	 900 ns/op	 1296 B/op	20 allocs/op
BenchmarkDecodeSearchArgs/json_v2-2                      	1	 300 ns/op	 208 B/op	4 allocs/op
BenchmarkDecodeSearchArgs/mcp_go_sdk_path-2              	1	 6000 ns/op	 5992 B/op	209 allocs/op
BenchmarkDecodeSearchArgs/handwritten-2                  	1	 90 ns/op	 240 B/op	2 allocs/op
BenchmarkDecodeSearchArgs/handwritten-2                  	1	 80 ns/op	 240 B/op	2 allocs/op
BenchmarkDispatchSearch-2                                	1	 250 ns/op	 736 B/op	6 allocs/op
BenchmarkOther-2                                         	1	 1 ns/op	 0 B/op	0 allocs/op
PASS
ok  	github.com/winkgen/wink/benchmarks	1.507s
`

func TestWritePrintsMediansRatiosAndVerdicts(t *testing.T) {
	r, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	ok := write(&buf, r, time.Date(2026, 5, 4, 23, 0, 0, 0, time.UTC), "go1.26.8")
	want := `Medians of 3 runs; Test CPU @ 1GHz, linux/amd64, go1.26.8, 2026-05-04.

| implementation | ns/op | B/op | allocs/op | time vs winkgen |
| --- | ---: | ---: | ---: | ---: |
| ` + "`winkgen`" + ` | 110 | 336 | 3 | 1.00x |
| ` + "`encoding_json_strict`" + ` | 800 | 1296 | 20 | 7.27x |
| ` + "`json_v2`" + ` | 300 | 208 | 4 | 2.73x |
| ` + "`mcp_go_sdk_path`" + ` | 6000 | 5992 | 209 | 54.55x |
| ` + "`handwritten`" + ` | 85 | 240 | 2 | 0.77x |
| dispatch (` + "`BenchmarkDispatchSearch`" + `) | 250 | 736 | 6 | 2.27x |

| target | wanted | measured | |
| --- | --- | --- | --- |
| winkgen vs encoding_json_strict | >= 7x faster | 7.27x faster | ok |
| winkgen vs mcp_go_sdk_path | >= 50x faster | 54.55x faster | ok |
| winkgen vs handwritten | <= 1.3x the time | 1.29x the time | ok |
| winkgen allocs/op | <= 6 | 3 | ok |
| dispatch vs winkgen decode | <= 2x the time | 2.27x the time | MISSED |
| dispatch vs encoding_json_strict decode | faster | 3.20x faster | ok |
`
	if got := buf.String(); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
	if ok {
		t.Error("write reported every target met; the dispatch target is missed")
	}
}

func TestMissingNamesAbsentBenchmarks(t *testing.T) {
	r, err := parse(strings.NewReader("BenchmarkDecodeSearchArgs/winkgen-2 1 100 ns/op 336 B/op 3 allocs/op\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(missing(r), ",")
	if want := "encoding_json_strict,json_v2,mcp_go_sdk_path,handwritten,BenchmarkDispatchSearch"; got != want {
		t.Errorf("missing = %s, want %s", got, want)
	}
}

func TestParseLine(t *testing.T) {
	tests := []struct {
		line, name string
		vals       [3]float64
		ok         bool
	}{
		{"BenchmarkX/a-2 10 12.5 ns/op 3.2 MB/s 16 B/op 1 allocs/op", "BenchmarkX/a", [3]float64{12.5, 16, 1}, true},
		{"BenchmarkX/a-b 10 12.5 ns/op 16 B/op 1 allocs/op", "BenchmarkX/a-b", [3]float64{12.5, 16, 1}, true},
		{"BenchmarkX 10 12.5 ns/op", "", [3]float64{12.5, 0, 0}, false},
		{"BenchmarkX 10 x ns/op 16 B/op 1 allocs/op", "", [3]float64{}, false},
	}
	for _, tc := range tests {
		name, vals, ok := parseLine(tc.line)
		if ok != tc.ok || (ok && (name != tc.name || vals != tc.vals)) {
			t.Errorf("parseLine(%q) = %q, %v, %v; want %q, %v, %v", tc.line, name, vals, ok, tc.name, tc.vals, tc.ok)
		}
	}
}

func TestMedianOfOddAndEvenCounts(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{7}, 7},
		{nil, 0},
	}
	for _, tc := range tests {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
