#!/usr/bin/env bash
# Issue 7: build the wheel and the sdist, install the wheel alone into a fresh virtual environment,
# and run `hardsoft check --preset tiny` (every family, Lean included) from an empty directory.
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
echo "== hardsoft check --preset tiny from an empty directory ($PWD)"
"$work/venv/bin/hardsoft" check --preset tiny
