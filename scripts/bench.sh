#!/usr/bin/env bash
# bench.sh (make bench): runs the decode, dispatch, transaction and evaluator benchmarks six times,
# interleaved, shows benchstat's summary of each, and prints the markdown tables of medians with the
# targets checked (scripts/benchtable). Exits non-zero when a target is missed.
#
# Three binaries, run in turn in each round so that a change in the machine's load touches all of them:
#   - ./benchmarks on this toolchain: every decoder, the dispatch, the transaction;
#   - ./benchmarks on Go 1.27.3 with GOEXPERIMENT=jsonv2 (the module proxy serves the toolchain; the go
#     command fetches it once): winkgen and the standard library's encoding/json/v2, which only exists
#     there, compared with each other in that run;
#   - ./runtime/suites/eval: the eval tool with a waiting evaluator, with none (a cold start), and the
#     same program in process.
#
# Environment: BENCH_DIR, the directory for the raw `go test` outputs (default: a new temporary
# directory; its path is printed); BENCH_COUNT, the number of rounds (default 6); BENCH_JSONV2=0 skips the
# Go 1.27.3 run (its table and target are then left out).
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/winkgen-bench.XXXXXX")}
count=${BENCH_COUNT:-6}
jsonv2=${BENCH_JSONV2:-1}
mkdir -p "$dir"
echo "building, then running the benchmarks ($count rounds) into $dir ..." >&2
go test -c -o "$dir/benchmarks.test" ./benchmarks/
go test -c -o "$dir/eval.test" ./runtime/suites/eval/
if [ "$jsonv2" = 1 ]; then
	GOTOOLCHAIN=go1.27.3 GOEXPERIMENT=jsonv2 go test -c -o "$dir/benchmarks-jsonv2.test" ./benchmarks/
fi
: >"$dir/decode.txt"
: >"$dir/jsonv2.txt"
: >"$dir/eval.txt"
for i in $(seq "$count"); do
	echo "round $i of $count" >&2
	(cd benchmarks && "$dir/benchmarks.test" -test.run '^$' -test.bench 'DecodeSearchArgs|DispatchSearch' -test.benchmem -test.count 1) >>"$dir/decode.txt"
	if [ "$jsonv2" = 1 ]; then
		(cd benchmarks && "$dir/benchmarks-jsonv2.test" -test.run '^$' -test.bench 'DecodeSearchArgs/(winkgen|encoding_json_v2)$' -test.benchmem -test.count 1) >>"$dir/jsonv2.txt"
	fi
	(cd runtime/suites/eval && "$dir/eval.test" -test.run '^$' -test.bench 'BenchmarkEval' -test.benchtime 200x -test.count 1) >>"$dir/eval.txt"
done

# benchstat is a tool dependency of the module (go get -tool golang.org/x/perf/cmd/benchstat).
for f in decode jsonv2 eval; do
	if [ -s "$dir/$f.txt" ]; then
		echo >&2
		go tool benchstat "$dir/$f.txt" >&2
	fi
done
echo >&2

args=(-eval "$dir/eval.txt")
if [ "$jsonv2" = 1 ]; then
	args+=(-jsonv2 "$dir/jsonv2.txt")
fi
go run ./scripts/benchtable "${args[@]}" "$dir/decode.txt"
