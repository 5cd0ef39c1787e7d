"""The paper's applications as runnable average-hard transformers: flip-flop, induction heads (basic, k-hop), prefix-argmax, Dyck-k.

Every construction is parameter-uniform: the same weights for every length n;
only the temperature tau(n) and the n-dependent position features (``i/n``,
``i/n^3``) vary.  Each comes as a ``Construction``: the ``spec.transformer.Model``
(run with ``hard_mode="average"``), a read-out (which coordinates of the last
layer, at every position, give the output symbol), a reference function on
strings, the claimed gap gamma(n), the construction's temperature tau(n) and
the derivation of both (in the builder's docstring).

Two devices recur (derivations below use them):

* Tie-breaking by position.  A score ``[condition_j] + j/n`` (query weight on a
  constant coordinate, key weight on the ``i/n`` feature) has a unique maximum
  (the LAST j meeting the condition, or the last j if none does), and n times
  the scores are distinct integers, so sorted scores drop by >= 1/n at every
  step: a ziggurat (statement Z) with step 1/n.  At tau = 1/(2n) the softmax mass
  off the top is <= e^{-(1/n)/tau} = e^{-2} < 0.136, for every n.
* Clean-up FFNs.  A coordinate that is 0/1 in hard mode and within 1/4 of it in
  soft mode is restored EXACTLY by ``clamp(2v - 1/2, 0, 1) =
  ReLU(2v - 1/2) - ReLU(2v - 3/2)`` (maps [0, 1/4] to 0 and [3/4, 1] to 1).
  Written into a fresh coordinate, it stops soft errors from travelling to the
  next layer, so each layer only needs its own heads' mass off the top < 1/4:
  the temperature does NOT shrink with depth (contrast statement T, whose
  composed bound grows geometrically with L).

Read-outs and decisions: a soft run decides an input correctly when the
read-out of every position equals the reference's output.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from hardsoft.constructive import srasp as sr
from hardsoft.constructive.residual import Residual, ScoreTerm, Unit, ValueTerm, build_head, clamp01
from hardsoft.spec.transformer import Model

#: Output symbol of the induction heads where the hop chain is undefined.
NONE = "-"


@dataclass(frozen=True)
class Construction:
    """A hard-attention construction with its read-out, reference function on strings, claimed gap and temperature.

    readout(final activations (batch, n, d)) -> (batch, n) indices into ``outputs``.
    reference(word) -> list of output symbols (one per position).
    gap(n): claimed gamma_T(n) (exact minimum over all inputs of length n).
    tau(n): the construction's temperature (the soft model decides every input there).
    score_bound(n): bound on |score| of every head (for the precision prediction, ``constructive.audit.predicted_breakdown``).
    margin: the largest mass off the top a head may leak (1/4: the clean-up FFNs; 1/2: a majority read-out).
    """

    name: str
    model: Model
    readout: Callable[[np.ndarray], np.ndarray]
    outputs: tuple[str, ...]
    reference: Callable[[str], list[str]]
    gap: Callable[[int], float]
    tau: Callable[[int], float]
    score_bound: Callable[[int], float]
    min_n: int
    gap_formula: str
    tau_formula: str
    description: str
    sampler: Callable[[np.random.Generator, int, int], np.ndarray] | None = field(default=None)
    margin: float = 0.25  # largest softmax mass off the top a head may leak without changing a decision
    #: optional: the reference on a whole (batch, n) index array at once, as indices into outputs (same values as reference)
    reference_batch: Callable[[np.ndarray], np.ndarray] | None = field(default=None)

    def require_n(self, n: int) -> int:
        """Return n after checking it is an integer >= min_n (ValueError naming the construction otherwise)."""
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < self.min_n:
            raise ValueError(f"construction {self.name} needs n >= {self.min_n} positions, got n = {n!r}")
        return int(n)

    def reference_codes(self, inputs: np.ndarray) -> np.ndarray:
        """Return the reference outputs of a (batch, n) index array as (batch, n) indices into ``outputs``."""
        if self.reference_batch is not None:
            return np.asarray(self.reference_batch(np.asarray(inputs)), dtype=np.int64)
        idx = {o: k for k, o in enumerate(self.outputs)}
        al = self.model.alphabet
        return np.array([[idx[o] for o in self.reference("".join(al[c] for c in row))] for row in inputs], dtype=np.int64)

    def sample(self, rng: np.random.Generator, n: int, count: int) -> np.ndarray:
        """Return count inputs of length n: the construction's own sampler (adversarial + random) or uniform random."""
        if self.sampler is not None:
            return self.sampler(rng, n, count)
        return rng.integers(0, len(self.model.alphabet), size=(count, n))


def _clean(src: int, dst: int) -> list[Unit]:
    """Return the clean-up units writing clamp(2 y_src - 1/2, 0, 1) into dst (two units)."""
    return clamp01({src: 2.0}, -0.5, dst)


def _clean_and(a: int, b: int, dst: int) -> list[Unit]:
    """Return the units writing clamp(2 (y_a + y_b) - 5/2, 0, 1) into dst: AND of two near-0/1 values (two units)."""
    return clamp01({a: 2.0, b: 2.0}, -2.5, dst)


def _copy(pairs: dict[int, int]) -> list[ValueTerm]:
    """Return value terms copying coordinate src into dst (weight 1) for every src: dst in pairs, in order."""
    return [ValueTerm(dst, {src: 1.0}) for src, dst in pairs.items()]


# =========================================================================== flip-flop


def reference_flip_flop(word: str) -> list[str]:
    """Flip-flop (Liu et al. 2023): at every position, the bit last written at or before it ('0' if none yet).

    Symbols: '0' = write 0, '1' = write 1, 'r' = read, 'i' = ignore.  A read
    returns the output at its position; we check every position (stronger).
    """
    out, bit = [], "0"
    for c in word:
        if c in "01":
            bit = c
        out.append(bit)
    return out


def build_flip_flop() -> Construction:
    """Flip-flop language (Liu et al. 2023) as a one-layer AHAT; claimed gap gamma(n) = 1/n, temperature tau(n) = 1/(2n).

    Coordinates: W = [write], B = [write 1], one, p = i/n, raw (head output), out.
    One causal head: query weight on ``one``, key weights on W and p, so
    s_ij = W_j + j/n for j <= i.  Its maximum is the last write at or before i
    (a write beats every non-write: 1 + j/n - j'/n >= 1 - (n-1)/n = 1/n), or, with
    no write, j = i; the value B_j is then the last written bit (0 if none).

    Gap: n s_ij = n W_j + j are distinct integers, so every gap is >= 1/n, and two
    consecutive non-writes (or writes) give exactly 1/n (n >= 2): gamma(n) = 1/n.
    Soft mode: the sorted scores drop by >= 1/n at every step (a ziggurat with
    step 1/n), so by statement Z the mass off the top is <= e^{-1/(n tau)}; at
    tau = 1/(2n) that is e^{-2} < 1/4, raw is within 1/4 of the bit and the
    clean-up FFN (clamp(2 raw - 1/2, 0, 1)) outputs the bit exactly.  Read-out:
    out > 1/2.  Scores lie in [0, 2 - 1/n].
    """
    res = Residual()
    W, B, one, p, raw, out = (res.add(nm) for nm in ("write", "bit", "one", "i/n", "raw", "out"))
    alphabet = ("0", "1", "r", "i")
    layer = res.layer(0)
    layer.heads.append(build_head(res.d, [ScoreTerm({one: 1.0}, {W: 1.0, p: 1.0})], _copy({B: raw}), "causal"))
    layer.units += _clean(raw, out)
    WE = res.word_embedding(alphabet, {"0": {W: 1.0}, "1": {W: 1.0, B: 1.0}})
    model = Model(alphabet, WE, res.position_embedding(("one", "i/n")), res.build_layers(), "flip-flop")

    def readout(x: np.ndarray) -> np.ndarray:
        return (x[..., out] > 0.5).astype(np.int64)

    def sampler(rng: np.random.Generator, n: int, count: int) -> np.ndarray:
        # half: sparse writes (long reads between writes: the winner is far back), half uniform
        w = rng.integers(0, 4, size=(count, n))
        sparse = rng.random((count, n)) < np.minimum(1.0, 4.0 / n)
        w[count // 2 :] = np.where(
            sparse[count // 2 :], rng.integers(0, 2, size=(count - count // 2, n)), rng.integers(2, 4, size=(count - count // 2, n))
        )
        return w

    return Construction(
        "flip-flop",
        model,
        readout,
        ("0", "1"),
        reference_flip_flop,
        lambda n: 1.0 / n,
        lambda n: 1.0 / (2 * n),
        lambda n: 2.0 - 1.0 / n,
        2,
        "1/n",
        "1/(2n)",
        "flip-flop: a read returns the last written bit",
        sampler,
    )


# =========================================================================== induction heads


def reference_k_hop(word: str, k: int) -> list[str]:
    """k-hop induction head: hop(i) = 1 + (the last j < i with w_j = w_i); output w at hop^k(i), or '-' if some hop is undefined.

    k = 1 is the basic induction head: find the previous occurrence of the
    current token and output the token that followed it.
    """
    out = []
    for i in range(len(word)):
        p, found = i, True
        for _ in range(k):
            j = max((m for m in range(p) if word[m] == word[p]), default=None)
            if j is None:
                found = False
                break
            p = j + 1
        out.append(word[p] if found else NONE)
    return out


def build_k_hop(k: int, alphabet: Sequence[str] = ("a", "b", "c")) -> Construction:
    """k-hop induction heads as a (k+1)-layer AHAT; claimed gap gamma(n) = 1/n, temperature tau(n) = 1/(2n); k = 1 is the basic induction head.

    Let f(i) = max{m <= i : w_{m-1} = w_i} (the position after the previous
    occurrence of w_i), has(i) = [f(i) exists].  Then hop^k(i) = f^k(i) and,
    with t_0 = w, def_0 = 1:  t_l(i) = t_{l-1}(f(i)),  def_l(i) = has(i) AND
    def_{l-1}(f(i)); the output is t_k(i) if def_k(i) else '-'.

    Layer 1: head P (strict mask, s_ij = j/n: attends to j = i-1) copies the token
    one-hot into prev_raw; head S (strict mask, s_ij = [w_j = w_i], gap 1) averages
    the tokens of earlier equal tokens into seen (seen_{w_i} = 1 iff w_i occurred
    before, exactly).  FFN: prev = clean(prev_raw); has = sum_c clean_and(tok_c, seen_c).
    Layer l+1 (l = 1..k): head M_l (causal, s_ij = <tok_i, prev_j> + j/n: the last
    m <= i with w_{m-1} = w_i, else m = i) copies t_{l-1} and def_{l-1}; FFN:
    t_l = clean(copy), def_l = clean_and(has, copied def).

    Gap: heads P and M_l have n s_ij distinct integers (gap >= 1/n, and exactly
    1/n: two consecutive visible keys without a match); head S has gap 1 (or
    +inf).  So gamma(n) = 1/n for n >= 2 (every head's keys are consecutive).
    Soft mode at tau = 1/(2n): P and M_l are ziggurats with step 1/n, mass off the
    top <= e^{-2} < 1/4; S has mass off its max set <= n e^{-2n} < 1/4; every
    copied coordinate is a convex combination of 0/1 values within 1/4 of the hard
    one, and the clean-ups restore the hard values exactly, layer after layer.
    Scores lie in [0, 2 - 1/n].
    """
    if not isinstance(k, int) or k < 1:
        raise ValueError(f"k-hop needs k >= 1, got {k!r}")
    S = len(alphabet)
    res = Residual()
    tok, one, p = res.add_block("tok", S), res.add("one"), res.add("i/n")
    prev_raw, prev, seen, has = res.add_block("prev_raw", S), res.add_block("prev", S), res.add_block("seen", S), res.add("has")
    t_raw = [res.add_block(f"t{l}_raw", S) for l in range(1, k + 1)]
    d_raw = [res.add(f"def{l}_raw") for l in range(1, k + 1)]
    t = [tok] + [res.add_block(f"t{l}", S) for l in range(1, k + 1)]
    df = [one] + [res.add(f"def{l}") for l in range(1, k + 1)]
    d = res.d
    first = res.layer(0)
    first.heads.append(build_head(d, [ScoreTerm({one: 1.0}, {p: 1.0})], _copy(dict(zip(tok, prev_raw))), "strict"))  # head P
    first.heads.append(build_head(d, [ScoreTerm({tok[a]: 1.0}, {tok[a]: 1.0}) for a in range(S)], _copy(dict(zip(tok, seen))), "strict"))  # head S
    for a in range(S):
        first.units += _clean(prev_raw[a], prev[a]) + _clean_and(tok[a], seen[a], has)
    for l in range(1, k + 1):
        hop = res.layer(l)
        terms = [ScoreTerm({tok[a]: 1.0}, {prev[a]: 1.0}) for a in range(S)] + [ScoreTerm({one: 1.0}, {p: 1.0})]
        vals = dict(zip(t[l - 1], t_raw[l - 1]))
        vals[df[l - 1]] = d_raw[l - 1]
        hop.heads.append(build_head(d, terms, _copy(vals), "causal"))  # head M_l
        for a in range(S):
            hop.units += _clean(t_raw[l - 1][a], t[l][a])
        hop.units += _clean_and(has, d_raw[l - 1], df[l])
    name = "induction" if k == 1 else f"{k}-hop"
    WE = res.word_embedding(alphabet, {sym: {tok[a]: 1.0} for a, sym in enumerate(alphabet)})
    model = Model(tuple(alphabet), WE, res.position_embedding(("one", "i/n")), res.build_layers(), name)
    outputs = tuple(alphabet) + (NONE,)

    def readout(x: np.ndarray) -> np.ndarray:
        tok_out = np.argmax(x[..., t[k]], axis=-1)
        return np.where(x[..., df[k]] > 0.5, tok_out, S).astype(np.int64)

    def sampler(rng: np.random.Generator, n: int, count: int) -> np.ndarray:
        # half uniform over the alphabet, half with long repeated motifs (long hop chains far apart)
        w = rng.integers(0, S, size=(count, n))
        for r in range(count // 2, count):
            motif = rng.integers(0, S, size=max(2, int(rng.integers(2, 9))))
            w[r] = np.resize(motif, n)
            flips = rng.random(n) < 0.05
            w[r, flips] = rng.integers(0, S, size=int(flips.sum()))
        return w

    return Construction(
        name,
        model,
        readout,
        outputs,
        lambda w: reference_k_hop(w, k),
        lambda n: 1.0 / n,
        lambda n: 1.0 / (2 * n),
        lambda n: 2.0 - 1.0 / n,
        k + 1,
        "1/n",
        "1/(2n)",
        "basic induction head: output the token after the previous occurrence of the current token"
        if k == 1
        else f"{k}-hop induction head: follow the induction pointer {k} times",
        sampler,
    )


def induction_formulas(alphabet: Sequence[str] = ("a", "b", "c")) -> dict[str, str]:
    """Return, per output symbol c, the TL[since] formula "the token after the previous occurrence of w_i is c".

    With m the previous occurrence of a = w_i (no a in (m, i)), the output is w_{m+1}.
    If m + 1 = i the output is a itself: ``a & Y a``.  Otherwise j = m + 1 < i has
    w_j = c != a, w_{j-1} = a and no a in (j, i): ``a & (!a S (c & Y a))`` (strict
    since).  Conversely such a j makes j - 1 the previous occurrence (w_j = c is not
    a).  No formula holds when a has not occurred before (output '-').
    """
    out = {}
    for c in alphabet:
        parts = [f"({c} & Y {c})"] + [f"({a} & (!{a} S ({c} & Y {a})))" for a in alphabet if a != c]
        out[c] = "(" + " | ".join(parts) + ")"
    return out


def build_induction_tl(alphabet: Sequence[str] = ("a", "b", "c")) -> Construction:
    """The basic induction head through the temporal-logic compiler (``constructive.logic``, bounded regime); gap 1/n (n >= 3), tau = c/n.

    The formulas of ``induction_formulas`` (one per output symbol) are compiled as
    ONE model (their disjunction: every subformula gets its coordinate) and the
    read-out takes the coordinates of the per-symbol formulas ('-' when none holds).
    Gap and temperature are the compiler's (``constructive.logic.compiler``: its tie-break
    and lookup heads have gap K/n = 1/n, tau(n) = c/n with the compiler's c); n = 2:
    every strict head sees one key (infinite gap).  The hand-built ``induction``
    construction computes the same transduction with 2 layers and 3 heads; this one
    has 3 layers and 4 heads (the three Y heads share one head, and the two since heads
    of each current symbol a share the compiler's anchored select a | Y a), and needs no
    hand derivation beyond the formulas.
    """
    from hardsoft.constructive.logic import compile_formula, parse, subformulas

    al = tuple(alphabet)
    fs = induction_formulas(al)
    whole = parse(" | ".join(fs[c] for c in al))
    comp = compile_formula(whole, al, "bounded")
    subs = subformulas(whole)
    cols = [comp.coords[subs.index(parse(fs[c]))] for c in al]
    thr = comp.readout.threshold
    score_bound = max(float(np.abs(h.A).sum()) for layer in comp.model.layers for h in layer.heads)

    def readout(x: np.ndarray) -> np.ndarray:
        hold = x[..., cols] > thr
        return np.where(hold.any(axis=-1), np.argmax(hold, axis=-1), len(al)).astype(np.int64)

    def sampler(rng: np.random.Generator, n: int, count: int) -> np.ndarray:
        return build_k_hop(1, al).sample(rng, n, count)

    return Construction(
        "induction-tl",
        comp.model,
        readout,
        (*al, NONE),
        lambda w: reference_k_hop(w, 1),
        lambda n: math.inf if n <= 2 else 1.0 / n,
        comp.tau,
        lambda n: score_bound,  # max_h |A_h|_sum: every coordinate lies in [0, 1] in the bounded regime (x_max = 1)
        2,
        "1/n (n >= 3)",
        f"{comp.c:.4g}/n",
        "basic induction head compiled from TL[since] formulas (constructive.logic), one per output symbol",
        sampler,
        margin=comp.mass_bound(),
    )


# =========================================================================== prefix-argmax (gap 1/n^3)


def reference_prefix_argmax(word: str) -> list[str]:
    """Prefix-argmax: at position i, the token at the LAST j <= i where the prefix frequency of 'a', #a(w_0..w_j)/(j+1), is largest."""
    out, arg, count = [], 0, 0
    best = Fraction(-1)
    for j, ch in enumerate(word):
        count += ch == "a"
        r = Fraction(count, j + 1)
        if r >= best:
            best, arg = r, j
        out.append(word[arg])
    return out


def build_prefix_argmax() -> Construction:
    """Prefix-argmax (an S-RASP comparison of prefix-sum ratios) as a two-layer AHAT; claimed gap gamma(n) = 1/n^3, tau(n) = 1/(2n^3).

    S-RASP program: r = psum([w = a]) / (i+1);  out(i) = w at the last j <= i
    maximising r_j.  Compiled: layer 1, a causal head with all scores 0 averages
    [w_j = a] over j <= i, giving r_i exactly (AHAT = softmax at every tau: all
    ties).  Layer 2, a causal head with s_ij = r_j + j/n^3 (query weight on
    ``one``, key weights on r and on the feature i/n^3) copies the token one-hot.

    Gap: distinct ratios with denominators <= n differ by >= 1/n^2 > (n-1)/n^3,
    the range of the tie-break, so the maximum is the last maximiser of r and
    every score difference is >= 1/n^3 (1/n^2 - (n-1)/n^3 = 1/n^3 across ratios,
    >= 1/n^3 within equal ratios); consecutive keys of equal ratio (e.g. two
    b's at the start) give exactly 1/n^3: gamma(n) = 1/n^3 (n >= 2).  This is the
    Omega(1/n^3) gap of S-RASP comparisons, and the construction the precision
    falsifier runs (benchmarks/falsifier.py).  Soft mode: all scores distinct with steps >= 1/n^3
    (a ziggurat), so at tau = 1/(2n^3) the winner keeps >= 1 - e^{-2} > 3/4 and
    the read-out (the token with more than half the attention; '?' otherwise) is
    right.  Scores lie in [0, 1 + 1/n^2).
    """
    res = Residual()
    tok, one, q3, r, raw = res.add_block("tok", 2), res.add("one"), res.add("i/n^3"), res.add("ratio"), res.add_block("raw", 2)
    d = res.d
    res.layer(0).heads.append(build_head(d, [ScoreTerm()], _copy({tok[0]: r}), "causal"))  # head R: all scores 0 (zero FFN)
    res.layer(1).heads.append(build_head(d, [ScoreTerm({one: 1.0}, {r: 1.0, q3: 1.0})], _copy(dict(zip(tok, raw))), "causal"))  # head A
    WE = res.word_embedding(("a", "b"), {"a": {tok[0]: 1.0}, "b": {tok[1]: 1.0}})
    model = Model(("a", "b"), WE, res.position_embedding(("one", "i/n^3")), res.build_layers(), "prefix-argmax")

    def readout(x: np.ndarray) -> np.ndarray:
        # the token holding a strict majority of the attention, '?' when neither does (a split tie is no decision)
        v = x[..., raw]
        return np.where(v.max(axis=-1) > 0.5, np.argmax(v, axis=-1), 2).astype(np.int64)

    def sampler(rng: np.random.Generator, n: int, count: int) -> np.ndarray:
        # near-ties of the ratio: balanced random walks (ratios hover near 1/2, many equal ratios with different tokens)
        w = rng.integers(0, 2, size=(count, n))
        for row in range(0, count, 2):
            half = np.array([0, 1] * (n // 2) + [0] * (n % 2))
            w[row] = rng.permutation(half) if row % 4 == 0 else np.resize([1, 0, 0, 1], n)
        return w

    return Construction(
        "prefix-argmax",
        model,
        readout,
        ("a", "b", "?"),
        reference_prefix_argmax,
        lambda n: 1.0 / n**3,
        lambda n: 1.0 / (2 * n**3),
        lambda n: 1.0 + 1.0 / n**2,
        2,
        "1/n^3",
        "1/(2n^3)",
        "prefix-argmax (S-RASP ratio comparison): the token at the last position of maximal prefix frequency of 'a'",
        sampler,
        margin=0.5,
    )


# =========================================================================== Dyck-k through S-RASP (gap 1/n)


def build_dyck(k: int = 2) -> Construction:
    """Dyck-k prefix validity: the S-RASP program ``dyck_program`` compiled by ``compile_program`` (``constructive.srasp``); gap 1/n (n >= 3).

    Route: the S-RASP program of ``constructive.srasp.dyck.dyck_program`` (depth as a clamped
    prefix sum, each close's partner as the rightmost open one level up, a
    mismatch or an underflow makes every later prefix bad), not Yao et al.'s
    layer-norm construction (this model has no layer norm) nor a bounded-depth
    automaton (Dyck-(k, D) is star-free, but the paper's claim is for Dyck-k with
    unbounded depth).  The compiler turns each prefix sum, which attention
    delivers only as the average S_i/i, back into the integer S_i with a lookup
    head over positions (score 2 p S_i/i - p^2/i, maximal at p = S_i), so depths
    can be compared across positions with the bilinear score -2 (depth_j - t_i)^2.

    Gap (exhaustively measured = claimed for n <= 8): the lookup head's is 1/i at
    query i (>= 1/(n-1)), the partner head's >= 1/n and exactly 1/n from n = 3
    (two neighbouring keys of equal score part, e.g. an open one level too deep
    next to a close at the target level), the Once head's 1; n = 1: every head
    sees one key (infinite gap); n = 2: 1 (the lookup at i = 1).  This is Theta(1/n),
    better than the Omega(1/n^3) the paper quotes for S-RASP in general, paid for
    with unbounded position features (i, i^2) and scores up to 2(n+1)^2 + 3.
    Temperature tau(n) = 1/(n ln(128 n^3)) (derivation in ``constructive.srasp.compiler``): the
    integer copies must be accurate to ~1/n^2, not only to 1/4.
    """
    prog = sr.dyck_program(k)
    comp = sr.compile_program(prog)

    def gap(n: int) -> float:
        return math.inf if n == 1 else (1.0 if n == 2 else 1.0 / n)

    def sampler(rng: np.random.Generator, n: int, count: int) -> np.ndarray:
        return dyck_samples(rng, n, count, k)

    return Construction(
        f"dyck-{k}",
        comp.model,
        comp.readout,
        prog.symbols,
        lambda w: sr.reference_dyck(w, k),
        gap,
        sr.tau_for,
        lambda n: 4.0 * n * (n + 1),  # the largest term summed into a score (the partner head's); scores are <= 2(n+1)^2 + 3
        1,
        "1/n (n >= 3)",
        "1/(n ln(128 n^3))",
        f"Dyck-{k} prefix validity (S-RASP, compiled): per prefix 'in' Dyck-{k}, 'open' (extendable) or 'bad'",
        sampler,
    )


def dyck_samples(rng: np.random.Generator, n: int, count: int, k: int = 2) -> np.ndarray:
    """Return count inputs of length n (indices into the Dyck-k alphabet): valid and near-valid strings, not uniform noise.

    Uniform strings are almost all bad from their first few symbols, so the mix is:
    random Dyck prefixes (a random walk that closes the matching type), the same
    with one symbol changed (another type, another direction) or two neighbours
    swapped, deep nests (all opens, then the matching closes), a deep nest whose
    middle is a run of sibling pairs of random types (many partner candidates at
    one large depth: only the j/n tie-break tells them apart, and depth^2 is large
    in the scores), and a few uniform strings.
    """
    out = np.zeros((count, n), dtype=np.int64)
    for r in range(count):
        kind = r % 7
        stack: list[int] = []
        row = []
        if kind == 4:  # deep nest: opens then matching closes
            half = n // 2
            nest = [int(t) for t in rng.integers(0, k, size=half)]
            row = [2 * t for t in nest] + [2 * t + 1 for t in nest[::-1]]
            row += [2 * int(rng.integers(0, k))] * (n - len(row))
        elif kind == 5:
            row = [int(c) for c in rng.integers(0, 2 * k, size=n)]
        elif kind == 6:  # deep nest around a run of siblings
            depth = n // 3
            types = [int(t) for t in rng.integers(0, k, size=depth)]
            row = [2 * t for t in types]
            while len(row) + depth + 2 <= n:
                t = int(rng.integers(0, k))
                row += [2 * t, 2 * t + 1]
            row += [2 * t + 1 for t in types[::-1]]
            row += [2 * int(rng.integers(0, k))] * (n - len(row))
        else:
            for i in range(n):
                left = n - i
                if stack and (len(stack) >= left or rng.random() < 0.5):
                    row.append(2 * stack.pop() + 1)
                else:
                    t = int(rng.integers(0, k))
                    stack.append(t)
                    row.append(2 * t)
        if kind in (1, 2, 3) and n >= 2:
            p = int(rng.integers(0, n))
            if kind == 1:  # another type, same direction
                row[p] = 2 * ((row[p] // 2 + 1 + int(rng.integers(0, max(1, k - 1)))) % k) + row[p] % 2 if k > 1 else row[p] ^ 1
            elif kind == 2:  # flip direction
                row[p] ^= 1
            else:  # swap neighbours
                q = min(p + 1, n - 1)
                row[p], row[q] = row[q], row[p]
        out[r] = row
    return out


#: Constructions by name.
CONSTRUCTIONS: dict[str, Callable[[], Construction]] = {
    "flip-flop": build_flip_flop,
    "induction": lambda: build_k_hop(1),
    "induction-tl": build_induction_tl,
    "2-hop": lambda: build_k_hop(2),
    "3-hop": lambda: build_k_hop(3),
    "prefix-argmax": build_prefix_argmax,
    "dyck-2": lambda: build_dyck(2),
}


def get_construction(name: str) -> Construction:
    """Return the construction called name; ValueError naming the known ones otherwise."""
    if name not in CONSTRUCTIONS:
        raise ValueError(f"unknown construction {name!r}; known: {', '.join(CONSTRUCTIONS)}")
    return CONSTRUCTIONS[name]()
