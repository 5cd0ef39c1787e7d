"""The wrong Lean files of ``tests/lean_wrong/``: build one, and check that Lean rejects each WRONG range and not its RIGHT twin.

A wrong file marks each planted statement with ``-- WRONG-<tag>-BEGIN`` / ``-END`` and the true
statement beside it, proved by the same script, with ``-- RIGHT-<tag>-BEGIN`` / ``-END``: an error
inside WRONG and none inside RIGHT shows the error comes from the planted constant, not the setup.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from hardsoft.checks.families.lean import build
from hardsoft.checks.families.lean import family as lf

WRONG_DIR = Path(__file__).resolve().parent / "lean_wrong"


def marked_range(path: Path, tag: str) -> range:
    """Return the line range between ``-- <tag>-BEGIN`` and ``-- <tag>-END``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    begin = next(i for i, s in enumerate(lines, 1) if s.strip() == f"-- {tag}-BEGIN")
    end = next(i for i, s in enumerate(lines, 1) if s.strip() == f"-- {tag}-END")
    return range(begin, end + 1)


#: The wrong files with WRONG/RIGHT pairs, checked together as ONE bundle (each in a section of its own; they
#: import nothing and declare no common name): one wasm process instead of five saves about 20 s of start-up
#: and import each.  Every file has its planted errors, so each is reported "error" with its own messages; a
#: file whose WRONG statements all checked would be "blocked" (no error of its own), which fails its test.
BUNDLED_WRONG_FILES = ("WrongApplications", "WrongConstructions", "WrongHeadMass", "WrongMassOff", "WrongStatements")

_built: dict[str, dict] = {}
#: One build at a time: tests/checks/test_lean.py starts it in a thread beside the real project, the tests here may ask meanwhile.
_building = threading.Lock()


def build_wrong(tmp_path_factory: pytest.TempPathFactory, name: str) -> dict:
    """Return the units of checking ``tests/lean_wrong/<name>.lean`` with the other bundled wrong files.

    Built once per session; skips when no Lean toolchain can be had.
    """
    from hardsoft.checks.families.lean.toolchain import ToolchainError, ensure_wasm_toolchain, find_native

    assert name in BUNDLED_WRONG_FILES, f"{name}.lean is not one of BUNDLED_WRONG_FILES"
    if find_native() is None:
        try:
            ensure_wasm_toolchain()
        except ToolchainError as e:
            pytest.skip(f"no Lean toolchain: {e}")
    with _building:
        if "units" not in _built:
            out = tmp_path_factory.mktemp("lean-wrong-files")
            units, findings, _tc = lf.check_sources(WRONG_DIR, out, lambda _m: None, names=list(BUNDLED_WRONG_FILES))
            assert not findings, [f.short() for f in findings]
            _built["units"] = units
    return _built["units"]


def assert_wrong_rejected(units: dict, name: str, tag: str) -> None:
    """Assert that Lean reported an error inside WRONG-<tag> of <name>.lean, none inside RIGHT-<tag>, and that the build failed."""
    unit = units[name]
    assert not unit.ok and unit.status == "error"
    source = WRONG_DIR / f"{name}.lean"
    wrong, right = marked_range(source, f"WRONG-{tag}"), marked_range(source, f"RIGHT-{tag}")
    msgs = [m.short() for m in unit.messages]
    assert any(m.severity == "error" and m.line in wrong for m in unit.messages), msgs
    assert not any(m.severity == "error" and m.line in right for m in unit.messages), msgs
    assert units[build.BUNDLE_UNIT].returncode == 1
