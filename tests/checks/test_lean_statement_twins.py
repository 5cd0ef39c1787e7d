"""The Lean family rejects wrong variants of statements S, T, G and P and of errata 1 and 2 (``tests/lean_wrong/WrongStatements.lean``).

Statement S with half the bound or without the ``1/tau``, statement T's key step
``max_t t^k e^{-gamma t/2} = (2k/(e gamma))^k`` with the 2 dropped, statement G without the
residual, erratum 1's printed offset ``e^{+gamma/tau}``, erratum 2's printed direction
``eps <= alpha/n^beta``, statement P's score step without the 2 and its head step without
``B eps``: each must be reported as a Lean error inside its marked range, at an instance where
the true statement (beside it, in a ``RIGHT`` range, proved by the same script) holds with
equality or nearly, so the errors come from the constants, not the setup.  (Erratum 3's
wrong twin, Theorem 26's bootstrap without the guard, is ``tests/lean_wrong/Wrong.lean``:
``tests/checks/test_lean.py::test_wrong_file_rejected``.)  Marked ``lean`` (runs the toolchain;
deselect with ``-m 'not lean'``).
"""

from __future__ import annotations

import pytest

from tests.lean_wrong_cases import WRONG_DIR, assert_wrong_rejected, build_wrong, marked_range

#: The wrong file's planted pairs: tag -> what is wrong.
TWINS = {
    "A": "S with half the bound",
    "B": "S without 1/tau",
    "C": "T's key step without the 2",
    "D": "G without the residual",
    "E": "erratum 1: the printed offset e^{+gamma/tau}",
    "F": "erratum 2: the printed direction eps <= alpha/n^beta",
    "G": "P's score step without the 2",
    "H": "P's head step without B eps",
}


@pytest.fixture(scope="module")
def wrong_unit(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - the units
    """Build WrongStatements.lean once (skip when no toolchain can be had)."""
    return build_wrong(tmp_path_factory, "WrongStatements")


def test_every_planted_pair_is_marked() -> None:
    """Every tag has both ranges in the file, and the file has no other pair."""
    text = (WRONG_DIR / "WrongStatements.lean").read_text(encoding="utf-8")
    for tag in TWINS:
        assert marked_range(WRONG_DIR / "WrongStatements.lean", f"WRONG-{tag}") and marked_range(WRONG_DIR / "WrongStatements.lean", f"RIGHT-{tag}")
    assert text.count("-- WRONG-") == 2 * len(TWINS) and text.count("-- RIGHT-") == 2 * len(TWINS)


@pytest.mark.lean
@pytest.mark.xdist_group("lean")
@pytest.mark.parametrize("tag", sorted(TWINS), ids=[f"{t}-{TWINS[t].split(':')[0].replace(' ', '_')}" for t in sorted(TWINS)])
def test_wrong_statement_twin_rejected(wrong_unit, tag: str) -> None:  # noqa: ANN001
    """(A) S halved, (B) S without 1/tau, (C) T's peak without the 2, (D) G without the residual, (E) erratum 1's printed
    offset, (F) erratum 2's printed direction, (G) P's score step without the 2, (H) P's head step without B eps: an error
    in WRONG, none in RIGHT."""
    assert_wrong_rejected(wrong_unit, "WrongStatements", tag)
