"""The Lean family rejects wrong construction constants (``tests/lean_wrong/WrongConstructions.lean``).

Lemma 8's gap doubled (``2K/n`` claimed where ``K/n`` holds) and the read-out clamp's tolerance
widened (``1/3`` instead of ``1/4``) must each be reported as a Lean error inside its marked
range, while the true statement beside each (``RIGHT`` ranges) checks without error, so the
errors come from the constants and not from the file's setup.  Marked ``lean`` (runs the
toolchain; deselect with ``-m 'not lean'``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hardsoft.checks.families.lean import build
from hardsoft.checks.families.lean import family as lf

WRONG_DIR = Path(__file__).resolve().parents[1] / "lean_wrong"
SOURCE = WRONG_DIR / "WrongConstructions.lean"


def _marked_range(path: Path, tag: str) -> range:
    """Return the line range between ``-- <tag>-BEGIN`` and ``-- <tag>-END``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    begin = next(i for i, s in enumerate(lines, 1) if s.strip() == f"-- {tag}-BEGIN")
    end = next(i for i, s in enumerate(lines, 1) if s.strip() == f"-- {tag}-END")
    return range(begin, end + 1)


@pytest.fixture(scope="module")
def wrong_unit(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - a UnitResult
    """Build WrongConstructions.lean once (skip when no toolchain can be had)."""
    from hardsoft.checks.families.lean.toolchain import ToolchainError, ensure_wasm_toolchain, find_native

    if find_native() is None:
        try:
            ensure_wasm_toolchain()
        except ToolchainError as e:
            pytest.skip(f"no Lean toolchain: {e}")
    units, findings, _tc = lf.check_sources(
        WRONG_DIR, tmp_path_factory.mktemp("lean-wrong-constructions"), lambda _m: None, names=["WrongConstructions"]
    )
    assert not findings, [f"{f.kind} at {f.line}" for f in findings]
    return units


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
@pytest.mark.parametrize("tag", ["A", "B"])
def test_wrong_construction_constant_rejected(wrong_unit, tag: str) -> None:  # noqa: ANN001
    """(A) tie-breaking gap 2K/n, (B) read-out tolerance 1/3: Lean reports an error inside the WRONG range, none in RIGHT."""
    unit = wrong_unit["WrongConstructions"]
    assert not unit.ok and unit.status == "error"
    wrong, right = _marked_range(SOURCE, f"WRONG-{tag}"), _marked_range(SOURCE, f"RIGHT-{tag}")
    msgs = [m.short() for m in unit.messages]
    assert any(m.severity == "error" and m.line in wrong for m in unit.messages), msgs
    assert not any(m.severity == "error" and m.line in right for m in unit.messages), msgs
    assert wrong_unit[build.BUNDLE_UNIT].returncode == 1
