GO ?= go
# Packages that declare //wink:tool handlers (their wink_gen.go is committed and checked fresh).
TOOL_PKGS := ./example/... ./benchmarks/... ./runtime/...
FUZZTIME ?= 60s

.PHONY: demo demo-tools demo-fleet test race generate check-generated bench fuzz fuzz-brief vet

## demo: regenerate, then run the example agent end to end through the agent loop with a scripted model
## (WINK_DEMO_LIVE=1 plus OPENAI_BASE_URL / OPENAI_MODEL / OPENAI_API_KEY: the same agent on a real endpoint)
demo: generate
	$(GO) run ./example/cmd/agent

## demo-tools: print the example tools' payloads, dispatch good and bad calls
demo-tools: generate
	$(GO) run ./example/cmd/demo

## demo-fleet: three MCP workers sharing a throwaway PostgreSQL cluster (sessions and idempotency ledger),
## one payment made once across them, one conversation continued from worker to worker
demo-fleet:
	$(GO) run ./example/cmd/fleet

## test: everything CI runs
test: vet
	$(GO) test ./...
	$(MAKE) --no-print-directory race
	$(MAKE) --no-print-directory check-generated
	$(MAKE) --no-print-directory fuzz-brief

## race: the concurrency tests (concurrent dispatch on many sessions, identical idempotent calls) under -race
race:
	$(GO) test -race ./runtime/wink/... ./runtime/ledger/... ./runtime/session/... ./runtime/resources/... ./runtime/txn/... ./runtime/loop/... ./runtime/mcpserver/...

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

## generate: run go generate (winkgen) everywhere
generate:
	$(GO) generate ./...

## check-generated: fail with a diff when any wink_gen.go is stale or missing
check-generated:
	$(GO) run ./cmd/winkgen -check $(TOOL_PKGS)
	$(GO) test ./gen -run 'TestGolden|TestDeterministic' -count=1

## bench: decode and dispatch benchmarks against the peers, as a table of medians and ratios
bench:
	bash scripts/bench.sh

## fuzz: every fuzz target for FUZZTIME (default 60s each)
fuzz:
	FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh

# fuzz-brief (part of make test) counts executions instead of seconds: a duration -fuzztime can fail with a
# spurious "context deadline exceeded" on Go 1.26 (golang/go#75804, a race in the fuzzing coordinator).
fuzz-brief:
	FUZZTIME=10000x bash scripts/fuzz.sh
