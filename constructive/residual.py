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

Weights given for the same matrix entry add up (``And(a, a)`` reads a twice).  The
temporal-logic compiler (``constructive.logic.compiler``), the S-RASP compiler
(``constructive.srasp.compiler``), the head constructions (``constructive.heads``) and the
hand-built applications (``constructive.applications``) all build through this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
