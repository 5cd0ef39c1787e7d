"""The Lean family rejects the head mass bounds claimed twice as tight (``tests/lean_wrong/WrongHeadMass.lean``).

For each bound of ``lean/HardSoft/HeadMass.lean`` (a head's output error within its mass off, the
sign head's 2x, the two-sided lookup's 2x/(1-x), the temperature rules' 1/(16m)) the halved bound
must be reported as a Lean error inside its marked range at an instance where the true bound is
nearly attained, while the true statement beside each (``RIGHT`` ranges), proved by the same
script, checks without error, so the errors come from the constants and not from the file's
setup.  Marked ``lean`` (runs the toolchain; deselect with ``-m 'not lean'``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hardsoft.checks.families.lean import build
from hardsoft.checks.families.lean import family as lf

WRONG_DIR = Path(__file__).resolve().parents[1] / "lean_wrong"
SOURCE = WRONG_DIR / "WrongHeadMass.lean"


def _marked_range(path: Path, tag: str) -> range:
    """Return the line range between ``-- <tag>-BEGIN`` and ``-- <tag>-END``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    begin = next(i for i, s in enumerate(lines, 1) if s.strip() == f"-- {tag}-BEGIN")
    end = next(i for i, s in enumerate(lines, 1) if s.strip() == f"-- {tag}-END")
    return range(begin, end + 1)


@pytest.fixture(scope="module")
def wrong_unit(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - a UnitResult
    """Build WrongHeadMass.lean once (skip when no toolchain can be had)."""
    from hardsoft.checks.families.lean.toolchain import ToolchainError, ensure_wasm_toolchain, find_native

    if find_native() is None:
        try:
            ensure_wasm_toolchain()
        except ToolchainError as e:
            pytest.skip(f"no Lean toolchain: {e}")
    units, findings, _tc = lf.check_sources(WRONG_DIR, tmp_path_factory.mktemp("lean-wrong-headmass"), lambda _m: None, names=["WrongHeadMass"])
    assert not findings, [f"{f.kind} at {f.line}" for f in findings]
    return units


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
@pytest.mark.parametrize("tag", ["A", "B", "C", "D"])
def test_wrong_head_mass_rejected(wrong_unit, tag: str) -> None:  # noqa: ANN001
    """Halved: (A) output error (1 - p_t)/2, (B) sign head x, (C) two-sided x/(1-x), (D) rule 1/(32m): an error in WRONG, none in RIGHT."""
    unit = wrong_unit["WrongHeadMass"]
    assert not unit.ok and unit.status == "error"
    wrong, right = _marked_range(SOURCE, f"WRONG-{tag}"), _marked_range(SOURCE, f"RIGHT-{tag}")
    msgs = [m.short() for m in unit.messages]
    assert any(m.severity == "error" and m.line in wrong for m in unit.messages), msgs
    assert not any(m.severity == "error" and m.line in right for m in unit.messages), msgs
    assert wrong_unit[build.BUNDLE_UNIT].returncode == 1
