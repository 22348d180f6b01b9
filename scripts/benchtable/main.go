// Command benchtable reads the output of make bench's benchmark runs (scripts/bench.sh):
//
//	go test -run '^$' -bench 'DecodeSearchArgs|DispatchSearch' -benchmem ./benchmarks/       (the main file)
//	the same with GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=jsonv2, winkgen and encoding_json_v2     (-jsonv2 file)
//	go test -run '^$' -bench BenchmarkEval ./runtime/suites/eval/                            (-eval file)
//
// and prints markdown tables of medians (ns/op, the process's CPU time per op where the benchmark reports
// it, B/op, allocs/op) with ratios: decoding against the peers, the dispatch against its decode, a
// dispatch in a transaction against one without, and the evaluator against the same program in process;
// then the speed targets checked. A ratio is always taken between two benchmarks of the same run, on
// their CPU time per op when both report it (the wall clock counts the time other processes held the
// cores), else on their wall-clock time. It exits 1 when a target is missed or a benchmark is absent, 2 on a usage or read error.
//
// Usage: benchtable [-jsonv2 file] [-eval file] [file] (standard input when file is absent).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Implementations of BenchmarkDecodeSearchArgs in the main file, in table order.
var implementations = []string{"winkgen", "encoding_json_strict", "json_v2", "segmentio_sdk_call", "segmentio_parse", "mcp_go_sdk_path", "handwritten"}

const (
	decodePrefix = "BenchmarkDecodeSearchArgs/"
	dispatchName = "BenchmarkDispatchSearch"
	txnPrefix    = "BenchmarkDispatchSearchTxn/"
	evalPrefix   = "BenchmarkEval/"
	stdJSONv2    = "encoding_json_v2"
)

// The sub-benchmarks of the transaction and evaluator tables, in table order (the first is the base).
var (
	txnRows  = []string{"plain", "txn", "txn_one_session"}
	evalRows = []string{"in_process", "warm", "warm_after_idle", "cold"}
)

// samples are the per-run measurements of one benchmark.
type samples struct {
	ns, bytes, allocs, cpu []float64
}

// stats are the medians of one benchmark; cpu is 0 when the benchmark does not report it.
type stats struct {
	ns, bytes, allocs, cpu float64
	runs                   int
}

// report is what a benchmark output file holds.
type report struct {
	cpu, goos, goarch string
	results           map[string]stats // by benchmark name without the -GOMAXPROCS suffix
}

// parse reads go test -bench output.
func parse(r io.Reader) (*report, error) {
	rep := &report{results: map[string]stats{}}
	raw := map[string]*samples{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "cpu: "):
			rep.cpu = strings.TrimSpace(strings.TrimPrefix(line, "cpu: "))
		case strings.HasPrefix(line, "goos: "):
			rep.goos = strings.TrimPrefix(line, "goos: ")
		case strings.HasPrefix(line, "goarch: "):
			rep.goarch = strings.TrimPrefix(line, "goarch: ")
		case strings.HasPrefix(line, "Benchmark"):
			name, s, ok := parseLine(line)
			if !ok {
				continue
			}
			acc := raw[name]
			if acc == nil {
				acc = &samples{}
				raw[name] = acc
			}
			acc.ns = append(acc.ns, s[0])
			acc.bytes = append(acc.bytes, s[1])
			acc.allocs = append(acc.allocs, s[2])
			if s[3] > 0 {
				acc.cpu = append(acc.cpu, s[3])
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for k, s := range raw {
		rep.results[k] = stats{ns: median(s.ns), bytes: median(s.bytes), allocs: median(s.allocs), cpu: median(s.cpu), runs: len(s.ns)}
	}
	return rep, nil
}

// units maps the units benchtable reads to their index in parseLine's values.
var units = map[string]int{"ns/op": 0, "B/op": 1, "allocs/op": 2, "cpu-ns/op": 3}

// parseLine splits a result line into the benchmark name (without the -GOMAXPROCS suffix) and its ns/op,
// B/op, allocs/op and cpu-ns/op (0 when absent); ok is false when ns/op is missing. A benchmark without
// -benchmem's columns (the evaluator's) has B/op and allocs/op 0.
func parseLine(line string) (name string, vals [4]float64, ok bool) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return "", vals, false
	}
	name = f[0]
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	var have [4]bool
	for i := 2; i+1 < len(f); i++ {
		k, known := units[f[i+1]]
		if !known {
			continue
		}
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return "", vals, false
		}
		vals[k], have[k] = v, true
	}
	return name, vals, have[0]
}

// median returns the median of xs (the mean of the middle two for an even count); 0 for none.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// check is one speed target.
type check struct {
	what, target, measured string
	ok                     bool
}

// x formats a ratio.
func x(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "x" }

// cost returns what a ratio of a to b compares: the CPU time per op when both benchmarks report it (on a
// shared machine the wall clock counts the time other processes held the cores), else the wall-clock time.
func cost(a, b stats) (float64, float64) {
	if a.cpu > 0 && b.cpu > 0 {
		return a.cpu, b.cpu
	}
	return a.ns, b.ns
}

// ratio is a's cost over b's (see cost).
func ratio(a, b stats) float64 {
	ca, cb := cost(a, b)
	return ca / cb
}

// checks evaluates the targets, on CPU time where both sides of a ratio report it (see cost). v2 (the
// -jsonv2 run) and ev (the -eval run) may be nil: their targets are then left out.
func checks(r, v2, ev *report) []check {
	get := func(name string) stats { return r.results[decodePrefix+name] }
	w := get("winkgen")
	ej, mcp, hw, seg := get("encoding_json_strict"), get("mcp_go_sdk_path"), get("handwritten"), get("segmentio_parse")
	dis := r.results[dispatchName]
	plain, txn := r.results[txnPrefix+"plain"], r.results[txnPrefix+"txn"]
	out := []check{
		{"winkgen vs encoding_json_strict", ">= 8x faster", x(ratio(ej, w)) + " faster", ratio(ej, w) >= 8},
		{"winkgen vs handwritten", "<= 1.1x the time", x(ratio(w, hw)) + " the time", ratio(w, hw) <= 1.1},
		{"winkgen vs segmentio_parse (segmentio's fastest path)", "faster", x(ratio(seg, w)) + " faster", ratio(seg, w) > 1},
		{"winkgen vs mcp_go_sdk_path", ">= 50x faster", x(ratio(mcp, w)) + " faster", ratio(mcp, w) >= 50},
		{"winkgen allocs/op", "<= 6", num(w.allocs), w.allocs <= 6},
	}
	if v2 != nil {
		w2, s2 := v2.results[decodePrefix+"winkgen"], v2.results[decodePrefix+stdJSONv2]
		out = append(out, check{"winkgen vs encoding_json_v2 (same run, go1.27.3)", ">= 3x faster", x(ratio(s2, w2)) + " faster", ratio(s2, w2) >= 3})
	}
	out = append(out,
		check{"dispatch vs winkgen decode", "<= 2x the time", x(ratio(dis, w)) + " the time", ratio(dis, w) <= 2},
		check{"dispatch vs encoding_json_strict decode", "faster", x(ratio(ej, dis)) + " faster", ratio(ej, dis) > 1},
		check{"dispatch in a transaction vs without", "<= 1.25x the time", x(ratio(txn, plain)) + " the time", ratio(txn, plain) <= 1.25},
	)
	if ev != nil {
		in, warm := ev.results[evalPrefix+"in_process"], ev.results[evalPrefix+"warm"]
		out = append(out, check{"eval call (warm evaluator) vs in-process evaluation", "<= 2x the time", x(ratio(warm, in)) + " the time", ratio(warm, in) <= 2})
		if warm.cpu > 0 && in.cpu > 0 && in.ns > 0 {
			// The evaluator's waits trade CPU time for latency (a side spins briefly for an answer due
			// soon): the wall clock is the target's other measure.
			w := warm.ns / in.ns
			out = append(out, check{"eval call (warm evaluator) vs in-process evaluation, wall clock", "<= 2x the time", x(w) + " the time", w <= 2})
		}
	}
	return out
}

// num formats a median without a needless fraction.
func num(v float64) string {
	if v == float64(int64(v)) {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// cpuCell formats a CPU time median, "-" when the benchmark does not report it.
func cpuCell(s stats) string {
	if s.cpu == 0 {
		return "-"
	}
	return num(float64(int64(s.cpu + 0.5)))
}

// table prints one table of rows (labels and stats) with each row's time relative to base's (see cost).
func table(w io.Writer, label string, rows []string, get func(string) stats, base stats, rel string) {
	fmt.Fprintf(w, "| %s | ns/op | CPU ns/op | B/op | allocs/op | %s |\n", label, rel)
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: |")
	for _, name := range rows {
		s := get(name)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", name, num(s.ns), cpuCell(s), num(s.bytes), num(s.allocs), x(ratio(s, base)))
	}
	fmt.Fprintln(w)
}

// write prints the tables; it returns false when a target is missed.
func write(w io.Writer, r, v2, ev *report, date time.Time, goVersion string) bool {
	base := r.results[decodePrefix+"winkgen"]
	fmt.Fprintf(w, "Medians of %d runs; %s, %s/%s, %s, %s. CPU ns/op: the process's CPU time per op, every thread\n", base.runs, r.cpu, r.goos, r.goarch, goVersion, date.UTC().Format("2006-01-02"))
	fmt.Fprintln(w, "(the garbage collector's included), the steadier figure on a shared machine.")
	fmt.Fprintln(w)
	dec := func(n string) stats { return r.results[decodePrefix+n] }
	rows := make([]string, 0, len(implementations))
	for _, n := range implementations {
		rows = append(rows, "`"+n+"`")
	}
	unq := func(n string) string { return strings.Trim(n, "`") }
	table(w, "decoder", rows, func(n string) stats { return dec(unq(n)) }, base, "time vs winkgen")
	if v2 != nil {
		b2 := v2.results[decodePrefix+"winkgen"]
		fmt.Fprintf(w, "The standard library's encoding/json/v2, in its own run (GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=jsonv2, interleaved with the above):\n\n")
		table(w, "decoder (go1.27.3, jsonv2)", []string{"`winkgen`", "`" + stdJSONv2 + "`"}, func(n string) stats { return v2.results[decodePrefix+unq(n)] }, b2, "time vs winkgen")
	}
	table(w, "dispatch", []string{"decode (`winkgen`)", "dispatch (`BenchmarkDispatchSearch`)"}, func(n string) stats {
		if strings.HasPrefix(n, "decode") {
			return base
		}
		return r.results[dispatchName]
	}, base, "time vs decode")
	table(w, "transaction (`BenchmarkDispatchSearchTxn`)", txnRows, func(n string) stats { return r.results[txnPrefix+n] }, r.results[txnPrefix+"plain"], "time vs plain")
	if ev != nil {
		table(w, "eval (`BenchmarkEval`)", evalRows, func(n string) stats { return ev.results[evalPrefix+n] }, ev.results[evalPrefix+"in_process"], "time vs in_process")
	}
	fmt.Fprintln(w, "| target | wanted | measured | |")
	fmt.Fprintln(w, "| --- | --- | --- | --- |")
	all := true
	for _, c := range checks(r, v2, ev) {
		verdict := "ok"
		if !c.ok {
			verdict, all = "MISSED", false
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", c.what, c.target, c.measured, verdict)
	}
	return all
}

// missing lists the benchmarks the reports lack (v2 and ev may be nil).
func missing(r, v2, ev *report) []string {
	var out []string
	need := func(rep *report, names ...string) {
		for _, n := range names {
			if _, ok := rep.results[n]; !ok {
				out = append(out, n)
			}
		}
	}
	for _, n := range implementations {
		need(r, decodePrefix+n)
	}
	need(r, dispatchName)
	for _, n := range txnRows {
		need(r, txnPrefix+n)
	}
	if v2 != nil {
		need(v2, decodePrefix+"winkgen", decodePrefix+stdJSONv2)
	}
	if ev != nil {
		for _, n := range evalRows {
			need(ev, evalPrefix+n)
		}
	}
	return out
}

// read parses the named file.
func read(path string) (*report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parse(f)
}

func main() {
	v2Path := flag.String("jsonv2", "", "the output of the run with GOEXPERIMENT=jsonv2")
	evalPath := flag.String("eval", "", "the output of BenchmarkEval")
	flag.Usage = func() { fmt.Fprintln(os.Stderr, "usage: benchtable [-jsonv2 file] [-eval file] [file]") }
	flag.Parse()
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(2)
	}
	var r, v2, ev *report
	var err error
	switch flag.NArg() {
	case 0:
		r, err = parse(os.Stdin)
	case 1:
		r, err = read(flag.Arg(0))
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fail(err)
	}
	if *v2Path != "" {
		if v2, err = read(*v2Path); err != nil {
			fail(err)
		}
	}
	if *evalPath != "" {
		if ev, err = read(*evalPath); err != nil {
			fail(err)
		}
	}
	if m := missing(r, v2, ev); len(m) > 0 {
		fmt.Fprintln(os.Stderr, "benchtable: no results for", strings.Join(m, ", "))
		os.Exit(1)
	}
	if !write(os.Stdout, r, v2, ev, time.Now(), runtime.Version()) {
		os.Exit(1)
	}
}
