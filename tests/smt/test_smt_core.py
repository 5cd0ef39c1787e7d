"""smt/core.py's small pieces pinned at their boundaries (each test was written for a mutation-testing survivor, docs/mutation.md)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import z3

from hardsoft.smt import core


def test_check_size_boundaries() -> None:
    """The documented maximum is allowed, one more is not; the default minimum is 1."""
    assert core.check_size("n", 5, 5) == 5
    assert core.check_size("n", 1, 5) == 1
    assert core.check_size("n", 3.0, 5) == 3
    with pytest.raises(ValueError, match="exceeds the documented maximum 5"):
        core.check_size("n", 6, 5)
    with pytest.raises(ValueError, match="must be >= 1"):
        core.check_size("n", 0, 5)
    with pytest.raises(ValueError, match="must be >= 2"):
        core.check_size("n", 1, 5, minimum=2)
    with pytest.raises(ValueError, match="integer"):
        core.check_size("n", True, 5)


def test_check_box_accepts_boxes_below_one() -> None:
    """A box half-width of 1/2 is a valid box (the box never shrinks below the value asked for)."""
    assert Fraction(core.check_box("X", 0.5)) >= Fraction(1, 2)
    assert Fraction(core.check_box("X", 1.0)) >= 1
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="X"):
            core.check_box("X", bad)
    assert Fraction(core.check_box("X", 1e6)) >= 10**6  # the documented maximum is allowed, beyond it is not
    with pytest.raises(ValueError, match="exceeds the documented maximum"):
        core.check_box("X", 2e6)


def test_model_values_exact_strings() -> None:
    """Integers print without a denominator, rationals as p/q, algebraic numbers as a decimal ending in '?'."""
    x, y, z = z3.Reals("x y z")
    s = z3.Solver()
    s.add(x == 3, y == z3.Q(1, 2), z * z == 2, z > 0)
    assert s.check() == z3.sat
    exact, floats = core.model_values(s.model())
    assert exact["x"] == "3" and floats["x"] == 3.0
    assert exact["y"] == "1/2" and floats["y"] == 0.5
    assert exact["z"].endswith("?") and exact["z"].startswith("1.41421356237309504880") and floats["z"] == pytest.approx(2**0.5)


def test_verdict_seconds_is_the_solver_time() -> None:
    """A trivial query's seconds is its own duration: small and non-negative, not a clock reading."""
    x = z3.Real("x")
    v = core.prove([x > 1], x > 0, timeout_s=10, name="trivial")
    assert v.status == core.PROVED and 0.0 <= v.seconds < 5.0
    w = core.search([x > 1], x < 0, timeout_s=10, name="trivial-search")
    assert w.status == core.PROVED and 0.0 <= w.seconds < 5.0


def test_model_values_of_a_non_numeric_constant() -> None:
    """A constant that is not a number (an element of an uninterpreted sort) keeps its text and gets NaN, not a crash."""
    u = z3.DeclareSort("U")
    c, d = z3.Consts("c d", u)
    s = z3.Solver()
    s.add(c != d)
    assert s.check() == z3.sat
    exact, floats = core.model_values(s.model())
    assert exact["c"].startswith("U!val!") and floats["c"] != floats["c"]  # NaN


def test_check_box_names_a_non_number() -> None:
    with pytest.raises(ValueError, match="X must be a number, got 'abc'"):
        core.check_box("X", "abc")
    with pytest.raises(ValueError, match="X must be a number"):
        core.check_box("X", None)
