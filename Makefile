# The two commands a newcomer needs: `make run` and `make test`. Everything else is for the team.
SHELL := /bin/bash
LISTEN ?= 127.0.0.1:8080
SWIFT_TEST_FLAGS ?=
ROUTEREG_BIN := $(CURDIR)/.build/debug/routereg

.PHONY: run test test-swift test-upgrade test-clients test-console build release bootstrap bootstrap-test format lint clean generate
.PHONY: bench bench-transport install deb
.PHONY: test-android
.PHONY: fuzz fuzz-smoke soak fuzz-api fuzz-api-smoke

## bootstrap: what building and running need (libpq, libmicrohttpd, PostgreSQL); bootstrap-test: also what the
## test suites use (Chromium, a JDK and JUnit, nginx, Node, pytest, Selenium, Hypothesis, mypy...)
bootstrap:
	@scripts/bootstrap run

bootstrap-test:
	@scripts/bootstrap test

build: bootstrap
	swift build
	@scripts/record-commit .build/debug

release: bootstrap
	swift build -c release --product routereg
	@scripts/record-commit .build/release

## install: the release binary, routereg.service (systemd, hardened, Type=notify), its user (sysusers.d), the
## settings file (/etc/routereg/routereg.conf, read by routereg serve) and the nginx front (sites-available), under
## $(DESTDIR)$(PREFIX) (scripts/install; DEPLOYMENT.md, "Installing on a server")
PREFIX ?= /usr/local
DESTDIR ?=
install: release
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" scripts/install .build/release/routereg

## deb: a Debian package (dpkg-deb) of the same files, PREFIX=/usr, the Swift runtime linked in statically
deb: bootstrap
	swift build -c release --product routereg --static-swift-stdlib
	@scripts/record-commit .build/release
	scripts/package-deb .build/release/routereg

## run: the registry on $(LISTEN), backed by an embedded PostgreSQL under ./.routereg
run: release
	.build/release/routereg serve --listen $(LISTEN)

## test: every suite: Swift (against a real PostgreSQL the tests start), the Python and TypeScript clients against
## a freshly started server, then a fixed-seed fuzz run of every parser and of the API
test: bootstrap-test
	swift build --build-tests
	@scripts/record-commit .build/debug
	$(MAKE) --no-print-directory test-swift test-upgrade test-clients test-console fuzz-smoke fuzz-api-smoke

## test-swift: every Swift suite in parallel, then, alone on the machine, the suites that assert deadlines and
## crash windows in wall-clock time (a write within its deadline + 100 ms, clicks flushed within an interval):
## beside 180 suites on two cores they measured the machine's load, not the server.
TIMED_SUITES := FailoverTests|HungPrimaryTests|DatabaseOutageTests|LinkClickCrashTests|KillDuringWritesTests|GracefulShutdownTests
test-swift:
	swift test --skip-build --skip '$(TIMED_SUITES)' $(SWIFT_TEST_FLAGS)
	swift test --skip-build --filter '$(TIMED_SUITES)' $(SWIFT_TEST_FLAGS)

## test-upgrade: the previous release (release/previous-release, built once into .build-previous/) replaced by this
## build one server at a time behind nginx under load (RollingUpgradeTests; ARCHITECTURE.md, "Upgrades")
test-upgrade:
	ROUTEREG_PREVIOUS_BIN="$$(scripts/build-previous-release)" swift test --skip-build --filter RollingUpgradeTests

test-clients:
	ROUTEREG_BIN=$(ROUTEREG_BIN) python3 -m pytest -q Clients/python
	cd Clients/typescript && ROUTEREG_BIN=$(ROUTEREG_BIN) node scripts/test.mjs
	$(MAKE) --no-print-directory test-android

## test-android: the Android client built with javac, its JUnit 5 suite against a freshly started server
test-android:
	ROUTEREG_BIN=$(ROUTEREG_BIN) Clients/android/scripts/test.sh

## generate: the manifest schema and its copies in the OpenRPC document's components, then the TypeScript and
## Python clients' types and method tables from Schema/registry.openrpc.json, and the TypeScript dist/ built
## from them (the client suites fail while stale)
generate:
	scripts/generate-manifest-schema
	scripts/generate-clients
	cd Clients/typescript && node scripts/build.mjs

## test-console: the web console in headless Chromium against a freshly started server (screenshots in
## Tests/Console/artifacts/)
test-console:
	ROUTEREG_BIN=$(ROUTEREG_BIN) python3 -m pytest -q Tests/Console

format:
	swift format -i -r Package.swift Sources Tests Clients/swift

lint:
	swift format lint -r Package.swift Sources Tests Clients/swift

clean:
	rm -rf .build

## fuzz: every libFuzzer target for FUZZ_SECONDS each (default 300), built in .build-fuzz (RELIABILITY.md)
FUZZ_SECONDS ?= 300
fuzz: bootstrap
	scripts/fuzz --seconds $(FUZZ_SECONDS)

## fuzz-smoke: every fuzz target for 50,000 inputs from a fixed seed and the committed corpus (part of make test:
## repeatable rather than a gamble; `make fuzz` explores at random for longer)
fuzz-smoke: bootstrap
	scripts/fuzz --runs 50000

## fuzz-api: requests generated from the OpenRPC document (hypothesis-jsonschema), mutated, batched, sent to a real
## server for FUZZ_API_SECONDS (default 600); no 5xx, no INTERNAL, no leaked internals, integrity held; counts per method
FUZZ_API_SECONDS ?= 600
fuzz-api: bootstrap-test
	swift build --product routereg
	python3 Fuzz/api/fuzz_api.py --seconds $(FUZZ_API_SECONDS) --binary $(ROUTEREG_BIN)

## fuzz-api-smoke: the same from a fixed seed, 300 requests (part of make test, about 40 s)
fuzz-api-smoke: bootstrap-test
	python3 Fuzz/api/fuzz_api.py --examples 300 --seed 20 --binary $(ROUTEREG_BIN)

## soak: 5 minutes of wrk at 256 connections while releases are published, 10,000 idle connections, then 10,000
## routes created in one app while a reader checks the server keeps answering (RELIABILITY.md)
soak:
	scripts/bootstrap bench
	scripts/soak

## bench: routereg side by side with nginx, both as shipped (request logs to files) and with logs off (AASA GET,
## canOpen table GET, CanOpen over JSON-RPC), the write path, memory and the matcher, on loopback with a release
## build; about 20 minutes plus the build; rewrites BENCHMARKS.md (bench/bench.py)
bench:
	scripts/bootstrap bench
	python3 bench/bench.py

## bench-transport: libmicrohttpd and h2o with nothing above them, beside nginx (bench/transport/RESULTS.md: why
## the transport stays libmicrohttpd); about 15 minutes
bench-transport:
	scripts/bootstrap transport
	python3 bench/transport/floor.py
