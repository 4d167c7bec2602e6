# signin-spec: `make verify` checks the models, `make test` runs the tests.
# Both install what they need on a fresh Debian machine (libz3-dev through apt-get).

SWIFT ?= swift
BUILD_FLAGS ?= -c release
BIN = .build/release/signin-spec
JUNIT ?= .build/verify.junit.xml

.PHONY: verify test bench build deps moto clean

## Install Debian's Z3 (C API) when pkg-config cannot find it.
deps:
	@if ! pkg-config --exists z3 2>/dev/null; then \
	  echo "installing libz3-dev (pkg-config found no z3)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libz3-dev pkg-config) >/dev/null \
	    || { echo "error: could not install libz3-dev; install it with apt-get" >&2; exit 1; }; \
	fi

## moto's Cognito server, for the tests that talk HTTP to a real Cognito-compatible server.
moto:
	@python3 -c "import moto.server, flask" 2>/dev/null || pip install -q "moto[server]"

build: deps
	$(SWIFT) build $(BUILD_FLAGS) --product signin-spec

## Check every model in models/ and write a JUnit report for CI.
verify: build
	$(BIN) verify --junit $(JUNIT)
	$(BIN) replay counterexamples

## Unit, model and command-line tests (Swift Testing).
test: deps moto
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## Benchmarks: both engines on each shipped model, and scaling on synthetic models.
bench: build
	$(BIN) bench
	@for m in models/*.yaml; do \
	  /usr/bin/time -f "$$m: verify (both engines) %e s wall, %M KiB max RSS" $(BIN) verify "$$m" > /dev/null; \
	done
	@/usr/bin/time -f "diff 2024 -> 2026: %e s wall, %U s user" $(BIN) diff models/2024-flutter.yaml \
	  models/2026-all-platforms.yaml > /dev/null || true
	@/usr/bin/time -f "diff 2026 -> 2026 + voice MFA: %e s wall, %U s user" $(BIN) diff models/2026-all-platforms.yaml \
	  examples/2026-voice-mfa.yaml > /dev/null || true
	@/usr/bin/time -f "verify 2026 + voice MFA: %e s wall, %U s user" $(BIN) verify examples/2026-voice-mfa.yaml \
	  > /dev/null

clean:
	rm -rf .build
