# cdpskill — `make demo` runs a real batch, `make test` runs every test.
GO      ?= go
BIN     := bin/cdpskill
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
DEMO    := file://$(CURDIR)/demo/index.html

.PHONY: build test demo chromium bench fuzz vet clean

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/cdpskill

chromium:
	@./scripts/ensure-chromium.sh

vet:
	$(GO) vet ./...

# go test runs each fuzz target's seed corpus; the short -fuzz run below
# explores a little further on every test run.
test: chromium vet
	$(GO) test ./...
	$(GO) test ./runner -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 10s
	$(GO) test ./diff -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 5s

demo: chromium build
	@./scripts/demo.sh $(BIN) "$(DEMO)"

bench: chromium build
	$(GO) test ./... -run '^$$' -bench . -benchtime 20x

fuzz:
	$(GO) test ./runner -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 60s
	$(GO) test ./diff -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 60s

clean:
	rm -rf bin log
