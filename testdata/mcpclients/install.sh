#!/usr/bin/env bash
# Installs the MCP clients the tests drive (Node.js 22, the TypeScript SDK, the Inspector, the conformance
# suite, oauth2-mock-server), as package-lock.json pins them: npm ci, when node_modules is missing or older
# than the lock file, else nothing. Run by make test before its lanes start (the race lane's authorization
# tests and the clients lane both use them), by run.sh and conformance.sh when run alone, and by .ci/run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -f "$here/node_modules/.package-lock.json" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
	echo "installing the MCP clients (npm ci in testdata/mcpclients)"
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi
