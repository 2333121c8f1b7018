# replaycheck — one target per verb. Go 1.26 must be on PATH (/usr/local/go/bin).
GO       ?= go
FUZZTIME ?= 10s
export PATH := $(PATH):/usr/local/go/bin

.PHONY: test bench fuzz lint

# The README's test command: every package's tests, race-free and offline.
test:
	$(GO) test ./...

# Benchmarks against the budgets in DESIGN.md ("Budgets").
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/... ./internal/...

# A short, bounded run of every fuzz target (FUZZTIME each).
fuzz:
	@grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r f; do \
		dir=$$(dirname "$$f"); \
		for t in $$(grep -o '^func Fuzz[A-Za-z0-9_]*' "$$f" | sed 's/^func //'); do \
			echo "fuzz $$dir $$t"; \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) "$$dir" || exit 1; \
		done; \
	done

# gofmt and go vet must be clean.
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
