"""Compile a temporal-logic formula to a transformer: one parameter set for every n, hard and soft.

Layout of the residual stream (width d):
  * one coordinate per symbol-only Boolean subformula, set by the word embedding WE
    (a, !a, a | b, true, ...: functions of the symbol at i, exact at layer 0);
  * one coordinate per position feature the regime uses (PE); ``first`` and ``last``
    ARE the coordinates of the features is_first / is_last;
  * one clean coordinate per other subformula, written once (exact 0/1) by the FFN of
    the layer where it becomes available, plus one scratch coordinate per attention
    head's raw (approximate in soft mode) output, which the same FFN erases again
    (x - ReLU(x) = 0 for x >= 0), and one coordinate V per comparison.  So the soft
    activations equal the hard ones after every layer (up to float rounding).

Schedule ("time" = the layer after which a node's clean value exists):
  symbol-only and first/last: 0;
  Y f, X f:                  1 + time(f);
  f S g, f U g:              1 + max(time(f), time(g), time(beta)), beta = g | !f;
  comparison of counts:      count heads in layer 1 + max(time(f_k)) write V exactly,
                             the sign head in the next layer: time = 2 + max(time(f_k));
  other Boolean nodes:       max(1, max time of their leaves), leaves = the maximal
                             non-Boolean (or symbol-only) nodes below.
Each layer's FFN computes every Boolean node of its time (and cleans every attention
result of the layer) directly from its leaves' values: for each assignment sigma of
the m leaves on the smaller side of the truth table, the clamp
  ReLU((L_sigma - |sigma| + 3/4) * 2) - ReLU((L_sigma - |sigma| + 1/4) * 2),
  L_sigma(x) = sum_{sigma_k = 1} x_k - sum_{sigma_k = 0} x_k,
is exactly 1 when the leaves round to sigma and 0 otherwise, as long as every
approximate leaf is within 1/(4m) of its 0/1 value.  The heads' mass off the hard
max set bounds that error; the temperature is chosen so that it is <= 1/(8 m_max).

Regimes (every head's scores, gap and bound: constructive.heads):
  bounded:   scores with K = 1, tau(n) = c/n, c = 1/ln(16 m_max); gap 1/n;
             Y / X / S / U by tie-breaking (Lemma 8 + ziggurat, mass off <= e^{-1/c}),
             counts by uniform attention (exact), comparisons by the parity sign head
             (mass off <= 2 e^{-1/c} = 1/(8 m_max)).
  unbounded: K = ln(16 m_max), tau = 1; gap K; Y / X by parabolic lookup (Lemma 7),
             S / U by tie-breaking with n select_j + j, comparisons with n*parity.
Hard mode runs the same parameters: every head carries its own hard mode (tie-breaking
heads rightmost / leftmost, the others average), so ``run(model, w, "hard")`` is the
AHAT/UHAT the formula describes (and every head's hard max is unique or a full tie,
so any hard mode gives the same result).

Not supported (ValueError): a comparison that mixes past (#<) and future (#>) counts
(its sign needs the product of an average with a position, which neither an FFN nor
a bilinear score computes with one parameter set), and Boolean nodes with more than
MAX_LEAVES leaves.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hardsoft.constructive import heads as cs
from hardsoft.constructive.heads import REGIMES
from hardsoft.constructive.logic.semantics import check_alphabet
from hardsoft.constructive.logic.syntax import (
    And,
    Atom,
    Compare,
    Const,
    Count,
    First,
    Formula,
    Last,
    Next,
    Not,
    Or,
    Prev,
    Since,
    Until,
    parse,
    subformulas,
)
from hardsoft.constructive.residual import Residual, Unit
from hardsoft.spec.transformer import Head, Model, PositionEmbedding, Readout, Trace

#: Largest number of leaves of one Boolean node (its FFN has up to 2^(m-1) * 2 hidden units).
MAX_LEAVES = 12

_BOOL = (Not, And, Or)


def _canonical_compare(g: Compare) -> tuple[str | None, list[tuple[int, Count]], float]:
    """Return (direction or None if no count is left, merged nonzero terms, half-integer constant): [g] = [sum c_k #_k + const > 0].

    lhs op rhs becomes E = lhs - rhs (or rhs - lhs for < and <=) with integer E, then
    E > 0 is E - 1/2 > 0 and E >= 0 is E + 1/2 > 0, so the constant is never an integer
    and the sum is never 0.  ValueError if the counts mix past (#<) and future (#>).
    """
    merged: dict[Count, int] = {}
    for sgn, e in ((1, g.lhs), (-1, g.rhs)):
        for c, t in e.terms:
            merged[t] = merged.get(t, 0) + sgn * c
    const = g.lhs.const - g.rhs.const
    if g.op in ("<", "<="):
        merged = {t: -c for t, c in merged.items()}
        const = -const
    half = -0.5 if g.op in (">", "<") else 0.5
    terms = [(c, t) for t, c in merged.items() if c != 0]
    dirs = {t.direction for _, t in terms}
    if len(dirs) > 1:
        raise ValueError(
            f"the comparison {g} mixes past (#<) and future (#>) counts: unsupported by this compiler in both regimes (write it with one direction)"
        )
    return (dirs.pop() if dirs else None), terms, const + half


def _is_symbolic(g: Formula) -> bool:
    """Return whether g is a function of the symbol at i alone (atoms, constants, Boolean connectives of them)."""
    if isinstance(g, (Atom, Const)):
        return True
    if isinstance(g, Compare):
        return _canonical_compare(g)[0] is None
    if isinstance(g, Not):
        return _is_symbolic(g.arg)
    if isinstance(g, (And, Or)):
        return _is_symbolic(g.left) and _is_symbolic(g.right)
    return False


def _truth(g: Formula, leafval: dict[Formula, bool], symbol: str | None = None) -> bool:
    """Return g's value from its leaves' values (or from the symbol, for symbol-only nodes)."""
    if g in leafval:
        return leafval[g]
    if isinstance(g, Atom):
        return g.symbol == symbol
    if isinstance(g, Const):
        return g.value
    if isinstance(g, Compare):  # constant comparison (its counts cancel)
        return _canonical_compare(g)[2] > 0
    if isinstance(g, Not):
        return not _truth(g.arg, leafval, symbol)
    if isinstance(g, And):
        return _truth(g.left, leafval, symbol) and _truth(g.right, leafval, symbol)
    if isinstance(g, Or):
        return _truth(g.left, leafval, symbol) or _truth(g.right, leafval, symbol)
    raise ValueError(f"internal: {g} is not a Boolean combination of its leaves")


@dataclass(frozen=True)
class HeadInfo:
    """What one compiled head does: layer, index, construction, the node it serves, and its claimed bounds."""

    layer: int
    index: int
    construction: str  # tiebreak | lookup | count | sign
    node: str
    target: int


@dataclass
class CompiledFormula:
    """A formula compiled to one Model (one parameter set for every n); tau(n) and gap(n) are the regime's rules."""

    formula: Formula
    alphabet: tuple[str, ...]
    regime: str
    model: Model
    coords: list[int]
    readout: Readout
    c: float  # bounded: tau(n) = c / n
    K: float  # score scale
    m_max: int  # most approximate leaves of one FFN Boolean node
    heads: list[HeadInfo] = field(default_factory=list)
    times: dict[str, int] = field(default_factory=dict)

    def tau(self, n: int) -> float:
        """Return the regime's temperature at length n: c/n (bounded) or 1 (unbounded)."""
        if n < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        return self.c / n if self.regime == "bounded" else 1.0

    def gap(self, n: int) -> float:
        """Return the claimed hard-attention gap at length n (min over non-uniform heads): K/n bounded, K unbounded; inf without such heads."""
        if not any(h.construction in ("tiebreak", "lookup", "sign") for h in self.heads):
            return math.inf
        return self.K / n if self.regime == "bounded" else self.K

    def mass_bound(self) -> float:
        """Return the claimed bound on every non-uniform head's softmax mass off its hard max set at tau(n) (any n): 1/(8 m_max)."""
        return 1.0 / (8 * self.m_max)

    def head_bound(self, info: HeadInfo) -> float:
        """Return the claimed bound on one head's softmax mass off its hard max set at tau(n), for every n.

        tiebreak (Lemma 8 + Z) and one-sided lookup (Lemma 7 + Z): e^{-K/c} = 1/(16 m_max);
        sign (statement E, two groups of ratio <= 2): 2 e^{-K/c} = 1/(8 m_max); count: 0 (all keys tie).
        """
        x = math.exp(-self.K / self.c)
        return {"tiebreak": x, "lookup": x, "sign": 2 * x, "count": 0.0}[info.construction]

    def decode(self, activations: Trace | np.ndarray | Sequence[np.ndarray]) -> np.ndarray:
        """Return (batch, n, k) bool: every subformula's coordinate > threshold, from a Trace or final activations."""
        if isinstance(activations, Trace):
            final = activations.activations[-1]
        elif isinstance(activations, (list, tuple)):
            final = activations[-1]
        else:
            final = np.asarray(activations)
        if final.ndim == 2:
            final = final[None]
        return final[:, :, self.coords] > self.readout.threshold

    def accept(self, activations: Trace | np.ndarray | Sequence[np.ndarray]) -> np.ndarray:
        """Return (batch,) bool acceptance (the read-out at the last position)."""
        return self.decode(activations)[:, -1, -1]

    def describe(self) -> dict[str, Any]:
        """Return the model's shape and temperature rule as a JSON-ready dict."""
        m = self.model
        return {
            "formula": str(self.formula),
            "regime": self.regime,
            "alphabet": list(self.alphabet),
            "layers": m.depth,
            "heads": sum(len(l.heads) for l in m.layers),
            "heads_per_layer": [len(l.heads) for l in m.layers],
            "d": m.d,
            "ffn_width": max((l.W1.shape[1] for l in m.layers), default=0),
            "position_features": list(m.PE.features),
            "temperature": (f"tau(n) = {self.c:.6g}/n" if self.regime == "bounded" else "tau(n) = 1"),
            "c": self.c if self.regime == "bounded" else None,
            "K": self.K,
            "gap": ("K/n = 1/n" if self.regime == "bounded" else f"K = {self.K:.6g}") if self.heads else "inf",
            "mass_off_bound": self.mass_bound(),
            "constructions": [f"layer {h.layer} head {h.index}: {h.construction} for {h.node}" for h in self.heads],
            "readout": {"coordinate": self.readout.coordinate, "position": self.readout.position, "threshold": self.readout.threshold},
        }


class _Schedule:
    """The schedule of one compilation (module docstring): every node's time, the leaves of Boolean nodes, the beta node of S / U."""

    def __init__(self, f: Formula, alphabet: tuple[str, ...], regime: str) -> None:
        self.f, self.alphabet, self.regime = f, alphabet, regime
        self.subs = subformulas(f)
        self.time: dict[Formula, int] = {}
        self.leaves: dict[Formula, tuple[Formula, ...]] = {}
        self.beta: dict[Formula, Formula] = {}  # since/until -> its beta node (g | !f)
        self.nodes: list[Formula] = []  # the subformulas, then the beta nodes' new subformulas

    def leaves_of(self, g: Formula) -> tuple[Formula, ...]:
        """Return the leaves of a Boolean node: maximal non-Boolean or symbol-only nodes below it (ordered, unique)."""
        if g in self.leaves:
            return self.leaves[g]
        out: list[Formula] = []
        children: tuple[Formula, ...]
        if isinstance(g, Not):
            children = (g.arg,)
        elif isinstance(g, (And, Or)):
            children = (g.left, g.right)
        else:
            raise TypeError(f"internal: leaves_of on a non-Boolean node {g}")
        for c in children:
            for x in (c,) if _is_symbolic(c) or not isinstance(c, _BOOL) else self.leaves_of(c):
                if x not in out:
                    out.append(x)
        self.leaves[g] = tuple(out)
        if len(out) > MAX_LEAVES:
            raise ValueError(f"the Boolean subformula {g} has {len(out)} leaves; this compiler handles at most {MAX_LEAVES}")
        return self.leaves[g]

    def schedule(self, g: Formula) -> int:
        """Return (and record) the time of node g."""
        if g in self.time:
            return self.time[g]
        if _is_symbolic(g) or isinstance(g, (First, Last)):
            t = 0
        elif isinstance(g, _BOOL):
            t = max(1, max(self.schedule(x) for x in self.leaves_of(g)))
        elif isinstance(g, (Prev, Next)):
            t = 1 + self.schedule(g.arg)
        elif isinstance(g, (Since, Until)):
            b = Or(g.right, Not(g.left))
            self.beta[g] = b
            t = 1 + max(self.schedule(g.left), self.schedule(g.right), self.schedule(b))
        elif isinstance(g, Compare):
            t = 2 + max(self.schedule(c.arg) for _, c in self.compare_terms(g)[1])
        else:
            raise ValueError(f"cannot compile {g!r}")
        self.time[g] = t
        return t

    def compare_terms(self, g: Compare) -> tuple[str, list[tuple[int, Count]], float]:
        """Return (direction, merged nonzero terms, half-integer constant) with [g] = [sum c_k #_k + const > 0]."""
        direction, terms, const = _canonical_compare(g)
        if direction is None:
            raise ValueError("internal: constant comparison reached the count construction")
        return direction, terms, const

    @property
    def depth(self) -> int:
        """Return L: the largest time of a node."""
        return max((self.time[g] for g in self.nodes), default=0)

    def approx_leaves(self, g: Formula) -> list[Formula]:
        """Return the leaves of Boolean node g that come out of an attention head in g's own layer (approximate in soft mode)."""
        t = self.time[g]
        return [x for x in self.leaves_of(g) if _is_attended(x) and self.time[x] == t]


def _is_attended(g: Formula) -> bool:
    """Return whether node g is computed by attention (Y, X, S, U, a comparison of counts): it has a scratch coordinate."""
    return isinstance(g, (Prev, Next, Since, Until, Compare)) and not _is_symbolic(g)


@dataclass
class _Layout:
    """The residual coordinates of one compilation (module docstring, "Layout"): features, clean node values, scratch, comparison values."""

    res: Residual
    features: tuple[str, ...]
    symbolic: list[Formula]  # the symbol-only nodes, set by the word embedding
    clean: dict[Formula, int]  # every node's exact 0/1 value
    scratch: dict[Formula, int]  # every attended node's raw head output, erased by its layer's FFN
    value: dict[Formula, int]  # every comparison's V = sum_k c_k #_k / (count of visible keys) + const / max(., 1)


def _regime_features(regime: str) -> tuple[str, ...]:
    """Return the position features of a regime (one coordinate each)."""
    if regime == "bounded":
        return ("one", "is_first", "is_last", "i/n", "parity", "1/max(i,1)", "1/max(n-1-i,1)")
    return ("one", "is_first", "is_last", "i", "i^2", "n", "parity", "n*parity", "1/max(i,1)", "1/max(n-1-i,1)")


def _schedule(f: Formula, alphabet: tuple[str, ...], regime: str) -> _Schedule:
    """Step 1: every node's time; the nodes are the subformulas, then the new subformulas of the beta nodes of S / U."""
    try:
        sched = _Schedule(f, alphabet, regime)
        for g in sched.subs:
            sched.schedule(g)
    except RecursionError:
        raise ValueError("the formula is nested too deeply to compile") from None
    sched.nodes = list(sched.subs)
    for _g, beta in list(sched.beta.items()):
        for x in subformulas(beta):
            if x not in sched.nodes:
                sched.nodes.append(x)
                sched.schedule(x)
    return sched


def _score_scale(sched: _Schedule) -> tuple[int, float, float]:
    """Step 2: return (m_max, K, c): the most approximate leaves of one Boolean node, and the regime's score scale and temperature constant."""
    m_max = 1
    for g in sched.nodes:
        if isinstance(g, _BOOL) and not _is_symbolic(g):
            m_max = max(m_max, len(sched.approx_leaves(g)))
    log16m = math.log(16 * m_max)
    if sched.regime == "bounded":
        return m_max, 1.0, 1.0 / log16m
    return m_max, log16m, 1.0


def _allocate(sched: _Schedule) -> _Layout:
    """Step 3: the coordinates, in order: position features, symbol-only nodes, other nodes (first / last ARE is_first / is_last), scratch, V."""
    res = Residual()
    features = _regime_features(sched.regime)
    for ft in features:
        res.add(ft)
    clean: dict[Formula, int] = {}
    symbolic = [g for g in sched.nodes if _is_symbolic(g)]
    for g in symbolic:
        clean[g] = res.add(f"sym:{g}")
    for g in sched.nodes:
        if isinstance(g, First):
            clean[g] = res["is_first"]
        elif isinstance(g, Last):
            clean[g] = res["is_last"]
        elif g not in clean:
            clean[g] = res.add(f"node:{g}")
    scratch: dict[Formula, int] = {}
    value: dict[Formula, int] = {}
    for g in sched.nodes:
        if _is_attended(g):
            scratch[g] = res.add(f"scratch:{g}")
        if isinstance(g, Compare) and not _is_symbolic(g):
            value[g] = res.add(f"V:{g}")
    return _Layout(res, features, symbolic, clean, scratch, value)


def _embeddings(sched: _Schedule, lay: _Layout) -> tuple[np.ndarray, PositionEmbedding, dict[Formula, float]]:
    """Step 4: WE (the symbol-only nodes' truth values), PE (the features; each comparison's constant / max(keys, 1) into V), orientations."""
    res = lay.res
    WE = res.word_embedding(sched.alphabet, {a: {lay.clean[g]: 1.0 if _truth(g, {}, a) else 0.0 for g in lay.symbolic} for a in sched.alphabet})
    P = res.feature_matrix(lay.features)
    orientation: dict[Formula, float] = {}
    for g, v in lay.value.items():
        direction, _, const = sched.compare_terms(g)  # type: ignore[arg-type]
        feat = "1/max(i,1)" if direction == "<" else "1/max(n-1-i,1)"
        P[lay.features.index(feat), v] += const
        orientation[g] = 1.0 if const > 0 else -1.0  # at n = 1 every count is 0 and V = const
    return WE, PositionEmbedding(lay.features, P), orientation


def _place_heads(sched: _Schedule, lay: _Layout, K: float, orientation: dict[Formula, float]) -> list[HeadInfo]:
    """Step 5: the heads (module docstring, "Regimes"): Y / X, S / U, counts and the sign of each comparison, in the layer of their time."""
    res, clean, scratch = lay.res, lay.clean, lay.scratch
    d, coord, regime = res.d, res.index(), sched.regime
    infos: list[HeadInfo] = []

    def add(layer: int, h: Head, construction: str, g: Formula, target: int) -> None:
        plan = res.layer(layer - 1)  # time t is the t-th layer (0-based t - 1)
        infos.append(HeadInfo(layer, len(plan.heads), construction, str(g), target))
        plan.heads.append(h)

    for g in sched.nodes:
        if _is_symbolic(g):
            continue
        t = sched.time[g]
        if isinstance(g, (Prev, Next)):
            direction = "past" if isinstance(g, Prev) else "future"
            if regime == "bounded":
                add(t, cs.tiebreak_head(d, coord, direction, regime, clean[g.arg], scratch[g], None, K), "tiebreak", g, scratch[g])
            else:
                add(t, cs.lookup_head(d, coord, -1 if direction == "past" else 1, clean[g.arg], scratch[g], K, regime), "lookup", g, scratch[g])
        elif isinstance(g, (Since, Until)):
            direction = "past" if isinstance(g, Since) else "future"
            add(t, cs.tiebreak_head(d, coord, direction, regime, clean[g.right], scratch[g], clean[sched.beta[g]], K), "tiebreak", g, scratch[g])
        elif isinstance(g, Compare):
            direction, terms, _ = sched.compare_terms(g)
            for cf, term in terms:
                add(
                    t - 1,
                    cs.count_head(d, "past" if direction == "<" else "future", clean[term.arg], lay.value[g], float(cf)),
                    "count",
                    g,
                    lay.value[g],
                )
            add(t, cs.sign_head(d, coord, regime, lay.value[g], scratch[g], orientation[g], K), "sign", g, scratch[g])
    return infos


def _node_units(sched: _Schedule, lay: _Layout, g: Formula, orientation: dict[Formula, float]) -> tuple[list[Unit], float]:
    """Return the FFN units writing node g's clean 0/1 value from its leaves (the clamps of the module docstring), and the output bias (0 or 1).

    The smaller side of the truth table is written: the satisfying assignments (bias 0), or
    the falsifying ones subtracted from a bias of 1.  A leaf computed by a head of the same
    layer is read from its scratch coordinate (1 - scratch for a negatively oriented comparison).
    """
    t = sched.time[g]
    lv = sched.leaves_of(g) if isinstance(g, _BOOL) else (g,)
    fn = (lambda val: _truth(g, val)) if isinstance(g, _BOOL) else (lambda val: val[g])
    assigns = list(itertools.product((0, 1), repeat=len(lv)))
    table = [bool(fn(dict(zip(lv, s)))) for s in assigns]
    sat = [s for s, v in zip(assigns, table) if v]
    uns = [s for s, v in zip(assigns, table) if not v]
    use, sign = (sat, 1.0) if len(sat) <= len(uns) else (uns, -1.0)

    def location(x: Formula) -> tuple[int, bool]:
        """Return (coordinate, flipped) holding leaf x's value as seen by the FFN of layer t."""
        if _is_attended(x) and sched.time[x] == t:
            return lay.scratch[x], bool(isinstance(x, Compare) and orientation[x] < 0)
        return lay.clean[x], False

    locs = [location(x) for x in lv]
    units: list[Unit] = []
    for s in use:
        w: dict[int, float] = {}
        const = 0.0
        for (k, flip), bit in zip(locs, s):
            coef = 1.0 if bit else -1.0
            if flip:  # leaf value is 1 - x_k
                w[k] = w.get(k, 0.0) - coef
                const += coef
            else:
                w[k] = w.get(k, 0.0) + coef
        ones = sum(s)
        w2 = {k: 2 * v for k, v in w.items()}
        # clamp01((L - (|s| - 3/4)) * 2) = ReLU(2(L - |s| + 3/4)) - ReLU(2(L - |s| + 1/4))
        units.append(Unit(w2, 2 * (const - ones + 0.75), {lay.clean[g]: sign}))
        units.append(Unit(w2, 2 * (const - ones + 0.25), {lay.clean[g]: -sign}))
    return units, (1.0 if sign < 0 else 0.0)


def _place_ffns(sched: _Schedule, lay: _Layout, orientation: dict[Formula, float]) -> None:
    """Step 6: each layer's FFN computes every node of its time from its leaves, then erases the layer's scratch coordinates."""
    res = lay.res
    for g in sched.nodes:
        if _is_symbolic(g) or isinstance(g, (First, Last)):
            continue
        plan = res.layer(sched.time[g] - 1)
        units, bias = _node_units(sched, lay, g, orientation)
        if bias:
            plan.bias[lay.clean[g]] = plan.bias.get(lay.clean[g], 0.0) + bias
        plan.units += units
    # Erase every scratch coordinate after its clean-up: x - ReLU(x) = 0 for the head outputs x >= 0 (convex
    # combinations of 0/1 values), so soft and hard activations agree after every layer, not only in the clean coordinates.
    for g, k in lay.scratch.items():
        res.layer(sched.time[g] - 1).units.append(Unit({k: 1.0}, 0.0, {k: -1.0}))


def compile_formula(f: Formula | str, alphabet: Sequence[str] = ("a", "b"), regime: str = "bounded") -> CompiledFormula:
    """Return the formula compiled to a Model (see the module docstring for layout, schedule and both regimes).

    Steps: (1) schedule every node; (2) the score scale K and temperature constant c from
    m_max; (3) allocate the coordinates; (4) the embeddings; (5) the heads; (6) the FFNs;
    then the model, read out at the formula's clean coordinate at the last position.
    """
    if isinstance(f, str):
        f = parse(f)
    alphabet = tuple(alphabet)
    if regime not in REGIMES:
        raise ValueError(f"regime must be bounded or unbounded, got {regime!r}")
    check_alphabet(f, alphabet)
    sched = _schedule(f, alphabet, regime)
    m_max, K, c = _score_scale(sched)
    lay = _allocate(sched)
    WE, PE, orientation = _embeddings(sched, lay)
    if sched.depth:
        lay.res.layer(sched.depth - 1)  # every layer 1..L exists, with or without heads
    infos = _place_heads(sched, lay, K, orientation)
    _place_ffns(sched, lay, orientation)
    readout = Readout(lay.clean[f], "last", 0.5)
    model = Model(alphabet, WE, PE, lay.res.build_layers(), f"tl[{regime}]: {f}", "average", readout)
    coords = [lay.clean[g] for g in sched.subs]
    return CompiledFormula(f, alphabet, regime, model, coords, readout, c, K, m_max, infos, {str(g): sched.time[g] for g in sched.nodes})
