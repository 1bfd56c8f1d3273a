# cdpskill — `make demo` runs a real batch, `make test` runs every test.
GO      ?= go
BIN     := bin/cdpskill
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
DEMO    := file://$(CURDIR)/demo/index.html

.PHONY: build install test soak demo chromium bench bench-go fuzz vet clean playwright playwright-check axe

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/cdpskill

# The skill into ~/.claude and ~/.codex, pointing at a copy of this build.
install: build
	$(BIN) install

chromium:
	@./scripts/ensure-chromium.sh

vet:
	$(GO) vet ./...

# Playwright's side of the saved-state check: playwright-core (no
# browser download) into runner/testdata/playwright, from the npm
# registry. TestStatePlaywright, which make test runs, skips without it.
playwright:
	cd runner/testdata/playwright && npm ci --no-audit --no-fund

# axe-core, the engine of the audit step, from the npm registry at the
# version audit/axe/VERSION pins (make axe AXE_VERSION=4.15.0 moves the
# pin): its minified build gzipped (650 KB, 180 KB so in the binary), its
# licences (MPL-2.0, and those of what it bundles) and its rule ids, which
# a step's "rules" is checked against before anything runs.
AXE_VERSION ?= $(shell cat audit/axe/VERSION)
axe:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	( cd "$$tmp" && npm pack --silent axe-core@$(AXE_VERSION) >/dev/null && tar xzf axe-core-$(AXE_VERSION).tgz ); \
	pkg="$$tmp/package"; \
	node -e 'const a = require(process.argv[1]); if (a.version !== process.argv[2]) throw new Error("got axe " + a.version); console.log(a.getRules().map((r) => r.ruleId).sort().join("\n"))' \
		"$$pkg/axe.min.js" $(AXE_VERSION) > audit/axe/rules.txt; \
	gzip -9n -c "$$pkg/axe.min.js" > audit/axe/axe.min.js.gz; \
	cp "$$pkg/LICENSE" "$$pkg/LICENSE-3RD-PARTY.txt" audit/axe/; \
	echo $(AXE_VERSION) > audit/axe/VERSION; \
	echo "axe-core $(AXE_VERSION): $$(wc -c < "$$pkg/axe.min.js") bytes, $$(wc -c < audit/axe/axe.min.js.gz) gzipped"

# A state file either cdpskill or Playwright saved lands logged in in the
# other, driving the tests' Chromium.
playwright-check: chromium playwright
	$(GO) test ./runner -run '^TestStatePlaywright$$' -count=1 -v

# go test runs each fuzz target's seed corpus; the short -fuzz run below
# explores a little further on every test run. Its budget is a count of
# runs, not a duration: Go 1.26's fuzz coordinator can fail a run whose
# -fuzztime deadline lands mid-run (golang/go#75804).
test: chromium vet
	$(GO) test ./...
	$(GO) test ./runner -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 150000x
	$(GO) test ./diff -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 300000x
	$(GO) test ./profiles -run '^$$' -fuzz '^FuzzNormalize$$' -fuzztime 100000x
	$(GO) test ./cdp -run '^$$' -fuzz '^FuzzParseMessage$$' -fuzztime 100000x

# The concurrency and soak tests at full size: 8 processes x 50 calls
# (sharing the default session, then each in a session of its own), 1,000
# calls on one tab and 200 open/close cycles (make test runs them scaled
# down).
soak: chromium
	CDPSKILL_SOAK=1 $(GO) test ./cmd/cdpskill -run '^(TestConcurrentCallsOnOwnTabs|TestConcurrentCallsInOwnSessions|TestSoak)$$' -count=1 -v -timeout 30m

demo: chromium build
	@./scripts/demo.sh $(BIN) "$(DEMO)"

# The real binary as agents call it, against its floors (bench/main.go):
# a table, a JSON line per scenario, and whether every target was met.
# make bench BENCHFLAGS='-run snapshot -rounds 10' picks and scales.
bench: chromium build
	$(GO) run ./bench -bin $(BIN) $(BENCHFLAGS)

# The packages' own Go benchmarks (snapshots, finding, captures, calls).
bench-go: chromium build
	$(GO) test ./... -run '^$$' -bench . -benchtime 20x

# Each fuzz target for about three minutes on 2 cores (counts, for the
# reason above: ~18k, ~45k, ~75k and ~25k runs a second; the registry
# loader's runs write and sync a file each, a few hundred to a few
# thousand a second as the disk allows). A finding is written
# under the package's testdata/fuzz, where make test replays it.
fuzz:
	$(GO) test ./runner -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 3000000x
	$(GO) test ./diff -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 8000000x
	$(GO) test ./profiles -run '^$$' -fuzz '^FuzzNormalize$$' -fuzztime 12000000x
	$(GO) test ./cdp -run '^$$' -fuzz '^FuzzParseMessage$$' -fuzztime 4500000x
	$(GO) test ./tabs -run '^$$' -fuzz '^FuzzRegistryLoad$$' -fuzztime 150000x

clean:
	rm -rf bin log
