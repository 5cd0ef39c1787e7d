"""Section 2 attention functions: the named case table, masks, stability at extreme tau, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hardsoft.spec import attention as att
from hardsoft.spec.constants import FLOAT64_EPS, TAU_MAX_STABLE, TAU_MIN_STABLE, SCORE_MAX_STABLE
from tests.cases import CASES

TOL = 16 * FLOAT64_EPS


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_table(name: str) -> None:
    scores, tau, mset, gap, hard, soft = CASES[name]
    s = np.array(scores)
    assert att.max_set(s).tolist() == mset
    assert att.compute_gap(s) == gap or math.isclose(att.compute_gap(s), gap, rel_tol=TOL)
    np.testing.assert_allclose(att.ahardmax(s), hard, rtol=0, atol=TOL)
    np.testing.assert_allclose(att.softmax(s, tau), soft, rtol=4 * TOL, atol=TOL)


def test_unique_hard_tie_breaking() -> None:
    s = np.array([3.0, 1.0, 3.0, 3.0])
    assert att.uhardmax(s, tie="leftmost").tolist() == [1, 0, 0, 0]
    assert att.uhardmax(s, tie="rightmost").tolist() == [0, 0, 0, 1]
    assert att.attend(s, "leftmost").tolist() == [1, 0, 0, 0]


@pytest.mark.parametrize("kind,expected", [
    ("none", [[1, 1, 1], [1, 1, 1], [1, 1, 1]]),
    ("causal", [[1, 0, 0], [1, 1, 0], [1, 1, 1]]),
    ("strict", [[0, 0, 0], [1, 0, 0], [1, 1, 0]]),
    ("anticausal", [[1, 1, 1], [0, 1, 1], [0, 0, 1]]),
    ("strict_anticausal", [[0, 1, 1], [0, 0, 1], [0, 0, 0]]),
])
def test_masks(kind: str, expected: list[list[int]]) -> None:
    assert att.make_mask(kind, 3).astype(int).tolist() == expected


def test_masked_softmax_puts_zero_weight_on_hidden_keys() -> None:
    s = np.array([[5.0, 1.0, 0.0], [5.0, 1.0, 0.0]])
    m = att.make_mask("causal", 3)[1:]
    w = att.softmax(s, 1.0, m)
    assert w[0, 2] == 0.0 and w[1].sum() == pytest.approx(1.0, abs=TOL)
    assert att.ahardmax(s, m)[0].tolist() == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("tau", [TAU_MIN_STABLE, 1e-6, 1.0, 1e3, TAU_MAX_STABLE])
@pytest.mark.parametrize("scale", [1e-9, 1.0, SCORE_MAX_STABLE])
def test_softmax_stable_at_extremes(tau: float, scale: float) -> None:
    rng = np.random.default_rng(0)
    s = rng.uniform(-1, 1, size=(4, 50)) * scale
    w = att.softmax(s, tau)
    assert np.isfinite(w).all() and (w >= 0).all()
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, atol=50 * FLOAT64_EPS)
    assert (w[np.arange(4), s.argmax(axis=-1)] >= 1 / 50).all()  # the max always gets at least its share


def test_mass_off_max_set_matches_mpmath() -> None:
    s = np.array([2.0, 2.0, 1.5, 0.0, -3.0])
    exact = att.compute_mass_off_max_set_exact(s, 0.2)
    assert abs(att.compute_mass_off_max_set(s, 0.2) - float(exact)) <= 8 * FLOAT64_EPS * float(exact)


@pytest.mark.parametrize("bad,msg", [
    (lambda: att.softmax([1.0, 2.0], 0.0), "tau must be > 0"),
    (lambda: att.softmax([1.0, 2.0], -1.0), "tau must be > 0"),
    (lambda: att.softmax([1.0, 2.0], float("nan")), "tau must be finite"),
    (lambda: att.softmax([1.0, float("nan")], 1.0), "NaN"),
    (lambda: att.softmax([1.0, float("inf")], 1.0), "infinite"),
    (lambda: att.softmax([], 1.0), "non-empty"),
    (lambda: att.ahardmax(np.zeros((2, 3)), np.ones((3, 2), dtype=bool)), "does not match"),
    (lambda: att.ahardmax(np.zeros(3), np.zeros(3, dtype=bool)), "sees no key"),
    (lambda: att.make_mask("sideways", 3), "unknown mask"),
    (lambda: att.attend(np.zeros(3), "soft"), "needs a temperature"),
    (lambda: att.uhardmax(np.zeros(3), tie="middle"), "leftmost"),
])
def test_bad_input_raises_value_error_naming_the_problem(bad, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        bad()
