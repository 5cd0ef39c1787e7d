"""Lemmas 7 and 8, counting, comparison, flip-flop: the heads the builders make have EXACTLY the scores the Lean theorems are about.

``lean/HardSoft/Constructions.lean`` proves, for every n, facts about score formulas it
defines (``tiebreakPastBounded``, ``lookupScore``, ...) and about the target it defines
(``tiebreakPastTarget``: ``lastSel`` with default ``i - 1``; ``tiebreakFutureTarget``:
``firstSel`` with default ``k = 0``).  Those theorems are about the code only if the code's
heads score exactly that way.  This file mirrors each Lean definition in Python (exact
rationals, the same recursion) and compares it with the scores of the heads the builders
make (``(x_i W_Q)(x_j W_K)^T`` on the layer-0 activations), for every selection pattern up
to n = 8 and sampled patterns up to n = 32, and checks that the hard run's output is the
value at the Lean target.  A builder changed in a way the theorems would not cover (a sign
flip, K/(2n) instead of K/n) fails here: the last tests plant such builders.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from hardsoft.constructive import applications as apps
from hardsoft.constructive import heads as cs
from hardsoft.spec import transformer as tf

N_EXHAUSTIVE = 8
N_SAMPLED = 32
SAMPLES = 6
TOL = 1e-9


# --------------------------------------------------------------------------- the Lean definitions, mirrored


def last_sel(sel: list[bool], N: int) -> int | None:
    """``HardSoft.lastSel sel N``: the rightmost j < N with sel j (None if none)."""
    return None if N == 0 else (N - 1 if sel[N - 1] else last_sel(sel, N - 1))


def first_sel(sel: list[bool], N: int) -> int | None:
    """``HardSoft.firstSel sel N``: the leftmost k < N with sel k (None if none)."""
    if N == 0:
        return None
    k = first_sel(sel, N - 1)
    return k if k is not None else (N - 1 if sel[N - 1] else None)


def past_target(sel: list[bool], i: int) -> int:
    """``HardSoft.tiebreakPastTarget sel i = (lastSel sel i).getD (i - 1)``."""
    t = last_sel(sel, i)
    return i - 1 if t is None else t


def future_target(sel: list[bool], n: int, i: int) -> int:
    """``HardSoft.tiebreakFutureTarget sel n i = (firstSel (fun k => sel (i+1+k)) (n-1-i)).getD 0`` (k = j - (i+1))."""
    t = first_sel(sel[i + 1 :], n - 1 - i)
    return 0 if t is None else t


def ind(b: bool) -> Fraction:
    """``if b then 1 else 0``."""
    return Fraction(1 if b else 0)


def past_bounded(K: Fraction, n: int, sel: list[bool], j: int) -> Fraction:
    """``HardSoft.tiebreakPastBounded K n sel j = K * ((if sel j then 1 else 0) + natCast j / natCast n)``."""
    return K * (ind(sel[j]) + Fraction(j, n))


def future_bounded(K: Fraction, n: int, sel: list[bool], i: int, k: int) -> Fraction:
    """``HardSoft.tiebreakFutureBounded K n sel i k = K * ((if sel (i+1+k) then 1 else 0) - natCast (i+1+k) / natCast n)``."""
    return K * (ind(sel[i + 1 + k]) - Fraction(i + 1 + k, n))


def past_unbounded(K: Fraction, n: int, sel: list[bool], j: int) -> Fraction:
    """``HardSoft.tiebreakPastUnbounded K n sel j = K * (natCast n * (if sel j then 1 else 0) + natCast j)``."""
    return K * (n * ind(sel[j]) + j)


def future_unbounded(K: Fraction, n: int, sel: list[bool], i: int, k: int) -> Fraction:
    """``HardSoft.tiebreakFutureUnbounded K n sel i k = K * (natCast n * (if sel (i+1+k) then 1 else 0) - natCast (i+1+k))``."""
    return K * (n * ind(sel[i + 1 + k]) - (i + 1 + k))


def lookup_score(K: Fraction, t: int, j: int) -> Fraction:
    """``HardSoft.lookupScore K t j = K * (2 * natCast t * natCast j - natCast j * natCast j)``."""
    return K * (2 * t * j - j * j)


def lookup_score_bounded(K: Fraction, n: int, t: int, j: int) -> Fraction:
    """``HardSoft.lookupScoreBounded K n t j = K * (2 * (t/n) * (j/n) - (j/n) * (j/n))``."""
    tn, jn = Fraction(t, n), Fraction(j, n)
    return K * (2 * tn * jn - jn * jn)


# --------------------------------------------------------------------------- the built heads' scores


def _scores(model: tf.Model, words: np.ndarray, layer: int = 0, head: int = 0) -> np.ndarray:
    """Return s[b, i, j] = (x_i W_Q)(x_j W_K)^T of the given head on the layer's input activations (hard run)."""
    x = tf.run(model, words, "hard").activations[layer]
    hd = model.layers[layer].heads[head]
    return np.einsum("bik,bjk->bij", x @ hd.W_Q, x @ hd.W_K)


def _words(n: int, seed: int = 0) -> np.ndarray:
    """Every 0/1 word of length n (n <= N_EXHAUSTIVE), else SAMPLES random ones plus all-0 and all-1."""
    if n <= N_EXHAUSTIVE:
        return np.array(list(product((0, 1), repeat=n)), dtype=np.int64)
    rng = np.random.default_rng(seed + n)
    return np.concatenate([rng.integers(0, 2, size=(SAMPLES, n)), np.zeros((1, n), np.int64), np.ones((1, n), np.int64)])


def _close(a: float, b: Fraction, scale: float) -> bool:
    """Return whether the float score a equals the exact Lean value b (relative to the score scale)."""
    return abs(a - float(b)) <= TOL * max(1.0, scale)


def check_tiebreak(direction: str, regime: str, n_max: int = N_SAMPLED, K: float = 1.0) -> None:
    """Compare build_tiebreak's scores with the Lean formula and its hard output with the value at the Lean target."""
    Kq = Fraction(K)
    for n in range(1, n_max + 1):
        model = cs.build_tiebreak(direction, regime, K=K)  # alphabet (a, b), select a = symbol 0, value a
        words = _words(n)
        s = _scores(model, words)
        hard = tf.run(model, words, "hard").activations[-1][:, :, -1]
        for b, w in enumerate(words):
            sel = [int(c) == 0 for c in w]
            for i in range(n):
                if direction == "past":
                    if i == 0:
                        continue
                    lean = [(past_bounded if regime == "bounded" else past_unbounded)(Kq, n, sel, j) for j in range(i)]
                    got = s[b, i, :i]
                    target = past_target(sel, i)
                else:
                    if i + 1 >= n:
                        continue
                    f = future_bounded if regime == "bounded" else future_unbounded
                    lean = [f(Kq, n, sel, i, k) for k in range(n - 1 - i)]
                    got = s[b, i, i + 1 :]
                    target = i + 1 + future_target(sel, n, i)
                scale = float(max(abs(v) for v in lean))
                assert all(_close(g, v, scale) for g, v in zip(got, lean)), (direction, regime, n, w.tolist(), i, list(got), lean)
                assert hard[b, i] == float(sel[target]), (direction, regime, n, w.tolist(), i, target)


@pytest.mark.parametrize("regime", cs.REGIMES)
@pytest.mark.parametrize("direction", ["past", "future"])
def test_tiebreak_scores_are_the_lean_formula(direction: str, regime: str) -> None:
    """Lemma 8: tiebreak_head's scores are HardSoft.tiebreak{Past,Future}{Bounded,Unbounded} and its hard pick is the Lean target."""
    check_tiebreak(direction, regime)


def test_tiebreak_scores_with_another_K() -> None:
    """Lemma 8: the scale K enters as the Lean formula's factor K (K = 3/2, n <= 12)."""
    check_tiebreak("past", "bounded", 12, K=1.5)
    check_tiebreak("future", "unbounded", 12, K=1.5)


def check_lookup(offset: int, regime: str, n_max: int = N_SAMPLED, K: float = 1.0) -> None:
    """Compare build_lookup's scores (one-sided default mask) with HardSoft.lookupScore / lookupScoreBounded at t = i + offset."""
    Kq = Fraction(K)
    for n in range(1, n_max + 1):
        model = cs.build_lookup(offset, regime, K=K)
        words = _words(n)[:4]  # scores do not depend on the word
        s = _scores(model, words)
        for i in range(n):
            t = i + offset
            keys = list(range(i)) if offset < 0 else list(range(i + 1, n))
            if not keys:
                continue
            lean = [lookup_score(Kq, t, j) if regime == "unbounded" else lookup_score_bounded(Kq, n, t, j) for j in keys]
            scale = float(max(abs(v) for v in lean))
            for b in range(words.shape[0]):
                got = s[b, i, keys]
                assert all(_close(g, v, scale) for g, v in zip(got, lean)), (offset, regime, n, i, list(got), lean)


@pytest.mark.parametrize("regime", cs.REGIMES)
@pytest.mark.parametrize("offset", [-1, 1])
def test_lookup_scores_are_the_lean_formula(offset: int, regime: str) -> None:
    """Lemma 7: lookup_head's scores are HardSoft.lookupScore K (i + offset) j (bounded: lookupScoreBounded K n)."""
    check_lookup(offset, regime)


def test_count_head_scores_are_constant() -> None:
    """Counting: count_head's scores are one constant (0) on every key, the hypothesis of HardSoft.softmax_eq_uniform_of_const."""
    d = 5
    rng = np.random.default_rng(1)
    for direction in ("past", "future"):
        h = cs.count_head(d, direction, 0, 1, 2.0)
        x = rng.normal(size=(9, d))
        assert np.array_equal((x @ h.W_Q) @ (x @ h.W_K).T, np.zeros((9, 9)))


@pytest.mark.parametrize("regime", cs.REGIMES)
def test_sign_head_gap_is_the_lean_quantity(regime: str) -> None:
    """Comparison: sign_head's even/odd score difference is 2K|V| (bounded) or 2K|V| n (unbounded), the right side of
    HardSoft.sign_gap_bounded / sign_gap_unbounded, and is >= K/n (resp. K) for |V| = (2m+1)/(2D), 1 <= D <= n-1."""
    K = 1.0
    coord = {"one": 0, "parity": 1, "n*parity": 2}
    d = 4  # coordinate 3 holds V
    for n in range(2, N_SAMPLED + 1):
        for D in range(1, n):
            for m in (0, 1, D):
                for orient in (1.0, -1.0):
                    V = Fraction(2 * m + 1, 2 * D)
                    h = cs.sign_head(d, coord, regime, 3, 0, orient, K)
                    par = np.array([(-1.0) ** j for j in range(n)])
                    x = np.zeros((n, d))
                    x[:, 0] = 1.0
                    x[:, 1] = par
                    x[:, 2] = n * par
                    x[:, 3] = float(V)
                    s = (x @ h.W_Q) @ (x @ h.W_K).T  # rows: queries
                    diff = abs(s[0, 0] - s[0, 1])
                    lean_rhs = 2 * Fraction(K) * V if regime == "bounded" else 2 * Fraction(K) * V * n
                    assert _close(diff, lean_rhs, float(lean_rhs)), (regime, n, D, m, diff, lean_rhs)
                    assert lean_rhs >= (Fraction(K) / n if regime == "bounded" else Fraction(K))


def test_flip_flop_head_is_the_bounded_past_tiebreak() -> None:
    """Flip-flop (APP-FF): its head's scores over j <= i are HardSoft.tiebreakPastBounded 1 n write over i + 1 keys,
    and its hard output is the bit at tiebreakPastTarget write (i + 1)."""
    c = apps.build_flip_flop()
    for n in range(1, 7):
        words = np.array(list(product(range(4), repeat=n)), dtype=np.int64)
        s = _scores(c.model, words)
        for b, w in enumerate(words):
            write = [int(a) in (0, 1) for a in w]
            for i in range(n):
                lean = [past_bounded(Fraction(1), n, write, j) for j in range(i + 1)]
                assert all(_close(g, v, 2.0) for g, v in zip(s[b, i, : i + 1], lean)), (w.tolist(), i)
                t = past_target(write, i + 1)
                bit = "1" if int(w[t]) == 1 else "0"
                assert apps.reference_flip_flop("".join("01ri"[int(a)] for a in w))[i] == bit


# --------------------------------------------------------------------------- wrong builders are caught


def _wrong_tiebreak(kind: str):
    """Return a tiebreak_head that differs from the real one: 'half' (K/(2n) tie-break term) or 'flip' (the sign of j/n)."""
    real = cs.tiebreak_head

    def head(d, coord, direction, regime, value, target, select=None, K=1.0):  # noqa: ANN001, ANN202 - the builder's signature
        h = real(d, coord, direction, regime, value, target, select, K)
        W_K = h.W_K.copy()
        pos = coord["i/n"] if regime == "bounded" else coord["i"]
        W_K[pos] *= 0.5 if kind == "half" else -1.0
        return tf.Head(h.W_Q, W_K, h.W_V, h.W_O, h.mask, h.hard_mode)

    return head


@pytest.mark.parametrize("kind", ["half", "flip"])
@pytest.mark.parametrize("regime", cs.REGIMES)
def test_wrong_tiebreak_builder_fails(monkeypatch: pytest.MonkeyPatch, kind: str, regime: str) -> None:
    """A tiebreak builder with K/(2n) (or K/2 j) instead of K/n (K j), or with the tie-break sign flipped, fails the comparison."""
    monkeypatch.setattr(cs, "tiebreak_head", _wrong_tiebreak(kind))
    with pytest.raises(AssertionError):
        check_tiebreak("past", regime, 6)


def test_wrong_lookup_builder_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lookup builder that reads t = i (offset dropped from the query) fails the comparison."""
    real = cs.lookup_head

    def head(d, coord, offset, value, target, K=1.0, regime="unbounded", mask=None):  # noqa: ANN001, ANN202
        h = real(d, coord, offset, value, target, K, regime, mask)
        W_Q = h.W_Q.copy()
        W_Q[coord["one"], 0] = 0.0 if regime == "unbounded" else W_Q[coord["one"], 0]
        return tf.Head(W_Q, h.W_K, h.W_V, h.W_O, h.mask, h.hard_mode)

    monkeypatch.setattr(cs, "lookup_head", head)
    with pytest.raises(AssertionError):
        check_lookup(-1, "unbounded", 6)
