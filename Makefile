# replaycheck — one target per verb. Go 1.26 must be on PATH (/usr/local/go/bin).
GO       ?= go
FUZZTIME ?= 10s
export PATH := $(PATH):/usr/local/go/bin

.PHONY: test bench fuzz lint cassettes reports matrix gate mutate record evidence install-check agents clis test-agents connectors test-connectors implementation-matrices

# The README's test command: every package's tests, race-free and offline.
test:
	$(GO) test ./...

# Install the example agents' pinned packages, each from its committed
# lockfile (npm ci): the Node agent's openai SDK and undici, the Anthropic
# agent's @anthropic-ai/sdk. The Go and Python agents need none.
agents:
	npm ci --prefix examples/agents/node --no-audit --no-fund --loglevel=error
	npm ci --prefix examples/agents/anthropic --no-audit --no-fund --loglevel=error

# Install the real agent CLIs judged by replaycheck agent, each version from
# its own committed lockfile: pi and qwen-code, each before and after its
# DeepSeek fix (docs/agent.md, "Agent CLIs"). pi installs with npm ci.
# qwen-code declares optional platform packages that were never published
# (@teddyzhu/clipboard-darwin-arm64, ...): its lockfile cannot list them, so
# npm ci refuses it as out of sync; npm install --no-save installs exactly the
# lockfile's versions, integrity-checked, and writes no file.
clis:
	@for d in examples/agents/clis/pi-*/; do echo "npm ci $$d"; npm ci --prefix $$d --no-audit --no-fund --loglevel=error || exit 1; done
	@for d in examples/agents/clis/qwen-code-*/; do echo "npm install --no-save $$d"; (cd $$d && npm install --no-save --no-audit --no-fund --loglevel=error) || exit 1; done

# The example agents and the real CLIs judged by replaycheck agent, mode by
# mode and version by version (a process per cell, so they run apart from
# make test; .ci/run runs them).
test-agents: agents clis
	$(GO) test -tags agents -count=1 -run 'TestAgent' ./cmd/replaycheck/

# Install and build the shipped connectors: the Vercel AI SDK connector's
# ai 6.0.x and provider packages from its committed lockfile, and the
# connectors over Go stacks, each in its own module with its library pinned
# (connectors/<stack>/go.mod): the main module never takes their
# dependencies.
connectors:
	npm ci --prefix connectors/ai-sdk --no-audit --no-fund --loglevel=error
	cd connectors/fantasy && $(GO) build -o bin/fantasy-connector .

# Each connector judged over the whole matrix against its expectations
# (no error, no unverified cell, a few library defects failing for their
# cause); a process per run, so apart from make test: .ci/run runs it.
test-connectors: connectors
	$(GO) test -tags connectors -count=1 -run 'TestConnector' ./cmd/replaycheck/

# The saved matrix of every implementation listed in
# connectors/implementations.txt, beside its expectations, which make
# reports reads into reports/implementations.*; CI regenerates them and
# checks nothing changed. An implementation without expectations (the
# converter example) is saved as it runs (exit 1: its fails count).
implementation-matrices: connectors
	$(GO) build -o bin/replaycheck ./cmd/replaycheck
	@grep -v '^#' connectors/implementations.txt | while IFS='	' read -r dir cmd; do \
		[ -d "$$dir" ] || continue; \
		expect=""; [ -f "$$dir/expect.yaml" ] && expect="--expect $$dir/expect.yaml"; \
		echo "implementation-matrices: $$dir"; \
		bin/replaycheck run --engine "$$cmd" $$expect --format json 2>/dev/null > "$$dir/matrix.json"; \
		code=$$?; if [ $$code -gt 1 ] || { [ -n "$$expect" ] && [ $$code -ne 0 ]; }; then echo "$$dir: replaycheck run exited $$code" >&2; exit 1; fi; \
	done

# Benchmarks against the budgets in the README ("Development").
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/... ./internal/... ./sim/ ./scenario/ ./mutate/ ./protocol/ ./cmd/replaycheck/

# A short, bounded run of every fuzz target (FUZZTIME each).
fuzz:
	@grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r f; do \
		dir=$$(dirname "$$f"); \
		for t in $$(grep -o '^func Fuzz[A-Za-z0-9_]*' "$$f" | sed 's/^func //'); do \
			echo "fuzz $$dir $$t"; \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) "$$dir" || exit 1; \
		done; \
	done

# gofmt and go vet must be clean, and every cassette must pass replaycheck lint.
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run ./cmd/replaycheck lint

# Re-record every target x applicable scenario against its provider profile's
# simulator (loopback, in-process). The fixed seed makes the signatures, and
# so the cassettes, reproducible byte for byte.
cassettes:
	$(GO) run ./cmd/replaycheck record --all --simulate --seed replaycheck --force

# Regenerate reports/ (matrix.md, matrix.json, junit.xml, matrix.html) from the
# Ginkgo suites over the committed cassettes. CI checks the result with
# git diff --exit-code reports/. The suites fail on a fail cell, but the reports
# are written first, so they show it.
reports:
	REPLAYCHECK_REPORTS=$(CURDIR)/reports $(GO) test ./suites/ -count=1

# Print the route-by-route matrix of the committed cassettes.
matrix:
	$(GO) run ./cmd/replaycheck run

# Judge the working tree's matrix.yaml against a base table (a file or a git
# ref): exit 1 on any regressed cell.
BASE ?= HEAD
gate:
	$(GO) run ./cmd/replaycheck gate --base $(BASE)

# Score how many single edits of matrix.yaml the gate sees, and list every
# survivor with its line (CI holds the score to its --min-score).
MIN_SCORE ?= 90
mutate:
	$(GO) run ./cmd/replaycheck mutate --min-score $(MIN_SCORE)

# Record a target's cassettes live: make record TARGET=deepseek KEY_ENV=DEEPSEEK_API_KEY
record:
	@test -n "$(TARGET)" || { echo "usage: make record TARGET=id KEY_ENV=VAR [MAX_REQUESTS=N]"; exit 2; }
	$(GO) run ./cmd/replaycheck record --target $(TARGET) $(if $(KEY_ENV),--key-env $(KEY_ENV)) --max-requests $(or $(MAX_REQUESTS),300)

# Import the real recordings kept beside the repository (never committed, not
# even transformed) into a git-ignored scratch directory, lint what came out,
# and print the matrix with its recorded-evidence section over it. Skips with
# a message when the folder is absent.
EVIDENCE     ?= ../shared/realdata
EVIDENCE_OUT ?= .evidence
evidence:
	@if [ ! -d "$(EVIDENCE)" ]; then echo "evidence: $(EVIDENCE) is not present; nothing to import (set EVIDENCE=DIR)"; exit 0; fi; \
	set -e; rm -rf "$(EVIDENCE_OUT)"; \
	$(GO) run ./cmd/replaycheck import --out "$(EVIDENCE_OUT)" "$(EVIDENCE)"; \
	$(GO) run ./cmd/replaycheck lint --evidence "$(EVIDENCE_OUT)"; \
	$(GO) run ./cmd/replaycheck run --evidence "$(EVIDENCE_OUT)" --format md

# The README's `go install ./cmd/replaycheck` (from a checkout: the module
# is not published) works from a clean module cache, without cgo: install
# into a temporary GOBIN with a fresh GOMODCACHE (modules come from the
# proxy again), then run the installed command outside the checkout, with
# the provider profiles built into it.
install-check:
	@tmp=$$(mktemp -d) && trap 'chmod -R u+w "$$tmp"; rm -rf "$$tmp"' EXIT && \
	GOMODCACHE="$$tmp/mod" GOBIN="$$tmp/bin" CGO_ENABLED=0 GOFLAGS=-mod=readonly $(GO) install ./cmd/replaycheck && \
	"$$tmp/bin/replaycheck" --version && \
	(cd "$$tmp" && "$$tmp/bin/replaycheck" run --matrix $(CURDIR)/matrix.yaml --cassettes $(CURDIR)/cassettes --target deepseek >/dev/null 2>&1) && \
	echo "install-check: go install ./cmd/replaycheck works from a clean module cache; the installed binary runs outside the checkout with its embedded profiles"
