GO ?= go
# Packages that declare //wink:tool handlers (their wink_gen.go is committed and checked fresh).
TOOL_PKGS := ./example/... ./benchmarks/... ./runtime/...
# Packages tested without -race (test-gen): the generator's, single-threaded tools whose tests type-check,
# generate and build code many times (-race finds nothing there and made cmd/winkgen's tests take 17
# minutes), and the evaluator's, whose tests measure a child process's time, memory and read bounds: its
# child is the test binary, which -race makes several times slower, so bounds meant for a program's work
# are spent on instrumentation. The evaluator's concurrency tests (its mailboxes, shared counts and
# concurrent calls) also run under -race, in test-race.
GEN_PKGS := ./annotations/... ./gen/... ./cmd/winkgen/... ./runtime/suites/eval/...
EVAL_RACE_TESTS := Mailbox|ConcurrentCalls|WireCounts|RetiredEvaluator|NextProgram
# The packages whose tests take longest, or that compile the providers' SDKs (megabytes of source each):
# test-race names them first, so that the go command starts them first. -p 4: most of those tests wait on
# subprocesses, PostgreSQL or the network, so four test binaries at a time keep two cores busy.
SLOW_PKGS := ./runtime/vfs/... ./runtime/suites/sandbox/... ./runtime/suites/files/... ./runtime/mcpserver/... ./runtime/wink/... \
	./runtime/durable/... ./runtime/adapters/... ./runtime/providers/... ./runtime/ledger/... ./runtime/session/...
# Nested modules (their own go.mod, so that their dependencies stay out of winkgen's module graph): the
# root's ./... does not enter them; test, race, vet, cross and check-fresh do.
NESTED_MODS := runtime/durable/temporal
FUZZTIME ?= 60s
# The plain (not -race) builds of make test take the compiler's default flags, whatever GOFLAGS says (make
# test sets -race and no DWARF, for the race build that is most of the work): a new user's `go tool
# winkgen` (cmd/winkgen's TestUseInYourModule) builds the generator with the default flags, as the go tool
# command ignores GOFLAGS' build flags, so the standard library and the generator's dependencies it needs
# are then already compiled (the plain build, shared, instead of 300 packages compiled once more: about
# 170 s of CPU on a cold run).
PLAIN_GOFLAGS = $(filter-out -race -race=true -gcflags=% -ldflags=%,$(GOFLAGS))
# The providers' SDKs, which only tests import (the adapters' and providers' tests decode and encode with
# their types), compiled without inlining: a few packages of generated code, megabytes each, whose
# compile is the largest single cost of a cold make test. Without inlining the race build of the two
# largest (openai-go/v3, anthropic-sdk-go) takes 75 s of CPU instead of 130; their code is the same.
SDK_GCFLAGS := -gcflags='github.com/openai/openai-go/v3/...=-dwarf=false -l' \
	-gcflags='github.com/anthropics/anthropic-sdk-go/...=-dwarf=false -l' -gcflags='google.golang.org/genai/...=-dwarf=false -l'

.PHONY: demo demo-tools demo-fleet demo-durable demo-code bench-durable bench-tools test test-extra prebuild test-race test-race-root test-race-rest test-gen test-allocs race generate regen check-generated check-fresh cross go-next bench bench-scale bench-mcp fuzz fuzz-brief vet mcp-clients conformance

## demo: install bubblewrap when missing (scripts/demo-deps.sh: the demo's shell runs in it), regenerate,
## then run the example agent end to end through the agent loop with a scripted model
## (WINK_DEMO_LIVE=1 plus OPENAI_BASE_URL / OPENAI_MODEL / OPENAI_API_KEY: the same agent on a real endpoint)
demo: regen
	bash scripts/demo-deps.sh
	$(GO) run ./example/cmd/agent

## demo-tools: print the example tools' payloads, dispatch good and bad calls
demo-tools: regen
	$(GO) run ./example/cmd/demo

## demo-fleet: three MCP workers sharing a throwaway PostgreSQL cluster (sessions and idempotency ledger),
## one payment made once across them, one conversation continued from worker to worker
demo-fleet:
	$(GO) run ./example/cmd/fleet

## demo-durable: the example agent's run on the embedded durable engine (runtime/durable, PostgreSQL): its
## worker killed (kill -9) mid-way, the run finished by another worker, the transcript printed
demo-durable:
	$(GO) run ./example/cmd/durable

## demo-code: programs that call tools (runtime/suites/eval's run_program): the example's scripted model
## answers a dozen dependent lookups with one program (the program, each inner call with its policy
## decision, the result, the turns and bytes against call by call), then the same run on the durable
## engine (PostgreSQL) with its worker killed (kill -9) mid-program and the completed calls replayed
demo-code:
	$(GO) run ./example/cmd/codemode

## test: every test and check on the machine's Go (scripts/test.sh): scripts/test-deps.sh first (it installs
## bubblewrap, PostgreSQL and npm when missing, or says what to install, before anything is built), gofmt,
## then three lanes side by side: race (test-race-root), gen (test-gen, test-allocs, check-fresh,
## test-race-rest) and clients (cross, mcp-clients), every go command of test-race, test-gen, check-fresh and
## mcp-clients built with -race (one build of the tree); it ends with each step's wall-clock and CPU time,
## and the whole run's CPU time
test:
	bash scripts/test.sh

## test-extra: what CI runs beside make test (.ci/run runs both), in two lanes side by side: next (go-next:
## Go 1.27.3) and fuzz (fuzz-brief: every fuzz target for 10,000 executions); each builds the tree once more
test-extra:
	TEST_LANES="next fuzz" TEST_NAME="make test-extra" bash scripts/test.sh

## mcp-clients: the official MCP clients against winkgen's servers (Node.js 22 and the clients pinned in
## testdata/mcpclients/package-lock.json, installed with npm ci when missing): the TypeScript SDK client and
## the Inspector CLI drive example/cmd/mcpserver over stdio and streamable HTTP on every protocol version, the
## TypeScript client's own OAuth support authorizes against it as a resource server (oauth2-mock-server), and
## @modelcontextprotocol/conformance runs its 2025-11-25 and 2026-07-28 requirement sets against
## example/cmd/conformance (stateful, and stateless for 2026-07-28)
mcp-clients:
	bash testdata/mcpclients/run.sh

## conformance: only the conformance suite's requirement sets against example/cmd/conformance
## (testdata/mcpclients/conformance.sh; known failures in testdata/mcpclients/conformance-baseline.txt)
conformance:
	bash testdata/mcpclients/conformance.sh

## test-race: every test of the module and its nested modules but the generator's, and go vet (every
## analyzer) of them all, the generator's packages included, built with -race (make test runs it with
## GOFLAGS=-race, so that the go commands the tests start share the lane's build). Vet runs as go vet, not
## through go test -vet: its facts about the standard library and the dependencies (most of vet's CPU) are
## then the same as those of the go vet that the generator's tests and a new user's module run, computed
## once
test-race: test-race-root test-race-rest

## test-race-root: test-race's tests and vet of the root module (make test's race lane). The tests come
## first: while they wait on PostgreSQL, subprocesses and the network, their go command compiles the next
## test binaries; vet then finds every dependency compiled and keeps both cores busy to the end (run first,
## it compiled the tests' dependencies alone, and the tests' waits left a core idle at the end of the run)
test-race-root:
	$(GO) test -race -vet=off -p 4 -timeout 30m $(SDK_GCFLAGS) $(SLOW_PKGS) $$($(GO) list ./... | grep -v -x -F "$$($(GO) list $(GEN_PKGS) $(SLOW_PKGS))"); \
	rc=$$?; $(GO) vet -race $(SDK_GCFLAGS) ./... && exit $$rc

## test-race-rest: the rest of test-race, the evaluator's concurrency tests and the nested modules' vet and
## tests (make test runs it at the end of the gen lane, beside the race lane's root tests, which take longest)
test-race-rest:
	$(GO) test -race -vet=off -timeout 30m -run '$(EVAL_RACE_TESTS)' ./runtime/suites/eval/
	for m in $(NESTED_MODS); do (cd $$m && $(GO) vet -race ./... && $(GO) test -race -vet=off -timeout 30m ./...) || exit 1; done

## test-gen: every test of the generator's and the evaluator's packages (GEN_PKGS), their test binaries
## built without -race even when GOFLAGS has it (make test sets it, so that the code they generate and build
## shares the race lane's build); test-race vets them
test-gen:
	$(GO) test -race=false -gcflags=all= -ldflags= -vet=off -timeout 30m $(GEN_PKGS)

## test-allocs: the allocation pins of the dispatcher (runtime/wink's and the benchmarks' TestDispatchAllocations),
## which a -race build cannot measure (sync.Pool drops items at random under -race), on a plain build
test-allocs:
	GOFLAGS="$(PLAIN_GOFLAGS)" $(GO) test -race=false -vet=off -count=1 -run '^TestDispatchAllocations$$' ./runtime/wink ./benchmarks

## prebuild: what make test's lanes build in common, compiled once before they start: every package of the
## module and its nested modules with -race (the race lane, and the go commands that the generator's tests
## and the MCP clients start) beside the plain build of the generator's, the evaluator's and crosscheck's
## dependencies (test-gen, test-allocs, cross)
prebuild:
	$(GO) build -race ./... & race=$$!; \
	GOFLAGS="$(PLAIN_GOFLAGS)" $(GO) build -race=false $(GEN_PKGS) ./internal/crosscheck ./runtime/wink ./benchmarks; plain=$$?; \
	wait $$race && [ $$plain -eq 0 ]
	for m in $(NESTED_MODS); do (cd $$m && $(GO) build -race ./...) || exit 1; done

## race: the same as test-race
race: test-race

## cross: the module and its nested modules type-check for darwin and windows, tests included
## (internal/crosscheck: what differs between platforms is which files a build takes and which syscall
## declarations exist, and type-checking from source finds both without compiling everything per platform;
## without -race, which other platforms cannot build with cgo off)
cross: export GOFLAGS := $(PLAIN_GOFLAGS)
cross:
	$(GO) run ./internal/crosscheck -os darwin,windows ./...
	for m in $(NESTED_MODS); do $(GO) run ./internal/crosscheck -C $$m -os darwin,windows ./... || exit 1; done

## go-next: the generator, the decoders and the dispatcher vetted and tested on the newest Go release too
## (GO_NEXT, fetched through the module proxy as GOTOOLCHAIN); make test-extra runs it. TestUseInYourModule (a new
## user's module filled through a proxy, minutes long) runs once, on the machine's Go, in make test's main step
GO_NEXT ?= go1.27.3
NEXT_PKGS := ./annotations/... ./runtime/strictjson/... ./runtime/wink/... ./cmd/winkgen/... ./benchmarks/ ./benchmarks/internal/handwrittencheck/ ./gen/schema/...
go-next:
	GOTOOLCHAIN=$(GO_NEXT) $(GO) test -vet=all -timeout 30m -skip '^TestUseInYourModule$$' $(NEXT_PKGS)
	GOTOOLCHAIN=$(GO_NEXT) $(GO) test -vet=all -timeout 30m ./gen -run 'TestGolden|TestDeterministic|Example'

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	for m in $(NESTED_MODS); do (cd $$m && $(GO) vet ./...) || exit 1; done

## generate: run go generate (winkgen) everywhere
generate:
	$(GO) generate ./...

## regen: regenerate every tool package with one winkgen process (unchanged files are not rewritten)
regen:
	$(GO) run ./cmd/winkgen $(TOOL_PKGS)

## check-generated: fail with a diff when any wink_gen.go is stale or missing, and check the goldens
check-generated: check-fresh
	$(GO) test ./gen -run 'TestGolden|TestDeterministic' -count=1

check-fresh:
	$(GO) run ./cmd/winkgen -check $(TOOL_PKGS)
	for m in $(NESTED_MODS); do (cd $$m && $(GO) mod tidy -diff) || exit 1; done

## bench-durable: the cost of one step of a run on each engine side by side (loop.Run, the embedded engine on
## memory and PostgreSQL, Temporal's development server on loopback with activities and with local activities),
## six runs, benchstat's medians
bench-durable:
	@out=$$(mktemp); (cd runtime/durable/temporal && $(GO) test -run '^$$' -bench BenchmarkStep -benchtime 20x -count 6 -benchmem .) | tee $$out && \
	$(GO) tool benchstat $$out; rm -f $$out

## bench-tools: one task (a dozen dependent lookups among 16 tools, scripted model) done call by call with
## every definition loaded, by one program, and with deferred tools found by search: model turns and
## tool-definition bytes as a table with ratios (the counts are deterministic)
bench-tools:
	@$(GO) test -count=1 -run '^TestToolUseTable$$' -v ./example/codemode/toolbox | grep '^|'

## bench: decode and dispatch benchmarks against the peers, as a table of medians and ratios
bench:
	bash scripts/bench.sh

## bench-scale: compile time, compiler memory and object size of a 200-tool package, winkgen vs the MCP Go SDK
bench-scale:
	$(GO) run ./scripts/scale -n 200 -runs 5

## bench-mcp: the MCP server against the Go SDK's own server on the same tools (calls/s, server CPU per call,
## resident memory and live heap after 100,000 calls on one session, memory per idle session), side by side
bench-mcp:
	bash scripts/bench-mcp.sh

## fuzz: every fuzz target for FUZZTIME (default 60s each)
fuzz:
	FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh

# fuzz-brief (part of make test-extra) counts executions instead of seconds: a duration -fuzztime can fail with a
# spurious "context deadline exceeded" on Go 1.26 (golang/go#75804, a race in the fuzzing coordinator).
fuzz-brief:
	FUZZTIME=10000x bash scripts/fuzz.sh
