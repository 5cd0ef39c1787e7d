"""The project's explicit statements E, Z, S, P, C, T, G, Q: bounds with every constant written out.

Each function's docstring names the paper result its statement corresponds to
(see docs/claims.md, each claim against the paper result it corresponds to).  Functions whose
name starts with ``wrong_`` are deliberately wrong twins kept so that every check
can be shown to fail on them; functions starting with ``erratum_`` are the
printed forms that reviewers found wrong (errata 1 and 2).

Notation (notes on the model): N = number of visible keys per query (at most the
length n), m = |M(s)|, x = exp(-gamma/tau), X = bound on activations
(x_max), |A|_sum = sum of |entries| of A = W_Q W_K^T, |B|_col = max column
absolute sum of B = W_V W_O, Lip F <= |W_1|_col |W_2|_col.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
from mpmath import iv, libmp

from hardsoft.spec.constants import TAU_MAX_STABLE, ZU_REGIMES
from hardsoft.spec.validate import (
    require_eps,
    require_nonnegative,
    require_positive,
    require_tau,
    require_unit_interval_open,
)

# =========================================================================== E


def compute_x(gamma: float, tau: float) -> float:
    """Statement E (Theorem 26's x): return x = exp(-gamma/tau), 0 when the gap is infinite."""
    t = require_tau(tau)
    g = require_positive("gap gamma", gamma, allow_inf=True)
    return 0.0 if math.isinf(g) else math.exp(-g / t)


def _require_counts(N: int, m: int) -> tuple[int, int]:
    """Return (N, m) after checking 1 <= m <= N are integers."""
    N = require_positive("N (number of positions)", N, integer=True)
    m = require_positive("m (size of the max set)", m, integer=True)
    if m > N:
        raise ValueError(f"the max set cannot be larger than the sequence: m={m} > N={N}")
    return N, m


def bound_E_mass_off(N: int, m: int, x: float) -> float:
    """Statement E (Edelman et al. form, used in Theorem 26): return (N-m) x / (m + (N-m) x), a bound on the softmax mass off M(s).

    Exact when every non-maximal score equals max - gamma.
    """
    N, m = _require_counts(N, m)
    x = require_unit_interval_open("x = exp(-gamma/tau)", x)
    return (N - m) * x / (m + (N - m) * x)


def bound_E_l1(N: int, x: float) -> float:
    """Statement E: return 2 (N-1) x, a bound on ||softmax_tau(s) - ahardmax(s)||_1 (the l1 distance is twice the mass off M)."""
    N = require_positive("N (number of positions)", N, integer=True)
    x = require_unit_interval_open("x = exp(-gamma/tau)", x)
    return 2.0 * (N - 1) * x


def bound_E_edelman(N: int, gamma: float, tau: float) -> float:
    """Statement E (Edelman et al. 2022, cited in Theorem 26): return 2 N exp(-gamma/tau), the looser printed form."""
    N = require_positive("N (number of positions)", N, integer=True)
    return 2.0 * N * compute_x(gamma, tau)


def wrong_bound_E_mass_off_Nminus(N: int, m: int, x: float) -> float:
    """Wrong twin of statement E: counts N-m-1 positions off the max set instead of N-m (false at the staircase)."""
    N, m = _require_counts(N, m)
    x = require_unit_interval_open("x = exp(-gamma/tau)", x)
    k = max(N - m - 1, 0)
    return k * x / (m + k * x)


# =========================================================================== Z


def is_ziggurat(scores: np.ndarray, gamma: float) -> bool:
    """Lemma 6 (ziggurat hypothesis): return whether the sorted scores satisfy s_(1) - s_(k) >= (k-1) gamma."""
    s = np.sort(np.asarray(scores, dtype=np.float64))[::-1]
    g = require_positive("step gamma", gamma)
    return bool(np.all(s[0] - s >= np.arange(s.size) * g))


def bound_Z_mass_off_top(N: int, x: float) -> float:
    """Statement Z (corresponds to Lemma 6, the ziggurat lemma): return (x - x^N) / (1 - x^N), a bound on the mass off the top position.

    Exact for the staircase s_(k) = s_(1) - (k-1) gamma; always <= x, whatever N.
    """
    N = require_positive("N (number of positions)", N, integer=True)
    x = require_unit_interval_open("x = exp(-gamma/tau)", x)
    return (x - x**N) / (1.0 - x**N)


def bound_Z_weight_top(N: int, x: float) -> float:
    """Statement Z (Lemma 6): return (1 - x) / (1 - x^N), a lower bound on the weight of the top position."""
    N = require_positive("N (number of positions)", N, integer=True)
    x = require_unit_interval_open("x = exp(-gamma/tau)", x)
    return (1.0 - x) / (1.0 - x**N)


def wrong_bound_Z_mass_off_top_short(N: int, x: float) -> float:
    """Wrong twin of statement Z: sums the geometric series over N-1 positions instead of N (false at the staircase)."""
    N = require_positive("N (number of positions)", N, integer=True)
    x = require_unit_interval_open("x = exp(-gamma/tau)", x)
    k = max(N - 1, 1)
    return (x - x**k) / (1.0 - x**k)


# =========================================================================== S


def bound_S_l1(a: np.ndarray, b: np.ndarray, tau: float) -> float:
    """Statement S (used in Lemma 25): return ||a - b||_inf / tau, a bound on ||softmax_tau(a) - softmax_tau(b)||_1."""
    t = require_tau(tau)
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"score vectors differ in shape: {a.shape} vs {b.shape}")
    return float(np.max(np.abs(a - b))) / t


def wrong_bound_S_l1_half(a: np.ndarray, b: np.ndarray, tau: float) -> float:
    """Wrong twin of statement S: ||a - b||_inf / (2 tau), half the true Lipschitz constant (false near a = b = 0, n = 2)."""
    return bound_S_l1(a, b, tau) / 2.0


# =========================================================================== P


def compute_zu_rule(regime: str, L: float, n: float) -> dict[str, float]:
    """Lemma 6 as the compiler uses it (claim ZU): return the compiler's K, c, tau and gap at L = ln(ZU_MASS_DIVISOR m) and length n.

    bounded: K = 1, c = 1/L, tau = c/n, gap = K/n; unbounded: K = L, c = 1, tau = 1, gap = K (constructive.logic.compiler's
    ``_score_scale``, ``CompiledFormula.tau`` and ``gap``; tests/smt/test_prec_zu_smt.py ties it to compiled formulas).  Either
    way gap/tau = L, so e^{-gap/tau} = 1/(ZU_MASS_DIVISOR m).
    """
    if regime not in ZU_REGIMES:
        raise ValueError(f"regime must be one of {ZU_REGIMES}, got {regime!r}")
    if regime == "bounded":
        return {"K": 1.0, "c": 1.0 / L, "tau": (1.0 / L) / n, "gap": 1.0 / n}
    return {"K": L, "c": 1.0, "tau": 1.0, "gap": L}


def compute_score_error_bound(A_sum: float, X: float, eps: float) -> float:
    """Lemma 25, score step: return |A|_sum (2X + 1) eps, valid only for eps <= 1 (|A|_sum (2X eps + eps^2) <= this)."""
    A_sum = require_nonnegative("|A|_sum", A_sum)
    X = require_nonnegative("activation bound X", X)
    e = require_nonnegative("input error eps", eps)
    if e > 1.0:
        raise ValueError(f"Lemma 25 needs input error eps <= 1, got {e} (the bootstrapping condition)")
    return A_sum * (2.0 * X + 1.0) * e


def compute_score_error_exact_bound(A_sum: float, X: float, eps: float) -> float:
    """Lemma 25, score step without the guard: return |A|_sum (2X eps + eps^2), valid for every eps >= 0."""
    A_sum = require_nonnegative("|A|_sum", A_sum)
    X = require_nonnegative("activation bound X", X)
    e = require_nonnegative("input error eps", eps)
    return A_sum * (2.0 * X * e + e * e)


def wrong_score_error_bound_unguarded(A_sum: float, X: float, eps: float) -> float:
    """Wrong twin of Lemma 25 (erratum 3): |A|_sum (2X + 1) eps used for eps > 1 too, where eps^2 > eps breaks it."""
    A_sum = require_nonnegative("|A|_sum", A_sum)
    X = require_nonnegative("activation bound X", X)
    e = require_nonnegative("input error eps", eps)
    return A_sum * (2.0 * X + 1.0) * e


@dataclass(frozen=True)
class LayerNorms:
    """Lemma 25's weight norms of one layer: |A^h|_sum and |B^h|_col per head, the FFN's Lipschitz bound and bias norms."""

    A_sums: tuple[float, ...]
    B_cols: tuple[float, ...]
    lip_F: float
    W2_col: float = 0.0
    b1_inf: float = 0.0
    b2_inf: float = 0.0


def compute_layer_coefficients(X: float, N: int, norms: LayerNorms) -> tuple[float, float, float]:
    """Lemma 25: return (r0, r1, a1) with r = r0 + r1 / tau and a = a1 exp(-gamma/tau).

    r0 = (1 + Lip F)(1 + sum_h |B^h|_col), r1 = (1 + Lip F) sum_h |B^h|_col X (2X+1) |A^h|_sum,
    a1 = 2 (1 + Lip F) X (N - 1) sum_h |B^h|_col.
    Each is computed exactly (rationals) from the given floats and rounded UP to a
    float, so it is never below the exact constant (the bounds are increasing in each).
    """
    X = require_nonnegative("activation bound X", X)
    N = require_positive("N (number of positions)", N, integer=True)
    require_nonnegative("Lip F", norms.lip_F)
    if len(norms.A_sums) != len(norms.B_cols):
        raise ValueError("one |A|_sum and one |B|_col per head are needed")
    for a, b in zip(norms.A_sums, norms.B_cols):
        require_nonnegative("|A|_sum", a)
        require_nonnegative("|B|_col", b)
    x = Fraction(X)
    f = 1 + Fraction(norms.lip_F)
    sB = sum((Fraction(b) for b in norms.B_cols), Fraction(0))
    r0 = f * (1 + sB)
    r1 = f * sum((Fraction(b) * x * (2 * x + 1) * Fraction(a) for a, b in zip(norms.A_sums, norms.B_cols)), Fraction(0))
    a1 = 2 * f * x * (int(N) - 1) * sB
    return float_up(r0), float_up(r1), float_up(a1)


def compute_spread_coefficient(X: float, norms: LayerNorms, spreads: Sequence[float]) -> float:
    """Lemma 25 with near ties: return a2 = (1 + Lip F) X sum_h |B^h|_col delta_h, the offset's tie-spread term is a2 / tau.

    When the hard mode counts scores within a tolerance of the row maximum as tied, the tied
    scores of head h differ by up to delta_h (the measured spread) instead of 0.  Raising them
    to the row maximum moves the scores by <= delta_h in the max norm, so by statement S the
    softmax moves by <= delta_h / tau in l1; the raised scores have an exact max set and the
    same gap, where statement E applies.  The head's weight error grows by delta_h / tau and
    its output error by X |B^h|_col delta_h / tau, times (1 + Lip F) through the FFN.
    Exact (rationals) and rounded up; 0 when every tie is exact.
    """
    X = require_nonnegative("activation bound X", X)
    if len(spreads) != len(norms.B_cols):
        raise ValueError("one tie spread per head is needed")
    for v in spreads:
        require_nonnegative("tie spread", v)
    f = 1 + Fraction(norms.lip_F)
    return float_up(f * Fraction(X) * sum((Fraction(b) * Fraction(v) for b, v in zip(norms.B_cols, spreads)), Fraction(0)))


def compute_layer_constants(
    X: float, gamma: float, N: int, tau: float, A_sums: Sequence[float], B_cols: Sequence[float], lip_F: float
) -> tuple[float, float]:
    """Statement P (corresponds to Lemma 25): return (r, a) such that output error <= r eps + a whenever input error eps <= 1.

    r = (1 + Lip F)(1 + sum_h |B^h|_col (1 + X (2X+1) |A^h|_sum / tau)),
    a = 2 (1 + Lip F) X (N - 1) exp(-gamma/tau) sum_h |B^h|_col.
    """
    t = require_tau(tau)
    r0, r1, a1 = compute_layer_coefficients(X, N, LayerNorms(tuple(A_sums), tuple(B_cols), lip_F))
    return r0 + r1 / t, a1 * compute_x(gamma, t)


def compute_layer_error_bound(eps: float, r: float, a: float) -> float:
    """Statement P (Lemma 25): return r eps + a, refusing eps > 1 where Lemma 25 says nothing."""
    e = require_nonnegative("input error eps", eps)
    if e > 1.0:
        raise ValueError(f"Lemma 25 applies only to input error eps <= 1, got {e}")
    return r * e + a


# =========================================================================== C


def compute_recursion(r: Sequence[float], a: Sequence[float]) -> list[float]:
    """Statement C (corresponds to Theorem 26's induction): return B_0 = 0, B_l = r_l B_(l-1) + a_l for l = 1..L."""
    if len(r) != len(a):
        raise ValueError(f"one r_l and one a_l per layer are needed, got {len(r)} and {len(a)}")
    B = [0.0]
    for rl, al in zip(r, a):
        B.append(float(rl) * B[-1] + float(al))
    return B


def compute_recursion_closed_form(r: float, a: float, L: int) -> float:
    """Statement C (Theorem 26, uniform layers): return B_L = a (r^L - 1)/(r - 1), or L a when r = 1.

    For 1/2 < r < 3/2 it is evaluated as a expm1(L log r)/(r - 1): the literal
    (r**L - 1)/(r - 1) cancels catastrophically when r is near 1 (r = 1 + 1e-9
    loses about half the digits), while log r keeps its relative accuracy and
    r - 1 is exact there (Sterbenz).  Farther from 1 the literal form amplifies
    rounding errors at most 3-fold and is exact on small integers.
    """
    L = int(require_nonnegative("depth L", L))
    if r == 1.0 or L == 0:
        return L * a
    if 0.5 < r < 1.5:
        return a * math.expm1(L * math.log(r)) / (r - 1.0)
    return a * (r**L - 1.0) / (r - 1.0)


def is_bootstrap_ok(B_L: float, eps: float) -> bool:
    """Statement C (Theorem 26 with the eps <= 1 bootstrapping fix): return whether B_L <= min(eps, 1)."""
    e = require_eps(eps)
    return float(B_L) <= min(e, 1.0)


def wrong_bootstrap_unguarded(B_L: float, eps: float) -> bool:
    """Wrong twin of statement C (erratum 3): accepts B_L <= eps for any eps > 0, dropping B_L <= 1."""
    return float(B_L) <= require_positive("eps", eps)


def compute_guard_counterexample(r: Sequence[float], a: Sequence[float], M: float) -> list[float]:
    """Statement C, why the guard is needed: return errors e_0..e_L obeying every guarded step yet with e_L > M.

    Takes e_l = B_l while B_l <= 1; the first step from an error above 1 is
    unconstrained by Lemma 25, so the sequence jumps there to M + 1 and stays.
    Requires some B_l > 1 for l < L (otherwise no such sequence exists).
    """
    B = compute_recursion(r, a)
    if all(b <= 1.0 for b in B[:-1]):
        raise ValueError("every intermediate B_l <= 1: the guarded steps then force e_L <= B_L")
    e = [0.0]
    for l in range(1, len(B)):
        e.append(B[l] if e[-1] <= 1.0 else float(M) + 1.0)
    return e


def is_guarded_step_sequence(e: Sequence[float], r: Sequence[float], a: Sequence[float]) -> bool:
    """Statement C: return whether e_0 = 0 and e_(l) <= r_l e_(l-1) + a_l whenever e_(l-1) <= 1."""
    if e[0] != 0.0:
        return False
    return all(e[l] <= r[l - 1] * e[l - 1] + a[l - 1] for l in range(1, len(e)) if e[l - 1] <= 1.0)


# =========================================================================== G


def bound_G_activations(X0: float, layers: Sequence[LayerNorms]) -> list[float]:
    """Statement G (corresponds to Lemma 29): return X_0, X_1, ..., X_L bounding ||x^(l)_i||_inf.

    ||y|| <= (1 + sum_h |B^h|_col) X, ||z|| <= (1 + Lip F) ||y|| + ||b_1|| |W_2|_col + ||b_2||.
    """
    X = [require_nonnegative("X_0", X0)]
    for nm in layers:
        y = (1.0 + sum(nm.B_cols)) * X[-1]
        X.append((1.0 + nm.lip_F) * y + nm.b1_inf * nm.W2_col + nm.b2_inf)
    return X


# =========================================================================== Q


def is_gap_positive(gap: float) -> bool:
    """Statement Q (corresponds to Proposition 24): return whether a measured gap gamma_T(n) is > 0 (+inf counts)."""
    return float(gap) > 0.0


# =========================================================================== T


@dataclass(frozen=True)
class RecursionConstants:
    """Theorem 26's constants as functions of t = 1/tau: layer l has r_l(t) = r0_l + r1_l t, a_l(t) = a1_l exp(-gamma t) + a2_l t.

    Valid for t >= t_min.  Built by ``from_uniform`` (statement T's K, R form) or
    ``from_norms`` (Lemma 25's constants of a concrete model).  ``a2`` is the tie-spread
    term of ``compute_spread_coefficient`` (empty: every tie exact); it GROWS with t, so with
    a2 > 0 a colder temperature is not always better, and the searches of statement T
    (which rely on B_L decreasing for large t) refuse such constants: certify pointwise with
    ``certify_bound_at`` instead.
    """

    r0: tuple[float, ...]
    r1: tuple[float, ...]
    a1: tuple[float, ...]
    gamma: float
    t_min: float = 0.0
    a2: tuple[float, ...] = ()

    @property
    def has_spread(self) -> bool:
        """Return whether some layer has a tie-spread term (a2_l > 0)."""
        return any(v > 0 for v in self.a2)

    def spread_terms(self) -> tuple[float, ...]:
        """Return a2_l for every layer (zeros when none was given)."""
        return self.a2 if self.a2 else (0.0,) * self.depth

    def without_spread(self) -> RecursionConstants:
        """Return the same constants with the tie-spread terms dropped (the exact-tie part)."""
        return RecursionConstants(self.r0, self.r1, self.a1, self.gamma, self.t_min)

    @property
    def depth(self) -> int:
        """Return the number of layers L."""
        return len(self.r0)

    @staticmethod
    def from_uniform(K: float, R: float, X: float, N: int, L: int, gamma: float) -> RecursionConstants:
        """Statement T: r = R/tau for tau <= 1 and a = K X N exp(-gamma/tau) at every one of L layers."""
        K = require_positive("K", K)
        R = require_positive("R", R)
        if R < 1.0:
            raise ValueError(f"R must be >= 1 (every layer's r is >= 1), got {R}")
        X = require_positive("x_max", X)
        N = require_positive("n", N, integer=True)
        L = require_positive("depth L", L, integer=True)
        g = require_positive("gap gamma", gamma)
        a1 = float_up(Fraction(K) * Fraction(X) * int(N))  # exact product, rounded up: never below K X N
        return RecursionConstants((0.0,) * L, (R,) * L, (a1,) * L, g, t_min=1.0)

    @staticmethod
    def from_norms(
        layers: Sequence[LayerNorms], X: float, N: int, gamma: float, spreads: Sequence[Sequence[float]] | None = None
    ) -> RecursionConstants:
        """Statement P composed (Lemma 25 at every layer): constants of a model from its weight norms.

        spreads: per layer and head the measured tie spread (``Measurement.tie_spread_per_head``);
        None or all zero when every tie is exact.
        """
        g = require_positive("gap gamma", gamma)
        if not layers:
            raise ValueError("a model needs at least one layer")
        coeffs = [compute_layer_coefficients(X, N, nm) for nm in layers]
        a2: tuple[float, ...] = ()
        if spreads is not None and any(v > 0 for row in spreads for v in row):
            if len(spreads) != len(layers):
                raise ValueError("one row of tie spreads per layer is needed")
            a2 = tuple(compute_spread_coefficient(X, nm, sp) for nm, sp in zip(layers, spreads))
        return RecursionConstants(tuple(c[0] for c in coeffs), tuple(c[1] for c in coeffs), tuple(c[2] for c in coeffs), g, 0.0, a2)


@contextlib.contextmanager
def _interval_precision(dps: int = 40):
    """Run a block with mpmath's interval context at ``dps`` digits (restored afterwards)."""
    old = iv.dps
    iv.dps = dps
    try:
        yield
    finally:
        iv.dps = old


def float_up(q: Fraction) -> float:
    """Return the smallest float >= the exact rational q (+inf beyond the float range)."""
    try:
        f = float(q)  # correctly rounded to nearest
    except OverflowError:
        return math.inf if q > 0 else -math.inf
    return f if Fraction(f) >= q else math.nextafter(f, math.inf)


def _upper(x: iv.mpf) -> float:
    """Return the smallest float >= the upper end of the interval x, read exactly (no rounding to 53 bits first)."""
    b = x._mpi_[1]
    if b == libmp.finf:
        return math.inf
    if b == libmp.fnan:
        raise ValueError("interval arithmetic produced NaN")
    if b == libmp.fninf:
        return -math.inf
    p, q = libmp.to_rational(b)
    return float_up(Fraction(p, q))


def _iv(v: float) -> iv.mpf:
    """Return the exact binary value of a float as a point interval."""
    return iv.mpf(float(v))


def compute_bound_at(consts: RecursionConstants, tau: float) -> list[float]:
    """Statement C at a temperature, in float64: return B_0..B_L (for display; certification uses certify_bound_at)."""
    t = 1.0 / require_tau(tau)
    r = [r0 + r1 * t for r0, r1 in zip(consts.r0, consts.r1)]
    a = [a1 * math.exp(-consts.gamma * t) + a2 * t for a1, a2 in zip(consts.a1, consts.spread_terms())]
    return compute_recursion(r, a)


def _B_L_interval(consts: RecursionConstants, t_lo: iv.mpf, t_hi: iv.mpf) -> iv.mpf:
    """Return an interval containing B_L(t) for every t in [t_lo, t_hi] (r increasing in t; a's two terms bounded separately)."""
    B = iv.mpf(0)
    g = _iv(consts.gamma)
    for r0, r1, a1, a2 in zip(consts.r0, consts.r1, consts.a1, consts.spread_terms()):
        r_hi = _iv(r0) + _iv(r1) * t_hi
        a_hi = _iv(a1) * iv.exp(-g * t_lo) + _iv(a2) * t_hi
        B = r_hi * B + a_hi
    return B


def certify_bound_at(consts: RecursionConstants, tau: float) -> float:
    """Statement C (Theorem 26): return a rigorous upper bound on B_L at temperature tau (mpmath interval arithmetic)."""
    t = 1.0 / require_tau(tau)
    if t < consts.t_min:
        raise ValueError(f"these constants hold only for tau <= {1.0 / consts.t_min}, got tau = {tau}")
    with _interval_precision():
        ti = iv.mpf(1) / _iv(tau)
        return _upper(_B_L_interval(consts, ti, ti))


def _sup_certified(consts: RecursionConstants, t: float, target: float) -> bool:
    """Return True only if B_L(s) <= target is proved for every s >= t (interval branch and bound)."""
    # Beyond t_mono, B_L(t) = exp(-gamma t) P(t) with P of degree <= L-1 and
    # non-negative coefficients, so t P'(t) <= (L-1) P(t) and
    # d/dt log B_L <= -gamma + (L-1)/t < 0: B_L is non-increasing there, and its
    # supremum over [t_mono, inf) is B_L(t_mono).
    t_mono = max(t, (consts.depth - 1) / consts.gamma)
    with _interval_precision():
        tm = _iv(t_mono)
        if _upper(_B_L_interval(consts, tm, tm)) > target:
            return False
    # On [t, t_mono]: r_l grows and a_l shrinks with t, so B_L on a piece
    # [lo, hi] is at most B_L computed with r_l(hi) and a_l(lo).
    return t_mono == t or _sup_on_piece(consts, t, t_mono, target, 0)


def _sup_on_piece(consts: RecursionConstants, lo: float, hi: float, target: float, depth: int) -> bool:
    """Return True only if B_L(s) <= target is proved for every s in [lo, hi]."""
    with _interval_precision():
        if _upper(_B_L_interval(consts, _iv(lo), _iv(hi))) <= target:
            return True
    if depth >= 12 or hi - lo <= 1e-12 * max(1.0, hi):
        return False
    mid = 0.5 * (lo + hi)
    return _sup_on_piece(consts, lo, mid, target, depth + 1) and _sup_on_piece(consts, mid, hi, target, depth + 1)


def _refuse_spread(consts: RecursionConstants) -> None:
    """Raise ValueError when the constants have a tie-spread term (statement T's searches assume B_L decreases for large t)."""
    if consts.has_spread:
        raise ValueError(
            "scores tied only within the tie tolerance (tie spread > 0): colder is not always better, so statement T's "
            "'every smaller tau' does not hold; certify the exact-tie part (without_spread) and then one tau (certify_bound_at)"
        )


@dataclass(frozen=True)
class TemperatureCertificate:
    """Statement T (corresponds to Theorem 26): a temperature and the error bound it certifies for every smaller tau."""

    tau: float
    inverse_tau: float
    bound: float
    layer_bounds: tuple[float, ...]
    method: str


def compute_sufficient_inverse_temperature(consts: RecursionConstants, eps: float) -> TemperatureCertificate:
    """Statement T (corresponds to Theorem 26): return the closed-form 1/tau that certifies B_L <= min(eps, 1) for every smaller tau.

    With R = max_l (r0_l + r1_l) (so r_l <= R t for t >= 1) and AN = max_l a1_l,
    B_L <= AN L (R t)^(L-1) exp(-gamma t) and max_t t^k exp(-gamma t/2) = (2k/(e gamma))^k give
      t >= (2/gamma) ln( AN L R^(L-1) (2(L-1)/(e gamma))^(L-1) / eps ),   t >= 1.
    Evaluated in interval arithmetic and rounded up, so the inequality chain holds
    for the returned t and every larger one.
    """
    target = min(require_eps(eps), 1.0)
    _refuse_spread(consts)
    L = consts.depth
    with _interval_precision():
        R = iv.mpf(max(1.0, max(_upper(_iv(r0) + _iv(r1)) for r0, r1 in zip(consts.r0, consts.r1))))
        AN = _iv(max(consts.a1))
        g = _iv(consts.gamma)
        k = L - 1
        poly = (iv.mpf(2 * k) / (iv.e * g)) ** k if k > 0 else iv.mpf(1)
        inner = AN * L * R**k * poly / _iv(target)
        t = iv.mpf(2) / g * iv.log(inner) if _upper(inner) > 1 else iv.mpf(0)
        t_up = max(_upper(t), 1.0, consts.t_min)
    tau = 1.0 / t_up
    while Fraction(1) / Fraction(tau) < Fraction(t_up):  # exact: the float tau is never hotter than certified
        tau = math.nextafter(tau, 0.0)
    t_exact = 1.0 / tau
    cert = certify_bound_at(consts, tau)
    Bs = compute_bound_at(consts, tau)
    return TemperatureCertificate(tau, t_exact, cert, tuple(Bs), "closed form (statement T)")


def compute_tightest_inverse_temperature(consts: RecursionConstants, eps: float, rel_tol: float = 1e-6) -> TemperatureCertificate:
    """Statement C/T (Theorem 26): return (nearly) the smallest 1/tau such that B_L <= min(eps, 1) is proved for it and every larger 1/tau.

    Bisection on t = 1/tau with a rigorous predicate: interval bounds on
    [t, (L-1)/gamma] by branch and bound, and monotone decrease of B_L beyond.
    The result is within ``rel_tol`` of the infimum, up to the predicate's
    resolution.  Never smaller than t_min, nor than 1/TAU_MAX_STABLE (when even
    tau = TAU_MAX_STABLE certifies eps, that is returned).
    """
    target = min(require_eps(eps), 1.0)
    _refuse_spread(consts)
    hi = compute_sufficient_inverse_temperature(consts, eps).inverse_tau
    lo = max(consts.t_min, 1.0 / TAU_MAX_STABLE)  # temperatures above TAU_MAX_STABLE are not offered
    if not _sup_certified(consts, hi, target):
        raise RuntimeError("internal: the closed-form temperature failed its own certificate")
    if _sup_certified(consts, lo, target):
        hi = lo
    else:
        while hi - lo > rel_tol * hi:
            mid = 0.5 * (lo + hi)
            if _sup_certified(consts, mid, target):
                hi = mid
            else:
                lo = mid
    tau = 1.0 / hi
    while Fraction(1) / Fraction(tau) < Fraction(hi):  # exact: never hotter than the certified 1/tau
        tau = math.nextafter(tau, 0.0)
    return TemperatureCertificate(
        tau, 1.0 / tau, certify_bound_at(consts, tau), tuple(compute_bound_at(consts, tau)), "tightest (bisection, certified)"
    )


# =========================================================================== errata


def erratum_offset_plus(K: float, X: float, N: int, gamma: float, tau: float) -> float:
    """Erratum 1 (proof of Theorem 26 as printed): return a = K X N exp(+gamma/tau), which grows as tau -> 0.

    The correct offset is ``compute_offset`` (exp(-gamma/tau)).
    """
    t = require_tau(tau)
    g = require_positive("gap gamma", gamma)
    with mpmath.workdps(30):
        return float(mpmath.mpf(K) * X * N * mpmath.exp(mpmath.mpf(g) / t))


def compute_offset(K: float, X: float, N: int, gamma: float, tau: float) -> float:
    """Theorem 26 (corrected): return a = K X N exp(-gamma/tau)."""
    return float(K) * float(X) * int(N) * compute_x(gamma, tau)


def erratum_o_form_inverse_temperature(gamma: float, N: int, X: float, c: float = 1.0) -> float:
    """Erratum 2 (Theorem 26's O-form read for any eps): return 1/tau = (c/gamma) ln(N X / gamma), with no log(1/eps) term.

    Enough when eps >= 1/poly(n); fails when eps shrinks faster than any polynomial
    (e.g. eps = e^{-n}), which ``compute_sufficient_inverse_temperature`` handles.
    """
    g = require_positive("gap gamma", gamma)
    N = require_positive("n", N, integer=True)
    X = require_positive("x_max", X)
    return float(c) / g * math.log(max(N * X / g, math.e))
