"""Compile a temporal-logic formula to a transformer: one parameter set for every n, hard and soft.

Layout of the residual stream (width d):
  * one coordinate per symbol-only Boolean subformula, set by the word embedding WE
    (a, !a, a | b, true, ...: functions of the symbol at i, exact at layer 0);
  * one coordinate per position feature the regime uses (PE); ``first`` and ``last``
    ARE the coordinates of the features is_first / is_last;
  * one clean coordinate per other subformula, written once (exact 0/1) by the FFN of
    the layer where it becomes available, and one coordinate V per comparison.  An attended
    node's head writes its raw (approximate in soft mode) output s into the node's own clean
    coordinate (0 until then: nothing else writes it, and no head of that layer reads it);
    the same FFN reads s there (its "scratch" value), erases it (s - ReLU(s) = 0 for the head
    outputs s >= 0) and adds the clean value, so the coordinate leaves the layer holding
    clean(s) exactly.  So the soft activations equal the hard ones after every layer (up to
    float rounding), except a bounded mixed comparison's V, approximate from its lookups'
    layer to its sign head's (one layer boundary).
  * coordinates are shared over time (``constructive.residual.Residual.compact``): once a
    node's last reader has read it (and decode, which reads node k at the end of its span
    ``spans[k]``, in ``activations[spans[k][1]]``), its coordinate is erased by two FFN units
    (x - ReLU(x) + ReLU(-x) = 0, exact) and a node written later may take it.  ``coords[k]``
    holds subformula k from its time (``layers[k]``) to ``spans[k][1]``; the read-out's
    coordinate holds the formula at the end.  So d is the most values alive at one time, not
    the number of nodes: a chain of operators keeps a constant width however long it is.

Schedule ("time" = the layer after which a node's clean value exists):
  symbol-only, first/last, mod(m, r) and pos(...): 0 (mod(2, r) is set by the position embedding
                             from parity, mod(m, r) for m > 2 and pos(...) ARE the coordinates of
                             their numerical-predicate features, format 4; a constant pos(...)
                             is symbol-only);
  Y f, X f:                  1 + time(f);
  f S g, f U g:              1 + max(time(f), time(g), time(beta)), beta = g | !f (or the anchored
                             select h | Y h, below);
  comparison of counts:      count heads in layer 1 + max(time(f_k)) write V exactly,
                             the sign head in the next layer: time = 2 + max(time(f_k));
                             inclusive counts (#<=, keys j <= i, causal mask): V = N/(i+1), the
                             constant averaged from is_first by the first count head, and that
                             layer's FFN writes W = [N < 0] at n = 1 (0 elsewhere), which the
                             sign head's value subtracts (its one key at n = 1 gives 1 whatever
                             V); gap and temperature as for strict counts (|V| >= 1/(2n)).
                             #<= mixed with #< or #> in one comparison is refused;
  mixed comparison:          unbounded: count heads in layer 1 + max(time(f_k)) write each
                             average, the position lookups in the next layer copy each count,
                             the same layer's FFN writes the clean value: time = 2 + max(time(f_k)),
                             read by FFNs one layer later (as a gate is); bounded: b/n, average,
                             lookup, sign head in four layers: time = 4 + max(time(f_k));
  other Boolean nodes:       by their plan (below): a table runs at max(1, latest leaf);
                             a gate at max(1, latest input, 1 + latest input that is a gate).
Boolean nodes.  Each layer's FFN computes every Boolean node of its time (and cleans every
attention result of the layer) from its plan's inputs, one plan per node (``BoolPlan``,
listed in ``describe()["boolean_nodes"]``):
  * table:   the truth table of its leaves (the maximal non-Boolean or symbol-only nodes
             below; at most TABLE_MAX_LEAVES), one clamp per assignment on the smaller side;
  * circuit: ONE gate, the conjunction or disjunction of literals over its inputs, found by
             flattening (Not flips a gate by De Morgan; And / Or take in the literals of a
             child gate of the same kind, up to MAX_GATE_INPUTS); a child gate of the other
             kind is an input read from its clean coordinate, so the node runs one layer
             later (an FFN-only layer when no head needs that layer).  One clamp: the
             conjunction's one satisfying assignment, or 1 minus the disjunction's one
             falsifying assignment.
  The table is chosen when it has no more units than the gate (2), or when it runs in an
  earlier layer with at most TABLE_MAX_UNITS units; otherwise the gate.  A table keeps
  only the leaves it depends on, ordered by their text, so two table nodes with equal
  (leaves, table) are one function: the later one reuses the earlier one's coordinate
  (plan "shared", no units).  So every node
  costs at most max(2, TABLE_MAX_UNITS) FFN units plus one eraser per attended node: the
  FFN width is linear in the formula, and compiling enumerates at most
  2^TABLE_MAX_LEAVES assignments per node.
The clamp of an assignment sigma of m inputs,
  ReLU((L_sigma - |sigma| + 3/4) * 2) - ReLU((L_sigma - |sigma| + 1/4) * 2),
  L_sigma(x) = sum_{sigma_k = 1} x_k - sum_{sigma_k = 0} x_k,
is exactly 1 when the inputs round to sigma and 0 otherwise, as long as the m' inputs
that are approximate (attention results of the same layer, read from their scratch
coordinate) are within 1/(4 m') of their 0/1 values: every other input is a clean
coordinate, exact 0/1.  A gate is one such clamp, so the circuit adds no error: every
clean coordinate leaves its FFN exact whatever the depth of the Boolean structure, and
the only approximate values are the heads' outputs, whose error is the heads' mass off
the hard max set.  The temperature is chosen so that this mass is <= 1/(8 m_max), with
m_max the most approximate inputs of one node (table or gate): the same derivation
as for tables alone, m_max now counted over each node's chosen inputs.
Heads of one layer with the same scores, mask and hard mode (for instance every Y head
of a layer in the bounded regime, every count head of a direction) are one head whose
values sit side by side: its attention weights are those of each, in every mode.

Anchored since / until.  The head of f S g attends to j* = the rightmost j < i with beta_j
(none: j* = i - 1) and reads g there.  Any beta works for which (a) g -> beta, (b) !f -> beta,
and (c) at every position k with beta_k, f_k and !g_k, f S g is false at k (then (f S g)_i is
false: no g in [k, i), f on [k, i)).  When g -> f and g has the conjunct Y h with h = !f at
every position, beta = h | Y h satisfies all three: (a) g -> Y h, (b) !f = h; (c) Y h at k
means !f at k - 1, which blocks every witness before k - 1, and k - 1 is none (g_{k-1} would
give f_{k-1}).  This select does not depend on g, so every such f S g' of one layer (the
"token after the previous x" idiom !x S (phi & Y x)) has the same scores: one head.  f U g
mirrors it with X h.  The head is the same tie-breaking head (Lemma 8) on a clean 0/1 select:
its gap, mass bound and the temperature derivation are unchanged.  ``_anchored_select``
reads the conditions off g's conjuncts and the symbols (its docstring says how far it looks).

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

Mixed comparisons (past #< and future #> counts in one comparison), both regimes.
The sign of sum_k c_k #_k + c_0 needs i * (#< / i) and (n-1-i) * (#> / (n-1-i)), products of
an average with a position, which neither an FFN nor a bilinear score forms; a lookup over
positions does (Lemma 7 with the positions as the table, as the S-RASP applications use it:
``constructive.heads.position_lookup_spec``, shared with the S-RASP compiler).  Per count
#_k = S_i (D_i = i past, n-1-i future; keys causal for past counts, S_i <= i, mask none for
future counts, S_i <= n-1-i <= n-1):
  unbounded: a count head (all scores 0: soft = hard exactly) writes f_i = S_i / D_i; a lookup
             head, scores 2 p f_i - p^2 / max(D_i, 1) = (S_i^2 - (p - S_i)^2)/D_i, copies the
             feature i of its unique maximum p = S_i: the count as an exact integer in hard mode
             (gap >= 1/D_i >= 1/(n-1)).  The same layer's FFN writes [N > 0] = clamp(2N + 1/2, 0, 1)
             for the half-integer N = sum_k c_k #_k + const (affine in the copies), exact when the
             copies' combined error is <= 1/4; FFNs read it one layer later (no sign head).
  bounded:   an FFN writes b/n = ReLU(1/n) - ReLU(1/n - b) (exact for b in {0, 1}), a count head
             averages it to f_i / n, the lookup over keys p/n (features i/n, (i/n)^2), scores
             2 (p/n)(f_i/n) - (p/n)^2 / max(D_i, 1) = (S_i^2 - (p - S_i)^2)/(n^2 D_i) (gap
             >= 1/(n^2 (n-1))), adds c_k p/n into V; with the PE's const/n, V = N/n, |V| >= 1/(2n),
             decided by the parity sign head (gap >= K/n).  Four layers: b/n, average, lookup, sign.
Soft mode: the lookup's weights fall like x^{k^2}, x = exp(-1/(D_i tau)) (bounded: exp(-1/(n^2 D_i
tau))), so a copy is off by <= 2x/(1-x)^2.  The regime's rule (tau = 1; c/n) cannot hold: x -> 1
as D_i grows.  Formulas with mixed comparisons get their own rule,
  tau(n) = 1/(max(n-1,1) ln(32 C))         (unbounded)
  tau(n) = 1/(n^2 max(n-1,1) ln(32 C))     (bounded; C at least m_max, so that tau(1) <= c)
with C the largest sum_k |c_k| of one mixed comparison: x <= 1/(32 C) for every D_i <= n-1, each
copy is off by < 1/(15 C) and N by < 1/15 (bounded: V by < 1/(15 n), leaving the sign head a
margin > 13/(30 n)), and every other head's bound e^{-gap/tau} holds a fortiori (the rule's tau is
<= the regime's).  The claimed gap is min(regime's, 1/max(n-1,1)) (bounded: 1/(n^2 max(n-1,1))).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hardsoft.constructive import heads as cs
from hardsoft.constructive.gcpause import without_cycle_collection
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
    Mod,
    Next,
    Not,
    Or,
    Pos,
    Prev,
    Since,
    Until,
    children,
    parse,
    subformulas,
)
from hardsoft.constructive.residual import HeadSpec, Residual, Unit, ValueTerm, clamp01
from hardsoft.spec.constants import ZU_MASS_DIVISOR
from hardsoft.spec.transformer import Model, PositionEmbedding, Readout, Trace, linear_feature, mod_feature

#: Most leaves of a Boolean node that may be computed from its truth table (2^m assignments enumerated: a constant per node).
TABLE_MAX_LEAVES = 6
#: Most FFN units of a truth table chosen over a gate to save a layer (a table no larger than the gate is always chosen).
TABLE_MAX_UNITS = 8
#: Most literals of one circuit gate (a flattened conjunction or disjunction); past it a sub-gate is read as one literal.
MAX_GATE_INPUTS = 32

_BOOL = (Not, And, Or)

#: The direction of a comparison whose counts mix past (#<) and future (#>): compiled by lookups over positions (module docstring).
MIXED = "<>"
#: Mixed comparisons' temperature tau(n) = 1 / (max(n-1, 1) ln(MIXED_TAU_BASE * C)) (bounded: n^2 max(n-1, 1)), C the largest sum_k |c_k| of one.
MIXED_TAU_BASE = 32


def _canonical_compare(g: Compare) -> tuple[str | None, list[tuple[int, Count]], float]:
    """Return (direction or None if no count is left, merged nonzero terms, half-integer constant): [g] = [sum c_k #_k + const > 0].

    lhs op rhs becomes E = lhs - rhs (or rhs - lhs for < and <=) with integer E, then
    E > 0 is E - 1/2 > 0 and E >= 0 is E + 1/2 > 0, so the constant is never an integer
    and the sum is never 0.  Counts of both directions (#< and #>) give the direction MIXED.
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
    if len(dirs) > 1 and "<=" in dirs:
        raise ValueError(f"{g}: a comparison of inclusive counts #<= with strict counts (#< or #>) is not compiled (different denominators)")
    if len(dirs) > 1:
        return MIXED, terms, const + half
    return (dirs.pop() if dirs else None), terms, const + half


@dataclass(frozen=True)
class HeadInfo:
    """What one compiled head does: layer, index, construction, the node it serves, and its claimed bounds."""

    layer: int
    index: int
    construction: str  # tiebreak | lookup | count | sign
    node: str
    target: int


@dataclass(frozen=True)
class BoolInfo:
    """How one Boolean node is computed: its layer, "table" (truth table of its leaves), "circuit" (one gate) or "shared", inputs, FFN units.

    "shared": the same function of the same leaves as an earlier table node, whose coordinate it reuses (0 units).
    """

    layer: int
    node: str
    form: str
    inputs: int
    units: int


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
    booleans: list[BoolInfo] = field(default_factory=list)
    #: the largest sum_k |c_k| of a mixed comparison (0: none): the mixed comparisons' temperature rule (module docstring)
    mixed_scale: int = 0
    #: per subformula (as coords): the activation index where decode reads it, its time (``activations[t]``, after layer t)
    layers: list[int] = field(default_factory=list)
    #: per subformula (as coords): the activation indices (first, last) whose coordinate coords[k] holds its value; a
    #: coordinate serves several subformulas in turn (module docstring, "Layout"), so outside the span it holds another's
    spans: list[tuple[int, int]] = field(default_factory=list)
    #: coordinates erased so that a later node could take them (two FFN units each, ``Residual.compact``)
    reused: int = 0

    def tau(self, n: int) -> float:
        """Return the temperature at length n: c/n (bounded), 1 (unbounded); with mixed comparisons (C = mixed_scale) their own rule,
        1/(max(n-1,1) ln(32 C)) unbounded, 1/(n^2 max(n-1,1) ln(32 C)) bounded."""
        if n < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        if self.mixed_scale:
            return self.mixed_c / self._lookup_scale(n)
        return self.c / n if self.regime == "bounded" else 1.0

    @property
    def mixed_c(self) -> float:
        """Return the mixed comparisons' temperature constant c = 1/ln(32 C) (C = mixed_scale): tau(n) = c / max(n-1, 1) (unbounded),
        c / (n^2 max(n-1, 1)) (bounded), computed once so that a certificate's exact c is the model's rule."""
        if not self.mixed_scale:
            raise ValueError("no mixed comparison: the regime's rule applies")
        return 1.0 / math.log(MIXED_TAU_BASE * self.mixed_scale)

    def _lookup_scale(self, n: int) -> int:
        """Return 1 / (the lookups' gap at length n): max(n-1, 1) unbounded (keys p), n^2 max(n-1, 1) bounded (keys p/n)."""
        return max(n - 1, 1) * (n * n if self.regime == "bounded" else 1)

    def gap(self, n: int) -> float:
        """Return the claimed hard-attention gap at length n (min over non-uniform heads): K/n bounded, K unbounded, at most
        1/max(n-1, 1) (unbounded) or 1/(n^2 max(n-1, 1)) (bounded) with a lookup over positions (mixed comparisons); inf without such heads."""
        kinds = {h.construction for h in self.heads}
        g = math.inf
        if kinds & {"tiebreak", "lookup", "sign"}:
            g = self.K / n if self.regime == "bounded" else self.K
        if "position-lookup" in kinds:
            g = min(g, 1.0 / self._lookup_scale(n))
        return g

    def mass_bound(self) -> float:
        """Return the claimed bound on every non-uniform head's softmax mass off its hard max set at tau(n) (any n): the largest head_bound,
        1/(8 m_max) without mixed comparisons."""
        return max([1.0 / (8 * self.m_max)] + [self.head_bound(h) for h in self.heads])

    def head_bound(self, info: HeadInfo) -> float:
        """Return the claimed bound on one head's softmax mass off its hard max set at tau(n), for every n.

        tiebreak (Lemma 8 + Z) and one-sided lookup (Lemma 7 + Z): e^{-K/c} = 1/(16 m_max);
        sign (statement E, two groups of ratio <= 2): 2 e^{-K/c} = 1/(8 m_max); count: 0 (all keys tie);
        position-lookup (Lemma 7 over positions): 2x/(1-x), x = 1/(32 C) (the mixed rule's tau makes
        exp(-1/(D tau)), bounded exp(-1/(n^2 D tau)), <= x for every D <= n-1).  The mixed rule's tau is
        <= the regime's (1; c/n), and every other bound e^{-gap/tau} only falls with tau: they still hold.
        """
        if info.construction == "position-lookup":
            return cs.position_lookup_mass_bound(1.0 / (MIXED_TAU_BASE * self.mixed_scale))
        x = math.exp(-self.K / self.c)
        return {"tiebreak": x, "lookup": x, "sign": 2 * x, "count": 0.0}[info.construction]

    def temperature_rule(self) -> str:
        """Return the temperature rule as text (the regime's, or the mixed comparisons' own)."""
        if self.mixed_scale:
            L = math.log(MIXED_TAU_BASE * self.mixed_scale)
            D = "n^2 max(n-1,1)" if self.regime == "bounded" else "max(n-1,1)"
            return f"tau(n) = 1/({D} ln({MIXED_TAU_BASE}*{self.mixed_scale})) = 1/({L:.6g} {D}) (the mixed comparisons' rule)"
        return f"tau(n) = {self.c:.6g}/n" if self.regime == "bounded" else "tau(n) = 1"

    def gap_rule(self) -> str:
        """Return the claimed gap rule as text."""
        if not self.heads:
            return "inf"
        kinds = {h.construction for h in self.heads}
        rule = "K/n = 1/n" if self.regime == "bounded" else f"K = {self.K:.6g}"
        if "position-lookup" in kinds:
            lookup = "1/(n^2 max(n-1,1))" if self.regime == "bounded" else "1/max(n-1,1)"
            return f"min({rule}, {lookup})" if kinds & {"tiebreak", "lookup", "sign"} else lookup
        return rule if kinds & {"tiebreak", "lookup", "sign"} else "inf"

    def values(self, activations: Trace | np.ndarray | Sequence[np.ndarray]) -> np.ndarray:
        """Return (batch, n, k) float: every subformula's coordinate, each read at the end of its span.

        From a Trace or the list of every layer's activations: subformula k from activations[spans[k][1]],
        the last stage whose coordinate coords[k] holds it (the model's end when the coordinate is not
        taken over): what it holds there is what every reader of it read (no other node writes it over the span).
        From final activations alone: only when every subformula's span reaches the last layer
        (ValueError otherwise: its coordinate serves another subformula by then).
        """
        acts = activations.activations if isinstance(activations, Trace) else activations
        if isinstance(acts, (list, tuple)):
            if len(acts) != self.model.depth + 1:
                raise ValueError(f"decode needs the activations of all {self.model.depth + 1} stages (embedding and every layer), got {len(acts)}")
            first = np.asarray(acts[0])
            out = np.empty(first.shape[:-1] + (len(self.coords),))
            by_layer: dict[int, list[int]] = {}
            for k, (_, a) in enumerate(self.spans):
                by_layer.setdefault(a, []).append(k)
            for a, ks in by_layer.items():
                out[..., ks] = np.asarray(acts[a])[..., [self.coords[k] for k in ks]]
            return out
        final = np.asarray(acts)
        if final.ndim == 2:
            final = final[None]
        L = self.model.depth
        stale = sum(1 for _, end in self.spans if end < L)
        if stale:
            raise ValueError(f"decode needs every layer's activations (a Trace): {stale} subformula(s) share their coordinate with later ones")
        return final[:, :, self.coords]

    def decode(self, activations: Trace | np.ndarray | Sequence[np.ndarray]) -> np.ndarray:
        """Return (batch, n, k) bool: every subformula's coordinate > threshold, each read where it holds its value (``values``)."""
        v = self.values(activations)
        return v[None] > self.readout.threshold if v.ndim == 2 else v > self.readout.threshold

    def accept_final(self, final: np.ndarray) -> np.ndarray:
        """Return (batch, n) bool: the formula (the read-out coordinate) at every position of final activations (batch, n, d)."""
        return np.asarray(final)[..., self.readout.coordinate] > self.readout.threshold

    def accept(self, activations: Trace | np.ndarray | Sequence[np.ndarray]) -> np.ndarray:
        """Return (batch,) bool acceptance (the read-out at the last position of the final activations)."""
        acts = activations.activations if isinstance(activations, Trace) else activations
        final = np.asarray(acts[-1] if isinstance(acts, (list, tuple)) else acts)
        if final.ndim == 2:
            final = final[None]
        return self.accept_final(final)[:, -1]

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
            "constant_predicates": [
                f"{g} is {'true' if g.constant() else 'false'} at every position of every length: compiled as that constant (no feature)"
                for g in subformulas(self.formula)
                if isinstance(g, Pos) and g.constant() is not None
            ],
            "temperature": self.temperature_rule(),
            "c": self.c if self.regime == "bounded" else None,
            "K": self.K,
            "gap": self.gap_rule(),
            "mass_off_bound": self.mass_bound(),
            "constructions": [f"layer {h.layer} head {h.index}: {h.construction} for {h.node}" for h in self.heads],
            "boolean_forms": {form: sum(b.form == form for b in self.booleans) for form in ("table", "circuit", "shared")},
            "boolean_nodes": [f"layer {b.layer}: {b.form} over {b.inputs} inputs ({b.units} units) for {b.node}" for b in self.booleans],
            "readout": {"coordinate": self.readout.coordinate, "position": self.readout.position, "threshold": self.readout.threshold},
        }


@dataclass(frozen=True)
class BoolPlan:
    """How one non-symbol-only Boolean node is computed by its layer's FFN (module docstring, "Boolean nodes").

    form "table": from the truth table of its leaves (``inputs``; ``table`` has bit a set when
    the node holds under the assignment a, bit k of a being input k); form "circuit": ONE gate,
    the conjunction (op "and") or disjunction (op "or") of the literals (input k, polarity k).
    """

    form: str
    inputs: tuple[Formula, ...]
    table: int = 0
    op: str = "and"
    polarity: tuple[bool, ...] = ()

    def assignments(self) -> tuple[list[tuple[int, ...]], float]:
        """Return the assignments the FFN clamps (each a 0/1 tuple over the inputs) and the sign of their output (bias 1 when -1)."""
        m = len(self.inputs)
        if self.form == "circuit":
            if self.op == "and":
                return [tuple(int(p) for p in self.polarity)], 1.0
            return [tuple(int(not p) for p in self.polarity)], -1.0
        every = [tuple((a >> k) & 1 for k in range(m)) for a in range(1 << m)]
        sat = [s for a, s in enumerate(every) if (self.table >> a) & 1]
        uns = [s for a, s in enumerate(every) if not (self.table >> a) & 1]
        return (sat, 1.0) if len(sat) <= len(uns) else (uns, -1.0)

    def units(self) -> int:
        """Return the number of FFN units (two per clamped assignment), without listing the assignments."""
        if self.form == "circuit":
            return 2
        sat = bin(self.table).count("1")
        return 2 * min(sat, (1 << len(self.inputs)) - sat)


class _Schedule:
    """The schedule of one compilation (module docstring): every node's time and Boolean plan, the beta node of S / U."""

    def __init__(self, f: Formula, alphabet: tuple[str, ...], regime: str) -> None:
        self.f, self.alphabet, self.regime = f, alphabet, regime
        self.subs = subformulas(f)
        self.time: dict[Formula, int] = {}
        self.beta: dict[Formula, Formula] = {}  # since/until -> its beta node (g | !f)
        self.nodes: list[Formula] = []  # every node, children first: the subformulas, each S / U preceded by its beta node's new subformulas
        self.symbolic: dict[Formula, tuple[bool, ...] | None] = {}  # symbol-only node -> its value per symbol; None otherwise
        self.canonical: dict[Formula, tuple[str | None, list[tuple[int, Count]], float]] = {}
        self.tables: dict[Formula, tuple[tuple[Formula, ...], int] | None] = {}  # Boolean node -> (leaves, truth table), None past TABLE_MAX_LEAVES
        self.gates: dict[Formula, BoolPlan] = {}  # Boolean node -> its flattened single gate (form circuit)
        self.plan: dict[Formula, BoolPlan] = {}  # Boolean node -> the plan chosen
        self.shared: dict[Formula, Formula] = {}  # Boolean node -> an earlier node with the same table (its coordinate is reused)
        self.by_function: dict[tuple[tuple[Formula, ...], int], Formula] = {}  # (leaves, table) of a table plan -> its first node
        self.order: dict[Formula, int] = {}  # node -> the order it was scheduled in (a canonical leaf order without printing texts)
        self.sizes: dict[int, int] = {}  # id(node) -> the symbols of its tree, capped at LABEL_MAX_SYMBOLS + 1 (_tree_size's memo)
        self.labels: dict[int, str] = {}  # id(node) -> its label (label's memo)

    def label(self, g: Formula) -> str:
        """Return g's text when its tree has at most LABEL_MAX_SYMBOLS symbols, else a short unique name (its schedule order).

        A formula that shares subtrees (a B-RASP or C-RASP translation) can print exponentially
        longer than it is: coordinate names and descriptions must not print it.
        """
        known = self.labels.get(id(g))
        if known is not None:
            return known
        if _tree_size(g, self.sizes) <= LABEL_MAX_SYMBOLS:
            text = str(g)
        else:
            text = f"#{self.order.get(g, -1)} {type(g).__name__} (over {LABEL_MAX_SYMBOLS} symbols as text)"
        if g in self.order:  # scheduled nodes live as long as the schedule: their ids are not reused
            self.labels[id(g)] = text
        return text

    def is_symbolic(self, g: Formula) -> bool:
        """Return whether g is a function of the symbol at i alone (set by the word embedding)."""
        return self.symbolic[g] is not None

    def compare_terms(self, g: Compare) -> tuple[str, list[tuple[int, Count]], float]:
        """Return (direction, merged nonzero terms, half-integer constant) with [g] = [sum c_k #_k + const > 0]."""
        direction, terms, const = self.canonical[g]
        if direction is None:
            raise ValueError("internal: constant comparison reached the count construction")
        return direction, terms, const

    def add(self, g: Formula) -> None:
        """Schedule node g, its children being scheduled (the caller walks children first)."""
        if g in self.time:
            return
        self.order.setdefault(g, len(self.order))
        self.symbolic[g] = self._symbol_values(g)
        if self.symbolic[g] is not None or isinstance(g, (First, Last, Mod, Pos)):
            t = 0
        elif isinstance(g, _BOOL):
            t = self._plan_boolean(g)
        elif isinstance(g, (Prev, Next)):
            t = 1 + self.time[g.arg]
        elif isinstance(g, (Since, Until)):
            t = 1 + max(self.time[g.left], self.time[g.right], self.time[self.beta[g]])
        elif isinstance(g, Compare):
            stages = 4 if self.is_mixed(g) and self.regime == "bounded" else 2  # bounded: b/n, average, lookup, sign
            t = stages + max(self.time[c.arg] for _, c in self.compare_terms(g)[1])
        else:
            raise ValueError(f"cannot compile {g!r}")
        self.time[g] = t
        self.nodes.append(g)

    def _symbol_values(self, g: Formula) -> tuple[bool, ...] | None:
        """Return g's value at each symbol when g is symbol-only (atoms, constants, constant comparisons, Boolean connectives of them)."""
        if isinstance(g, Atom):
            return tuple(a == g.symbol for a in self.alphabet)
        if isinstance(g, Const):
            return (g.value,) * len(self.alphabet)
        if isinstance(g, Pos):
            fixed = g.constant()  # the same at every position of every length: no feature needed
            return None if fixed is None else (fixed,) * len(self.alphabet)
        if isinstance(g, Compare):
            self.canonical[g] = _canonical_compare(g)
            direction, _, const = self.canonical[g]
            return (const > 0,) * len(self.alphabet) if direction is None else None
        if isinstance(g, Not):
            v = self.symbolic[g.arg]
            return None if v is None else tuple(not x for x in v)
        if isinstance(g, (And, Or)):
            left, right = self.symbolic[g.left], self.symbolic[g.right]
            if left is None or right is None:
                return None
            return tuple((x and y) if isinstance(g, And) else (x or y) for x, y in zip(left, right))
        return None

    def _is_gate(self, g: Formula) -> bool:
        """Return whether g is a Boolean node with a plan (not symbol-only): its value is a clean coordinate written by an FFN."""
        return isinstance(g, _BOOL) and self.symbolic[g] is None

    def _table(self, g: Not | And | Or) -> tuple[tuple[Formula, ...], int] | None:
        """Return (leaves, truth table) of g over its leaves (maximal non-Boolean or symbol-only nodes below), None past TABLE_MAX_LEAVES."""
        parts: list[tuple[tuple[Formula, ...], int]] = []
        for c in (g.arg,) if isinstance(g, Not) else (g.left, g.right):
            if self._is_gate(c):
                sub = self.tables[c]
                if sub is None:
                    return None
                parts.append(sub)
            else:
                parts.append(((c,), 0b10))  # the leaf itself: true exactly under assignment 1
        leaves: list[Formula] = []
        for lv, _ in parts:
            leaves += [x for x in lv if x not in leaves]
        m = len(leaves)
        if m > TABLE_MAX_LEAVES:
            return None
        pos = [[leaves.index(x) for x in lv] for lv, _ in parts]
        table = 0
        for a in range(1 << m):
            vals = [(tb >> sum(((a >> p) & 1) << k for k, p in enumerate(ps))) & 1 for (_, tb), ps in zip(parts, pos)]
            if isinstance(g, Not):
                v = 1 - vals[0]
            elif isinstance(g, And):
                v = vals[0] & vals[1]
            else:
                v = vals[0] | vals[1]
            table |= v << a
        return _canonical_table(leaves, table, self.order)

    def _gate(self, g: Not | And | Or) -> BoolPlan:
        """Return g as one gate: Not flips its argument's gate (De Morgan); And / Or take in a same-kind child gate's literals.

        A child that is a gate of the other kind (or would take the gate past MAX_GATE_INPUTS
        literals) is read as one literal from its clean coordinate, one layer later.  Literals
        x and !x together make the gate constant (a table with no inputs).
        """
        if isinstance(g, Not):
            c = g.arg
            if self._is_gate(c):
                inner = self.gates[c]
                if inner.form == "table":  # a constant
                    return BoolPlan("table", (), 1 - inner.table)
                return BoolPlan("circuit", inner.inputs, 0, "or" if inner.op == "and" else "and", tuple(not p for p in inner.polarity))
            return BoolPlan("circuit", (c,), 0, "and", (False,))
        op = "and" if isinstance(g, And) else "or"
        lits: dict[Formula, bool] = {}
        for c in (g.left, g.right):
            take: list[tuple[Formula, bool]] = [(c, True)]
            if self._is_gate(c):
                inner = self.gates[c]
                if inner.form == "table":  # a constant: the identity of op drops out, the absorbing value decides
                    if bool(inner.table) == (op == "or"):
                        return BoolPlan("table", (), inner.table)
                    take = []
                elif (inner.op == op or len(inner.inputs) == 1) and len(lits) + len(inner.inputs) <= MAX_GATE_INPUTS:
                    take = list(zip(inner.inputs, inner.polarity))
            for x, p in take:
                if lits.get(x, p) != p:  # x and !x
                    return BoolPlan("table", (), 0 if op == "and" else 1)
                lits[x] = p
        if not lits:
            return BoolPlan("table", (), 1 if op == "and" else 0)
        return BoolPlan("circuit", tuple(lits), 0, op, tuple(lits.values()))

    def _plan_boolean(self, g: Not | And | Or) -> int:
        """Choose g's plan and return g's time: the truth table or the gate (module docstring, "Boolean nodes").

        The table when it needs no more units than the gate, or when it runs in an earlier
        layer with at most TABLE_MAX_UNITS units; else the gate.

        A table's time is the latest of its leaves' (at least 1); a gate's time is the latest of
        its inputs', plus one for an input that is itself a gate (read from its clean coordinate).
        """
        self.tables[g] = self._table(g)
        self.gates[g] = gate = self._gate(g)
        table = self.tables[g]
        tplan = BoolPlan("table", table[0], table[1]) if table is not None else None
        plan = gate
        if tplan is not None and (tplan.units() <= gate.units() or (tplan.units() <= TABLE_MAX_UNITS and self._time_of(tplan) < self._time_of(gate))):
            plan = tplan
            first = self.by_function.setdefault((plan.inputs, plan.table), g)
            if first is not g:  # the same function of the same leaves: one coordinate, computed once
                self.shared[g] = first
        self.plan[g] = plan
        return self._time_of(plan)

    def _time_of(self, plan: BoolPlan) -> int:
        """Return the layer a plan can run in: the latest input's (at least 1), one later for an input that is a gate or a clamped comparison.

        Both are written by their layer's FFN, so an FFN reads them one layer later.
        """
        return max([1] + [self.time[x] + (1 if self._is_gate(x) or self.is_clamped(x) else 0) for x in plan.inputs])

    @property
    def depth(self) -> int:
        """Return L: the largest time of a node."""
        return max((self.time[g] for g in self.nodes), default=0)

    def approx_inputs(self, g: Formula) -> list[Formula]:
        """Return the inputs of Boolean node g that come out of an attention head in g's own layer (approximate in soft mode)."""
        t = self.time[g]
        return [x for x in self.plan[g].inputs if self.is_attended(x) and self.time[x] == t]

    def is_attended(self, g: Formula) -> bool:
        """Return whether node g is computed by attention (Y, X, S, U, a comparison of counts of one direction): its FFN cleans a raw head value."""
        return isinstance(g, (Prev, Next, Since, Until, Compare)) and self.symbolic[g] is None and not self.is_clamped(g)

    def is_mixed(self, g: Formula) -> bool:
        """Return whether g is a comparison mixing past and future counts (its counts are looked up over positions)."""
        return isinstance(g, Compare) and self.canonical[g][0] == MIXED

    def is_clamped(self, g: Formula) -> bool:
        """Return whether g is a mixed comparison of the unbounded regime: the FFN clamps exact integers (no sign head), read one layer later."""
        return self.regime == "unbounded" and self.is_mixed(g)


@dataclass
class _Layout:
    """The residual coordinates of one compilation (module docstring, "Layout"): features, clean node values, scratch, comparison values."""

    res: Residual
    features: tuple[str, ...]
    symbolic: list[Formula]  # the symbol-only nodes, set by the word embedding
    clean: dict[Formula, int]  # every node's exact 0/1 value
    scratch: dict[Formula, int]  # every attended node's raw head output (its clean coordinate), erased by its layer's FFN
    value: dict[Formula, int]  # every comparison's V = sum_k c_k #_k / (count of visible keys) + const / max(., 1)
    #: (count, time of its comparison) -> the counts of the mixed comparisons: unbounded (average #/D, its lookup's copy of #);
    #: bounded (average #/(n D), the scaled Boolean b/n it averages)
    lookups: dict[tuple[Count, int], tuple[int, int]] = field(default_factory=dict)
    #: each inclusive (#<=) comparison's W = [N < 0] at n = 1, 0 elsewhere (``_inclusive_units``), subtracted from its sign head's value
    single: dict[Formula, int] = field(default_factory=dict)


def _predicate_feature(sched: _Schedule, g: Formula) -> str | None:
    """Return the numerical-predicate feature (format 4) whose coordinate IS node g's: mod(m, r) for m > 2, a non-constant pos(...)."""
    if isinstance(g, Mod) and g.modulus > 2:
        return mod_feature(g.modulus, g.residue)
    if isinstance(g, Pos) and not sched.is_symbolic(g):
        return linear_feature(g.coef_i, g.coef_n, g.const)
    return None


def _regime_features(regime: str) -> tuple[str, ...]:
    """Return the position features of a regime (one coordinate each)."""
    if regime == "bounded":
        return ("one", "is_first", "is_last", "i/n", "parity", "1/max(i,1)", "1/max(n-1-i,1)")
    return ("one", "is_first", "is_last", "i", "i^2", "n", "parity", "n*parity", "1/max(i,1)", "1/max(n-1-i,1)")


#: The position features a bounded model with a mixed comparison adds to its regime's (all in the model format already).
MIXED_BOUNDED_FEATURES = ("(i/n)^2", "1/n")


#: Formulas whose trees are larger are named by their schedule order, not their text (_Schedule.label).
LABEL_MAX_SYMBOLS = 400


def _tree_size(f: Formula, memo: dict[int, int]) -> int:
    """Return the symbols of f's tree (shared subtrees counted each time), capped at LABEL_MAX_SYMBOLS + 1, in time linear in its DAG.

    The cap keeps every count a small integer: a shared DAG's tree can be exponentially large,
    and its exact size a number thousands of digits long (no recursion).
    """
    stack = [f]
    while stack:
        g = stack[-1]
        if id(g) in memo:
            stack.pop()
            continue
        pending = [c for c in children(g) if id(c) not in memo]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        memo[id(g)] = min(LABEL_MAX_SYMBOLS + 1, 1 + sum(memo[id(c)] for c in children(g)))
    return memo[id(f)]


def _canonical_table(leaves: list[Formula], table: int, order_of: dict[Formula, int]) -> tuple[tuple[Formula, ...], int]:
    """Return (leaves, table) without the leaves the table does not depend on, the rest in the order they were scheduled.

    Two Boolean nodes computing the same function of the same leaves then have equal
    (leaves, table) and share one coordinate (``_Schedule.shared``).  The order is the
    schedule's (a function of the formula, as texts are, but without printing them: a formula
    that shares subtrees has texts exponentially longer than itself).
    """
    m = len(leaves)
    keep = [k for k in range(m) if any(((table >> a) & 1) != ((table >> (a ^ (1 << k))) & 1) for a in range(1 << m))]
    order = sorted(keep, key=lambda k: order_of[leaves[k]])
    out = 0
    for b in range(1 << len(order)):
        a = sum(((b >> r) & 1) << k for r, k in enumerate(order))  # the dropped leaves at 0: the table does not depend on them
        out |= ((table >> a) & 1) << b
    return tuple(leaves[k] for k in order), out


def _schedule(f: Formula, alphabet: tuple[str, ...], regime: str) -> _Schedule:
    """Step 1: every node's time and Boolean plan, children first (no recursion); each S / U after its beta node (g | !f)."""
    sched = _Schedule(f, alphabet, regime)
    for g in sched.subs:
        if isinstance(g, (Since, Until)):
            beta = _anchored_select(sched, g)  # g.left and g.right come before g in post-order
            if beta is None:
                beta = Or(g.right, Not(g.left))
                sched.add(Not(g.left))
            sched.beta[g] = beta
            sched.add(beta)
        sched.add(g)
    return sched


def _anchored_select(sched: _Schedule, g: Since | Until) -> Formula | None:
    """Return the anchored select h | Y h (U: h | X h) of g = f S r when r -> f and r has the conjunct Y h with h = !f, else None.

    Module docstring, "Anchored since / until".  Read off r's conjuncts (its And-tree, at most
    MAX_GATE_INPUTS of them): some conjunct c with c -> f (c is f, or both are symbol-only and
    c's symbols are f's), and a conjunct Y h (U: X h) with h = !f at every position (f is Not(h),
    h is Not(f), or both are symbol-only with opposite values at every symbol) and h no gate (so
    h | Y h is the table of two leaves, at the time of Y h).  Used only when that time is no later
    than g's children's: g runs in the layer it would have run in.
    """
    step = Prev if isinstance(g, Since) else Next
    f = g.left
    conjuncts = _conjuncts(g.right)
    anchor = next((c for c in conjuncts if isinstance(c, step) and not sched._is_gate(c.arg) and _is_negation(sched, c.arg, f)), None)
    if anchor is None or not any(_implies(sched, c, f) for c in conjuncts):
        return None
    if sched.time[anchor] > max(sched.time[f], sched.time[g.right]):
        return None
    return Or(anchor.arg, anchor)


def _conjuncts(r: Formula) -> list[Formula]:
    """Return up to MAX_GATE_INPUTS conjuncts of r (the non-And nodes its And-tree reaches; r itself when r is no And), without recursion."""
    out: list[Formula] = []
    stack, seen = [r], set()
    while stack and len(out) < MAX_GATE_INPUTS:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, And):
            stack += [x.right, x.left]
        else:
            out.append(x)
    return out


def _implies(sched: _Schedule, c: Formula, f: Formula) -> bool:
    """Return whether c -> f at every position, as far as syntax and the symbols show: c is f, or both are symbol-only and c's symbols are f's."""
    vc, vf = sched.symbolic[c], sched.symbolic[f]
    return c == f or (vc is not None and vf is not None and all(b or not a for a, b in zip(vc, vf)))


def _is_negation(sched: _Schedule, h: Formula, f: Formula) -> bool:
    """Return whether h = !f at every position, as far as syntax and the symbols show: f is Not(h), h is Not(f), or opposite symbol values."""
    vh, vf = sched.symbolic[h], sched.symbolic[f]
    if vh is not None and vf is not None:
        return all(a != b for a, b in zip(vh, vf))
    return (isinstance(f, Not) and f.arg == h) or (isinstance(h, Not) and h.arg == f)


def _score_scale(sched: _Schedule) -> tuple[int, float, float]:
    """Step 2: return (m_max, K, c): the most approximate leaves of one Boolean node, and the regime's score scale and temperature constant."""
    m_max = 1
    for g in sched.nodes:
        if g in sched.plan:
            m_max = max(m_max, len(sched.approx_inputs(g)))
    log16m = math.log(ZU_MASS_DIVISOR * m_max)  # ln(16 m_max): every tie-breaking and one-sided lookup head leaks <= 1/(16 m_max)
    if sched.regime == "bounded":
        return m_max, 1.0, 1.0 / log16m
    return m_max, log16m, 1.0


def _allocate(sched: _Schedule) -> _Layout:
    """Step 3: the coordinates, in order: position features, symbol-only nodes, other nodes (first / last ARE is_first / is_last), V.

    An attended node's scratch (its head's raw value) IS its clean coordinate (module docstring, "Layout").
    """
    res = Residual()
    features = _regime_features(sched.regime)
    if sched.regime == "bounded" and any(sched.is_mixed(g) for g in sched.nodes):
        features += MIXED_BOUNDED_FEATURES  # the bounded lookups over positions: keys p/n, (p/n)^2; the scaling b/n
    features += tuple(dict.fromkeys(f for g in sched.nodes if (f := _predicate_feature(sched, g)) is not None and f not in features))
    for ft in features:
        res.add(ft)
    clean: dict[Formula, int] = {}
    symbolic = [g for g in sched.nodes if sched.is_symbolic(g)]
    for g in symbolic:
        clean[g] = res.add(f"sym:{sched.label(g)}")
    for g in sched.nodes:
        feat = _predicate_feature(sched, g)
        if feat is not None:
            clean[g] = res[feat]
        elif isinstance(g, Mod):
            clean[g] = res.add(f"pos:{sched.label(g)}")
        elif isinstance(g, First):
            clean[g] = res["is_first"]
        elif isinstance(g, Last):
            clean[g] = res["is_last"]
        elif g in sched.shared:
            clean[g] = clean[sched.shared[g]]
        elif g not in clean:
            clean[g] = res.add(f"node:{sched.label(g)}")
    scratch: dict[Formula, int] = {}
    value: dict[Formula, int] = {}
    for g in sched.nodes:
        if sched.is_attended(g):
            scratch[g] = clean[g]  # the head writes its raw value where the FFN writes the clean one (module docstring, "Layout")
        if isinstance(g, Compare) and not sched.is_symbolic(g) and not sched.is_clamped(g):
            value[g] = res.add(f"V:{sched.label(g)}")
    single = {g: res.add(f"W:{sched.label(g)}") for g in value if sched.compare_terms(g)[0] == "<="}  # type: ignore[arg-type]
    lookups: dict[tuple[Count, int], tuple[int, int]] = {}
    for g in sched.nodes:
        if sched.is_mixed(g):
            for _, term in sched.compare_terms(g)[1]:  # type: ignore[arg-type]
                key = (term, sched.time[g])
                if key not in lookups:
                    second = "scaled" if sched.regime == "bounded" else "count"
                    lookups[key] = (
                        res.add(f"avg:{sched.label(term.arg)}@{key[1]}:{term.direction}"),
                        res.add(f"{second}:{sched.label(term.arg)}@{key[1]}:{term.direction}"),
                    )
    return _Layout(res, features, symbolic, clean, scratch, value, lookups, single)


@dataclass
class _Embedding:
    """Step 4's embeddings over the coordinates before they are shared (``Residual.compact``): WE rows and PE rows as linear forms."""

    we: dict[str, dict[int, float]]  # symbol -> {coordinate: weight}
    pe: list[dict[int, float]]  # one form per position feature, in lay.features order

    def coordinates(self) -> set[int]:
        """Return every coordinate the embeddings write (busy from the embedding on)."""
        return {c for row in self.we.values() for c in row} | {c for row in self.pe for c in row}

    def build(self, alphabet: Sequence[str], features: tuple[str, ...], new: Sequence[int], d: int) -> tuple[np.ndarray, PositionEmbedding]:
        """Return WE and PE at width d, each old coordinate c written in new[c]."""
        WE = np.zeros((len(alphabet), d))
        for r, a in enumerate(alphabet):
            for c, w in self.we.get(a, {}).items():
                WE[r, new[c]] += w
        P = np.zeros((len(features), d))
        for r, row in enumerate(self.pe):
            for c, w in row.items():
                P[r, new[c]] += w
        return WE, PositionEmbedding(features, P)


def _embeddings(sched: _Schedule, lay: _Layout) -> tuple[_Embedding, dict[Formula, float]]:
    """Step 4: WE (the symbol-only nodes' truth values), PE (the features), each comparison's constant / max(keys, 1) into V, orientations.

    The constant is written by the FFN of the layer before V's first head (two units c * feature),
    so V's coordinate is busy from there, not from the embedding (``Residual.compact``); by the
    position embedding when that head is in layer 1.
    """
    values = {g: sched.symbolic[g] for g in lay.symbolic}
    we = {a: {lay.clean[g]: 1.0 if v[k] else 0.0 for g, v in values.items() if v is not None} for k, a in enumerate(sched.alphabet)}
    pe: list[dict[int, float]] = [{lay.res[f]: 1.0} for f in lay.features]
    row = {f: r for r, f in enumerate(lay.features)}
    for g in sched.nodes:  # i mod 1 = 0 is 1; i mod 2 = r is (1 + (-1)^i)/2 for r = 0 and (1 - (-1)^i)/2 for r = 1
        if isinstance(g, Mod) and g.modulus <= 2:
            pe[row["one"]][lay.clean[g]] = 1.0 if g.modulus == 1 else 0.5
            if g.modulus == 2:
                pe[row["parity"]][lay.clean[g]] = 0.5 if g.residue == 0 else -0.5
    orientation: dict[Formula, float] = {}
    for g, v in lay.value.items():
        direction, _, const = sched.compare_terms(g)  # type: ignore[arg-type]
        if direction == "<=":  # the first count head writes const/(i+1); at n = 1 the FFN corrects the sign head (_inclusive_units)
            orientation[g] = 1.0
            continue
        feat = "1/max(i,1)" if direction == "<" else "1/max(n-1-i,1)" if direction == ">" else "1/n"  # bounded mixed: V = N / n
        first = sched.time[g] - 1  # the layer whose heads first write V (the count heads; bounded mixed: the lookups)
        if first >= 2:  # the FFN of the layer before writes const * feature (two units, exact): V is busy from there, not from the start
            k = lay.res[feat]
            lay.res.layer(first - 2).units += [Unit({k: const}, 0.0, {v: 1.0}), Unit({k: -const}, 0.0, {v: -1.0})]
        else:
            form = pe[row[feat]]
            form[v] = form.get(v, 0.0) + const
        orientation[g] = 1.0 if const > 0 else -1.0  # at n = 1 every count is 0 and V = const
    return _Embedding(we, pe), orientation


def _place_heads(sched: _Schedule, lay: _Layout, K: float, orientation: dict[Formula, float]) -> list[HeadInfo]:
    """Step 5: the heads (module docstring, "Regimes"): Y / X, S / U, counts and the sign of each comparison, in the layer of their time."""
    res, clean, scratch = lay.res, lay.clean, lay.scratch
    coord, regime = res.index(), sched.regime
    infos: list[HeadInfo] = []
    placed: set[tuple[Count, int]] = set()  # the mixed comparisons' lookups already placed (one per count and layer)

    shared: dict[tuple[Any, ...], int] = {}  # (layer, mask, hard mode, score terms) -> head index

    def add(layer: int, h: HeadSpec, construction: str, g: Formula, target: int) -> None:
        """Place head h in layer ``layer``; a head of that layer with the same scores, mask and hard mode takes h's values instead.

        Equal score terms and mask give equal attention weights in every mode, so the merged head
        (values side by side: W_V columns, W_O rows) writes exactly what the two heads wrote.
        """
        plan = res.layer(layer - 1)  # time t is the t-th layer (0-based t - 1)
        terms = tuple((tuple(sorted(t.query.items())), tuple(sorted(t.key.items()))) for t in h.scores)
        key = (layer, h.mask, h.hard_mode, terms)
        if key in shared:
            k = shared[key]
            old = plan.heads[k]
            if not isinstance(old, HeadSpec):
                raise TypeError(f"internal: layer {layer} head {k} is not a head spec")
            old.values.extend(h.values)
        else:
            k = shared[key] = len(plan.heads)
            plan.heads.append(h)
        infos.append(HeadInfo(layer, k, construction, sched.label(g), target))

    for g in sched.nodes:
        if sched.is_symbolic(g):
            continue
        t = sched.time[g]
        if isinstance(g, (Prev, Next)):
            direction = "past" if isinstance(g, Prev) else "future"
            if regime == "bounded":
                add(t, cs.tiebreak_spec(coord, direction, regime, clean[g.arg], scratch[g], None, K), "tiebreak", g, scratch[g])
            else:
                add(t, cs.lookup_spec(coord, -1 if direction == "past" else 1, clean[g.arg], scratch[g], K, regime), "lookup", g, scratch[g])
        elif isinstance(g, (Since, Until)):
            direction = "past" if isinstance(g, Since) else "future"
            add(t, cs.tiebreak_spec(coord, direction, regime, clean[g.right], scratch[g], clean[sched.beta[g]], K), "tiebreak", g, scratch[g])
        elif isinstance(g, Compare) and sched.is_mixed(g) and regime == "bounded":
            for cf, term in sched.compare_terms(g)[1]:
                average, scaled = lay.lookups[(term, t)]
                past = term.direction == "<"
                if (term, t) not in placed:  # one average per count and layer, read by every comparison of that layer
                    placed.add((term, t))
                    add(t - 2, cs.count_spec("past" if past else "future", scaled, average, 1.0), "count", g, average)
                inv = coord["1/max(i,1)" if past else "1/max(n-1-i,1)"]
                into_v = [ValueTerm(lay.value[g], {coord["i/n"]: 1.0}, float(cf))]  # c_k p/n into V: V = N/n with the PE's const/n
                spec = cs.position_lookup_spec(average, coord["i/n"], coord["(i/n)^2"], inv, into_v, "causal" if past else "none", "average")
                add(t - 1, spec, "position-lookup", g, lay.value[g])
            sign = cs.sign_spec(coord, regime, lay.value[g], scratch[g], orientation[g], K, lay.single.get(g))
            add(t, sign, "sign", g, scratch[g])
        elif isinstance(g, Compare) and sched.is_mixed(g):
            for _, term in sched.compare_terms(g)[1]:
                key = (term, t)
                if key in placed:
                    continue
                placed.add(key)
                average, copy = lay.lookups[key]
                past = term.direction == "<"
                add(t - 1, cs.count_spec("past" if past else "future", clean[term.arg], average, 1.0), "count", g, average)
                inv = coord["1/max(i,1)" if past else "1/max(n-1-i,1)"]
                spec = cs.position_lookup_spec(
                    average, coord["i"], coord["i^2"], inv, [ValueTerm(copy, {coord["i"]: 1.0})], "causal" if past else "none", "average"
                )
                add(t, spec, "position-lookup", g, copy)
        elif isinstance(g, Compare):
            direction, terms, const = sched.compare_terms(g)
            for k, (cf, term) in enumerate(terms):
                if direction == "<=":  # the first head also averages const * is_first over j <= i: const / (i+1)
                    head = cs.inclusive_count_spec(clean[term.arg], lay.value[g], float(cf), coord["is_first"], const if k == 0 else 0.0)
                else:
                    head = cs.count_spec("past" if direction == "<" else "future", clean[term.arg], lay.value[g], float(cf))
                add(t - 1, head, "count", g, lay.value[g])
            sign = cs.sign_spec(coord, regime, lay.value[g], scratch[g], orientation[g], K, lay.single.get(g))
            add(t, sign, "sign", g, scratch[g])
    return infos


def _node_units(sched: _Schedule, lay: _Layout, g: Formula, orientation: dict[Formula, float]) -> tuple[list[Unit], float]:
    """Return the FFN units writing node g's clean 0/1 value from its plan's inputs (the module docstring's clamps), and the bias (0 or 1).

    A Boolean node clamps the assignments of its plan (``BoolPlan.assignments``: the smaller
    side of a truth table, or the one assignment of a gate), each adding (sign +1) or
    subtracting from a bias of 1 (sign -1); an attended node clamps its own scratch value.
    An input computed by a head of the same layer is read from its scratch coordinate
    (1 - scratch for a negatively oriented comparison).
    """
    t = sched.time[g]
    if g in sched.plan:
        plan = sched.plan[g]
        lv, (use, sign) = plan.inputs, plan.assignments()
    else:
        lv, use, sign = (g,), [(1,)], 1.0

    def location(x: Formula) -> tuple[int, bool]:
        """Return (coordinate, flipped) holding input x's value as seen by the FFN of layer t."""
        if sched.is_attended(x) and sched.time[x] == t:
            return lay.scratch[x], bool(isinstance(x, Compare) and orientation[x] < 0)
        return lay.clean[x], False

    locs = [location(x) for x in lv]
    units: list[Unit] = []
    for s in use:
        w: dict[int, float] = {}
        const = 0.0
        for (k, flip), bit in zip(locs, s):
            coef = 1.0 if bit else -1.0
            if flip:  # input value is 1 - x_k
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


def _mixed_units(sched: _Schedule, lay: _Layout, g: Compare) -> list[Unit]:
    """Return the units writing [N > 0] = clamp(2N + 1/2, 0, 1), N = sum_k c_k #_k + const (half-integer) from the lookups' copies.

    N is affine in the copied counts; every N is a half-integer, so the clamp is exactly 0 or 1
    when the copies' combined error sum_k |c_k| err_k is <= 1/4 (N >= 1/2: 2N + 1/2 >= 1; N <= -1/2: <= 0).
    """
    _, terms, const = sched.compare_terms(g)
    w: dict[int, float] = {}
    for cf, term in terms:
        copy = lay.lookups[(term, sched.time[g])][1]
        w[copy] = w.get(copy, 0.0) + 2.0 * cf
    return clamp01(w, 2.0 * const + 0.5, lay.clean[g])


def _inclusive_units(sched: _Schedule, lay: _Layout, g: Compare) -> list[Unit]:
    """Return the units writing W = [N < 0] at n = 1 and 0 elsewhere, for an inclusive comparison's sign head.

    At n = 1 the sign head has one key, so its value (1 + p_0)/2 = 1 whatever V; its value
    subtracts W, giving [N > 0] there.  V = N / (i+1) with N = sum_k c_k #<=_k + const a
    half-integer (exact: the count heads tie every key); e = is_first + is_last - 1 is 1 at n = 1
    and <= 0 elsewhere.  W = ReLU(-V + 1/2 - M(1-e)) - ReLU(-V - 1/2 - M(1-e)) with
    M = sum_k |c_k| + |const| + 1 > |V| + 1/2: at n = 1 (V = N) that is [-N > 0], elsewhere 0
    (both arguments <= 0).
    """
    _, terms, const = sched.compare_terms(g)
    res, w, v = lay.res, lay.single[g], lay.value[g]
    big = sum(abs(cf) for cf, _ in terms) + abs(const) + 1.0
    gate = {v: -1.0, res["is_first"]: big, res["is_last"]: big}
    return [Unit(gate, 0.5 - 2 * big, {w: 1.0}), Unit(gate, -0.5 - 2 * big, {w: -1.0})]


def _place_ffns(sched: _Schedule, lay: _Layout, orientation: dict[Formula, float]) -> None:
    """Step 6: each layer's FFN computes every node of its time from its plan's inputs, then erases the layer's scratch coordinates."""
    res = lay.res
    for g in sched.nodes:
        if sched.is_symbolic(g) or isinstance(g, (First, Last, Mod, Pos)) or g in sched.shared:
            continue
        if sched.is_clamped(g):
            res.layer(sched.time[g] - 1).units += _mixed_units(sched, lay, g)  # type: ignore[arg-type]
            continue
        if g in lay.single:  # the count heads' layer: W = [N < 0] at n = 1, read by the sign head's value
            res.layer(sched.time[g] - 2).units += _inclusive_units(sched, lay, g)  # type: ignore[arg-type]
        plan = res.layer(sched.time[g] - 1)
        units, bias = _node_units(sched, lay, g, orientation)
        if bias:
            plan.bias[lay.clean[g]] = plan.bias.get(lay.clean[g], 0.0) + bias
        plan.units += units
    # Erase every head's raw value after its clean-up: x - ReLU(x) = 0 for the head outputs x >= 0 (convex combinations
    # of 0/1 values); the raw value sits in the node's clean coordinate, which so leaves the layer holding the clean value alone.
    for g, k in lay.scratch.items():
        res.layer(sched.time[g] - 1).units.append(Unit({k: 1.0}, 0.0, {k: -1.0}))
    if sched.regime == "unbounded":
        for (_, t), (_, copy) in lay.lookups.items():  # a copied count is a convex combination of positions p >= 0
            res.layer(t - 1).units.append(Unit({copy: 1.0}, 0.0, {copy: -1.0}))
        return
    for (term, t), (_, scaled) in lay.lookups.items():  # b/n = ReLU(1/n) - ReLU(1/n - b), exact for b in {0, 1} (1/n <= 1)
        inv_n = res["1/n"]
        res.layer(t - 4).units += [Unit({inv_n: 1.0}, 0.0, {scaled: 1.0}), Unit({inv_n: 1.0, lay.clean[term.arg]: -1.0}, 0.0, {scaled: -1.0})]
    for g, v in lay.value.items():  # a bounded mixed comparison's V (approximate in soft mode) erased after its sign head: V - ReLU(V) + ReLU(-V)
        if sched.is_mixed(g):
            res.layer(sched.time[g] - 1).units += [Unit({v: 1.0}, 0.0, {v: -1.0}), Unit({v: -1.0}, 0.0, {v: 1.0})]


def zeroed(sched: _Schedule, lay: _Layout) -> dict[int, int]:
    """Return the coordinates the model itself leaves 0 after a layer (``Residual.compact``'s ``zeroed``): an unbounded
    mixed comparison's copies (x - ReLU(x) in their lookups' layer) and a bounded one's V (cleared in its sign head's layer)."""
    if sched.regime == "unbounded":
        return {copy: t for (_, t), (_, copy) in lay.lookups.items()}
    return {v: sched.time[g] for g, v in lay.value.items() if sched.is_mixed(g)}


def _observations(sched: _Schedule, lay: _Layout, f: Formula) -> dict[int, list[int]]:
    """Step 7's observations: coordinates serve several nodes in turn (``Residual.compact``), and each node's value must be
    in its coordinate in activations[time] (where decode reads it), the formula's also at the end (the read-out)."""
    observe: dict[int, list[int]] = {}
    for g in sched.subs:
        observe.setdefault(lay.clean[g], []).append(sched.time[g])
    observe.setdefault(lay.clean[f], []).append(sched.depth)
    return observe


@without_cycle_collection
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
    emb, orientation = _embeddings(sched, lay)
    if sched.depth:
        lay.res.layer(sched.depth - 1)  # every layer 1..L exists, with or without heads
    infos = _place_heads(sched, lay, K, orientation)
    _place_ffns(sched, lay, orientation)
    shared = lay.res.compact(_observations(sched, lay, f), sorted(emb.coordinates()), zeroed(sched, lay))
    new = shared.new
    WE, PE = emb.build(alphabet, lay.features, new, shared.d)
    readout = Readout(new[lay.clean[f]], "last", 0.5)
    infos = [HeadInfo(h.layer, h.index, h.construction, h.node, new[h.target]) for h in infos]
    forms = ["shared" if g in sched.shared else p.form for g, p in sched.plan.items()]
    plans = f"Boolean nodes: {forms.count('table')} table, {forms.count('circuit')} circuit, {forms.count('shared')} shared"
    model = Model(alphabet, WE, PE, lay.res.build_layers(), f"tl[{regime}]: {sched.label(f)} ({plans})", "average", readout)
    coords = [new[lay.clean[g]] for g in sched.subs]
    layers = [sched.time[g] for g in sched.subs]
    spans = [(-(-shared.spans[lay.clean[g]][0] // 2), shared.spans[lay.clean[g]][1] // 2) for g in sched.subs]
    booleans = [
        BoolInfo(sched.time[g], sched.label(g), "shared" if g in sched.shared else p.form, len(p.inputs), 0 if g in sched.shared else p.units())
        for g, p in sched.plan.items()
    ]
    times = {sched.label(g): sched.time[g] for g in sched.nodes}
    mixed = 0
    for g in sched.nodes:
        if isinstance(g, Compare) and sched.is_mixed(g):
            mixed = max(mixed, sum(abs(cf) for cf, _ in sched.compare_terms(g)[1]))
    if mixed and regime == "bounded":
        mixed = max(mixed, m_max)  # tau(1) = 1/ln(32 C) <= c = 1/ln(16 m_max): every regime bound e^{-gap/tau} holds a fortiori
    return CompiledFormula(f, alphabet, regime, model, coords, readout, c, K, m_max, infos, times, booleans, mixed, layers, spans, shared.erased)
