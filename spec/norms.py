"""Lemma 25's weight norms of a layer, as rationals never below their exact values: exact for small matrices, bounded for wide ones.

|A|_sum = sum_kl |A_kl| with A = W_Q W_K^T, |B|_col = max_l sum_k |B_kl| with B = W_V W_O, and
|W|_col of a weight matrix.  Every float is a dyadic rational, so these norms have exact values;
computing them in rational arithmetic costs one Python multiplication per term of the products
(a*m*b for an a x m times m x b product), which for wide layers (tracr's MLPs of width 1000,
d_model 200) takes minutes.  Above ``EXACT_PRODUCT_TERMS`` terms the product is computed in
float64 instead and bounded rigorously (Higham, Accuracy and Stability of Numerical Algorithms,
Section 3.1): for any order of summation, with or without fused multiply-adds,

    |fl(x.y) - x.y| <= gamma_m |x|.|y| + (m + 1) eta,   gamma_m = m u / (1 - m u),

u = 2^-53 the unit roundoff and eta = 2^-1074 the smallest subnormal (the underflow term).  With
P = fl(X Y) and C = fl(|X| |Y|) (non-negative terms, so C's exact value is <= C / (1 - gamma_m)
plus the underflow term), every |(XY)_kl| <= |P_kl| + gamma_m / (1 - gamma_m) C_kl + 2 (m + 1) eta, and
sums of floats are taken with math.fsum (correctly rounded, so the exact sum is at most two ulps
above it).  The bound exceeds the exact norm by a relative 1e-13 or so at these sizes.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

#: Products with at most this many terms (a*m*b) are computed exactly in rationals; larger ones are bounded in float64.
EXACT_PRODUCT_TERMS = 2**18
#: Matrices with at most this many entries get their column norms summed exactly in rationals; larger ones with math.fsum.
EXACT_SUM_TERMS = 2**14
#: The unit roundoff of float64 and the smallest subnormal, as exact rationals.
UNIT_ROUNDOFF = Fraction(1, 2**53)
SMALLEST_SUBNORMAL = Fraction(1, 2**1074)


def _up(x: float) -> Fraction:
    """Return a rational >= the exact sum that math.fsum rounded to x (correctly rounded: two ulps above is safe)."""
    return Fraction(math.nextafter(math.nextafter(x, math.inf), math.inf))


def _exact(M: np.ndarray) -> np.ndarray:
    """Return a float array as an object array of exact rationals."""
    return np.vectorize(Fraction, otypes=[object])(np.asarray(M, dtype=np.float64))


def _gamma(m: int) -> Fraction:
    """Return gamma_m / (1 - gamma_m), the relative error of an m-term dot product of non-negative terms, as a rational."""
    g = m * UNIT_ROUNDOFF / (1 - m * UNIT_ROUNDOFF)
    return g / (1 - g)


def _product_bounds(X: np.ndarray, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray, Fraction, Fraction]:
    """Return |fl(XY)|, fl(|X||Y|), the relative factor on the second and the absolute term per entry."""
    m = X.shape[1]
    P = np.abs(np.asarray(X, dtype=np.float64) @ np.asarray(Y, dtype=np.float64))
    C = np.abs(np.asarray(X, dtype=np.float64)) @ np.abs(np.asarray(Y, dtype=np.float64))
    if not (np.isfinite(P).all() and np.isfinite(C).all()):
        raise ValueError("a weight product overflows float64: the norms cannot be bounded")
    return P, C, _gamma(m), 2 * (m + 1) * SMALLEST_SUBNORMAL


def compute_product_sum_norm(X: np.ndarray, Y: np.ndarray) -> Fraction:
    """Return a rational >= |XY|_sum = sum_kl |(XY)_kl| (exact when the product is small)."""
    a, m = X.shape
    b = Y.shape[1]
    if a * b == 0 or m == 0:
        return Fraction(0)
    if a * m * b <= EXACT_PRODUCT_TERMS:
        return sum((abs(v) for v in (_exact(X) @ _exact(Y)).ravel()), Fraction(0))
    P, C, g, eta = _product_bounds(X, Y)
    return _up(math.fsum(P.ravel().tolist())) + g * _up(math.fsum(C.ravel().tolist())) + a * b * eta


def compute_product_col_norm(X: np.ndarray, Y: np.ndarray) -> Fraction:
    """Return a rational >= |XY|_col = max_l sum_k |(XY)_kl| (exact when the product is small)."""
    a, m = X.shape
    b = Y.shape[1]
    if a * b == 0 or m == 0:
        return Fraction(0)
    if a * m * b <= EXACT_PRODUCT_TERMS:
        return compute_col_norm_exact(_exact(X) @ _exact(Y))
    P, C, g, eta = _product_bounds(X, Y)
    return max(_up(math.fsum(P[:, l].tolist())) + g * _up(math.fsum(C[:, l].tolist())) + a * eta for l in range(b))


def compute_col_norm(M: np.ndarray) -> Fraction:
    """Return a rational >= |M|_col = max_l sum_k |M_kl| of a float matrix (no product: exact for small, fsum for large)."""
    M = np.asarray(M, dtype=np.float64)
    if M.size == 0:
        return Fraction(0)
    if M.size <= EXACT_SUM_TERMS:
        return compute_col_norm_exact(_exact(M))
    A = np.abs(M)
    return max(_up(math.fsum(A[:, l].tolist())) for l in range(A.shape[1]))


def compute_col_norm_exact(M: np.ndarray) -> Fraction:
    """Return |M|_col = max_l sum_k |M_kl| exactly, for an object array of rationals (0 for an empty matrix)."""
    if M.size == 0:
        return Fraction(0)
    return max(sum((abs(v) for v in col), Fraction(0)) for col in M.T)
