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

import dataclasses
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
    HardSoft.sign_gap_bounded / sign_gap_unbounded, and is >= K/n (resp. K) for |V| = (2m+1)/(2D), 1 <= D <= n (D = n: the inclusive count at i = n-1)."""
    K = 1.0
    coord = {"one": 0, "parity": 1, "n*parity": 2}
    d = 4  # coordinate 3 holds V
    for n in range(2, N_SAMPLED + 1):
        for D in range(1, n + 1):
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


def sign_score(K: Fraction, u: Fraction, n: int | None, j: int) -> Fraction:
    """``HardSoft.signScore K u j = K u parity j`` (bounded, ``n`` None) or ``signScoreUnbounded K u n j = K u n parity j``."""
    parity = 1 if j % 2 == 0 else -1  # HardSoft.parity j
    return K * u * parity if n is None else K * u * n * parity


def sign_group(b: bool, j: int) -> bool:
    """``HardSoft.signGroup b j = ((j % 2 == 0) == b)``: the even keys for b (o V > 0), else the odd keys."""
    return (j % 2 == 0) == b


@pytest.mark.parametrize("regime", cs.REGIMES)
def test_sign_head_scores_are_the_lean_formula(regime: str) -> None:
    """Comparison: sign_head's scores over the keys j < n are HardSoft.signScore K (o V) (bounded) or
    signScoreUnbounded K (o V) n (unbounded), the formulas of sign_head_bounded / sign_head_unbounded, and its
    max set is signGroup b with b = (o V > 0); a builder with K/2 differs."""
    K = Fraction(1)
    coord = {"one": 0, "parity": 1, "n*parity": 2}
    d = 4  # coordinate 3 holds V
    for n in range(2, N_SAMPLED + 1):
        for D in range(1, n + 1):
            for m in (0, 1, D):
                for sign in (1, -1):
                    for orient in (1, -1):
                        V = sign * Fraction(2 * m + 1, 2 * D)
                        u = orient * V
                        par = np.array([(-1.0) ** j for j in range(n)])
                        x = np.zeros((n, d))
                        x[:, 0] = 1.0
                        x[:, 1] = par
                        x[:, 2] = n * par
                        x[:, 3] = float(V)
                        lean = [sign_score(K, u, None if regime == "bounded" else n, j) for j in range(n)]
                        for k_builder, same in ((K, True), (K / 2, False)):
                            h = cs.sign_head(d, coord, regime, 3, 0, float(orient), float(k_builder))
                            s = (x @ h.W_Q) @ (x @ h.W_K).T  # rows: queries
                            got = [bool(_close(s[0, j], lean[j], float(abs(lean[j])))) for j in range(n)]
                            assert all(got) is same, (regime, n, D, m, sign, orient, float(k_builder))
                        top = max(lean)
                        assert [v == top for v in lean] == [sign_group(u > 0, j) for j in range(n)]


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


# --------------------------------------------------------------------------- the applications' heads (lean/HardSoft/Applications.lean)

N_APPS = 32  # every n up to this length
N_APPS_EXHAUSTIVE = 6  # every word up to this length for heads that read a computed layer (sampled words beyond)


def flip_flop_score(n: int, write: list[bool], j: int) -> Fraction:
    """``HardSoft.flipFlopScore n write j = (if write j then 1 else 0) + natCast j / natCast n``."""
    return ind(write[j]) + Fraction(j, n)


def induction_prev_score(n: int, j: int) -> Fraction:
    """``HardSoft.inductionPrevScore n j = natCast j / natCast n``."""
    return Fraction(j, n)


def induction_hop_sel(w: list[int], i: int, j: int) -> bool:
    """``HardSoft.inductionHopSel w i j = decide (0 < j) && (w (j - 1) == w i)``."""
    return 0 < j and w[j - 1] == w[i]


def induction_hop_score(n: int, w: list[int], i: int, j: int) -> Fraction:
    """``HardSoft.inductionHopScore n w i j = (if inductionHopSel w i j then 1 else 0) + natCast j / natCast n``."""
    return ind(induction_hop_sel(w, i, j)) + Fraction(j, n)


def prefix_argmax_score(n: int, c: list[int], j: int) -> Fraction:
    """``HardSoft.prefixArgmaxScore n c j = natCast (c j) / natCast (j + 1) + natCast j / (natCast n * natCast n * natCast n)``."""
    return Fraction(c[j], j + 1) + Fraction(j, n * n * n)


def prefix_argmax_target(c: list[int], N: int) -> int:
    """The t < N that ``HardSoft.prefix_argmax_gap``'s hypotheses describe: c_j (t+1) <= c_t (j+1) for all j, the last such."""
    ts = [t for t in range(N) if all(c[j] * (t + 1) <= c[t] * (j + 1) for j in range(N))]
    return ts[-1]


def nat_dist(a: int, b: int) -> int:
    """``HardSoft.natDist a b = if a ≤ b then b - a else a - b``."""
    return b - a if a <= b else a - b


def dyck_partner_score(n: int, op: list[bool], d: list[int], i: int, j: int) -> Fraction:
    """``HardSoft.dyckPartnerScore n op d i j = 2 * [op j] - 2 * ((d j - (d i - 1)) * (d j - (d i - 1))) + natCast j / natCast n``."""
    return 2 * ind(op[j]) - 2 * (d[j] - (d[i] - 1)) * (d[j] - (d[i] - 1)) + Fraction(j, n)


def dyck_partner_deficit(op: list[bool], d: list[int], i: int, j: int) -> int:
    """``HardSoft.dyckPartnerDeficit op d i j = 2 * (natDist (d i) (d j + 1))^2 + (if op j then 0 else 2)``."""
    return 2 * nat_dist(d[i], d[j] + 1) ** 2 + (0 if op[j] else 2)


def dyck_partner_target(op: list[bool], d: list[int], i: int) -> int:
    """The t < i that ``HardSoft.dyck_partner_head``'s hypotheses describe: least deficit, the rightmost such."""
    e = [dyck_partner_deficit(op, d, i, j) for j in range(i)]
    return max(j for j in range(i) if e[j] == min(e))


def _pair_scores(model: tf.Model, head: tf.Head, n: int) -> np.ndarray:
    """Return s[a, i, b, j] = (x_i W_Q)(x_j W_K)^T for a layer-0 head, x_i = WE[a] + PE(i, n): every input's scores at length n."""
    A = len(model.alphabet)
    x = model.embed(np.repeat(np.arange(A)[:, None], n, axis=1))  # x[a, i] = WE[a] + PE(i, n)
    return np.einsum("aik,bjk->aibj", x @ head.W_Q, x @ head.W_K)


def _layer_scores(model: tf.Model, words: np.ndarray, layer: int, head: int) -> np.ndarray:
    """Return s[b, i, j] of a head on its layer's input in the average-hard run (the run the construction's gap is about)."""
    x = tf.run(model, words, "average").activations[layer]
    hd = model.layers[layer].heads[head]
    return np.einsum("bik,bjk->bij", x @ hd.W_Q, x @ hd.W_K)


def _app_words(rng: np.random.Generator, alphabet: int, n: int, sampler=None) -> np.ndarray:  # noqa: ANN001 - a Construction.sample
    """Every word of length n up to N_APPS_EXHAUSTIVE (at most 1100 words), else the sampler's words and the constant ones."""
    if n <= N_APPS_EXHAUSTIVE and alphabet**n <= 1100:
        return np.array(list(product(range(alphabet), repeat=n)), dtype=np.int64)
    w = sampler(rng, n, 24) if sampler is not None else rng.integers(0, alphabet, size=(24, n))
    return np.concatenate([w, np.repeat(np.arange(alphabet)[:, None], n, axis=1)])


def _assert_scores(got: np.ndarray, lean: list[Fraction], where: tuple) -> None:  # noqa: ANN001
    """Assert every built score equals the Lean formula's exact value."""
    scale = float(max(abs(v) for v in lean))
    assert all(_close(float(g), v, scale) for g, v in zip(got, lean)), (*where, list(got), lean)


def check_flip_flop(model: tf.Model, n_max: int = N_APPS) -> None:
    """APP-FF: the head's score of key j <= i is HardSoft.flipFlopScore n write j, for every input (all symbol pairs) and n <= n_max."""
    write = [a in ("0", "1") for a in model.alphabet]
    for n in range(1, n_max + 1):
        s = _pair_scores(model, model.layers[0].heads[0], n)
        for a in range(len(model.alphabet)):
            for b in range(len(model.alphabet)):
                for i in range(n):
                    lean = [flip_flop_score(n, [write[b]] * n, j) for j in range(i + 1)]
                    _assert_scores(s[a, i, b, : i + 1], lean, ("flip-flop", n, a, b, i))


def check_induction_layer0(model: tf.Model, n_max: int = N_APPS) -> None:
    """APP-IND/APP-KHOP layer 1: head P scores HardSoft.inductionPrevScore n j, head S the 0/1 score [w_j = w_i] (HardSoft.indicator_head),
    over j < i, for every input and n <= n_max."""
    A = len(model.alphabet)
    for n in range(1, n_max + 1):
        sp = _pair_scores(model, model.layers[0].heads[0], n)
        ss = _pair_scores(model, model.layers[0].heads[1], n)
        for a in range(A):
            for b in range(A):
                for i in range(1, n):
                    _assert_scores(sp[a, i, b, :i], [induction_prev_score(n, j) for j in range(i)], ("P", n, a, b, i))
                    _assert_scores(ss[a, i, b, :i], [ind(a == b)] * i, ("S", n, a, b, i))


def check_induction_hops(k: int, model: tf.Model, n_max: int = N_APPS, seed: int = 0) -> None:
    """APP-IND/APP-KHOP layers 2..k+1: head M_l scores HardSoft.inductionHopScore n w i j over j <= i, and its average-hard
    maximum is the Lean target tiebreakPastTarget (inductionHopSel w i) (i + 1)."""
    rng = np.random.default_rng(seed)
    A = len(model.alphabet)
    sampler = apps.build_k_hop(k).sample
    for n in range(k + 1, n_max + 1):
        words = _app_words(rng, A, n, sampler)
        for layer in range(1, k + 1):
            s = _layer_scores(model, words, layer, 0)
            for b, w in enumerate(words.tolist()):
                for i in range(n):
                    lean = [induction_hop_score(n, w, i, j) for j in range(i + 1)]
                    _assert_scores(s[b, i, : i + 1], lean, ("M", layer, n, w, i))
                    sel = [induction_hop_sel(w, i, j) for j in range(i + 1)]
                    assert int(np.argmax(s[b, i, : i + 1])) == past_target(sel, i + 1), ("M", layer, n, w, i)


def check_prefix_argmax(model: tf.Model, n_max: int = N_APPS, seed: int = 0) -> None:
    """APP-PA: head R scores 0 on every key (every input), head A HardSoft.prefixArgmaxScore n c j over j <= i with c_j the count
    of 'a' in w_0..w_j, and A's maximum is the t that HardSoft.prefix_argmax_gap's hypotheses describe."""
    rng = np.random.default_rng(seed)
    sampler = apps.build_prefix_argmax().sample
    for n in range(1, n_max + 1):
        assert np.array_equal(_pair_scores(model, model.layers[0].heads[0], n), np.zeros((2, n, 2, n)))
        words = _app_words(rng, 2, n, sampler)
        s = _layer_scores(model, words, 1, 0)
        for b, w in enumerate(words.tolist()):
            c = list(np.cumsum([int(x == 0) for x in w]))
            for i in range(n):
                lean = [prefix_argmax_score(n, c, j) for j in range(i + 1)]
                _assert_scores(s[b, i, : i + 1], lean, ("A", n, w, i))
                assert int(np.argmax(s[b, i, : i + 1])) == prefix_argmax_target(c, i + 1), ("A", n, w, i)


def _dyck_model(k: int = 2):  # noqa: ANN202 - a srasp Compiled
    """Return the compiled Dyck-k program (its heads map names the partner heads)."""
    from hardsoft.constructive import srasp as sr

    return sr.compile_program(sr.dyck_program(k))


def check_dyck_partner(comp, n_max: int = N_APPS, seed: int = 0, k: int = 2) -> None:  # noqa: ANN001 - a srasp Compiled
    """APP-DYCK: each partner head scores HardSoft.dyckPartnerScore n open depth i j over j < i (depth_j = max(0, #open - #close
    before j)), and its maximum is the t that HardSoft.dyck_partner_head's hypotheses describe."""
    rng = np.random.default_rng(seed)
    model = comp.model
    al = model.alphabet
    opens = [a in "([{<" for a in al]
    for n in range(2, n_max + 1):
        words = _app_words(rng, len(al), n, lambda r, m, cnt: apps.dyck_samples(r, m, cnt, k))
        for t in range(k):
            layer, head = comp.heads[f"partner{t}"]
            s = _layer_scores(model, words, layer, head)
            for b, w in enumerate(words.tolist()):
                op = [opens[x] for x in w]
                S = np.concatenate([[0], np.cumsum([1 if o else -1 for o in op])])
                d = [max(0, int(v)) for v in S[:n]]
                for i in range(1, n):
                    lean = [dyck_partner_score(n, op, d, i, j) for j in range(i)]
                    _assert_scores(s[b, i, :i], lean, ("partner", t, n, w, i))
                    assert int(np.argmax(s[b, i, :i])) == dyck_partner_target(op, d, i), ("partner", t, n, w, i)


def test_flip_flop_scores_are_the_lean_formula_for_every_input() -> None:
    """APP-FF: build_flip_flop's head is HardSoft.flipFlopScore (every symbol at every key and query, n <= 32)."""
    check_flip_flop(apps.build_flip_flop().model)


def test_induction_layer0_scores_are_the_lean_formulas_for_every_input() -> None:
    """APP-IND: build_k_hop's heads P and S are HardSoft.inductionPrevScore and the 0/1 score of HardSoft.indicator_head (n <= 32)."""
    check_induction_layer0(apps.build_k_hop(1).model)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_induction_hop_scores_are_the_lean_formula(k: int) -> None:
    """APP-IND (k = 1), APP-KHOP (k = 2, 3): every hop head M_l is HardSoft.inductionHopScore and picks the Lean target (n <= 32)."""
    check_induction_hops(k, apps.build_k_hop(k).model, N_APPS if k == 1 else 16)


def test_prefix_argmax_scores_are_the_lean_formula() -> None:
    """APP-PA: build_prefix_argmax's head R is constant 0 and head A is HardSoft.prefixArgmaxScore with the Lean target (n <= 32)."""
    check_prefix_argmax(apps.build_prefix_argmax().model)


def test_dyck_partner_scores_are_the_lean_formula() -> None:
    """APP-DYCK: the partner Aggregate heads are HardSoft.dyckPartnerScore and pick the Lean target (n <= 32)."""
    check_dyck_partner(_dyck_model())


def _planted(model: tf.Model, layer: int, head: int, coord: int, factor: float) -> tf.Model:
    """Return the model with one head's key weight on one coordinate scaled by factor (a wrong builder: -1 flips a sign, 1/2 halves)."""
    hd = model.layers[layer].heads[head]
    W_K = hd.W_K.copy()
    W_K[coord] *= factor
    heads = list(model.layers[layer].heads)
    heads[head] = dataclasses.replace(hd, W_K=W_K)
    layers = list(model.layers)
    layers[layer] = dataclasses.replace(model.layers[layer], heads=tuple(heads))
    return dataclasses.replace(model, layers=tuple(layers))


def _pe_coord(model: tf.Model, name: str) -> int:
    """Return the residual coordinate the position feature ``name`` is written into."""
    return int(np.argmax(np.abs(model.PE.matrix[model.PE.features.index(name)])))


@pytest.mark.parametrize("factor", [-1.0, 0.5])
def test_wrong_application_builders_fail(factor: float) -> None:
    """A builder with the tie-break term's sign flipped or halved (K/(2n)) fails every application's comparison."""
    ff = apps.build_flip_flop().model
    with pytest.raises(AssertionError):
        check_flip_flop(_planted(ff, 0, 0, _pe_coord(ff, "i/n"), factor), 6)
    kh = apps.build_k_hop(1).model
    with pytest.raises(AssertionError):
        check_induction_layer0(_planted(kh, 0, 0, _pe_coord(kh, "i/n"), factor), 6)
    with pytest.raises(AssertionError):
        check_induction_hops(1, _planted(kh, 1, 0, _pe_coord(kh, "i/n"), factor), 5)
    pa = apps.build_prefix_argmax().model
    with pytest.raises(AssertionError):
        check_prefix_argmax(_planted(pa, 1, 0, _pe_coord(pa, "i/n^3"), factor), 5)
    comp = _dyck_model()
    layer, head = comp.heads["partner0"]
    wrong = _planted(comp.model, layer, head, _pe_coord(comp.model, "i/n"), factor)
    with pytest.raises(AssertionError):
        check_dyck_partner(dataclasses.replace(comp, model=wrong), 5)


# --------------------------------------------------------------------------- Lemma 7 over positions (lean/HardSoft/HeadMass.lean)


def position_lookup_score(f: Fraction, D: int, p: int) -> Fraction:
    """``HardSoft.positionLookupScore f D p = 2 * f * natCast p - 1 / natCast D * (natCast p * natCast p)``."""
    return 2 * f * p - Fraction(1, D) * (p * p)


def position_lookup_score_bounded(f: Fraction, n: int, D: int, p: int) -> Fraction:
    """``HardSoft.positionLookupScoreBounded f n D p = 2 * f * (p/n) - 1 / natCast D * ((p/n) * (p/n))``."""
    pn = Fraction(p, n)
    return 2 * f * pn - Fraction(1, D) * (pn * pn)


def position_lookup_target(S: int) -> int:
    """The key ``HardSoft.position_lookup_at_rule`` (S >= 0: ``p = S``) and ``position_lookup_neg_at_rule`` (S < 0: ``p = 0``) bound the mass off."""
    return max(0, S)


def check_position_lookup_spec(n_max: int = N_SAMPLED) -> None:
    """position_lookup_spec's head, on query features (f = S/D, 1/D) and key features (p, p^2), unbounded, or (S/(D n), 1/D) and
    (p/n, (p/n)^2), bounded: its score of key p is HardSoft.positionLookupScore f D p (positionLookupScoreBounded f n D p), for every
    n <= n_max, every 1 <= D <= n and every 0 <= S <= D, on the keys of both masks the compilers use (p <= i causal, all p < n)."""
    avg, pos, pos2, inv, d = 0, 1, 2, 3, 4
    head = cs.position_lookup_spec(avg, pos, pos2, inv, [], "none").build(d)
    for n in range(1, n_max + 1):
        for bounded in (False, True):
            keys = np.zeros((n, d))
            keys[:, pos] = [p / n if bounded else p for p in range(n)]
            keys[:, pos2] = [(p / n) ** 2 if bounded else p * p for p in range(n)]
            for D in range(1, n + 1):
                for S in range(D + 1):
                    f = Fraction(S, D * n) if bounded else Fraction(S, D)
                    q = np.zeros((1, d))
                    q[0, avg], q[0, inv] = float(f), 1.0 / D
                    got = ((q @ head.W_Q) @ (keys @ head.W_K).T)[0]
                    lean = [position_lookup_score_bounded(f, n, D, p) if bounded else position_lookup_score(f, D, p) for p in range(n)]
                    _assert_scores(got, lean, ("position lookup", bounded, n, D, S))
                    if S < n:
                        top = max(lean)
                        assert [v == top for v in lean] == [p == S for p in range(n)], (bounded, n, D, S)


def check_psum_lookup(comp, n_max: int = N_APPS, seed: int = 0, k: int = 2) -> None:  # noqa: ANN001 - a srasp Compiled
    """APP-DYCK: the Psum lookup head (``depth``) scores HardSoft.positionLookupScore (S_i / D) D p over the keys p <= i, D = max(i, 1),
    S_i = #open - #close before i (signed), and its maximum is the key the Lean theorems name (S_i, or 0 when S_i < 0)."""
    rng = np.random.default_rng(seed)
    model = comp.model
    al = model.alphabet
    opens = [a in "([{<" for a in al]
    layer, head = comp.heads["depth"]
    for n in range(1, n_max + 1):
        words = _app_words(rng, len(al), n, lambda r, m, cnt: apps.dyck_samples(r, m, cnt, k))
        s = _layer_scores(model, words, layer, head)
        for b, w in enumerate(words.tolist()):
            S = np.concatenate([[0], np.cumsum([1 if opens[x] else -1 for x in w])])
            for i in range(n):
                D = max(i, 1)
                lean = [position_lookup_score(Fraction(int(S[i]), D), D, p) for p in range(i + 1)]
                _assert_scores(s[b, i, : i + 1], lean, ("depth", n, w, i))
                assert int(np.argmax(s[b, i, : i + 1])) == position_lookup_target(int(S[i])), ("depth", n, w, i)


def test_position_lookup_scores_are_the_lean_formula() -> None:
    """Lemma 7 over positions: position_lookup_spec's scores are HardSoft.positionLookupScore / positionLookupScoreBounded (n <= 32)."""
    check_position_lookup_spec()


def test_psum_lookup_scores_are_the_lean_formula() -> None:
    """APP-DYCK: the compiled Dyck-2 program's Psum lookup head is HardSoft.positionLookupScore and picks the Lean key (n <= 32)."""
    check_psum_lookup(_dyck_model())


def test_srasp_temperature_is_the_lean_rule() -> None:
    """APP-DYCK: tau_for(n) is HardSoft.position_lookup_at_rule's tau = 1/(M L) with M = n >= every D = max(i, 1), L = ln(128 n^3)."""
    from hardsoft.constructive import srasp as sr

    for n in range(1, N_APPS + 1):
        L = np.log(128.0 * n**3)
        assert abs(sr.tau_for(n) * n * L - 1.0) <= TOL, n
        assert all(max(i, 1) <= n for i in range(n))


@pytest.mark.parametrize("factor", [-1.0, 0.5])
def test_wrong_position_lookup_builders_fail(monkeypatch: pytest.MonkeyPatch, factor: float) -> None:
    """A lookup over positions with the p^2/D term's sign flipped or halved fails both comparisons."""
    real = cs.position_lookup_spec

    def spec(average, pos, pos2, inv, values, mask, hard_mode=None):  # noqa: ANN001, ANN202 - the builder's signature
        h = real(average, pos, pos2, inv, values, mask, hard_mode)
        scores = [dataclasses.replace(t, key={k: v * factor for k, v in t.key.items()}) if pos2 in t.key else t for t in h.scores]
        return dataclasses.replace(h, scores=scores)

    monkeypatch.setattr(cs, "position_lookup_spec", spec)
    with pytest.raises(AssertionError):
        check_position_lookup_spec(5)
    comp = _dyck_model()
    layer, head = comp.heads["depth"]
    wrong = _planted(comp.model, layer, head, _pe_coord(comp.model, "i^2"), factor)
    with pytest.raises(AssertionError):
        check_psum_lookup(dataclasses.replace(comp, model=wrong), 5)


# --------------------------------------------------------------------------- the gated position head (S-RASP's integer selects)


def gated_score(g: bool, j: int) -> Fraction:
    """``HardSoft.gatedScore g j``: ``j`` when ``g``, else ``-j``."""
    return Fraction(j if g else -j)


def gated_target(g: bool, N: int) -> int:
    """``HardSoft.gatedTarget g N``: ``N - 1`` when ``g``, else ``0``."""
    return N - 1 if g else 0


def _assert_gated(got: np.ndarray, g: bool, N: int, where: tuple) -> None:
    """The scores over the keys j < N are gatedScore g, and form the ziggurat of gated_position_gap under gatedTarget g N."""
    lean = [gated_score(g, j) for j in range(N)]
    if N > 1:  # one key: every score is 0 (no scale to compare at)
        _assert_scores(got, lean, where)
    t = gated_target(g, N)
    assert all(lean[t] - lean[p] >= abs(p - t) for p in range(N)), where
    assert int(np.argmax(got[:N])) == t and sum(float(v) == float(got[t]) for v in got[:N]) == 1, (*where, list(got))


def check_gated_spec(n_max: int = N_SAMPLED, spec=None, span: str = "i") -> None:  # noqa: ANN001 - a head builder
    """gated_position_spec's head on query features (gate g, one) and key features (one, position j), for every n <= n_max and both gates.

    span "i" (causal): its score of key j <= i is HardSoft.gatedScore g j with its unique maximum at gatedTarget g (i + 1), every i.
    span "n" (``mask="none", negate=True``, the big M of integer selects seeing keys after i): over every key j < n it is
    HardSoft.gatedScore (not g) j, maximal at gatedTarget (not g) n = (1 - g)(n - 1).
    """
    gate, one, pos, target, d = 0, 1, 2, 3, 4
    kwargs: dict = {} if span == "i" else {"mask": "none", "negate": True}
    head = (spec or cs.gated_position_spec)(gate, one, pos, target, **kwargs).build(d)
    assert head.mask == ("causal" if span == "i" else "none")
    for n in range(1, n_max + 1):
        keys = np.zeros((n, d))
        keys[:, one], keys[:, pos] = 1.0, np.arange(n)
        for g in (False, True):
            q = np.zeros((1, d))
            q[0, one], q[0, gate] = 1.0, float(g)
            got = ((q @ head.W_Q) @ (keys @ head.W_K).T)[0]
            if span == "n":
                _assert_gated(got, not g, n, ("gated spec, span n", n, g))
                continue
            for i in range(n):
                _assert_gated(got[: i + 1], g, i + 1, ("gated spec", n, g, i))


#: An S-RASP program whose integer conditional is compiled with the gated position head (its gate: A at i).
GATED_PROGRAM = 'program "p"\nalphabet "a" "b"\nA = token("a")\npos = index\nseven = 7\nk = if A then pos else seven\nc = k < 3\noutput "x" if c, else "y"\n'


def check_gated_compiled(comp, n_max: int = N_APPS, seed: int = 0) -> None:  # noqa: ANN001 - a srasp Compiled
    """APP-DYCK (S-RASP): the compiled program's gate head scores HardSoft.gatedScore A_i j over the keys j <= i, maximal at gatedTarget."""
    rng = np.random.default_rng(seed)
    layer, head = comp.heads["k.gate"]
    for n in range(1, n_max + 1):
        words = _app_words(rng, 2, n)
        s = _layer_scores(comp.model, words, layer, head)
        for b, w in enumerate(words.tolist()):
            for i in range(n):
                _assert_gated(s[b, i, : i + 1], w[i] == 0, i + 1, ("k.gate", n, w, i))


def test_gated_position_scores_are_the_lean_formula() -> None:
    """APP-DYCK (S-RASP's integer selects and conditionals): gated_position_spec's scores are HardSoft.gatedScore with the maximum
    HardSoft.gatedTarget (the statement of gated_position_gap and gated_position_copy), in the builder for every n <= 32 and in a
    compiled program on every word to n = 6 and sampled words to n = 32."""
    from hardsoft.constructive import srasp as sr

    check_gated_spec()
    check_gated_compiled(sr.compile_program(sr.parse_program(GATED_PROGRAM)))


def test_gated_span_n_scores_are_the_lean_formula() -> None:
    """APP-DYCK (S-RASP's integer selects seeing keys after i): the negated gate head over every key is HardSoft.gatedScore of the
    negated gate over N = n keys, in the builder for every n <= 32 and in a compiled program on every word to n = 6 (each query's
    scores are one of the two gatedScore rows over all n keys, so gated_position_gap and gated_position_copy apply with N = n)."""
    from hardsoft.constructive import srasp as sr

    check_gated_spec(span="n")
    prog = 'program "p"\nalphabet "a" "b"\nA = token("a")\nB = token("b")\npos = index\ns = psum(B)\n'
    prog += 'v = rightmost j > i with A[j] value s default pos\nc = v > 1\noutput "x" if c, else "y"\n'
    comp = sr.compile_program(sr.parse_program(prog))
    layer, head = comp.heads["v.gate"]
    assert comp.model.layers[layer].heads[head].mask == "none" and comp.gates["v"].span == "n"
    rng = np.random.default_rng(0)
    for n in range(1, 7):
        words = _app_words(rng, 2, n)
        s = _layer_scores(comp.model, words, layer, head)
        for b in range(len(words)):
            for i in range(n):
                g = bool(s[b, i, -1] < s[b, i, 0]) if n > 1 else False  # the row tells the gate: -j (found) or +j (not found)
                _assert_gated(s[b, i], not g, n, ("v.gate", n, b, i))


def test_wrong_gated_span_n_builder_fails() -> None:
    """The span-n gate head without its negation (scores (2 g - 1) j: the found queries would take n - 1, not 0) fails."""
    real = cs.gated_position_spec

    def spec(gate, one, pos, target, square=None, mask="causal", negate=False):  # noqa: ANN001, ANN202 - the builder's signature
        return real(gate, one, pos, target, square, mask, not negate)

    with pytest.raises(AssertionError):
        check_gated_spec(5, spec, span="n")


@pytest.mark.parametrize("factor", [-1.0, 0.5])
def test_wrong_gated_builders_fail(factor: float) -> None:
    """A gated head with its query's gate term sign-flipped (the direction reversed) or halved (the gap 1/2) fails both comparisons."""
    from hardsoft.constructive import srasp as sr

    real = cs.gated_position_spec

    def spec(gate, one, pos, target):  # noqa: ANN001, ANN202 - the builder's signature
        h = real(gate, one, pos, target)
        scores = [dataclasses.replace(t, query={k: v * factor for k, v in t.query.items()}) for t in h.scores]
        return dataclasses.replace(h, scores=scores)

    with pytest.raises(AssertionError):
        check_gated_spec(5, spec)
    comp = sr.compile_program(sr.parse_program(GATED_PROGRAM))
    layer, head = comp.heads["k.gate"]
    hd = comp.model.layers[layer].heads[head]
    heads = list(comp.model.layers[layer].heads)
    heads[head] = dataclasses.replace(hd, W_Q=hd.W_Q * factor)
    layers = list(comp.model.layers)
    layers[layer] = dataclasses.replace(comp.model.layers[layer], heads=tuple(heads))
    with pytest.raises(AssertionError):
        check_gated_compiled(dataclasses.replace(comp, model=dataclasses.replace(comp.model, layers=tuple(layers))), 5)


# --------------------------------------------------------------------------- S-RASP's one-hot select (order and != selectors)


def one_hot_select_score(n: int, sel: list[bool], i: int, j: int, sigma: int) -> Fraction:
    """The one-hot select's score of key j, 2 sel_j + sigma j/n, as Lemma 8's bounded tie-break family with K = 2 at length 2n:
    ``HardSoft.tiebreakPastBounded 2 (2n) sel j`` = 2 (sel_j + j/(2n)) for sigma = +1, and 2 (sel_j - j/(2n)), which for the keys
    j = i+1+k after the query is ``HardSoft.tiebreakFutureBounded 2 (2n) sel i k``, for sigma = -1 (both asserted here)."""
    if sigma > 0:
        s = past_bounded(Fraction(2), 2 * n, sel, j)
    else:
        s = 2 * (ind(sel[j]) - Fraction(j, 2 * n))
        if j > i:
            assert s == future_bounded(Fraction(2), 2 * n, sel, i, j - i - 1)
    assert s == 2 * ind(sel[j]) + sigma * Fraction(j, n)
    return s


#: Programs whose select ``v`` compiles with the one-hot head: a bounded key (rightmost, mask none) and a bounded query with a
#: where filter (leftmost, mask causal).
ONE_HOT_PROGRAMS = [
    'program "p"\nalphabet "a" "b"\nA = token("a")\nB = token("b")\ns = psum(A)\ntwo = 2\nx = if A then two else B\n'
    'v = rightmost j with x[j] != s[i] - 1 value B default A\noutput "x" if v, else "y"\n',
    'program "p"\nalphabet "a" "b"\nA = token("a")\nB = token("b")\npos = index\n'
    'v = leftmost j <= i with pos[j] >= B[i] + 1 and A[j] value B default A\noutput "x" if v, else "y"\n',
]


def check_one_hot_select(comp, n_max: int = 6) -> int:  # noqa: ANN001 - a srasp Compiled
    """S-RASP's one-hot select (compiler.select_one_hot): on every word to n_max, at every query i, the head's scores over the visible
    keys are 2 sel(i, j) + sigma j/n (``one_hot_select_score``), sel(i, j) = [k_j CMP q_i + c] and where_j from the interpreter, and
    its average-hard maximum is the interpreter's chosen key when one exists.  Returns the number of (word, query) pairs checked."""
    from hardsoft.constructive.srasp.interpreter import COMPARE, interpret, visible_keys

    prog = comp.program
    op = dict(prog.defs)["v"]
    sigma = 1 if op.direction == "rightmost" else -1
    layer, head = comp.heads["v"]
    pairs = 0
    for n in range(1, n_max + 1):
        words = np.array(list(product(range(len(prog.alphabet)), repeat=n)), dtype=np.int64)
        s = _layer_scores(comp.model, words, layer, head)
        for b, w in enumerate(words.tolist()):
            val = interpret(prog, [prog.alphabet[a] for a in w])
            for i in range(n):
                sel = [bool((op.where is None or val[op.where][j]) and COMPARE[op.cmp](val[op.key][j], val[op.query][i] + op.offset)) for j in range(n)]
                keys = list(visible_keys(op.mask, i, n))
                if not keys:
                    continue
                _assert_scores(s[b, i, keys], [one_hot_select_score(n, sel, i, j, sigma) for j in keys], ("one-hot", n, w, i))
                chosen = [j for j in keys if sel[j]]
                if chosen:
                    best = keys[int(np.argmax(s[b, i, keys]))]
                    assert best == (chosen[-1] if sigma > 0 else chosen[0]), ("one-hot", n, w, i, best, chosen)
                pairs += 1
    return pairs


@pytest.mark.parametrize("text", ONE_HOT_PROGRAMS)
def test_one_hot_select_scores_are_the_tiebreak_lean_formula(text: str) -> None:
    """S-RASP (order and != selectors with a bounded key or query): the one-hot head's scores are 2 sel + sigma j/n, Lemma 8's bounded
    tie-break family (HardSoft.tiebreakPastBounded / tiebreakFutureBounded with K = 2 at length 2n, gap 1/n), on every word to n = 6."""
    from hardsoft.constructive import srasp as sr

    assert check_one_hot_select(sr.compile_program(sr.parse_program(text))) > 0


def test_wrong_one_hot_select_builder_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-hot builder with sel scaled by 1/2 (scores sel + sigma j/n: a selected key only 1 above the rest, not 2) fails."""
    from hardsoft.constructive import srasp as sr

    real = sr.compiler.one_hot_select_spec

    def half(pairs, one, posn, sigma, values, mask):  # noqa: ANN001, ANN202 - the builder's signature
        h = real(pairs, one, posn, sigma, values, mask)
        scores = [dataclasses.replace(t, query={k: v * 0.5 for k, v in t.query.items()}) if t.query != {one: 1.0} else t for t in h.scores]
        return dataclasses.replace(h, scores=scores)

    monkeypatch.setattr(sr.compiler, "one_hot_select_spec", half)
    for text in ONE_HOT_PROGRAMS:
        with pytest.raises(AssertionError, match="one-hot"):
            check_one_hot_select(sr.compile_program(sr.parse_program(text)), 4)
