"""The residual-stream builder every construction assembles its model with (Section 2's transformer, written by coordinates).

A construction names the coordinates of the residual stream (``Residual.add``: one
coordinate per name, allocated in order, so the order of the calls IS the layout),
then writes each layer as attention heads and FFN units over those coordinates:

* a head's scores are a sum of rank-one terms ``ScoreTerm``: s_ij = sum_t
  (sum_a q_t[a] x_i[a]) (sum_b k_t[b] x_j[b]), one column of W_Q and of W_K per term;
  its values are ``ValueTerm``\\s: scale * (sum_s v[s] x_j[s]) written into one target
  coordinate, one column of W_V and one row of W_O per term (``build_head``);
* an FFN is a list of hidden ReLU units ``Unit``: out[k] += w_out[k] ReLU(sum_j
  w_in[j] y_j + bias), one column of W_1 / row of W_2 per unit, plus an output bias b_2
  (``ffn_matrices``; no units: the zero FFN, ``zero_ffn``).

Weights given for the same matrix entry add up (``And(a, a)`` reads a twice).

``Residual.compact`` then lets coordinates whose values are no longer needed serve later
ones (``Compaction``): a compiled program's width grows with what is alive at one time, not
with the program.  The temporal-logic compiler (``constructive.logic.compiler``), the S-RASP compiler
(``constructive.srasp.compiler``), the head constructions (``constructive.heads``) and the
hand-built applications (``constructive.applications``) all build through this module.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from hardsoft.spec.transformer import Head, Layer, PositionEmbedding

#: Weights of a linear form over residual coordinates: {coordinate index: weight}.
Weights = Mapping[int, float]


# --------------------------------------------------------------------------- heads


@dataclass(frozen=True)
class ScoreTerm:
    """One rank-one term of a head's scores: (sum_a query[a] x_i[a]) (sum_b key[b] x_j[b]); empty forms give 0."""

    query: Weights = field(default_factory=dict)
    key: Weights = field(default_factory=dict)


@dataclass(frozen=True)
class ValueTerm:
    """One value column of a head: scale * (sum_s sources[s] x_j[s]), averaged over the attended keys, added to coordinate target."""

    target: int
    sources: Weights
    scale: float = 1.0


@dataclass
class HeadSpec:
    """A head not yet built (the model width d is known only once every coordinate is allocated); values may still be added."""

    scores: list[ScoreTerm]
    values: list[ValueTerm]
    mask: str = "none"
    hard_mode: str | None = None

    def build(self, d: int) -> Head:
        """Return the head of width d (``build_head``)."""
        return build_head(d, self.scores, self.values, self.mask, self.hard_mode)


def build_head(d: int, scores: Sequence[ScoreTerm], values: Sequence[ValueTerm], mask: str = "none", hard_mode: str | None = None) -> Head:
    """Return the head of width d: W_Q, W_K (d x max(1, #scores)) from the score terms, W_V (d x #values), W_O (#values x d) from the values.

    No score terms: one zero column (every score 0, every visible key ties).
    """
    k = max(1, len(scores))
    W_Q, W_K = np.zeros((d, k)), np.zeros((d, k))
    for t, term in enumerate(scores):
        for a, w in term.query.items():
            W_Q[a, t] += w
        for b, w in term.key.items():
            W_K[b, t] += w
    W_V, W_O = np.zeros((d, len(values))), np.zeros((len(values), d))
    for t, v in enumerate(values):
        for s, w in v.sources.items():
            W_V[s, t] += w
        W_O[t, v.target] = v.scale
    return Head(W_Q, W_K, W_V, W_O, mask, hard_mode)


# --------------------------------------------------------------------------- FFNs


@dataclass(frozen=True)
class Unit:
    """One hidden ReLU unit of an FFN: out[k] += w_out[k] * ReLU(sum_j w_in[j] y_j + bias)."""

    w_in: Weights
    bias: float
    w_out: Weights


def clamp01(w_in: Weights, bias: float, target: int, sign: float = 1.0) -> list[Unit]:
    """Return the two units adding sign * clamp(w_in . y + bias, 0, 1) = sign (ReLU(z) - ReLU(z - 1)) into target."""
    return [Unit(w_in, bias, {target: sign}), Unit(w_in, bias - 1.0, {target: -sign})]


def ffn_matrices(d: int, units: Sequence[Unit], bias: Weights | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return (W1, b1, W2, b2) of the FFN sum_u w_out_u ReLU(w_in_u . y + bias_u) + b2, b2 from ``bias``; no units: one zero unit."""
    m = max(1, len(units))
    W1, b1, W2, b2 = np.zeros((d, m)), np.zeros(m), np.zeros((m, d)), np.zeros(d)
    for u, unit in enumerate(units):
        for k, w in unit.w_in.items():
            W1[k, u] += w
        b1[u] = unit.bias
        for k, w in unit.w_out.items():
            W2[u, k] += w
    for k, w in (bias or {}).items():
        b2[k] += w
    return W1, b1, W2, b2


def zero_ffn(d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return (W1, b1, W2, b2) of the FFN computing 0 (one hidden unit, every weight 0)."""
    return ffn_matrices(d, [])


# --------------------------------------------------------------------------- the stream


@dataclass
class LayerPlan:
    """One layer under construction: heads (built, or specs built at the end), FFN units and the FFN's output bias."""

    heads: list[Head | HeadSpec] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    bias: dict[int, float] = field(default_factory=dict)

    def build(self, d: int) -> Layer:
        """Return the layer of width d."""
        heads = tuple(h.build(d) if isinstance(h, HeadSpec) else h for h in self.heads)
        return Layer(heads, *ffn_matrices(d, self.units, self.bias))


def eraser_units(k: int) -> list[Unit]:
    """Return the two units x - ReLU(x) + ReLU(-x) = 0 that set coordinate k to exactly 0, whatever finite value it holds."""
    return [Unit({k: 1.0}, 0.0, {k: -1.0}), Unit({k: -1.0}, 0.0, {k: 1.0})]


@dataclass(frozen=True)
class Compaction:
    """What ``Residual.compact`` did: each old coordinate's new one, the states (first, last) it holds its values, the new width.

    Old coordinate c's value at activation index a (state 2a) is in ``new[c]`` of
    ``activations[a]`` whenever spans[c][0] <= 2a <= spans[c][1]; the last state is the
    model's end (2L) for a coordinate never erased.  ``erased``: how many were erased for a later one
    (by two units each); ``spared``: the old coordinates a later one took without erasing them, because the
    model itself leaves them 0 at their last write (``compact``'s ``zeroed``).
    """

    new: tuple[int, ...]
    spans: tuple[tuple[int, int], ...]
    d: int
    erased: int
    spared: frozenset[int] = frozenset()

    def map(self, weights: Weights) -> dict[int, float]:
        """Return a linear form over old coordinates as one over the new ones."""
        out: dict[int, float] = {}
        for c, w in weights.items():
            k = self.new[c]
            out[k] = out.get(k, 0.0) + w
        return out

    def holds(self, c: int, a: int) -> bool:
        """Return whether activations[a] holds old coordinate c's value (in its new coordinate)."""
        return self.spans[c][0] <= 2 * a <= self.spans[c][1]


def _remap_spec(h: HeadSpec, m: Callable[[int], int]) -> HeadSpec:
    """Return a head spec with every coordinate renamed by m."""
    scores = [ScoreTerm({m(c): w for c, w in t.query.items()}, {m(c): w for c, w in t.key.items()}) for t in h.scores]
    values = [ValueTerm(m(v.target), {m(c): w for c, w in v.sources.items()}, v.scale) for v in h.values]
    return HeadSpec(scores, values, h.mask, h.hard_mode)


class Residual:
    """Named residual coordinates (allocated in order, looked up by name) and the layers written over them."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self._index: dict[str, int] = {}
        self.layers: list[LayerPlan] = []

    # ------------------------------------------------------------------ coordinates

    def add(self, name: str) -> int:
        """Return a fresh coordinate named name (ValueError if the name is taken)."""
        if name in self._index:
            raise ValueError(f"residual coordinate {name!r} is allocated twice")
        self._index[name] = len(self.names)
        self.names.append(name)
        return self._index[name]

    def add_block(self, name: str, k: int) -> list[int]:
        """Return k fresh coordinates named name[0], ..., name[k-1] (just name when k = 1); none is allocated if a name is taken."""
        names = [f"{name}[{t}]" for t in range(k)] if k > 1 else [name]
        taken = [n for n in names if n in self._index]
        if taken:
            raise ValueError(f"residual coordinate {taken[0]!r} is allocated twice")
        return [self.add(n) for n in names]

    def __getitem__(self, name: str) -> int:
        """Return the coordinate named name (KeyError naming it otherwise)."""
        if name not in self._index:
            raise KeyError(f"no residual coordinate named {name!r}")
        return self._index[name]

    def __contains__(self, name: object) -> bool:
        return name in self._index

    @property
    def d(self) -> int:
        """Return the width: the number of coordinates allocated so far."""
        return len(self.names)

    def index(self) -> dict[str, int]:
        """Return {name: coordinate} (a copy)."""
        return dict(self._index)

    # ------------------------------------------------------------------ embeddings

    def word_embedding(self, alphabet: Sequence[str], rows: Mapping[str, Weights]) -> np.ndarray:
        """Return WE (|alphabet| x d): the row of symbol a holds rows[a] (symbols missing from rows embed as 0)."""
        WE = np.zeros((len(alphabet), self.d))
        for r, a in enumerate(alphabet):
            for k, w in rows.get(a, {}).items():
                WE[r, k] = w
        return WE

    def feature_matrix(self, features: Sequence[str]) -> np.ndarray:
        """Return the PE matrix (|features| x d) writing each position feature into the coordinate of the same name."""
        P = np.zeros((len(features), self.d))
        for r, f in enumerate(features):
            P[r, self[f]] = 1.0
        return P

    def position_embedding(self, features: Sequence[str]) -> PositionEmbedding:
        """Return the position embedding writing each feature into the coordinate of the same name."""
        return PositionEmbedding(tuple(features), self.feature_matrix(features))

    # ------------------------------------------------------------------ layers

    def layer(self, l: int) -> LayerPlan:
        """Return layer l (0-based) under construction, adding empty layers up to it."""
        while len(self.layers) <= l:
            self.layers.append(LayerPlan())
        return self.layers[l]

    def build_layers(self) -> tuple[Layer, ...]:
        """Return every layer, built at the final width d."""
        return tuple(plan.build(self.d) for plan in self.layers)

    # ------------------------------------------------------------------ sharing coordinates

    def compact(self, observe: Mapping[int, Sequence[int]], embedded: Sequence[int] = (), zeroed: Mapping[int, int] | None = None) -> Compaction:
        """Let coordinates serve several values in turn; rewrite the layers (and the names) in place and return the map.

        The timeline of a model of L layers has states 0..2L: state 0 is the embedding, state
        2l - 1 the stream after layer l's heads, state 2l after its FFN (``activations[l]``).
        A head of layer l reads state 2l - 2 and writes 2l - 1; an FFN unit (or the FFN's
        output bias) of layer l reads 2l - 1 and writes 2l.  A coordinate is *busy* from its
        first read or write (state 0 for the ``embedded`` ones, written by WE or PE) to its
        last read, write or observation (``observe``: coordinate -> the activation indices
        at which a caller reads its value; the model's read-out is one).  Two coordinates whose
        busy spans are disjoint may share one: the earlier is erased by two units
        x - ReLU(x) + ReLU(-x) = 0 (exact for every finite x) in the FFN of the first layer
        l_e that reads it at or after its last busy state (2 l_e - 1 >= last), and the later
        one may be written from state 2 l_e + 1 on, when the shared coordinate is 0 again.
        Coordinates are given out greedily in the order their spans start (the least width
        for interval spans).  Every head must still be a ``HeadSpec`` (its width unfixed).
        ``zeroed``: coordinate -> the layer whose FFN leaves it 0 (x - ReLU(x) on a value >= 0, or
        -ReLU(x) + ReLU(-x)); when that write is its last busy state, a later coordinate takes its
        slot without the two erasing units (they would erase a 0), at the same state as otherwise.
        """
        n = self.d
        inf = math.inf
        first = [inf] * n
        last = [-inf] * n

        def touch(c: int, state: int) -> None:
            if state < first[c]:
                first[c] = state
            if state > last[c]:
                last[c] = state

        for c in embedded:
            touch(c, 0)
        for c, points in observe.items():
            for a in points:
                touch(c, 2 * a)
        for idx, plan in enumerate(self.layers):
            l = idx + 1
            for h in plan.heads:
                if not isinstance(h, HeadSpec):
                    raise TypeError(f"internal: layer {l} holds a built head; compact() needs every head as a HeadSpec")
                for t in h.scores:
                    for c in t.query:
                        touch(c, 2 * l - 2)
                    for c in t.key:
                        touch(c, 2 * l - 2)
                for v in h.values:
                    for c in v.sources:
                        touch(c, 2 * l - 2)
                    touch(v.target, 2 * l - 1)
            for u in plan.units:
                for c in u.w_in:
                    touch(c, 2 * l - 1)
                for c in u.w_out:
                    touch(c, 2 * l)
            for c in plan.bias:
                touch(c, 2 * l)
        for c in range(n):  # a coordinate nothing reads, writes or observes: 0 throughout, busy only at the start
            if first[c] == inf:
                first[c] = last[c] = 0
        order = sorted(range(n), key=lambda c: (first[c], c))
        slot_of = [0] * n
        free: list[tuple[int, int]] = []  # (state from which the slot is 0 again, slot)
        holder: list[int] = []  # slot -> its current (latest) coordinate
        erase_layer = [0] * n
        erasers: dict[int, list[int]] = {}  # layer (1-based) -> old coordinates erased by its FFN
        spared: set[int] = set()  # old coordinates the model itself leaves 0 at their last write (zeroed): no eraser
        zero_at = dict(zeroed or {})
        for c in order:
            erase_layer[c] = max(1, math.ceil((last[c] + 1) / 2))
            if free and free[0][0] <= first[c]:
                _, slot = heapq.heappop(free)
                prev = holder[slot]
                if prev in zero_at and last[prev] == 2 * zero_at[prev]:
                    spared.add(prev)
                else:
                    erasers.setdefault(erase_layer[prev], []).append(prev)  # its last holder made 0 before c is written
                holder[slot] = c
            else:
                slot = len(holder)
                holder.append(c)
            slot_of[c] = slot
            heapq.heappush(free, (2 * erase_layer[c] + 1, slot))
        m = slot_of.__getitem__
        for idx, plan in enumerate(self.layers):
            plan.heads = [_remap_spec(h, m) for h in plan.heads]  # type: ignore[arg-type]
            plan.units = [Unit({m(c): w for c, w in u.w_in.items()}, u.bias, {m(c): w for c, w in u.w_out.items()}) for u in plan.units]
            plan.bias = {m(c): w for c, w in plan.bias.items()}
            for c in erasers.get(idx + 1, ()):
                plan.units += eraser_units(m(c))
        names: list[list[str]] = [[] for _ in holder]
        for c in order:
            names[slot_of[c]].append(self.names[c])
        self._index = {self.names[c]: slot_of[c] for c in range(n)}  # every old name finds its new coordinate
        self.names = [" / ".join(ns) for ns in names]
        gone = {c for cs in erasers.values() for c in cs}
        end = 2 * len(self.layers)  # a coordinate never erased keeps its last value to the end
        spans = tuple((int(first[c]), int(last[c]) if c in gone or c in spared else end) for c in range(n))
        return Compaction(tuple(slot_of), spans, len(holder), len(gone), frozenset(spared))
