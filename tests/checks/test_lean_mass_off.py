"""The Lean family rejects prefix-argmax's and the lookup over positions' mass bounds claimed too tight (``tests/lean_wrong/WrongMassOff.lean``).

For ``prefix_argmax_head`` (``lean/HardSoft/Applications.lean``: the exponent -2 at tau = 1/(2n^3), the
mass off <= exp(-2)) and the lookup over positions (``lean/HardSoft/HeadMass.lean``: the exponent -L at
the compilers' rule, the mass off <= 2x/(1-x), <= x for a negative prefix sum, the copy error times
(1-x)^2 <= 2x; the gated position head's exponent -1 at tau = 1, its step 1, and its copy error times (1-x)^2 <= x) the tightened bound must be reported as a Lean error inside its marked range at an
instance where the true bound is attained or nearly so, while the true statement beside each
(``RIGHT`` ranges), proved by the same script, checks without error, so the errors come from the
constants and not from the file's setup.
Marked ``lean`` (runs the toolchain; deselect with ``-m 'not lean'``).
"""

from __future__ import annotations

import pytest

from tests.lean_wrong_cases import assert_wrong_rejected, build_wrong


@pytest.fixture(scope="module")
def wrong_unit(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - the units
    """Build WrongMassOff.lean once (skip when no toolchain can be had)."""
    return build_wrong(tmp_path_factory, "WrongMassOff")


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
@pytest.mark.parametrize("tag", ["A", "B", "C", "D", "E", "F", "G", "H"])
def test_wrong_mass_off_rejected(wrong_unit, tag: str) -> None:  # noqa: ANN001
    """Too tight: (A) exponent -4, (B) mass exp(-4), (C) exponent -2L, (D) mass x/(1-x), (E) mass x/2, (F) copy error x/2,
    (G) the gated position head's exponent -2 (gap 2), (H) its copy error x/2.

    Each: an error in WRONG, none in RIGHT.
    """
    assert_wrong_rejected(wrong_unit, "WrongMassOff", tag)
