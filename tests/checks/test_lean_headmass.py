"""The Lean family rejects the head mass bounds claimed twice as tight (``tests/lean_wrong/WrongHeadMass.lean``).

For each bound of ``lean/HardSoft/HeadMass.lean`` (a head's output error within its mass off, the
sign head's 2x, the two-sided lookup's 2x/(1-x), the temperature rules' 1/(16m)) the halved bound, and for PREC's
rounded ziggurat (``rounded_ziggurat``, ``rounded_mass_off_top_le``) the step gamma - u claimed as gamma - u/2,
must be reported as a Lean error inside its marked range at an instance where the true bound is
nearly attained, while the true statement beside each (``RIGHT`` ranges), proved by the same
script, checks without error, so the errors come from the constants and not from the file's
setup.  Marked ``lean`` (runs the toolchain; deselect with ``-m 'not lean'``).
"""

from __future__ import annotations

import pytest

from tests.lean_wrong_cases import assert_wrong_rejected, build_wrong


@pytest.fixture(scope="module")
def wrong_unit(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - the units
    """Build WrongHeadMass.lean once (skip when no toolchain can be had)."""
    return build_wrong(tmp_path_factory, "WrongHeadMass")


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
@pytest.mark.parametrize("tag", ["A", "B", "C", "D", "E", "F"])
def test_wrong_head_mass_rejected(wrong_unit, tag: str) -> None:  # noqa: ANN001
    """Halved: (A) output error (1 - p_t)/2, (B) sign head x, (C) two-sided x/(1-x), (D) rule 1/(32m); PREC with half the spacing
    lost: (E) the rounded step gamma - u/2, (F) its mass bound: an error in WRONG, none in RIGHT."""
    assert_wrong_rejected(wrong_unit, "WrongHeadMass", tag)
