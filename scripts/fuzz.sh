#!/usr/bin/env bash
# Runs every Fuzz* target of the module for $FUZZTIME each. Each package's instrumented test binary is
# built once (go test -c -fuzz) and run once per target, from the package's directory (its testdata/fuzz
# seeds), with go test's own corpus directory ($GOCACHE/fuzz/<import path>), so what fuzzing found is
# kept between runs as with go test -fuzz. Each build and each target's run prints its CPU time (user and
# system seconds of its whole process tree) and wall time, and at the end the total: instrumenting a test
# binary's every dependency is most of the cost, which is why some fuzz targets live in packages of their
# own whose test binaries link little (gen/internal/matrixcheck, benchmarks/internal/handwrittencheck,
# runtime/adapters/internal/readersfuzz, runtime/mcpserver/internal/stdiofuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-60s}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cache=$(go env GOCACHE)/fuzz
count=0
TIMEFORMAT='%U %S %R'
cpu() { awk '{ printf "%.1f s CPU (%.1f user, %.1f sys), %.0f s wall", $1 + $2, $1, $2, $3 }' "$bin/time"; }
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  [ -n "$targets" ] || continue
  test="$bin/$(echo "$pkg" | tr / _).test"
  { time go test -c -fuzz . -o "$test" "$pkg" >"$bin/log" 2>&1 || { cat "$bin/log"; exit 1; }; } 2>"$bin/time"
  echo "build $pkg: $(cpu)"
  for t in $targets; do
    echo "fuzz $pkg $t ($FUZZTIME)"
    { time { (cd "$dir" && "$test" -test.run '^$' -test.fuzz "^${t}\$" -test.fuzztime "$FUZZTIME" \
      -test.fuzzcachedir "$cache/$pkg") >"$bin/log" 2>&1 || { cat "$bin/log"; exit 1; }; }; } 2>"$bin/time"
    echo "  $t: $(cpu)"
    count=$((count+1))
  done
done
# times: the second line is the CPU time (user, system) of every process the script waited for.
times >"$bin/times"
echo "fuzz: $count targets ran for $FUZZTIME each, no failure; CPU of the builds and runs: $(tail -1 "$bin/times" | awk '{ split($1, a, "m"); split($2, b, "m"); u = a[1] * 60 + a[2]; s = b[1] * 60 + b[2]; printf "%.0f s (%.0f user, %.0f sys)", u + s, u, s }')"
