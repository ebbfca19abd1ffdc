# preferans-dd: `make demo` analyses an example deal, `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
SOURCES := pyproject.toml setup.py $(wildcard csrc/*.c csrc/*.h csrc/*.py protos/*.py protos/*/*/*.proto)
EXAMPLE_DEAL := AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K
SANITIZE_DIR := build/sanitize
PGO_DIR := build/pgo

.PHONY: install test demo bench nodes sanitize pgo clean serve

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Editable install: the package build (setup.py) compiles the C core into
# solver/ and generates the gRPC code from protos/ into service/_proto/.
$(INSTALLED): $(BIN)/python $(SOURCES)
	rm -f solver/_core*.so
	$(BIN)/python -m pip install -q -e ".[test,service,dask]"
	touch $@

install: $(INSTALLED)

test: $(INSTALLED)
	$(BIN)/pytest -q tests

demo: $(INSTALLED)
	$(BIN)/prefdd analyze "$(EXAMPLE_DEAL)"
	@echo
	$(BIN)/prefdd solve "$(EXAMPLE_DEAL)" --contract 6c --declarer 1 --cards

bench: $(INSTALLED)
	$(BIN)/pytest -q benchmarks --benchmark-only --benchmark-columns=mean,median,max,rounds --benchmark-sort=name

# The node-count signature: every seeded benchmark set's values and nodes,
# compared with benchmarks/nodes.txt (a change that must not alter the search
# leaves it identical; about 20 s).
nodes: $(INSTALLED)
	$(BIN)/python benchmarks/nodes.py --check

# The gRPC service on 127.0.0.1:50051 (see README, "gRPC service").
serve: $(INSTALLED)
	$(BIN)/prefdd serve --port 50051

# The page and the JSON API on http://127.0.0.1:8080/ (and gRPC on 50051).
web: $(INSTALLED)
	$(BIN)/prefdd serve --port 50051 --http-port 8080

# The C core built with AddressSanitizer and UndefinedBehaviorSanitizer, under
# the tests that drive it hardest: reference positions, brute-force
# cross-checks, every error path of the C boundary, the analyses (best
# discard, all-pass max^n) that have C of their own, the searches with
# options off and on (partition entries against exact ones), and the fuzzing
# of every C entry point. A table request too large for the machine answers
# NULL (allocator_may_return_null), as it does without the sanitizers.
sanitize: $(INSTALLED)
	rm -rf $(SANITIZE_DIR) && mkdir -p $(SANITIZE_DIR)
	cp -r solver $(SANITIZE_DIR)/solver
	rm -f $(SANITIZE_DIR)/solver/_core*.so
	$(BIN)/python csrc/build_ffi.py $(SANITIZE_DIR) --sanitize
	LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	PREFDD_EXPECT_SANITIZED=1 PYTHONPATH=$(SANITIZE_DIR) \
	$(BIN)/pytest -q -p no:randomly tests/test_c_boundary.py tests/test_reference_data.py tests/test_brute_force.py \
		tests/test_analysis_c_boundary.py tests/test_analysis_allpass.py tests/test_analysis_discard.py \
		tests/test_order_weights.py tests/test_search_consistency.py tests/test_fuzz_c_boundary.py \
		tests/test_advice_split.py

# Profile-guided build (GCC): an instrumented extension, a fixed training
# workload through its C API (csrc/pgo_train.py), then the installed
# extension rebuilt with the profile (PREFDD_PROFILE, read by
# csrc/build_ffi.py). It stays until a change to the sources (or `touch
# setup.py`) makes the next target rebuild the plain one. The same variable
# makes a profile-guided wheel:
#   PREFDD_PROFILE=$$PWD/build/pgo/_core.gcda python -m build
pgo: $(INSTALLED)
	rm -rf $(PGO_DIR) && mkdir -p $(PGO_DIR)
	so=$$($(BIN)/python csrc/build_ffi.py $(PGO_DIR)/instrumented --profile-generate $(PGO_DIR)) && \
		$(BIN)/python csrc/pgo_train.py "$$so"
	PREFDD_PROFILE=$(CURDIR)/$(PGO_DIR)/_core.gcda $(BIN)/python -m pip install -q --no-deps -e .

clean:
	rm -rf build dist $(VENV) solver/_core*.so service/_proto/*_pb2* *.egg-info
