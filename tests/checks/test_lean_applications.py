"""The Lean family rejects the applications' head gaps claimed twice as large (``tests/lean_wrong/WrongApplications.lean``).

For each theorem of ``lean/HardSoft/Applications.lean`` (the half-temperature exponent of the
tie-breaking heads, the 0/1 heads, prefix-argmax at its tight instance, the Dyck partner's deficit
keys, the bounded lookup) the doubled gap must be reported as a Lean error inside its marked range, while the true
statement beside each (``RIGHT`` ranges), proved by the same script, checks without error, so the
errors come from the constants and not from the file's setup.  Marked ``lean`` (runs the
toolchain; deselect with ``-m 'not lean'``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hardsoft.checks.families.lean import build
from hardsoft.checks.families.lean import family as lf

WRONG_DIR = Path(__file__).resolve().parents[1] / "lean_wrong"
SOURCE = WRONG_DIR / "WrongApplications.lean"


def _marked_range(path: Path, tag: str) -> range:
    """Return the line range between ``-- <tag>-BEGIN`` and ``-- <tag>-END``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    begin = next(i for i, s in enumerate(lines, 1) if s.strip() == f"-- {tag}-BEGIN")
    end = next(i for i, s in enumerate(lines, 1) if s.strip() == f"-- {tag}-END")
    return range(begin, end + 1)


@pytest.fixture(scope="module")
def wrong_unit(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - a UnitResult
    """Build WrongApplications.lean once (skip when no toolchain can be had)."""
    from hardsoft.checks.families.lean.toolchain import ToolchainError, ensure_wasm_toolchain, find_native

    if find_native() is None:
        try:
            ensure_wasm_toolchain()
        except ToolchainError as e:
            pytest.skip(f"no Lean toolchain: {e}")
    units, findings, _tc = lf.check_sources(
        WRONG_DIR, tmp_path_factory.mktemp("lean-wrong-applications"), lambda _m: None, names=["WrongApplications"]
    )
    assert not findings, [f"{f.kind} at {f.line}" for f in findings]
    return units


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
@pytest.mark.parametrize("tag", ["A", "B", "C", "D", "E"])
def test_wrong_application_gap_rejected(wrong_unit, tag: str) -> None:  # noqa: ANN001
    """Gaps doubled: (A) exponent -4, (B) 0/1 gap 2, (C) 2/n^3, (D) deficit keys 2 apart, (E) 2K/n^2: an error in WRONG, none in RIGHT."""
    unit = wrong_unit["WrongApplications"]
    assert not unit.ok and unit.status == "error"
    wrong, right = _marked_range(SOURCE, f"WRONG-{tag}"), _marked_range(SOURCE, f"RIGHT-{tag}")
    msgs = [m.short() for m in unit.messages]
    assert any(m.severity == "error" and m.line in wrong for m in unit.messages), msgs
    assert not any(m.severity == "error" and m.line in right for m in unit.messages), msgs
    assert wrong_unit[build.BUNDLE_UNIT].returncode == 1
