"""The exp facts the Lean statements assume hold of the real exponential (statements S, T, E, Z; errata 1 and 2).

Lean has no real numbers: its statements about softmax take an abstract exponential
``HardSoft.ExpLike`` (positive, ``exp (s + t) = exp s exp t``, ``exp 0 = 1``, monotone) and, where
a statement needs more, a named fact as a hypothesis (``lean/HardSoft/Exp.lean``):

* ``ExpLike.LogMean`` (F5, statement S): ``2 (e^d - 1) <= d (e^d + 1)`` for ``d >= 0``;
* ``ExpLike.Tangent`` (F1, statement T, erratum 2): ``1 + x <= e^x`` for every ``x``;
* ``ExpLike.IsLog`` (statement T): ``e^(log x) = x`` for ``x > 0``.

A theorem proved from a fact that is false of the real exp would say nothing about real softmax,
so each fact is checked here with mpmath at 50 digits, independently of the code under test: at
many points (a grid, the edges, random points), and where a short argument fits, by that argument
with interval arithmetic (F1 and F5 through their derivatives).  A wrong variant of each fact must
be refuted by the same point checks, so the checks can fail.  ``test_every_lean_exp_fact_is_checked``
ties the list here to the facts the registry pins: a fact added in Lean without a check here fails.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import mpmath
import pytest
from mpmath import iv, mp

from hardsoft.spec import lean_statements as ls

DPS = 50
#: Points where each fact is checked: a grid over [-60, 60], values near 0 and the extremes.
GRID = [mpmath.mpf(k) / 8 for k in range(-480, 481)]
EDGES = [mpmath.mpf(v) for v in ("-700", "-1e-30", "1e-30", "1e-12", "0.001", "0.5", "1", "2", "700")]


def _points() -> list[mpmath.mpf]:
    """Return the grid, the edges and 400 seeded random points in [-50, 50] (at DPS digits)."""
    rng = random.Random(35)
    return GRID + EDGES + [mpmath.mpf(rng.uniform(-50, 50)) for _ in range(400)]


# each fact: (description, predicate on one or two reals -> bool, number of arguments)
def _log_mean(d: mpmath.mpf) -> bool:
    return d < 0 or 2 * (mp.exp(d) - 1) <= d * (mp.exp(d) + 1)


def _tangent(x: mpmath.mpf) -> bool:
    return 1 + x <= mp.exp(x)


def _is_log(x: mpmath.mpf) -> bool:
    if x <= 0:
        return True
    y = mp.exp(mp.log(x))
    return abs(y - x) <= abs(x) * mpmath.mpf(10) ** (-(DPS - 5))


def _pos(t: mpmath.mpf) -> bool:
    return mp.exp(t) > 0


def _add(s: mpmath.mpf, t: mpmath.mpf) -> bool:
    lhs, rhs = mp.exp(s + t), mp.exp(s) * mp.exp(t)
    return abs(lhs - rhs) <= abs(rhs) * mpmath.mpf(10) ** (-(DPS - 5))


def _zero(_t: mpmath.mpf) -> bool:
    return mp.exp(0) == 1


def _mono(s: mpmath.mpf, t: mpmath.mpf) -> bool:
    return s > t or mp.exp(s) <= mp.exp(t)


#: The Lean name of each fact (the pinned definition, or the structure field) and its check.
FACTS: dict[str, tuple[Callable[..., bool], int]] = {
    "HardSoft.ExpLike.LogMean": (_log_mean, 1),
    "HardSoft.ExpLike.Tangent": (_tangent, 1),
    "HardSoft.ExpLike.IsLog": (_is_log, 1),
    "HardSoft.ExpLike.pos": (_pos, 1),
    "HardSoft.ExpLike.add": (_add, 2),
    "HardSoft.ExpLike.zero": (_zero, 1),
    "HardSoft.ExpLike.mono": (_mono, 2),
}

#: Wrong variants: each must be refuted at some point of the same checks (so the checks can fail).
WRONG: dict[str, Callable[..., bool]] = {
    "F5 with 3 in place of 2": lambda d: d < 0 or 3 * (mp.exp(d) - 1) <= d * (mp.exp(d) + 1),
    "F5 reversed": lambda d: d < 0 or 2 * (mp.exp(d) - 1) >= d * (mp.exp(d) + 1),
    "F1 with slope 2": lambda x: 1 + 2 * x <= mp.exp(x),
    "F1 reversed": lambda x: 1 + x >= mp.exp(x),
    "log off by a factor": lambda x: x <= 0 or abs(mp.exp(mp.log(x) / 2) - x) <= abs(x) * mpmath.mpf(10) ** (-(DPS - 5)),
    "add with a sum": lambda s, t: abs(mp.exp(s + t) - (mp.exp(s) + mp.exp(t))) <= abs(mp.exp(s + t)) * mpmath.mpf(10) ** (-(DPS - 5)),
}


def _holds_everywhere(pred: Callable[..., bool], arity: int) -> list[tuple[mpmath.mpf, ...]]:
    """Return the points (pairs for arity 2) where ``pred`` fails."""
    pts = _points()
    bad: list[tuple[mpmath.mpf, ...]] = []
    with mp.workdps(DPS):
        if arity == 1:
            bad = [(p,) for p in pts if not pred(p)]
        else:
            rng = random.Random(3535)
            pairs = [(a, b) for a in EDGES for b in EDGES] + [(rng.choice(pts), rng.choice(pts)) for _ in range(2000)]
            bad = [pq for pq in pairs if not pred(*pq)]
    return bad


@pytest.mark.parametrize("name", sorted(FACTS))
def test_exp_fact_holds_at_many_points(name: str) -> None:
    pred, arity = FACTS[name]
    bad = _holds_everywhere(pred, arity)
    assert not bad, f"{name} fails at {[tuple(mpmath.nstr(v, 8) for v in b) for b in bad[:3]]}"


@pytest.mark.parametrize("label", sorted(WRONG))
def test_wrong_exp_fact_is_refuted(label: str) -> None:
    pred = WRONG[label]
    arity = pred.__code__.co_argcount
    assert _holds_everywhere(pred, arity), f"the point checks did not refute the wrong variant {label!r}"


def test_every_lean_exp_fact_is_checked() -> None:
    """Every exp fact the registry pins (a definition ``HardSoft.ExpLike.<Fact>``) and every ExpLike field has a check here."""
    pinned = {n for n in ls.LEAN_DEFINITIONS if n.startswith("HardSoft.ExpLike.")}
    ctor = ls.LEAN_DEFINITIONS["HardSoft.ExpLike"].constructor or ""
    fields = {f"HardSoft.ExpLike.{f}" for f in ("pos", "add", "zero", "mono") if f"({f} :" in ctor}
    assert fields == {f"HardSoft.ExpLike.{f}" for f in ("pos", "add", "zero", "mono")}, ctor
    assert pinned | fields == set(FACTS), (pinned | fields) ^ set(FACTS)


def _iv_pieces(lo: float, hi: float, n: int) -> list[iv.mpf]:
    """Return n closed intervals covering [lo, hi]."""
    step = (hi - lo) / n
    return [iv.mpf([lo + k * step, lo + (k + 1) * step]) for k in range(n)]


def test_tangent_fact_by_its_derivative() -> None:
    """F1 for every real x: g(x) = e^x - 1 - x has g(0) = 0 and g'(x) = e^x - 1, which has the sign of x
    (exp is increasing and e^0 = 1), so g decreases to 0 and then increases: g >= 0.  Checked: g(0) = 0
    exactly, and the sign of g' on interval pieces covering [-60, 60] (where it changes, only at 0)."""
    with mp.workdps(DPS):
        assert mp.exp(0) - 1 - 0 == 0
    iv.dps = DPS
    for piece in _iv_pieces(0.0, 60.0, 600):
        assert (iv.exp(piece) - 1).a >= 0, piece
    for piece in _iv_pieces(-60.0, 0.0, 600):
        assert (iv.exp(piece) - 1).b <= 0, piece
    # and outside the pieces, the same sign argument (exp increasing) applies; spot values far out
    with mp.workdps(DPS):
        assert all(1 + x <= mp.exp(x) for x in (mpmath.mpf(-1e6), mpmath.mpf(1e3)))


def test_log_mean_fact_by_its_derivatives() -> None:
    """F5 for every d >= 0: h(d) = d (e^d + 1) - 2 (e^d - 1) has h(0) = h'(0) = 0 and h''(d) = d e^d >= 0 (h'(d) =
    1 - e^d + d e^d), so h' >= 0 and h >= 0 on [0, 2]; for d >= 2, d (e^d + 1) >= 2 e^d + 2 > 2 (e^d - 1) directly.
    Checked: h(0) = h'(0) = 0 exactly, the derivative formulas against mpmath's numerical derivatives of h at
    sample points, h'' = d e^d >= 0 on interval pieces covering [0, 2], and the bound for d >= 2 on pieces of
    [2, 60] (beyond, d >= 2 gives it outright)."""
    with mp.workdps(DPS):
        assert 0 * (mp.exp(0) + 1) - 2 * (mp.exp(0) - 1) == 0
        assert 1 - mp.exp(0) + 0 * mp.exp(0) == 0
        # h' and h'' from mpmath's numerical differentiation of h agree with the formulas at sample points
        h = lambda d: d * (mp.exp(d) + 1) - 2 * (mp.exp(d) - 1)  # noqa: E731
        for d in (mpmath.mpf("0.25"), mpmath.mpf(1), mpmath.mpf("1.75")):
            assert abs(mp.diff(h, d) - (1 - mp.exp(d) + d * mp.exp(d))) < mpmath.mpf(10) ** -30
            assert abs(mp.diff(h, d, 2) - d * mp.exp(d)) < mpmath.mpf(10) ** -25
    iv.dps = DPS
    for piece in _iv_pieces(0.0, 2.0, 400):
        assert (piece * iv.exp(piece)).a >= 0, piece
    for piece in _iv_pieces(2.0, 60.0, 580):
        assert (piece * (iv.exp(piece) + 1) - 2 * (iv.exp(piece) - 1)).a > 0, piece
