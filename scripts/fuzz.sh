#!/usr/bin/env bash
# Runs every Fuzz* target of the module for $FUZZTIME each. Each package's instrumented test binary is
# built once (go test -c -fuzz) and run once per target, from the package's directory (its testdata/fuzz
# seeds), with go test's own corpus directory ($GOCACHE/fuzz/<import path>), so what fuzzing found is
# kept between runs as with go test -fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-60s}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cache=$(go env GOCACHE)/fuzz
count=0
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  [ -n "$targets" ] || continue
  test="$bin/$(echo "$pkg" | tr / _).test"
  go test -c -fuzz . -o "$test" "$pkg" >"$bin/log" 2>&1 || { cat "$bin/log"; exit 1; }
  for t in $targets; do
    echo "fuzz $pkg $t ($FUZZTIME)"
    (cd "$dir" && "$test" -test.run '^$' -test.fuzz "^${t}\$" -test.fuzztime "$FUZZTIME" \
      -test.fuzzcachedir "$cache/$pkg") >"$bin/log" 2>&1 || { cat "$bin/log"; exit 1; }
    count=$((count+1))
  done
done
echo "fuzz: $count targets ran for $FUZZTIME each, no failure"
