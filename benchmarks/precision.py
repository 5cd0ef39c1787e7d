"""Precision study (a question the paper leaves open): at which length n does a 1/n^3 gap vanish in floating point?

The paper's temperatures shrink with the gap gamma_T(n); constructions such as
the S-RASP-derived DYCK-2 transformer have gaps of order 1/n^3 between scores of
size about 1.  This script measures, per dtype, the weight softmax gives the
winning position when

    s_0 = 1 (the winner),  s_j = 1 - g for j >= 1,  g = 1/n^3,
    tau = g / (2 ln n)     (so in exact arithmetic the winner keeps 1/(1 + (n-1)/n^2) >= 1 - 1/n),

with the scores stored in the dtype and softmax computed in the dtype (max
subtracted, as every stable implementation does).  Prediction: the winner keeps
its weight exactly as long as fl(1 - g) < 1, i.e. g >= half the spacing of the
floats just below 1 (2^-25 in float32, 2^-54 in float64, ties to even), so it
breaks at n^3 > 2^25 (n > 322) in float32 and n^3 >= 2^54 (n >= 2^18) in float64.
Once 1 - g rounds to 1 the n positions tie and the winner's weight drops to 1/n.

The exact weight is computed in mpmath; the float64 row also runs the spec's own
``spec.attention.softmax``.  Prints figures, asserts nothing.

Usage: python benchmarks/precision.py [--max-log2n 20] [--per-octave 4]
"""

from __future__ import annotations

import argparse
import math

import mpmath
import numpy as np

from hardsoft.spec.attention import softmax as spec_softmax

#: dtypes studied, with their precision p (significand bits, hidden bit included).
DTYPES = {"float32": (np.float32, 24), "float64": (np.float64, 53)}


def predicted_breakdown(p: int) -> float:
    """Return the smallest real n with fl(1 - 1/n^3) = 1 under round-to-nearest-even: 1/n^3 <= 2^-(p+1)."""
    return 2.0 ** ((p + 1) / 3)


def to_dtype(x: mpmath.mpf, dtype: type) -> np.floating:
    """Return x rounded once, to nearest-even, to the dtype's precision (numbers near 1: no range issues)."""
    with mpmath.workprec(DTYPES[np.dtype(dtype).name][1]):
        return dtype(float(+x))


def earliest_distortion(p: int) -> float:
    """Return the n below which storing 1 - 1/n^3 cannot double the mass off the winner.

    Rounding moves the stored gap g by at most 2^-(p+1) (half the spacing below 1),
    and the mass off the winner is about (n-1) n^(-2 g'/g), so it can double only
    once 2^-(p+1) n^3 * 2 ln n >= ln 2.
    """
    return float(mpmath.findroot(lambda n: 2 ** -(p + 1) * n**3 * 2 * mpmath.log(n) - mpmath.log(2), 2.0 ** (p / 3)))


def stored_scores(n: int, dtype: type) -> tuple[np.ndarray, mpmath.mpf]:
    """Return the scores (1, 1 - g, ..., 1 - g) stored in dtype, and tau = g/(2 ln n) in mpmath."""
    with mpmath.workdps(60):
        g = mpmath.mpf(1) / mpmath.mpf(n) ** 3
        tau = g / (2 * mpmath.log(n))
        s = np.full(n, to_dtype(1 - g, dtype), dtype=dtype)
    s[0] = dtype(1.0)
    return s, tau


def gap_survives(n: int, dtype: type) -> bool:
    """Return whether 1 - 1/n^3, stored in dtype, is still below 1."""
    s, _ = stored_scores(n, dtype)
    return bool(s[1] < s[0])


def winner_weight(n: int, dtype: type) -> float:
    """Return the winner's softmax weight computed in dtype (scores stored in dtype, max subtracted)."""
    s, tau = stored_scores(n, dtype)
    z = (s - s.max()) / to_dtype(tau, dtype)
    e = np.exp(z)
    return float(e[0] / e.sum(dtype=dtype))


def exact_winner_weight(n: int) -> mpmath.mpf:
    """Return 1/(1 + (n-1) e^{-g/tau}) = 1/(1 + (n-1)/n^2) computed in mpmath."""
    with mpmath.workdps(60):
        return 1 / (1 + (n - 1) * mpmath.exp(-2 * mpmath.log(n)))


def spec_winner_weight(n: int) -> float:
    """Return the winner's weight from spec.attention.softmax (float64) on the same scores."""
    s, tau = stored_scores(n, np.float64)
    return float(spec_softmax(s, float(tau))[0])


def lengths(max_log2n: int, per_octave: int) -> list[int]:
    """Return n = round(2^(k/per_octave)) for k up to max_log2n octaves, plus the predicted breakdown points."""
    ns = {round(2 ** (k / per_octave)) for k in range(2 * per_octave, max_log2n * per_octave + 1)}
    for _, p in DTYPES.values():
        b = predicted_breakdown(p)
        ns |= {math.floor(b), math.ceil(b)} if b <= 2**max_log2n else set()
    return sorted(ns)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-log2n", type=int, default=20, help="largest n is 2^this (default 20)")
    ap.add_argument("--per-octave", type=int, default=4, help="lengths per doubling of n (default 4)")
    args = ap.parse_args()
    if not 2 <= args.max_log2n <= 24 or not 1 <= args.per_octave <= 16:
        ap.error("--max-log2n must be in [2, 24] and --per-octave in [1, 16]")
    print("winner's softmax weight, scores 1 and 1 - 1/n^3, tau = gap/(2 ln n); exact: 1/(1 + (n-1)/n^2)")
    print(f"{'n':>8} {'exact':>10} {'float32':>10} {'float64':>10} {'spec f64':>10}  gap kept f32/f64")
    first_break: dict[str, int | None] = {k: None for k in DTYPES}
    first_off: dict[str, int | None] = {k: None for k in DTYPES}
    for n in lengths(args.max_log2n, args.per_octave):
        row = {k: winner_weight(n, dt) for k, (dt, _) in DTYPES.items()}
        exact_off = 1 - exact_winner_weight(n)
        for k, w in row.items():
            if w < 0.5 and first_break[k] is None:
                first_break[k] = n
            if 1 - w > 2 * exact_off and first_off[k] is None:
                first_off[k] = n
        kept = "/".join("yes" if gap_survives(n, dt) else "no" for dt, _ in DTYPES.values())
        print(f"{n:>8} {float(exact_winner_weight(n)):>10.6f} {row['float32']:>10.6f} {row['float64']:>10.6f} "
              f"{spec_winner_weight(n):>10.6f}  {kept}")
    print()
    for k, (_, p) in DTYPES.items():
        b = predicted_breakdown(p)
        got = first_break[k]
        print(f"{k}: predicted breakdown n >= {math.ceil(b)} (1/n^3 <= 2^-{p + 1}); "
              f"measured first n with winner weight < 1/2: {got if got is not None else f'none up to 2^{args.max_log2n}'}; "
              f"first sampled n with the mass off the winner > 2x its exact value: "
              f"{first_off[k] if first_off[k] is not None else 'none'} (impossible below n = {earliest_distortion(p):.0f})")


if __name__ == "__main__":
    main()
