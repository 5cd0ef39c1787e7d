"""The Lean family rejects wrong construction constants (``tests/lean_wrong/WrongConstructions.lean``).

Lemma 8's gap doubled (``2K/n`` claimed where ``K/n`` holds) and the read-out clamp's tolerance
widened (``1/3`` instead of ``1/4``) and S-RASP's big-M product without its margin's ``+ 1``
(the compiler's ``M = 2C`` instead of ``2C + 1``) must each be reported as a Lean error inside its marked
range, while the true statement beside each (``RIGHT`` ranges) checks without error, so the
errors come from the constants and not from the file's setup.  Marked ``lean`` (runs the
toolchain; deselect with ``-m 'not lean'``).
"""

from __future__ import annotations

import pytest

from tests.lean_wrong_cases import assert_wrong_rejected, build_wrong


@pytest.fixture(scope="module")
def wrong_unit(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - the units
    """Build WrongConstructions.lean once (skip when no toolchain can be had)."""
    return build_wrong(tmp_path_factory, "WrongConstructions")


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
@pytest.mark.parametrize("tag", ["A", "B", "C"])
def test_wrong_construction_constant_rejected(wrong_unit, tag: str) -> None:  # noqa: ANN001
    """(A) tie-breaking gap 2K/n, (B) read-out tolerance 1/3, (C) big-M margin without + 1: Lean reports an error inside the WRONG range, none in RIGHT."""
    assert_wrong_rejected(wrong_unit, "WrongConstructions", tag)
