#!/usr/bin/env bash
# Runs every Fuzz* target of the module for $FUZZTIME each (go test allows one target per run).
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-60s}
count=0
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  for t in $targets; do
    echo "fuzz $pkg $t ($FUZZTIME)"
    go test "$pkg" -run '^$' -fuzz "^${t}\$" -fuzztime "$FUZZTIME" >/tmp/fuzz.$$.log 2>&1 || { cat /tmp/fuzz.$$.log; exit 1; }
    count=$((count+1))
  done
done
rm -f /tmp/fuzz.$$.log
echo "fuzz: $count targets ran for $FUZZTIME each, no failure"
