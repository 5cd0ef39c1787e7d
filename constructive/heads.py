"""The attention constructions the compiler assembles, each with its scores, gap, temperature and paper result.

Conventions: positions i (query), j (key) in 0..n-1; a head is built on named
residual coordinates (``coord`` maps a name to its index in a model of width d);
K > 0 is a fixed score scale (one value for every n).  "Mass off" is the softmax
weight outside the hard max set; each docstring bounds it through the project's
statements Z (ziggurat, Lemma 6) or E (Edelman et al.).

Regimes:  bounded   -- position features bounded in n (i/n, parity, 1/max(i,1), ...), tau = c/n;
          unbounded -- position features growing with n (i, i^2, n, n*parity), tau = 1.
"""

from __future__ import annotations

import math

import numpy as np

from hardsoft.spec.transformer import Head, Layer, Model, PositionEmbedding

REGIMES: tuple[str, ...] = ("bounded", "unbounded")


def _col(d: int, entries: dict[int, float]) -> np.ndarray:
    """Return a (d, 1) column with the given entries."""
    v = np.zeros((d, 1))
    for k, x in entries.items():
        v[k, 0] += x
    return v


def _cols(d: int, *columns: dict[int, float]) -> np.ndarray:
    """Return a (d, len(columns)) matrix of the given columns."""
    return np.concatenate([_col(d, c) for c in columns], axis=1)


def _out(d: int, target: int, scale: float = 1.0) -> np.ndarray:
    """Return a (1, d) W_O writing scale * value into coordinate target."""
    w = np.zeros((1, d))
    w[0, target] = scale
    return w


# --------------------------------------------------------------------------- Lemma 8: tie-breaking


def tiebreak_head(
    d: int, coord: dict[str, int], direction: str, regime: str, value: int, target: int, select: int | None = None, K: float = 1.0
) -> Head:
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
        W_Q = _col(d, {coord["one"]: 1.0})
        key = {coord["i/n"]: K * sigma}
        if select is not None:
            key[select] = key.get(select, 0.0) + K
        W_K = _col(d, key)
    elif regime == "unbounded":
        W_Q = _cols(d, {coord["one"]: 1.0}, {coord["n"]: 1.0})
        W_K = _cols(d, {coord["i"]: K * sigma}, {select: K} if select is not None else {})
    else:
        raise ValueError(f"regime must be bounded or unbounded, got {regime!r}")
    return Head(W_Q, W_K, _col(d, {value: 1.0}), _out(d, target), mask, mode)


# --------------------------------------------------------------------------- Lemma 7: table lookup


def lookup_head(
    d: int, coord: dict[str, int], offset: int, value: int, target: int, K: float = 1.0, regime: str = "unbounded", mask: str | None = None
) -> Head:
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
        W_Q = _cols(d, {coord["i"]: 1.0, coord["one"]: float(offset)}, {coord["one"]: 1.0})
        W_K = _cols(d, {coord["i"]: 2.0 * K}, {coord["i^2"]: -K})
    elif regime == "bounded":
        W_Q = _cols(d, {coord["i/n"]: 1.0, coord["1/n"]: float(offset)}, {coord["one"]: 1.0})
        W_K = _cols(d, {coord["i/n"]: 2.0 * K}, {coord["(i/n)^2"]: -K})
    else:
        raise ValueError(f"regime must be bounded or unbounded, got {regime!r}")
    return Head(W_Q, W_K, _col(d, {value: 1.0}), _out(d, target), mask, "average")


# --------------------------------------------------------------------------- counting


def count_head(d: int, direction: str, value: int, target: int, coefficient: float) -> Head:
    """Counting (uniform average-hard attention): coefficient * (#{j < i : phi_j} / i) into target (past; future: j > i).

    Scores s_ij = 0 for every visible key: every key ties, so average-hard attention
    and softmax at ANY tau give the same weights 1/i (resp. 1/(n-1-i)): gap +inf, mass
    off the max set 0 (soft equals hard exactly).  A query with no visible key gets 0.
    Corresponds to the counting construction (AHAT uniform attention, C-RASP).
    """
    mask = "strict" if direction == "past" else "strict_anticausal"
    z = np.zeros((d, 1))
    return Head(z, z.copy(), _col(d, {value: 1.0}), _out(d, target, coefficient), mask, "average")


def sign_head(d: int, coord: dict[str, int], regime: str, source: int, target: int, orientation: float, K: float = 1.0) -> Head:
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
    o V > 0 there.  The FFN turns the approximate value into exact 0/1.
    Corresponds to the comparison step of the counting construction (Lemma 6/Z used
    through its two-level special case, statement E).
    """
    key = coord["parity"] if regime == "bounded" else coord["n*parity"]
    W_Q = _col(d, {source: K * orientation})
    W_K = _col(d, {key: 1.0})
    W_V = _col(d, {coord["one"]: 0.5, coord["parity"]: 0.5})
    return Head(W_Q, W_K, W_V, _out(d, target), "none", "average")


# --------------------------------------------------------------------------- standalone builders

_BASE_FEATURES = {"bounded": ("one", "i/n", "(i/n)^2", "1/n", "parity"), "unbounded": ("one", "i", "i^2", "n", "parity")}


def _base(alphabet: tuple[str, ...], regime: str, extra: int) -> tuple[dict[str, int], int, np.ndarray, PositionEmbedding]:
    """Return coordinates (one per symbol, then the regime's position features, then extra), d, WE and PE."""
    if regime not in REGIMES:
        raise ValueError(f"regime must be bounded or unbounded, got {regime!r}")
    coord: dict[str, int] = {f"sym:{a}": k for k, a in enumerate(alphabet)}
    feats = _BASE_FEATURES[regime]
    for f in feats:
        coord[f] = len(coord)
    d = len(coord) + extra
    WE = np.zeros((len(alphabet), d))
    for k in range(len(alphabet)):
        WE[k, k] = 1.0
    P = np.zeros((len(feats), d))
    for r, f in enumerate(feats):
        P[r, coord[f]] = 1.0
    return coord, d, WE, PositionEmbedding(feats, P)


def build_tiebreak(
    direction: str = "past", regime: str = "bounded", alphabet: tuple[str, ...] = ("a", "b"), select: str = "a", value: str = "a", K: float = 1.0
) -> Model:
    """Lemma 8 as a model: output coordinate d-1 at i is [w_{j*} = value], j* = the rightmost j < i with w_j = select
    (past; future: leftmost j > i), or the rightmost (leftmost) visible key if none is selected.

    Scores, gap and temperature: see ``tiebreak_head`` (gap K/n at tau = c/n bounded;
    gap K at tau = 1 unbounded; mass off j* <= e^{-gap/tau}).  Corresponds to Lemma 8.
    """
    coord, d, WE, PE = _base(tuple(alphabet), regime, 1)
    h = tiebreak_head(d, coord, direction, regime, coord[f"sym:{value}"], d - 1, coord[f"sym:{select}"], K)
    z = (np.zeros((d, 1)), np.zeros(1), np.zeros((1, d)), np.zeros(d))
    return Model(tuple(alphabet), WE, PE, (Layer((h,), *z),), f"tiebreak-{direction}-{regime}", "average")


def build_lookup(
    offset: int = -1, regime: str = "unbounded", alphabet: tuple[str, ...] = ("a", "b"), value: str = "a", K: float = 1.0, mask: str | None = None
) -> Model:
    """Lemma 7 as a model: output coordinate d-1 at i is [w_{i+offset} = value] (0 where i+offset is outside 0..n-1
    with the default one-sided mask).

    Scores, gap and temperature: see ``lookup_head`` (parabolic; gap K at tau = 1
    unbounded, gap K/n^2 at tau = c/n^2 bounded).  Corresponds to Lemma 7.
    """
    coord, d, WE, PE = _base(tuple(alphabet), regime, 1)
    h = lookup_head(d, coord, offset, coord[f"sym:{value}"], d - 1, K, regime, mask)
    z = (np.zeros((d, 1)), np.zeros(1), np.zeros((1, d)), np.zeros(d))
    return Model(tuple(alphabet), WE, PE, (Layer((h,), *z),), f"lookup{offset:+d}-{regime}", "average")


def ziggurat_mass_bound(gap: float, tau: float) -> float:
    """Statement Z (Lemma 6): the softmax mass off the top of a ziggurat with step gap at temperature tau is <= e^{-gap/tau}."""
    return math.exp(-gap / tau)


def two_sided_lookup_mass_bound(K: float, tau: float) -> float:
    """Lemma 7 with both sides of the target visible: mass off the target <= 2 x / (1 - x), x = e^{-K/tau} (geometric series)."""
    x = math.exp(-K / tau)
    return 2 * x / (1 - x)
