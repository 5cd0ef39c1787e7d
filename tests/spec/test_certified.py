"""Certified arithmetic to the last bit: every bound spec.bounds returns as certified is >= a 60-digit recomputation.

The recomputation starts from the user's raw inputs (K, R, X, N, gamma, tau, or a
layer's norms), never from the constants the code under test derived, so a
constant rounded to nearest before the interval arithmetic (K X N in float64) or an
interval end rounded to nearest (53 bits) before rounding up shows up as a
returned bound below the recomputation.  Inputs are random binary64 values with
full mantissas (no round decimals, which hide rounding).
"""

from __future__ import annotations

import math
import os
import time
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from hardsoft.spec import bounds as bd

#: Digits of the independent recomputation (the interval arithmetic under test runs at 40).
REF_DPS = 60
#: Random inputs of the certified-bound test (10 000; make mutate lowers it through HARDSOFT_CERTIFIED_INPUTS).
N_BOUND_INPUTS = int(os.environ.get("HARDSOFT_CERTIFIED_INPUTS", "10000"))
#: Random inputs of the tightest-temperature test (a bisection with branch and bound each: ~15 ms).
N_TIGHT_INPUTS = max(20, N_BOUND_INPUTS // 20)


def _full_mantissa(rng: np.random.Generator, lo: float, hi: float) -> float:
    """Return a log-uniform float in [lo, hi] with a random 52-bit mantissa."""
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def _uniform_instance(rng: np.random.Generator) -> dict:
    """Return raw inputs of statement T's K, R form and a temperature tau <= 1."""
    return {"K": _full_mantissa(rng, 0.01, 100.0), "R": _full_mantissa(rng, 1.0, 1e3), "X": _full_mantissa(rng, 1e-3, 1e3),
            "N": int(rng.integers(1, 10**6)), "L": int(rng.integers(1, 7)), "gamma": _full_mantissa(rng, 1e-4, 10.0),
            "tau": _full_mantissa(rng, 1e-6, 1.0)}


def _B_uniform_ref(i: dict, tau: float) -> mpmath.mpf:
    """Return B_L of the K, R form at tau, at REF_DPS digits from the raw inputs."""
    with mpmath.workdps(REF_DPS):
        t = 1 / mpmath.mpf(tau)
        r = mpmath.mpf(i["R"]) * t
        a = mpmath.mpf(i["K"]) * mpmath.mpf(i["X"]) * i["N"] * mpmath.exp(-mpmath.mpf(i["gamma"]) * t)
        B = mpmath.mpf(0)
        for _ in range(i["L"]):
            B = r * B + a
        return B


def _norms_instance(rng: np.random.Generator) -> dict:
    """Return raw layer norms of a model (1-3 layers, 1-2 heads), X, N, gamma and tau."""
    layers = []
    for _ in range(int(rng.integers(1, 4))):
        h = int(rng.integers(1, 3))
        layers.append(bd.LayerNorms(tuple(_full_mantissa(rng, 1e-3, 10.0) for _ in range(h)),
                                    tuple(_full_mantissa(rng, 1e-3, 10.0) for _ in range(h)), _full_mantissa(rng, 1e-3, 10.0)))
    return {"layers": layers, "X": _full_mantissa(rng, 1e-2, 10.0), "N": int(rng.integers(1, 10**4)),
            "gamma": _full_mantissa(rng, 1e-3, 10.0), "tau": _full_mantissa(rng, 1e-5, 10.0)}


def _B_norms_ref(i: dict, tau: float) -> mpmath.mpf:
    """Return B_L of Lemma 25's constants at tau, at REF_DPS digits from the raw norms."""
    with mpmath.workdps(REF_DPS):
        t, X, g = 1 / mpmath.mpf(tau), mpmath.mpf(i["X"]), mpmath.mpf(i["gamma"])
        B = mpmath.mpf(0)
        for nm in i["layers"]:
            f = 1 + mpmath.mpf(nm.lip_F)
            sB = mpmath.fsum(mpmath.mpf(b) for b in nm.B_cols)
            r = f * (1 + mpmath.fsum(mpmath.mpf(b) * (1 + X * (2 * X + 1) * mpmath.mpf(a) * t)
                                     for a, b in zip(nm.A_sums, nm.B_cols)))
            a = 2 * f * X * (i["N"] - 1) * mpmath.exp(-g * t) * sB
            B = r * B + a
        return B


def test_float_up_is_directed() -> None:
    """float_up returns the smallest float >= an exact rational, also where round-to-nearest goes below."""
    third = Fraction(1, 3)
    assert Fraction(bd.float_up(third)) >= third and Fraction(math.nextafter(bd.float_up(third), 0)) < third
    assert bd.float_up(Fraction(0.5)) == 0.5  # exact values stay
    assert bd.float_up(Fraction(10) ** 400) == math.inf
    x = Fraction(1) + Fraction(1, 2**60)  # round-to-nearest gives 1.0, below x
    assert float(x) == 1.0 and bd.float_up(x) == math.nextafter(1.0, 2.0)


def test_certified_bound_never_below_60_digits() -> None:
    """certify_bound_at >= B_L recomputed at 60 digits from the raw inputs, on 10 000 random inputs (both constructors)."""
    rng = np.random.default_rng(20261130)
    t0 = time.perf_counter()
    below, exact_hits = [], 0
    for k in range(N_BOUND_INPUTS):
        if k % 2:
            i = _uniform_instance(rng)
            c = bd.RecursionConstants.from_uniform(i["K"], i["R"], i["X"], i["N"], i["L"], i["gamma"])
            ref = _B_uniform_ref(i, i["tau"])
        else:
            i = _norms_instance(rng)
            c = bd.RecursionConstants.from_norms(i["layers"], i["X"], i["N"], i["gamma"])
            ref = _B_norms_ref(i, i["tau"])
        got = bd.certify_bound_at(c, i["tau"])
        with mpmath.workdps(REF_DPS):
            if mpmath.mpf(got) < ref:
                below.append((i, got, ref))
            exact_hits += float(ref) == got
    seconds = time.perf_counter() - t0
    print(f"\ncertified bound vs 60 digits: {N_BOUND_INPUTS} inputs in {seconds:.1f} s, {len(below)} below, "
          f"{exact_hits} equal to the 60-digit value rounded to nearest")
    assert not below, f"{len(below)} certified bounds below the exact value, first: {below[0]}"


def test_tightest_temperature_certifies_eps_at_60_digits() -> None:
    """The tightest tau (and the sufficient one) certify eps: B_L at that tau and at smaller ones, at 60 digits, is <= eps."""
    rng = np.random.default_rng(8)
    t0 = time.perf_counter()
    for k in range(N_TIGHT_INPUTS):
        eps = float(10.0 ** rng.uniform(-9, 0))
        if k % 2:
            i = _uniform_instance(rng)
            i["L"] = min(i["L"], 4)
            c = bd.RecursionConstants.from_uniform(i["K"], i["R"], i["X"], i["N"], i["L"], i["gamma"])
            ref = _B_uniform_ref
        else:
            i = _norms_instance(rng)
            c = bd.RecursionConstants.from_norms(i["layers"], i["X"], i["N"], i["gamma"])
            ref = _B_norms_ref
        for cert in (bd.compute_tightest_inverse_temperature(c, eps), bd.compute_sufficient_inverse_temperature(c, eps)):
            assert cert.bound <= eps and 1.0 / cert.tau >= cert.inverse_tau * (1 - 2**-52)
            for shrink in (1.0, 1.5, 10.0):
                B = ref(i, cert.tau / shrink)
                assert B <= eps, (i, eps, cert, shrink, B)
                assert mpmath.mpf(bd.certify_bound_at(c, cert.tau / shrink)) >= B
    print(f"\ntightest and sufficient temperatures vs 60 digits: {N_TIGHT_INPUTS} inputs in {time.perf_counter() - t0:.1f} s")


def test_constants_are_rounded_up_from_the_exact_products() -> None:
    """K X N and Lemma 25's coefficients are the exact products rounded up, never to nearest below."""
    K, X, N = 0.1, 0.7, 3  # 0.1 * 0.7 * 3 rounds to nearest below the exact product of the binary values
    exact = Fraction(K) * Fraction(X) * N
    assert Fraction(K * X * N) < exact  # the float64 product is below: the bug this pins
    c = bd.RecursionConstants.from_uniform(K, 1.0, X, N, 1, 1.0)
    assert Fraction(c.a1[0]) >= exact and Fraction(math.nextafter(c.a1[0], 0)) < exact
    nm = bd.LayerNorms((0.1,), (0.7,), 0.3)
    r0, r1, a1 = bd.compute_layer_coefficients(0.9, 3, nm)
    f, sB, x = 1 + Fraction(0.3), Fraction(0.7), Fraction(0.9)
    assert Fraction(r0) >= f * (1 + sB) and Fraction(r1) >= f * sB * x * (2 * x + 1) * Fraction(0.1)
    assert Fraction(a1) >= 2 * f * x * 2 * sB


@pytest.mark.parametrize("tau", [0.1, 1e-3, 0.7])
def test_certified_bound_is_within_an_ulp_or_two(tau: float) -> None:
    """Certified but not loose: the bound is the 60-digit value rounded up (at most 2 ulp above it)."""
    i = {"K": 0.3, "R": 3.7, "X": 1.1, "N": 17, "L": 3, "gamma": 0.05}
    c = bd.RecursionConstants.from_uniform(i["K"], i["R"], i["X"], i["N"], i["L"], i["gamma"])
    got = bd.certify_bound_at(c, tau)
    ref = _B_uniform_ref(i, tau)
    assert mpmath.mpf(got) >= ref and got <= math.nextafter(math.nextafter(float(ref), math.inf), math.inf)
