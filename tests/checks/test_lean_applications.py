"""The Lean family rejects the applications' head gaps claimed twice as large (``tests/lean_wrong/WrongApplications.lean``).

For each theorem of ``lean/HardSoft/Applications.lean`` (the half-temperature exponent of the
tie-breaking heads, the 0/1 heads, prefix-argmax at its tight instance, the Dyck partner's deficit
keys, the bounded lookup) the doubled gap must be reported as a Lean error inside its marked range, while the true
statement beside each (``RIGHT`` ranges), proved by the same script, checks without error, so the
errors come from the constants and not from the file's setup.  Marked ``lean`` (runs the
toolchain; deselect with ``-m 'not lean'``).
"""

from __future__ import annotations

import pytest

from tests.lean_wrong_cases import assert_wrong_rejected, build_wrong


@pytest.fixture(scope="module")
def wrong_unit(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - the units
    """Build WrongApplications.lean once (skip when no toolchain can be had)."""
    return build_wrong(tmp_path_factory, "WrongApplications")


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
@pytest.mark.parametrize("tag", ["A", "B", "C", "D", "E"])
def test_wrong_application_gap_rejected(wrong_unit, tag: str) -> None:  # noqa: ANN001
    """Gaps doubled: (A) exponent -4, (B) 0/1 gap 2, (C) 2/n^3, (D) deficit keys 2 apart, (E) 2K/n^2: an error in WRONG, none in RIGHT."""
    assert_wrong_rejected(wrong_unit, "WrongApplications", tag)
