#!/usr/bin/env bash
# Build the wheel and the sdist, install the wheel alone into a fresh virtual environment,
# and run `hardsoft check --preset tiny` from an empty directory: every family but smt whole (Lean included),
# and smt for one claim (Z: Z3, Yices and cvc5 run from the installed package).  CI runs this beside `make check`,
# which runs every SMT check from the tree; WHEEL_CHECK_ALL=1 runs every family whole here too.
# Usage: scripts/wheel-check.sh [PYTHON]   (PYTHON: an interpreter with the `build` package; default .venv/bin/python)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
py=${1:-$root/.venv/bin/python}
work=$(mktemp -d /tmp/hardsoft-wheel.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "== building wheel and sdist into $work/dist"
"$py" -m build --wheel --sdist --outdir "$work/dist" "$root" >"$work/build.log" 2>&1 || { tail -50 "$work/build.log"; exit 1; }
ls -l "$work/dist"
echo "== fresh virtual environment with only the wheel"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
"$work/venv/bin/python" -m pip install --quiet "$work"/dist/hardsoft-*.whl 2>&1 | grep -v "^WARNING: Location" || true
mkdir "$work/empty"
cd "$work/empty"
"$work/venv/bin/hardsoft" --version
"$work/venv/bin/python" -m hardsoft --version
# The Lean toolchain: the source tree's, when it has one (CI: make test installed it), so the wheel check does not
# download and unpack it a second time.  The Lean verdict cache lives beside it and is keyed by the sha256 of every
# Lean source, the generated pins, the toolchain, the flags and the checker's code as installed from the wheel: a hit
# means the wheel ships byte-identical Lean files and checker; anything else rebuilds.  WHEEL_CHECK_OWN_TOOLCHAIN=1
# forces a fresh install in the user cache instead (as a new user gets it).
if [ -z "${WHEEL_CHECK_OWN_TOOLCHAIN:-}" ] && [ -d "$root/.toolchain/lean-wasm" ] && [ -z "${HARDSOFT_TOOLCHAIN_DIR:-}" ]; then
  export HARDSOFT_TOOLCHAIN_DIR="$root/.toolchain"
  echo "== Lean toolchain and verdict cache of the source tree: $HARDSOFT_TOOLCHAIN_DIR"
fi
if [ -n "${WHEEL_CHECK_ALL:-}" ]; then
  echo "== hardsoft check --preset tiny from an empty directory ($PWD)"
  "$work/venv/bin/hardsoft" check --preset tiny
else
  echo "== hardsoft check --preset tiny --only spec,fuzz,verify,apps,lean from an empty directory ($PWD)"
  "$work/venv/bin/hardsoft" check --preset tiny --only spec,fuzz,verify,apps,lean --out report
  echo "== hardsoft check --preset tiny --only smt,Z (the SMT family from the wheel, one claim's checks)"
  "$work/venv/bin/hardsoft" check --preset tiny --only smt,Z --out report-smt
fi
