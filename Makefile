# preferans-dd: `make demo` analyses an example deal, `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
SOURCES := pyproject.toml $(wildcard csrc/*.c csrc/*.h csrc/*.py)
EXAMPLE_DEAL := AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K
SANITIZE_DIR := build/sanitize

.PHONY: install test demo bench nodes sanitize clean proto serve

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Editable install: the C core is compiled into solver/ by the package build.
$(INSTALLED): $(BIN)/python $(SOURCES)
	$(BIN)/python -m pip install -q -e ".[test,service]"
	touch $@

install: $(INSTALLED)

# gRPC code generated from protos/ into service/generated/ (git-ignored; never
# edited by hand). It imports itself as `preferans.v1.*`: service/proto.py
# puts service/generated on the path.
PROTOS := $(wildcard protos/preferans/v1/*.proto)
PROTO_OUT := service/generated
PROTO_STAMP := $(PROTO_OUT)/.generated

$(PROTO_STAMP): $(INSTALLED) $(PROTOS)
	rm -rf $(PROTO_OUT) && mkdir -p $(PROTO_OUT)
	$(BIN)/python -m grpc_tools.protoc -Iprotos --python_out=$(PROTO_OUT) --pyi_out=$(PROTO_OUT) \
		--grpc_python_out=$(PROTO_OUT) $(PROTOS)
	touch $@

proto: $(PROTO_STAMP)

test: $(INSTALLED) $(PROTO_STAMP)
	$(BIN)/pytest -q tests

demo: $(INSTALLED)
	$(BIN)/prefdd analyze "$(EXAMPLE_DEAL)"
	@echo
	$(BIN)/prefdd solve "$(EXAMPLE_DEAL)" --contract 6c --declarer 1 --cards

bench: $(INSTALLED) $(PROTO_STAMP)
	$(BIN)/pytest -q benchmarks --benchmark-only --benchmark-columns=mean,median,max,rounds --benchmark-sort=name

# The node-count signature: every seeded benchmark set's values and nodes,
# compared with benchmarks/nodes.txt (a change that must not alter the search
# leaves it identical; about 20 s).
nodes: $(INSTALLED)
	$(BIN)/python benchmarks/nodes.py --check

# The gRPC service on 127.0.0.1:50051 (see README, "gRPC service").
serve: $(INSTALLED) $(PROTO_STAMP)
	$(BIN)/prefdd serve --port 50051

# The page and the JSON API on http://127.0.0.1:8080/ (and gRPC on 50051).
web: $(INSTALLED) $(PROTO_STAMP)
	$(BIN)/prefdd serve --port 50051 --http-port 8080

# The C core built with AddressSanitizer and UndefinedBehaviorSanitizer, under
# the tests that drive it hardest: reference positions, brute-force
# cross-checks, every error path of the C boundary, the analyses (best
# discard, all-pass max^n) that have C of their own, and the searches with
# options off and on (partition entries against exact ones).
sanitize: $(INSTALLED)
	rm -rf $(SANITIZE_DIR) && mkdir -p $(SANITIZE_DIR)
	cp -r solver $(SANITIZE_DIR)/solver
	rm -f $(SANITIZE_DIR)/solver/_core*.so
	$(BIN)/python csrc/build_ffi.py $(SANITIZE_DIR) --sanitize
	LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	PREFDD_EXPECT_SANITIZED=1 PYTHONPATH=$(SANITIZE_DIR) \
	$(BIN)/pytest -q -p no:randomly tests/test_c_boundary.py tests/test_reference_data.py tests/test_brute_force.py \
		tests/test_analysis_c_boundary.py tests/test_analysis_allpass.py tests/test_analysis_discard.py \
		tests/test_order_weights.py tests/test_search_consistency.py

clean:
	rm -rf build $(VENV) solver/_core*.so *.egg-info
