package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sample is go test output: three runs of winkgen (and a line without ns/op, which must be ignored), the
// other benchmarks once or twice, lines benchtable must skip.
const sample = `goos: linux
goarch: amd64
pkg: github.com/winkgen/wink/benchmarks
cpu: Test CPU @ 1GHz
BenchmarkDecodeSearchArgs/winkgen-2         	  1	       100 ns/op	 186.95 MB/s	 90 cpu-ns/op	     336 B/op	       3 allocs/op
BenchmarkDecodeSearchArgs/winkgen-2         	  1	       120 ns/op	 186.95 MB/s	 110 cpu-ns/op	     336 B/op	       3 allocs/op
BenchmarkDecodeSearchArgs/winkgen-2         	  1	       110 ns/op	 186.95 MB/s	 100 cpu-ns/op	     338 B/op	       3 allocs/op
BenchmarkDecodeSearchArgs/winkgen-2         	  1	       MB/s
BenchmarkDecodeSearchArgs/encoding_json_strict-2         	1	 800 ns/op	 1296 B/op	20 allocs/op
BenchmarkDecodeSearchArgs/encoding_json_strict-2         	1	 900 ns/op	 1296 B/op	20 allocs/op
BenchmarkDecodeSearchArgs/json_v2-2                      	1	 300 ns/op	 208 B/op	4 allocs/op
BenchmarkDecodeSearchArgs/segmentio_sdk_call-2           	1	 4000 ns/op	 33000 B/op	10 allocs/op
BenchmarkDecodeSearchArgs/segmentio_parse-2              	1	 100 ns/op	 256 B/op	2 allocs/op
BenchmarkDecodeSearchArgs/mcp_go_sdk_path-2              	1	 6000 ns/op	 5992 B/op	209 allocs/op
BenchmarkDecodeSearchArgs/handwritten-2                  	1	 90 ns/op	 240 B/op	2 allocs/op
BenchmarkDecodeSearchArgs/handwritten-2                  	1	 80 ns/op	 240 B/op	2 allocs/op
BenchmarkDispatchSearch-2                                	1	 250 ns/op	 736 B/op	6 allocs/op
BenchmarkDispatchSearchTxn/plain-2                       	1	 250 ns/op	 736 B/op	5 allocs/op
BenchmarkDispatchSearchTxn/txn-2                         	1	 300 ns/op	 900 B/op	6 allocs/op
BenchmarkDispatchSearchTxn/txn_one_session-2             	1	 310 ns/op	 900 B/op	6 allocs/op
BenchmarkOther-2                                         	1	 1 ns/op	 0 B/op	0 allocs/op
PASS
ok  	github.com/winkgen/wink/benchmarks	1.507s
`

const sampleV2 = `BenchmarkDecodeSearchArgs/winkgen-2 1 100 ns/op 240 B/op 2 allocs/op
BenchmarkDecodeSearchArgs/encoding_json_v2-2 1 350 ns/op 208 B/op 4 allocs/op
`

const sampleEval = `BenchmarkEval/in_process-2 200 40000 ns/op
BenchmarkEval/warm-2 200 70000 ns/op
BenchmarkEval/warm_after_idle-2 200 200000 ns/op
BenchmarkEval/cold-2 200 4000000 ns/op
`

func TestWritePrintsMediansRatiosAndVerdicts(t *testing.T) {
	parseS := func(s string) *report {
		r, err := parse(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	var buf bytes.Buffer
	ok := write(&buf, parseS(sample), parseS(sampleV2), parseS(sampleEval), time.Date(2026, 5, 4, 23, 0, 0, 0, time.UTC), "go1.26.8")
	got := buf.String()
	for _, want := range []string{
		"Medians of 3 runs; Test CPU @ 1GHz, linux/amd64, go1.26.8, 2026-05-04. CPU ns/op: the process's CPU time per op, every thread",
		"| `winkgen` | 110 | 100 | 336 | 3 | 1.00x |",
		"| `encoding_json_strict` | 850 | - | 1296 | 20 | 7.73x |",
		"| `handwritten` | 85 | - | 240 | 2 | 0.77x |",
		"| `encoding_json_v2` | 350 | - | 208 | 4 | 3.50x |",
		"| dispatch (`BenchmarkDispatchSearch`) | 250 | - | 736 | 6 | 2.27x |",
		"| txn | 300 | - | 900 | 6 | 1.20x |",
		"| warm | 70000 | - | 0 | 0 | 1.75x |",
		"| warm_after_idle | 200000 | - | 0 | 0 | 5.00x |",
		"| winkgen vs encoding_json_strict | >= 8x faster | 7.73x faster | MISSED |",
		"| winkgen vs handwritten | <= 1.1x the time | 1.29x the time | MISSED |",
		"| winkgen vs segmentio_parse (segmentio's fastest path) | faster | 0.91x faster | MISSED |",
		"| winkgen vs encoding_json_v2 (same run, go1.27.3) | >= 3x faster | 3.50x faster | ok |",
		"| dispatch vs winkgen decode | <= 2x the time | 2.27x the time | MISSED |",
		"| dispatch in a transaction vs without | <= 1.25x the time | 1.20x the time | ok |",
		"| eval call (warm evaluator) vs in-process evaluation | <= 2x the time | 1.75x the time | ok |",
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("the tables lack the line\n%s\ngot:\n%s", want, got)
		}
	}
	if ok {
		t.Error("write reported every target met; several are missed")
	}
}

func TestMissingNamesAbsentBenchmarks(t *testing.T) {
	r, err := parse(strings.NewReader("BenchmarkDecodeSearchArgs/winkgen-2 1 100 ns/op 336 B/op 3 allocs/op\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(missing(r, nil, &report{results: map[string]stats{}}), ",")
	want := "BenchmarkDecodeSearchArgs/encoding_json_strict,BenchmarkDecodeSearchArgs/json_v2,BenchmarkDecodeSearchArgs/segmentio_sdk_call," +
		"BenchmarkDecodeSearchArgs/segmentio_parse,BenchmarkDecodeSearchArgs/mcp_go_sdk_path,BenchmarkDecodeSearchArgs/handwritten," +
		"BenchmarkDispatchSearch,BenchmarkDispatchSearchTxn/plain,BenchmarkDispatchSearchTxn/txn,BenchmarkDispatchSearchTxn/txn_one_session," +
		"BenchmarkEval/in_process,BenchmarkEval/warm,BenchmarkEval/warm_after_idle,BenchmarkEval/cold"
	if got != want {
		t.Errorf("missing = %s, want %s", got, want)
	}
}

func TestParseLine(t *testing.T) {
	tests := []struct {
		line, name string
		vals       [4]float64
		ok         bool
	}{
		{"BenchmarkX/a-2 10 12.5 ns/op 3.2 MB/s 16 B/op 1 allocs/op", "BenchmarkX/a", [4]float64{12.5, 16, 1, 0}, true},
		{"BenchmarkX/a-b 10 12.5 ns/op 16 B/op 1 allocs/op", "BenchmarkX/a-b", [4]float64{12.5, 16, 1, 0}, true},
		{"BenchmarkX/a-2 10 12.5 ns/op 9.5 cpu-ns/op 16 B/op 1 allocs/op", "BenchmarkX/a", [4]float64{12.5, 16, 1, 9.5}, true},
		{"BenchmarkX 10 12.5 ns/op", "BenchmarkX", [4]float64{12.5, 0, 0, 0}, true},
		{"BenchmarkX 10 16 B/op 1 allocs/op", "", [4]float64{}, false},
		{"BenchmarkX 10 x ns/op 16 B/op 1 allocs/op", "", [4]float64{}, false},
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

// TestRatiosUseCPUTimeWhenBothReportIt: on a shared machine the wall clock counts other processes' time, so
// a ratio and a target compare CPU time per op when both benchmarks report it, wall-clock time otherwise.
func TestRatiosUseCPUTimeWhenBothReportIt(t *testing.T) {
	r := &report{results: map[string]stats{
		decodePrefix + "winkgen":              {ns: 1000, cpu: 100},
		decodePrefix + "encoding_json_strict": {ns: 2000, cpu: 900},
		decodePrefix + "handwritten":          {ns: 500, cpu: 95},
		decodePrefix + "segmentio_parse":      {ns: 600, cpu: 120},
		decodePrefix + "mcp_go_sdk_path":      {ns: 60000},
		dispatchName:                          {ns: 5000, cpu: 190},
		txnPrefix + "plain":                   {ns: 5000, cpu: 200},
		txnPrefix + "txn":                     {ns: 9000, cpu: 240},
	}}
	got := map[string]check{}
	for _, c := range checks(r, nil, nil) {
		got[c.what] = c
	}
	for what, want := range map[string]string{
		"winkgen vs encoding_json_strict":                       "9.00x faster",
		"winkgen vs handwritten":                                "1.05x the time",
		"winkgen vs segmentio_parse (segmentio's fastest path)": "1.20x faster",
		"winkgen vs mcp_go_sdk_path":                            "60.00x faster", // no CPU figure: wall clock
		"dispatch vs winkgen decode":                            "1.90x the time",
		"dispatch in a transaction vs without":                  "1.20x the time",
	} {
		if c := got[what]; c.measured != want || !c.ok {
			t.Errorf("%s: measured %q (ok %v), want %q (ok)", what, c.measured, c.ok, want)
		}
	}
}

// The eval target is judged on CPU time and, where the benchmarks report it, on the wall clock too: the
// evaluator's waits trade one for the other.
func TestEvalTargetOnBothMeasures(t *testing.T) {
	ev, err := parse(strings.NewReader("BenchmarkEval/in_process-2 200 40000 ns/op 50000 cpu-ns/op\n" +
		"BenchmarkEval/warm-2 200 70000 ns/op 120000 cpu-ns/op\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := &report{results: map[string]stats{}}
	var got []string
	for _, c := range checks(r, nil, ev) {
		if strings.HasPrefix(c.what, "eval") {
			got = append(got, c.what+": "+c.measured+" "+strconv.FormatBool(c.ok))
		}
	}
	want := []string{
		"eval call (warm evaluator) vs in-process evaluation: 2.40x the time false",
		"eval call (warm evaluator) vs in-process evaluation, wall clock: 1.75x the time true",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("checks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
