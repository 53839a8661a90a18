# The two commands a newcomer needs: `make run` and `make test`. Everything else is for the team.
SHELL := /bin/bash
LISTEN ?= 127.0.0.1:8080
SWIFT_TEST_FLAGS ?=

.PHONY: run test build release bootstrap format lint clean

bootstrap:
	@scripts/bootstrap

build: bootstrap
	swift build

release: bootstrap
	swift build -c release --product routereg

## run: the registry on $(LISTEN), backed by an embedded PostgreSQL under ./.routereg
run: release
	.build/release/routereg serve --listen $(LISTEN)

## test: every suite, against a real PostgreSQL the tests start themselves
test: bootstrap
	swift build --build-tests
	swift test --skip-build $(SWIFT_TEST_FLAGS)

format:
	swift format -i -r Package.swift Sources Tests Clients/swift

lint:
	swift format lint -r Package.swift Sources Tests Clients/swift

clean:
	rm -rf .build
