# signin-spec: `make verify` checks the models, `make test` runs the tests.
# Both install what they need on a fresh Debian machine (libz3-dev and libssl-dev through apt-get).

SWIFT ?= swift
# One build serves verify, the tests and bench: release code with testability on, so the test
# targets (`@testable import`) link against the same objects `make verify` built (no second,
# debug build of BoringSSL, Z3's bindings and the rest).
BUILD_FLAGS ?= -c release -Xswiftc -enable-testing
BIN = .build/release/signin-spec
JUNIT ?= .build/verify.junit.xml

.PHONY: corpus corpus-check verify test test-long test-times test-build bench bench-serve bench-adapters adapter-findings build deps moto python-tools clean graphs graphviz ci-tools lint-ci format format-check browser fuzz-loader mitmproxy voice-example bench-scale bench-compare command-reference

MODELS = $(wildcard models/*.yaml)
DEBUG_BIN = .build/debug/signin-spec

## Install Debian's Z3 (C API) and OpenSSL's libcrypto (SRP's arithmetic) when pkg-config cannot find them.
deps:
	@if ! pkg-config --exists z3 2>/dev/null; then \
	  echo "installing libz3-dev (pkg-config found no z3)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libz3-dev pkg-config) >/dev/null \
	    || { echo "error: could not install libz3-dev; install it with apt-get" >&2; exit 1; }; \
	fi
	@if ! pkg-config --exists libcrypto 2>/dev/null; then \
	  echo "installing libssl-dev (pkg-config found no libcrypto)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libssl-dev pkg-config) >/dev/null \
	    || { echo "error: could not install libssl-dev; install it with apt-get" >&2; exit 1; }; \
	fi

## moto's Cognito server, for the tests that talk HTTP to a real Cognito-compatible server.
moto:
	@python3 -c "import moto.server, flask" 2>/dev/null || pip install -q "moto[server]"

## The third-party client test's tools: boto3 (Cognito's Python SDK), pytest and pytest-xdist
## (the Python tests on PYTEST_JOBS workers), pyotp (RFC 6238).
python-tools:
	@python3 -c "import boto3, pytest" 2>/dev/null || pip install -q boto3 pytest
	@python3 -c "import xdist" 2>/dev/null || pip install -q pytest-xdist
	@python3 -c "import pyotp" 2>/dev/null || pip install -q pyotp
	@python3 -c "import pycognito" 2>/dev/null || pip install -q pycognito

## PyPI mitmproxy (mitmdump, HAR export) in its own virtual environment, .venv-mitmproxy/: its
## pins clash with moto's, so it never goes into the main Python. scripts/record.py uses it.
mitmproxy:
	@test -x .venv-mitmproxy/bin/mitmdump || { python3 -m venv .venv-mitmproxy && \
	  .venv-mitmproxy/bin/pip install -q --disable-pip-version-check mitmproxy; }
	@.venv-mitmproxy/bin/mitmdump --version 2>&1 | sed -n 1p

## PyPI tools the tests and lint-ci use: sarif-pydantic (SARIF 2.1.0 object model),
## jsonschema (model export schema), check-jsonschema (GitHub workflow schema).
ci-tools:
	@python3 -c "import sarif_pydantic, jsonschema" 2>/dev/null || pip install -q sarif-pydantic jsonschema
	@command -v check-jsonschema >/dev/null 2>&1 || pip install -q check-jsonschema

## The example GitHub workflow, checked offline against the schema check-jsonschema ships.
lint-ci: ci-tools
	check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/verify.yml

## Debian's Graphviz (dot), for graph --format svg.
graphviz:
	@if ! command -v dot >/dev/null 2>&1; then \
	  echo "installing graphviz (no dot on PATH)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz) >/dev/null \
	    || { echo "error: could not install graphviz; install it with apt-get" >&2; exit 1; }; \
	fi

## Diagrams of every shipped model in docs/: Mermaid (in Markdown) and SVG.
graphs: build graphviz
	@mkdir -p docs
	@for m in $(MODELS); do \
	  name=$$(basename $$m .yaml); \
	  { echo "# $$name"; echo; echo "Drawn by \`signin-spec graph $$m\` (\`make graphs\`)."; echo; \
	    echo '```mermaid'; $(BIN) graph $$m; echo '```'; } > docs/$$name.md || exit 1; \
	  $(BIN) graph $$m --format svg > docs/$$name.svg || exit 1; \
	  echo "docs/$$name.md docs/$$name.svg"; \
	done

## The HTML report's browser test: Debian's chromium and chromium-driver, PyPI selenium (drives
## the browser) and axe-selenium-python (bundles axe-core, the accessibility check).
browser:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then \
	  echo "installing chromium and chromium-driver (for the HTML report's browser test)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver) >/dev/null \
	    || { echo "error: could not install chromium; install it with apt-get" >&2; exit 1; }; \
	fi
	@python3 -c "import selenium, axe_selenium_python" 2>/dev/null || pip install -q selenium axe-selenium-python

## Format the tree with the toolchain's swift-format (.swift-format: 2 spaces, 120 columns).
format:
	swift-format format --in-place --parallel --recursive Sources Tests Package.swift

## Fails when a file is not formatted as `make format` would write it: formats a copy of the tree
## and compares. (A formatting check proper: `swift-format lint --strict` also reports naming rules
## `format` cannot fix, such as SRP's N, B, S of RFC 5054 and Cognito's wire names in enum cases.)
format-check:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  cp -R Sources Tests Package.swift .swift-format "$$tmp"/ && \
	  swift-format format --in-place --parallel --recursive "$$tmp/Sources" "$$tmp/Tests" "$$tmp/Package.swift" && \
	  changed=$$(for f in $$(find Sources Tests -name '*.swift') Package.swift; do \
	    cmp -s "$$f" "$$tmp/$$f" || echo "$$f"; done) && \
	  if [ -n "$$changed" ]; then \
	    echo "$$changed" | sed 's/$$/: not formatted/' >&2; \
	    echo "error: $$(echo "$$changed" | wc -l) files not formatted; run make format" >&2; exit 1; \
	  fi

build: deps
	$(SWIFT) build $(BUILD_FLAGS) --product signin-spec

## Check every model in models/ (JUnit report for CI), replay counterexamples, check scenarios/.
verify: build
	$(BIN) verify --junit $(JUNIT)
	$(BIN) replay counterexamples
	$(BIN) scenarios scenarios
	$(BIN) docs

## The tests come in two tiers, chosen by suite name (docs/guide/testing.md). Suites whose type name
## ends in `LongTests` (engine-agreement sweeps, long chains, full-size loader fuzz and bug
## catalogue) run in `make test-long`, with `corpus-check`; everything else, including a short
## smoke run of each long check, runs in `make test`.
LONG_TESTS = LongTests(/|$$)
## Suites that serve HTTP from inside the test process run in a `swift test` process of their own
## within `make test`: beside Z3 and the explicit search, which hold Swift's cooperative threads
## (two on this machine) for seconds at a time, a request could wait past URLSession's limit.
SERVER_TESTS = ^CognitoServerTests\.|\.ServeCommandTests(/|$$)|\.ReferenceAdapterTests(/|$$)|\.AdapterFuzzTests(/|$$)|\.AdapterFuzzCommandTests(/|$$)|\.AdapterEndpointCommandTests(/|$$)|\.PythonAdapterFuzzTests(/|$$)
SERVER_TEST_EVENTS = .build/test-server-events.jsonl
TEST_EVENTS = .build/test-events.jsonl
LONG_TEST_EVENTS = .build/test-long-events.jsonl

test-build: deps
	$(SWIFT) build $(BUILD_FLAGS) --build-tests

## Unit, model, command-line and conformance tests (Swift Testing), after the formatting check
## (`make test FORMAT_CHECK=` skips it); then the five slowest suites of the run.
FORMAT_CHECK ?= format-check
## Workers for the Python tests (pytest-xdist; each test file stays on one worker, in order, so
## the files' examples that write under .build/ never race). 0 runs them in the pytest process.
PYTEST_JOBS ?= 2
test: deps moto python-tools ci-tools graphviz browser lint-ci $(FORMAT_CHECK) test-build
	$(SWIFT) test $(BUILD_FLAGS) --skip-build --skip '$(LONG_TESTS)|$(SERVER_TESTS)' \
	  --event-stream-output-path $(TEST_EVENTS) --event-stream-version 0
	@python3 scripts/test-times.py $(TEST_EVENTS) --top 5 --suites-only
	$(SWIFT) test $(BUILD_FLAGS) --skip-build --filter '$(SERVER_TESTS)' \
	  --event-stream-output-path $(SERVER_TEST_EVENTS) --event-stream-version 0
	python3 -m pytest -q -n $(PYTEST_JOBS) --dist loadfile Tests/python

## The long tier: the suites `make test` leaves out (run before resolving an issue they cover;
## the example workflow runs it nightly).
test-long: deps moto ci-tools test-build
	$(SWIFT) test $(BUILD_FLAGS) --skip-build --filter '$(LONG_TESTS)' \
	  --event-stream-output-path $(LONG_TEST_EVENTS) --event-stream-version 0
	@python3 scripts/test-times.py $(LONG_TEST_EVENTS) --top 5 --suites-only
	$(MAKE) corpus-check
	$(MAKE) adapter-findings

## Where the time goes: both tiers run one test at a time (so a test's time is its own, not
## time spent waiting for a core), then the slowest suites and tests of each.
## `TIERS=fast` or `TIERS=long` measures one tier.
TIERS ?= fast long
test-times: deps moto ci-tools test-build
	@for tier in $(TIERS); do \
	  case $$tier in fast) sel="--skip";; long) sel="--filter";; *) echo "error: TIERS: fast or long, not $$tier" >&2; exit 64;; esac; \
	  $(SWIFT) test $(BUILD_FLAGS) --skip-build --no-parallel $$sel '$(LONG_TESTS)' \
	    --event-stream-output-path .build/test-times-$$tier.jsonl --event-stream-version 0 > .build/test-times-$$tier.log 2>&1 \
	    || { tail -20 .build/test-times-$$tier.log; exit 1; }; \
	  echo "== $$tier tier (make $$( [ $$tier = fast ] && echo test || echo test-long )), one test at a time"; \
	  python3 scripts/test-times.py .build/test-times-$$tier.jsonl --top 10 || exit 1; \
	done

BUILTIN_INVARIANTS = terminates failAuthenticationRestarts noFactorSkipped offersAreUsable deterministic \
  isSignedInIffDone staysInDomain stepsReachable doneReachable boundedFailures preferredMFAHonoured \
  challengesUsableFactor failedResponseNeverVerifies

## Benchmarks: both engines on each shipped model, and scaling on synthetic models (bench-scale: the
## generated 1,000 and 10,000 element models, and chains of 50 and 200 steps, which Z3 must decide).
## `prove` of every shipped model and property, process included: the median of 5 runs.
bench: build bench-scale
	$(BIN) bench
	@rm -f .build/prove.times; for i in 1 2 3 4 5; do \
	  /usr/bin/time -a -o .build/prove.times -f "%e" $(BIN) prove > /dev/null || exit 1; done; \
	  echo "prove (3 shipped models, every property, process included): median of 5 runs" \
	    "$$(sort -n .build/prove.times | sed -n 3p) s wall (goal: under 1 s); runs: $$(tr '\n' ' ' < .build/prove.times)"
	$(BIN) bench --bugs
	@for m in models/*.yaml; do \
	  /usr/bin/time -f "$$m: verify (both engines) %e s wall, %M KiB max RSS" $(BIN) verify "$$m" > /dev/null; \
	done
	@/usr/bin/time -f "diff 2024 -> 2026: %e s wall, %U s user" $(BIN) diff models/2024-flutter.yaml \
	  models/2026-all-platforms.yaml > /dev/null || true
	@/usr/bin/time -f "diff 2026 -> 2026: %e s wall, %U s user (goal: at most 5 s)" $(BIN) diff \
	  models/2026-all-platforms.yaml models/2026-all-platforms.yaml > /dev/null || true
	@/usr/bin/time -f "diff 2026 -> 2026 + voice MFA: %e s wall, %U s user (goal: at most 5 s)" $(BIN) diff models/2026-all-platforms.yaml \
	  examples/2026-voice-mfa.yaml > /dev/null || true
	@/usr/bin/time -f "verify 2026 (both engines): %e s wall, %U s user (goal: at most 5 s)" $(BIN) verify \
	  models/2026-all-platforms.yaml > /dev/null
	@/usr/bin/time -f "verify 2026 + voice MFA: %e s wall, %U s user (goal: at most 1.5x the line above)" \
	  $(BIN) verify examples/2026-voice-mfa.yaml > /dev/null
	@# The performance figures are stated in CPU time (docs/guide/figures.md): the explicit engine
	@# on the 2026 model (verify, which includes lint, and lint alone), prove on the same checks as before.
	@/usr/bin/time -f "2026 explicit (verify --engines explicit --jobs 1): %e s wall, %U s user, %S s sys" \
	  $(BIN) verify models/2026-all-platforms.yaml --engines explicit --jobs 1 > /dev/null
	@/usr/bin/time -f "2026 lint (the part of verify that is not the engine): %e s wall, %U s user, %S s sys" \
	  $(BIN) lint models/2026-all-platforms.yaml > /dev/null
	@/usr/bin/time -f "prove, the 13 built-in invariants only: %e s wall, %U s user, %S s sys" $(BIN) prove \
	  $(foreach i,$(BUILTIN_INVARIANTS),--invariant $(i)) > /dev/null

## The figures of `make bench` side by side with a baseline binary in the same run
## (scripts/bench-compare.py): `make bench-compare BASELINE_BIN=../baseline/.build/release/signin-spec`.
bench-compare: build
	@test -n "$(BASELINE_BIN)" || { echo "error: give BASELINE_BIN=PATH (a signin-spec built from an earlier commit)" >&2; exit 64; }
	python3 scripts/bench-compare.py "$(BASELINE_BIN)" $(BIN)

## `signin-spec serve` under load (scripts/serve-load.py): USER_PASSWORD_AUTH and SRP with TOTP
## MFA sign-ins from 1 and 8 clients, 500 sign-ins or 60 s per run (about 100 s in all), each run on
## its own server; sign-ins/s, requests/s, latency p50/p99, CPU of server and load generator.
## Not part of `make test`; docs/guide/figures.md has the full runs.
BENCH_SERVE_COUNT ?= 500
bench-serve: build python-tools
	python3 scripts/serve-load.py --binary $(BIN) --scenario password --scenario srp-totp \
	  --clients 1 --clients 8 --count $(BENCH_SERVE_COUNT) --seconds 60

## Client adapters (docs/guide/adapters.md): calls/s on USER_PASSWORD_AUTH through the table adapter
## (the protocol alone, beside a call through serve), the reference adapter and the boto3 adapter;
## then the deliberate-bug table through the reference adapter beside in process. About a minute.
bench-adapters: build python-tools
	$(BIN) bench --adapters --adapter "python3 adapters/boto3/adapter.py"
	$(BIN) bench --adapter-bugs

## The fuzzer on the shipped client adapters (docs/guide/adapters.md, "Findings"): boto3
## (ADAPTER_RUNS_BOTO3 cases) and pycognito (ADAPTER_RUNS_PYCOGNITO, every one an SRP sign-in) on
## every shipped model, seed 1, 2 jobs. The shrunk findings must be the ones committed in
## counterexamples/adapters/<adapter>/ (ADAPTER_CORPUS=update rewrites them), and each committed
## finding must still fail when replayed through its adapter (a pass means the client changed).
## Part of `make test-long`; about 15 minutes on this machine.
ADAPTER_RUNS_BOTO3 ?= 20000
ADAPTER_RUNS_PYCOGNITO ?= 2000
ADAPTER_CORPUS ?= check
adapter-findings: build python-tools
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	for a in boto3 pycognito; do \
	  runs=$(ADAPTER_RUNS_BOTO3); [ $$a = pycognito ] && runs=$(ADAPTER_RUNS_PYCOGNITO); \
	  for m in models/*.yaml; do \
	    start=$$(date +%s); \
	    $(BIN) fuzz --model "$$m" --adapter "python3 adapters/$$a/adapter.py" --runs $$runs --seed 1 --jobs 2 \
	      --corpus "$$tmp/$$a" > "$$tmp/log" 2>&1; rc=$$?; \
	    if [ $$rc -gt 1 ]; then cat "$$tmp/log"; exit $$rc; fi; \
	    echo "$$a on $$m: $$runs cases in $$(( $$(date +%s) - start )) s, $$(grep -c 'saved as' "$$tmp/log") findings," \
	      "$$(grep -A0 'unsupported by this client:' "$$tmp/log" | grep -o '[0-9]* case' | head -1 | cut -d' ' -f1) unsupported"; \
	  done; \
	  if [ "$(ADAPTER_CORPUS)" = update ]; then \
	    rm -rf counterexamples/adapters/$$a && mkdir -p counterexamples/adapters && cp -r "$$tmp/$$a" counterexamples/adapters/$$a; \
	  fi; \
	  missing=$$(cd counterexamples/adapters/$$a 2>/dev/null && for f in *.json; do [ -e "$$tmp/$$a/$$f" ] || echo "$$f"; done); \
	  extra=$$(cd "$$tmp/$$a" && for f in *.json; do [ -e "$(CURDIR)/counterexamples/adapters/$$a/$$f" ] || echo "$$f"; done); \
	  if [ -n "$$missing$$extra" ]; then \
	    [ -z "$$missing" ] || echo "$$missing" | sed "s|^|not found again: counterexamples/adapters/$$a/|" >&2; \
	    [ -z "$$extra" ] || echo "$$extra" | sed "s|^|found but not in counterexamples/adapters/$$a/: |" >&2; \
	    echo "error: the $$a findings differ from the committed ones; review, then make adapter-findings ADAPTER_CORPUS=update" >&2; \
	    exit 1; \
	  fi; \
	  n=$$(ls counterexamples/adapters/$$a/*.json | wc -l); \
	  $(BIN) replay counterexamples/adapters/$$a --adapter "python3 adapters/$$a/adapter.py" > "$$tmp/replay" 2>&1; \
	  tail -1 "$$tmp/replay" | grep -q ": 0 passed, $$n failed, 0 stale" || { cat "$$tmp/replay"; \
	    echo "error: every $$a finding must still fail through its adapter" >&2; exit 1; }; \
	  echo "$$a: $$n findings regenerate exactly and each still fails when replayed"; \
	done

## Regenerate counterexamples/ after a change of the models or the oracle: every deliberate bug
## on every shipped model, seed 3, each failure shrunk and saved once per root cause; then replay
## them on the reference client (every case must pass). `CORPUS_RUNS` cases per bug and model.
## The bug list is DeliberateBug.allCases (a test checks that the two agree).
DELIBERATE_BUGS = wrongStepMapping sessionNotRefreshed retryRefusedAfterWrongCode \
  noRestartAfterFailAuthentication offersUnusableType stuckOnUnknownChallenge wrongDeliveryMedium \
  wrongMaskedDestination droppedChallengeParameters truncatedTOTPSecret signedInOnChallenge resultSignedInOnChallenge \
  userKeptAfterSignOut wrongErrorType secretInErrorText lockoutOneEarly staleSessionAfterRestart \
  staleChallengeAfterFailedSignIn networkFaultEndsFlow mfaSelectionDropsEmail firstFactorOffersWebAuthn \
  emailCodeAsSMSStep setupFaultKeepsStep serviceErrorEndsFlow
CORPUS_RUNS ?= 2000
## Generated models (scripts/big-model.py) of 1,000 and 10,000 configuration variables,
## unreachable steps, chained steps and chained routes: verify's wall time, memory and exit
## (goal: an answer, or UNKNOWN naming the limit, within 60 s; never a signal), and graph's.
bench-scale: build
	@mkdir -p .build/big
	@for n in 1000 10000; do for k in variables unreachable chain routes; do \
	  python3 scripts/big-model.py $$k $$n > .build/big/$$k-$$n.yaml || exit 1; \
	  /usr/bin/time -f "verify $$k x $$n: %e s wall (goal: under 60 s), %M KiB max RSS, exit %x" \
	    $(BIN) verify .build/big/$$k-$$n.yaml > /dev/null 2> .build/big/$$k-$$n.err; \
	  tail -1 .build/big/$$k-$$n.err; \
	done; done
	@for n in 50 200; do python3 scripts/big-model.py chain $$n > .build/big/chain-$$n.yaml || exit 1; \
	  /usr/bin/time -f "verify chain x $$n: %e s wall (goal: under 60 s, every property decided), exit %x" \
	    $(BIN) verify .build/big/chain-$$n.yaml 2>&1 >/dev/null | tail -1; \
	done
	@for k in variables unreachable chain routes; do \
	  /usr/bin/time -f "graph $$k x 10000: %e s wall (goal: under 60 s), %M KiB max RSS, exit %x" \
	    $(BIN) graph .build/big/$$k-10000.yaml 2>&1 >/dev/null | tail -1; \
	done

## docs/guide/commands.md, written anew from every subcommand's --help (a test fails when stale).
command-reference: build
	SIGNIN_SPEC_BIN=$(BIN) python3 scripts/command-reference.py

## examples/2026-voice-mfa.yaml, written anew: today's 2026 model plus voice MFA only (docs/guide/models.md,
## "Adding a new MFA type"; a test fails when the example is stale).
voice-example:
	python3 scripts/voice-example.py

corpus: build
	rm -f counterexamples/*.json
	@for bug in $(DELIBERATE_BUGS); do for m in models/*.yaml; do \
	  $(BIN) fuzz --model "$$m" --client "$$bug" --runs $(CORPUS_RUNS) --seed 3 --jobs 1 --corpus counterexamples \
	    > .build/corpus.log 2>&1; rc=$$?; \
	  if [ $$rc -gt 1 ]; then cat .build/corpus.log; exit $$rc; fi; \
	  echo "$$bug on $$m: $$(grep -c 'saved as counterexamples' .build/corpus.log) saved"; \
	done; done
	$(BIN) replay counterexamples

## The corpus is reproducible: regenerate it into a scratch folder exactly as `make corpus`
## does (same seed, same runs) and require the same case files as counterexamples/ holds.
## Part of `make test-long`; after a change of the models or the oracle, `make corpus` rewrites it.
corpus-check: build
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	for bug in $(DELIBERATE_BUGS); do for m in models/*.yaml; do \
	  $(BIN) fuzz --model "$$m" --client "$$bug" --runs $(CORPUS_RUNS) --seed 3 --jobs 1 --corpus "$$tmp" \
	    > "$$tmp.log" 2>&1; rc=$$?; \
	  if [ $$rc -gt 1 ]; then cat "$$tmp.log"; rm -f "$$tmp.log"; exit $$rc; fi; \
	done; done; rm -f "$$tmp.log"; \
	missing=$$(cd counterexamples && for f in *.json; do [ -e "$$tmp/$$f" ] || echo "$$f"; done); \
	extra=$$(cd "$$tmp" && for f in *.json; do [ -e "$(CURDIR)/counterexamples/$$f" ] || echo "$$f"; done); \
	if [ -n "$$missing$$extra" ]; then \
	  [ -z "$$missing" ] || echo "$$missing" | sed 's/^/not regenerated: counterexamples\//' >&2; \
	  [ -z "$$extra" ] || echo "$$extra" | sed 's/^/regenerated but not in counterexamples\/: /' >&2; \
	  echo "error: the corpus does not regenerate as committed; run make corpus and review the change" >&2; exit 1; \
	fi; echo "corpus-check: $$(ls counterexamples/*.json | wc -l) cases regenerate exactly"

## The loader's long fuzz run: 100,000 mutated models in process, a sample through the binary.
fuzz-loader: build
	$(SWIFT) build $(BUILD_FLAGS) --product loader-fuzz
	.build/release/loader-fuzz --inputs 100000 --binary $(BIN)

clean:
	rm -rf .build
