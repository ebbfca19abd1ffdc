# preferans-dd: `make demo` runs the solver on an example deal, `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
SOURCES := pyproject.toml $(wildcard csrc/*.c csrc/*.h csrc/*.py)
EXAMPLE_DEAL := AQ7.K98.KT.QJ K.AQ7.AQ7.T87 JT98.JT.98.A9 ..J.K
SANITIZE_DIR := build/sanitize

.PHONY: install test demo bench sanitize clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Editable install: the C core is compiled into solver/ by the package build.
$(INSTALLED): $(BIN)/python $(SOURCES)
	$(BIN)/python -m pip install -q -e ".[test,service]"
	touch $@

install: $(INSTALLED)

test: $(INSTALLED)
	$(BIN)/pytest -q tests

demo: $(INSTALLED)
	$(BIN)/prefdd table "$(EXAMPLE_DEAL)"
	@echo
	$(BIN)/prefdd solve "$(EXAMPLE_DEAL)" --contract 6c --declarer 1 --cards

bench: $(INSTALLED)
	$(BIN)/pytest -q benchmarks --benchmark-only --benchmark-columns=mean,median,max,rounds --benchmark-sort=name

# The C core built with AddressSanitizer and UndefinedBehaviorSanitizer, under
# the tests that drive it hardest: reference positions, brute-force
# cross-checks and every error path of the C boundary.
sanitize: $(INSTALLED)
	rm -rf $(SANITIZE_DIR) && mkdir -p $(SANITIZE_DIR)
	cp -r solver $(SANITIZE_DIR)/solver
	rm -f $(SANITIZE_DIR)/solver/_core*.so
	$(BIN)/python csrc/build_ffi.py $(SANITIZE_DIR) --sanitize
	LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	PREFDD_EXPECT_SANITIZED=1 PYTHONPATH=$(SANITIZE_DIR) \
	$(BIN)/pytest -q -p no:randomly tests/test_c_boundary.py tests/test_reference_data.py tests/test_brute_force.py

clean:
	rm -rf build $(VENV) solver/_core*.so *.egg-info
