"""The attention constructions the compiler assembles, each with its scores, gap, temperature and paper result.

Conventions: positions i (query), j (key) in 0..n-1; a head is built on named
residual coordinates (``coord`` maps a name to its index in a model of width d) by
``constructive.residual.build_head`` (score terms, value terms);
K > 0 is a fixed score scale (one value for every n).  "Mass off" is the softmax
weight outside the hard max set; each docstring bounds it through the project's
statements Z (ziggurat, Lemma 6) or E (Edelman et al.).

Regimes:  bounded   -- position features bounded in n (i/n, parity, 1/max(i,1), ...), tau = c/n;
          unbounded -- position features growing with n (i, i^2, n, n*parity), tau = 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from hardsoft.constructive.residual import HeadSpec, Residual, ScoreTerm, ValueTerm, zero_ffn
from hardsoft.spec.transformer import Head, Layer, Model, PositionEmbedding

REGIMES: tuple[str, ...] = ("bounded", "unbounded")


# --------------------------------------------------------------------------- Lemma 8: tie-breaking


def tiebreak_head(
    d: int, coord: dict[str, int], direction: str, regime: str, value: int, target: int, select: int | None = None, K: float = 1.0
) -> Head:
    """Return ``tiebreak_spec`` built at width d (Lemma 8, tie-breaking)."""
    return tiebreak_spec(coord, direction, regime, value, target, select, K).build(d)


def tiebreak_spec(coord: dict[str, int], direction: str, regime: str, value: int, target: int, select: int | None = None, K: float = 1.0) -> HeadSpec:
    """Lemma 8 (tie-breaking): UHAT "rightmost j < i with select_j" (past) / "leftmost j > i" (future) as a UNIQUE maximum.

    Mask strict (past, j < i) or strict_anticausal (future, j > i); value = coordinate
    ``value`` of the selected key, written into ``target``.  select_j in {0, 1}
    (None: every key selected, which makes this Y / X by tie-breaking).
    Scores (sigma = +1 past, -1 future):
      bounded:   s_ij = K (select_j + sigma j/n)         (features one, i/n)
      unbounded: s_ij = K (n select_j + sigma j)         (features one, n, i)
    The j/n (resp. j) term breaks the ties of the unique-hard head, as 1/(j+1)-style
    terms do in the Transformer Cookbook; j/n is chosen here because consecutive keys
    then differ by 1/n (not 1/(j(j+1))), so tau = c/n suffices.
    Gap: K/n (bounded), K (unbounded).  The sorted scores form a ziggurat with step
    = the gap (selected keys above unselected ones because K * 1 > K (n-1)/n, resp.
    K n > K (n-1)), so by statement Z the mass off the selected key is
    <= e^{-gap/tau} = e^{-K/c} at tau = c/n (bounded), e^{-K} at tau = 1 (unbounded),
    whatever n.  Corresponds to Lemma 8 (tie-breaking) with Lemma 6 (ziggurat).
    """
    if direction not in ("past", "future"):
        raise ValueError(f"direction must be past or future, got {direction!r}")
    sigma = 1.0 if direction == "past" else -1.0
    mask = "strict" if direction == "past" else "strict_anticausal"
    mode = "rightmost" if direction == "past" else "leftmost"
    if regime == "bounded":
        key = {coord["i/n"]: K * sigma}
        if select is not None:
            key[select] = key.get(select, 0.0) + K
        scores = [ScoreTerm({coord["one"]: 1.0}, key)]
    elif regime == "unbounded":
        scores = [ScoreTerm({coord["one"]: 1.0}, {coord["i"]: K * sigma}), ScoreTerm({coord["n"]: 1.0}, {select: K} if select is not None else {})]
    else:
        raise ValueError(f"regime must be bounded or unbounded, got {regime!r}")
    return HeadSpec(scores, [ValueTerm(target, {value: 1.0})], mask, mode)


# --------------------------------------------------------------------------- Lemma 7: table lookup


def lookup_head(
    d: int, coord: dict[str, int], offset: int, value: int, target: int, K: float = 1.0, regime: str = "unbounded", mask: str | None = None
) -> Head:
    """Return ``lookup_spec`` built at width d (Lemma 7, table lookup)."""
    return lookup_spec(coord, offset, value, target, K, regime, mask).build(d)


def lookup_spec(
    coord: dict[str, int], offset: int, value: int, target: int, K: float = 1.0, regime: str = "unbounded", mask: str | None = None
) -> HeadSpec:
    """Lemma 7 (table lookup, parabolic scores): query i reads key t = i + offset (Y: offset -1, X: +1).

    Scores s_ij = K (2 t j - j^2) = K t^2 - K (j - t)^2: a parabola in j with its unique
    maximum at j = t.
      unbounded: features one, i, i^2; gap K (neighbours of t lose K (j-t)^2 >= K);
                 tau = 1.  Keys at distance k lose K k^2 >= K k, so one side of t is a
                 ziggurat with step K (statement Z): mass off t <= e^{-K} with a one-sided
                 mask (strict for offset < 0, strict_anticausal for offset > 0), and
                 <= 2 e^{-K} / (1 - e^{-K}) with both sides visible (geometric sum).
      bounded:   the same parabola in j/n (features one, i/n, (i/n)^2, 1/n):
                 s_ij = K (2 (t/n)(j/n) - (j/n)^2), gap K/n^2, tau = c/n^2 (a bounded
                 lookup needs the SQUARE of the temperature the tie-breaking head needs;
                 the compiler therefore uses tiebreak_head for Y / X in the bounded regime).
    With offset -1 / +1 and the one-sided mask, a query with no visible key (i = 0 /
    i = n-1) gets head output 0.  Corresponds to Lemma 7 (table lookup).
    """
    if mask is None:
        mask = "strict" if offset < 0 else "strict_anticausal" if offset > 0 else "none"
    if regime == "unbounded":
        # q_i = (t, 1) = (i + offset, 1); k_j = K (2 j, -j^2)
        scores = [
            ScoreTerm({coord["i"]: 1.0, coord["one"]: float(offset)}, {coord["i"]: 2.0 * K}),
            ScoreTerm({coord["one"]: 1.0}, {coord["i^2"]: -K}),
        ]
    elif regime == "bounded":
        scores = [
            ScoreTerm({coord["i/n"]: 1.0, coord["1/n"]: float(offset)}, {coord["i/n"]: 2.0 * K}),
            ScoreTerm({coord["one"]: 1.0}, {coord["(i/n)^2"]: -K}),
        ]
    else:
        raise ValueError(f"regime must be bounded or unbounded, got {regime!r}")
    return HeadSpec(scores, [ValueTerm(target, {value: 1.0})], mask, "average")


# --------------------------------------------------------------------------- Lemma 7 over positions: an average made an integer


def position_lookup_spec(
    average: int, pos: int, pos2: int, inv: int, values: Sequence[ValueTerm], mask: str, hard_mode: str | None = None
) -> HeadSpec:
    """Lemma 7 (table lookup, the positions as the table): turn an average f_i = S_i / D_i (integer S_i in 0..D_i) into the key p = S_i.

    Coordinates: ``average`` holds f_i (a uniform head's output), ``pos`` / ``pos2`` the
    features p / p^2 of key p, ``inv`` the query feature 1/max(D_i, 1).  Scores
      s_ip = 2 p f_i - p^2 / max(D_i, 1) = (S_i^2 - (p - S_i)^2) / D_i      (D_i >= 1)
    over the keys the mask shows: a parabola in p whose unique maximum is the key p = S_i
    when that key is visible (a past count, D_i = i, under the causal mask: S_i <= i; a
    future count, D_i = n-1-i, under mask none: S_i <= n-1-i <= n-1).  Gap: the next key
    loses (2|p - S_i| + 1)/D_i >= 1/D_i >= 1/(n-1); a query with D_i = 0 has f_i = 0 and
    scores -p^2 (the key 0, gap 1).  ``values`` copy features of the chosen key (p, p^2):
    the count as an exact integer in hard mode.  Scaled keys (``pos`` = p/n, ``pos2`` = (p/n)^2,
    bounded features) with ``average`` = f_i / n give the same parabola divided by n^2: the same
    maximum, gap >= 1/(n^2 D_i), and x = exp(-1/(n^2 D_i tau)) below.  Soft mode: weights fall like x^{k^2} at
    distance k, x = exp(-1/(D_i tau)), so the mass off p = S_i is <= 2x/(1-x)
    (``position_lookup_mass_bound``) and a copied p is off by <= sum_k 2k x^{k^2} <= 2x/(1-x)^2
    (``position_lookup_copy_error``).  Corresponds to Lemma 7 (table lookup) as the S-RASP
    applications use it (the prefix sum made an integer).
    """
    scores = [ScoreTerm({average: 2.0}, {pos: 1.0}), ScoreTerm({inv: -1.0}, {pos2: 1.0})]
    return HeadSpec(scores, list(values), mask, hard_mode)


def position_lookup_mass_bound(x: float) -> float:
    """Lemma 7 over positions: the softmax mass off the key p = S_i is <= sum_{k != 0} x^{k^2} <= 2x/(1-x), x = exp(-1/(D tau)) < 1."""
    return 2 * x / (1 - x)


def position_lookup_copy_error(x: float) -> float:
    """Lemma 7 over positions: a copied position p is off S_i by <= sum_{k >= 1} 2k x^{k^2} <= 2x/(1-x)^2, x = exp(-1/(D tau)) < 1."""
    return 2 * x / (1 - x) ** 2


# --------------------------------------------------------------------------- counting


def count_head(d: int, direction: str, value: int, target: int, coefficient: float) -> Head:
    """Return ``count_spec`` built at width d (counting)."""
    return count_spec(direction, value, target, coefficient).build(d)


def count_spec(direction: str, value: int, target: int, coefficient: float) -> HeadSpec:
    """Counting (uniform average-hard attention): coefficient * (#{j < i : phi_j} / i) into target (past; future: j > i).

    Scores s_ij = 0 for every visible key: every key ties, so average-hard attention
    and softmax at ANY tau give the same weights 1/i (resp. 1/(n-1-i)): gap +inf, mass
    off the max set 0 (soft equals hard exactly).  A query with no visible key gets 0.
    Corresponds to the counting construction (AHAT uniform attention, C-RASP).
    """
    mask = "strict" if direction == "past" else "strict_anticausal"
    return HeadSpec([], [ValueTerm(target, {value: 1.0}, coefficient)], mask, "average")


def inclusive_count_head(d: int, value: int, target: int, coefficient: float, first: int, constant: float) -> Head:
    """Return ``inclusive_count_spec`` built at width d (inclusive counting)."""
    return inclusive_count_spec(value, target, coefficient, first, constant).build(d)


def inclusive_count_spec(value: int, target: int, coefficient: float, first: int, constant: float) -> HeadSpec:
    """Inclusive counting (uniform average-hard attention, causal mask): (coefficient * #{j <= i : phi_j} + constant) / (i+1) into target.

    Scores 0 for every key j <= i (there is always one, j = i): every key ties, so average-hard
    attention and softmax at ANY tau give the weights 1/(i+1): gap +inf, mass off the max set 0
    (soft equals hard exactly).  The constant is averaged from is_first (1 at j = 0 only).
    Corresponds to the counting construction (AHAT uniform attention, C-RASP's inclusive count).
    """
    terms = [ValueTerm(target, {value: 1.0}, coefficient)]
    if constant:
        terms.append(ValueTerm(target, {first: 1.0}, constant))
    return HeadSpec([], terms, "causal", "average")


def sign_head(
    d: int, coord: dict[str, int], regime: str, source: int, target: int, orientation: float, K: float = 1.0, single: int | None = None
) -> Head:
    """Return ``sign_spec`` built at width d (comparison by attention)."""
    return sign_spec(coord, regime, source, target, orientation, K, single).build(d)


def sign_spec(
    coord: dict[str, int], regime: str, source: int, target: int, orientation: float, K: float = 1.0, single: int | None = None
) -> HeadSpec:
    """Comparison by attention: writes [orientation * V_i > 0] into target, V_i = coordinate source.

    V_i = N_i / max(D_i, 1) with N_i a half-integer (never 0) and D_i <= n - 1, so
    |V_i| >= 1/(2(n-1)).  Mask none; keys split by parity p_j = (-1)^j:
      bounded:   s_ij = K o V_i p_j            (feature parity)
      unbounded: s_ij = K o V_i n p_j          (feature n*parity)
    value (1 + p_j)/2.  In average-hard mode the max set is the even keys (o V_i > 0,
    output 1) or the odd keys (output 0).  Gap 2K|V_i| >= K/n (bounded), >= K (unbounded).
    The two groups differ in size by at most 1 (ratio <= 2), so by statement E the mass
    off the max set is <= 2 e^{-gap/tau} <= 2 e^{-K/c} at tau = c/n (bounded), 2 e^{-K} at
    tau = 1 (unbounded).  n = 1 has only the even key: the compiler chooses o so that
    o V > 0 there, or (an inclusive comparison, whose V at n = 1 depends on the word) gives
    ``single``, a coordinate the value subtracts: [N < 0] at n = 1, 0 elsewhere.
    The FFN turns the approximate value into exact 0/1.
    Corresponds to the comparison step of the counting construction (Lemma 6/Z used
    through its two-level special case, statement E).
    """
    key = coord["parity"] if regime == "bounded" else coord["n*parity"]
    scores = [ScoreTerm({source: K * orientation}, {key: 1.0})]
    value = {coord["one"]: 0.5, coord["parity"]: 0.5}
    if single is not None:
        value[single] = -1.0
    return HeadSpec(scores, [ValueTerm(target, value)], "none", "average")


# --------------------------------------------------------------------------- standalone builders

_BASE_FEATURES = {"bounded": ("one", "i/n", "(i/n)^2", "1/n", "parity"), "unbounded": ("one", "i", "i^2", "n", "parity")}


def _base(alphabet: tuple[str, ...], regime: str) -> tuple[dict[str, int], int, np.ndarray, PositionEmbedding]:
    """Return coordinates (one per symbol, then the regime's position features, then the output ``out``), d, WE and PE."""
    if regime not in REGIMES:
        raise ValueError(f"regime must be bounded or unbounded, got {regime!r}")
    res = Residual()
    sym = [res.add(f"sym:{a}") for a in alphabet]
    feats = _BASE_FEATURES[regime]
    for f in feats:
        res.add(f)
    res.add("out")
    WE = res.word_embedding(alphabet, {a: {k: 1.0} for a, k in zip(alphabet, sym)})
    return res.index(), res.d, WE, res.position_embedding(feats)


def build_tiebreak(
    direction: str = "past", regime: str = "bounded", alphabet: tuple[str, ...] = ("a", "b"), select: str = "a", value: str = "a", K: float = 1.0
) -> Model:
    """Lemma 8 as a model: output coordinate d-1 at i is [w_{j*} = value], j* = the rightmost j < i with w_j = select
    (past; future: leftmost j > i), or the rightmost (leftmost) visible key if none is selected.

    Scores, gap and temperature: see ``tiebreak_head`` (gap K/n at tau = c/n bounded;
    gap K at tau = 1 unbounded; mass off j* <= e^{-gap/tau}).  Corresponds to Lemma 8.
    """
    coord, d, WE, PE = _base(tuple(alphabet), regime)
    h = tiebreak_head(d, coord, direction, regime, coord[f"sym:{value}"], coord["out"], coord[f"sym:{select}"], K)
    return Model(tuple(alphabet), WE, PE, (Layer((h,), *zero_ffn(d)),), f"tiebreak-{direction}-{regime}", "average")


def build_lookup(
    offset: int = -1, regime: str = "unbounded", alphabet: tuple[str, ...] = ("a", "b"), value: str = "a", K: float = 1.0, mask: str | None = None
) -> Model:
    """Lemma 7 as a model: output coordinate d-1 at i is [w_{i+offset} = value] (0 where i+offset is outside 0..n-1
    with the default one-sided mask).

    Scores, gap and temperature: see ``lookup_head`` (parabolic; gap K at tau = 1
    unbounded, gap K/n^2 at tau = c/n^2 bounded).  Corresponds to Lemma 7.
    """
    coord, d, WE, PE = _base(tuple(alphabet), regime)
    h = lookup_head(d, coord, offset, coord[f"sym:{value}"], coord["out"], K, regime, mask)
    return Model(tuple(alphabet), WE, PE, (Layer((h,), *zero_ffn(d)),), f"lookup{offset:+d}-{regime}", "average")


def ziggurat_mass_bound(gap: float, tau: float) -> float:
    """Statement Z (Lemma 6): the softmax mass off the top of a ziggurat with step gap at temperature tau is <= e^{-gap/tau}."""
    return math.exp(-gap / tau)


def two_sided_lookup_mass_bound(K: float, tau: float) -> float:
    """Lemma 7 with both sides of the target visible: mass off the target <= 2 x / (1 - x), x = e^{-K/tau} (geometric series)."""
    x = math.exp(-K / tau)
    return 2 * x / (1 - x)


# --------------------------------------------------------------------------- a Boolean times the position, by attention


def gated_position_spec(
    gate: int, one: int, pos: int, target: int, square: tuple[int, int] | None = None, mask: str = "causal", negate: bool = False
) -> HeadSpec:
    """Lemma 8 (tie-breaking, unbounded regime) with the direction set by the query: g_i * i into target, g_i in {0, 1}.

    Causal mask, scores s_ij = (2 g_i - 1) j (features one, i), value j: with g_i = 1 the unique
    maximum is the rightmost key j = i, with g_i = 0 the leftmost key j = 0 (value 0).  Gap 1
    (neighbouring keys differ by 1), so by statement Z the mass off the top is <= x/(1-x) and the
    copied position is off by <= sum_k k x^k <= x/(1-x)^2, x = e^{-1/tau} (for every n: HardSoft.gated_position_gap,
    HardSoft.gated_position_copy; SMT: smt.APP-DYCK.gated_position_ziggurat).  Used to form
    g_i (i+1) for a Boolean times a bounded integer (the big-M product with M growing like i+1).
    ``square`` = (pos2, target2) also copies j^2 into target2 (g_i * i^2, for a big M growing like (i+1)^2): the same
    scores, off by <= sum_k 2 i k x^k <= 2 i x/(1-x)^2 with g_i = 1 and <= sum_k k^2 x^k with g_i = 0 (derived, not
    in Lean).
    ``mask`` = "none" shows every key j < n (the same scores over N = n keys: g_i (n-1) into target, the theorems with
    N = n); ``negate`` uses the gate 1 - g_i (scores (1 - 2 g_i) j), so the head writes (1 - g_i) i (causal) or
    (1 - g_i)(n - 1) (mask none) with no Boolean of its own for the negation.
    """
    values = [ValueTerm(target, {pos: 1.0})] + ([ValueTerm(square[1], {square[0]: 1.0})] if square is not None else [])
    query = {gate: -2.0, one: 1.0} if negate else {gate: 2.0, one: -1.0}
    return HeadSpec([ScoreTerm(query, {pos: 1.0})], values, mask)
