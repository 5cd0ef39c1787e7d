"""Lemma 25's norms bounded for wide layers (spec.norms): never below the exact rational value, and within 1e-12 of it."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from hardsoft.spec import norms as nm
from hardsoft.spec import transformer as tf


def _exact_sum(X: np.ndarray, Y: np.ndarray) -> Fraction:
    return sum((abs(v) for v in (nm._exact(X) @ nm._exact(Y)).ravel()), Fraction(0))


def _exact_col(X: np.ndarray, Y: np.ndarray) -> Fraction:
    return nm.compute_col_norm_exact(nm._exact(X) @ nm._exact(Y))


@pytest.fixture
def float_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nm, "EXACT_PRODUCT_TERMS", 0)  # every product bounded in float64
    monkeypatch.setattr(nm, "EXACT_SUM_TERMS", 0)


@pytest.mark.parametrize("seed", range(6))
def test_the_float_bound_is_never_below_the_exact_norm_and_close_to_it(float_path: None, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a, m, b = rng.integers(1, 9, size=3)
    X = rng.normal(size=(a, m)) * 10.0 ** rng.integers(-3, 4)
    Y = rng.normal(size=(m, b))
    for fast, exact in ((nm.compute_product_sum_norm(X, Y), _exact_sum(X, Y)), (nm.compute_product_col_norm(X, Y), _exact_col(X, Y))):
        assert exact <= fast <= exact * (1 + Fraction(1, 10**12)) + Fraction(1, 10**300)
    W = rng.normal(size=(a, b))
    assert nm.compute_col_norm_exact(nm._exact(W)) <= nm.compute_col_norm(W) <= nm.compute_col_norm_exact(nm._exact(W)) * (1 + Fraction(1, 10**14))


def test_a_cancelling_product_needs_the_rounding_term(float_path: None) -> None:
    """x.y = 1 + 2^-60 - 1 = 2^-60 exactly, but float64 computes 0: a bound without gamma_m |x||y| would be below the norm."""
    X = np.array([[1.0, 2.0**-60, -1.0]])
    Y = np.ones((3, 1))
    exact = _exact_sum(X, Y)
    assert exact == Fraction(1, 2**60) and float(np.abs(X @ Y).sum()) == 0.0
    assert nm.compute_product_sum_norm(X, Y) >= exact and nm.compute_product_col_norm(X, Y) >= exact

    def wrong(X: np.ndarray, Y: np.ndarray) -> Fraction:  # the planted defect: the float product's own sum, no error term
        return Fraction(float(np.abs(X @ Y).sum()))

    assert wrong(X, Y) < exact


def test_small_layers_keep_their_exact_norms() -> None:
    """Below EXACT_PRODUCT_TERMS nothing changes: the norms are the exact rationals, rounded up once."""
    rng = np.random.default_rng(1)
    d = 6
    h = tf.Head(rng.normal(size=(d, 3)), rng.normal(size=(d, 3)), rng.normal(size=(d, 2)), rng.normal(size=(2, d)))
    layer = tf.Layer((h,), rng.normal(size=(d, 5)), rng.normal(size=5), rng.normal(size=(5, d)), rng.normal(size=d))
    got = tf.compute_layer_norms(layer)
    from hardsoft.spec.bounds import float_up

    assert got.A_sums == (float_up(_exact_sum(h.W_Q, h.W_K.T)),)
    assert got.B_cols == (float_up(_exact_col(h.W_V, h.W_O)),)


def test_a_wide_layer_is_bounded_in_float64() -> None:
    """A tracr-sized layer (d 200, d_mlp 1024, one head of width 64) takes the float path: at most 1e-12 above the float64 value.

    (Its time is printed by benchmarks/interop.py, not tested.)
    """
    rng = np.random.default_rng(2)
    d = 200
    h = tf.Head(rng.normal(size=(d, 64)), rng.normal(size=(d, 64)), rng.normal(size=(d, 64)), rng.normal(size=(64, d)))
    layer = tf.Layer((h,), rng.normal(size=(d, 1024)), rng.normal(size=1024), rng.normal(size=(1024, d)), rng.normal(size=d))
    assert 200 * 64 * 200 > nm.EXACT_PRODUCT_TERMS and 200 * 1024 > nm.EXACT_SUM_TERMS
    got = tf.compute_layer_norms(layer)
    A = h.W_Q @ h.W_K.T
    assert float(np.abs(A).sum()) <= got.A_sums[0] <= float(np.abs(A).sum()) * (1 + 1e-12)
