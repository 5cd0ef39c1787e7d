"""A small S-RASP (RASP with prefix sums; Strobl et al. 2024, "Transformers as Transducers") and its compiler to an average-hard transformer.

Corresponds to the paper's application "every S-RASP program is computed by an
AHAT, hence by a softmax transformer at a temperature set by its gap" (Yang et
al., section on applications).  This is the project's OWN fragment and
encoding, stated here in full; it is not Strobl et al.'s simulation.

The fragment
------------
Sequences are Boolean (one bit per position) or integer.  A program is a list
of named definitions, each one of:

* ``Token(symbols)``            [w_i in symbols]                                 Boolean
* ``Not(a)``, ``And(a, b)``, ``Or(a, b)``                                        Boolean
* ``Psum(plus, minus)``         v_i = max(0, sum_{j<i} ([plus_j] - [minus_j]))    integer in [0, i]
* ``IsConst(v, c)``             [v_i = c] for an integer sequence v, constant c  Boolean
* ``Aggregate(key, query, offset, where, value, mask)``                          Boolean
      the value at the rightmost visible j (mask ``strict``: j < i, ``causal``:
      j <= i) with where_j and key_j = query_i + offset; when there is none, at
      the rightmost visible j maximising 2 [where_j] - 2 (key_j - query_i - offset)^2
      (the closest key: a documented fallback; programs that need a default test
      for a match themselves); 0 when no key is visible (i = 0 under ``strict``).
* ``Once(b)``                   [b_j for some j <= i]                             Boolean

and the program's output at each position is the first symbol of ``outputs``
whose Boolean holds, else ``default``.  ``Psum`` is a prefix sum over STRICT
prefixes clamped at 0: the compiled transformer holds exactly that value (see
below); a program whose sums never go negative (Dyck's depth on valid prefixes)
sees the plain prefix sum.

The encoding (derivations; ``n`` is the length, positions i = 0..n-1)
-------------------------------------------------------------------
Every Boolean is one residual coordinate holding exactly 0 or 1 in hard mode
(and, after the clean-up FFNs, in soft mode too).  Every integer sequence v is
two coordinates, v and v^2.  Position features: ``one``, ``i``, ``i^2``,
``1/max(i,1)``, ``i/n``.

* ``Psum``: layer A, a strict head with all scores 0 (every key ties, so AHAT
  and softmax agree exactly at every tau), value [plus] - [minus]: it writes
  f_i = S_i / i with S_i = sum_{j<i}(...) (f_0 = 0: no key).  Layer B, the
  *lookup* head (Lemma 7's table lookup, with positions as the table): causal,
  score s_ip = 2 p f_i - p^2 / max(i, 1) = (S_i^2 - (p - S_i)^2) / i over keys
  p <= i.  Its unique maximum is the key p = clamp(S_i, 0, i) = max(0, S_i)
  (|S_i| <= i), whose position features p, p^2 are copied into v, v^2.
  Gap at query i >= 1: the next key is one step further, (2|p - S_i| + 1)/i >= 1/i,
  so >= 1/(n-1) over all queries (i = 0 sees one key).
* ``Aggregate``: one head, score s_ij = 2 [where_j] - 2 (key_j - t_i)^2 + j/n
  with t_i = query_i + offset, written bilinearly from (v, v^2) of the query
  and the key.  2 [where] - 2 d^2 is an even integer E_j and j/n lies in [0, 1),
  so scores of keys with different E differ by > 1 and keys of equal E by
  >= 1/n: the maximum is unique (the rightmost key of largest E: a match when
  one exists) and the gap is >= 1/n.  The Boolean value is copied into a raw
  coordinate and cleaned: clamp(2 y - 1/2, 0, 1) restores 0/1 exactly when the
  copy is within 1/4.
* ``Once``: a causal head with score b_j (gap 1): with a b somewhere the max
  set is exactly those keys and the output is 1; with none all keys tie and it
  is 0.  Cleaned as above.
* ``IsConst``: FFN, clamp(4(v - c) + 2, 0, 1) - clamp(4(v - c) - 1, 0, 1), which
  is 1 when v is within 1/4 of c and 0 when it is within 1/4 of another
  integer.  ``Not``/``And``/``Or``: FFN, 1 - a, ReLU(a + b - 1),
  a + b - ReLU(a + b - 1), exact on 0/1 inputs.
* Outputs: one coordinate per output symbol, exactly 0/1 with exactly one 1.

Definitions are scheduled into layers as early as their inputs allow (a head
reads the layer's input; an FFN unit may read the heads of its own layer);
Token needs no layer (it is the embedding).  Aggregates with the same selector
share one head.  The gap of a compiled program is at least
min(1/(n-1) if it has a Psum, 1/n if it has an Aggregate, 1 for Once).

Soft mode, and the temperature ``tau_for``: only the lookup and aggregate
heads leak.  At query i the lookup weights fall off like x^{k^2} with
x = exp(-1/(i tau)) <= exp(-1/(n tau)) at distance k, so the copied v is off by
<= sum_k 2k x^{k^2} <= 2x/(1-x)^2 and v^2 by <= 2n times that.  The aggregate's
scores then move by at most ~ 4 (2n err(v) + err(v^2)) = 32 n x (both sides);
with tau = 1/(n ln(128 n^3)) this is x <= 1/(128 n^3), the score error is
<= 1/(4 n^2) (much less than the gap 1/n), and the aggregate's mass off the top
is <= n exp(-(1/n - 1/(2n^2))/tau) <= 1/4.  Every copy is then cleaned, so
errors do not travel.  The constant is conservative; ``constructive.audit`` measures
the largest temperature that still decides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hardsoft.spec.transformer import Head, Layer, Model, PositionEmbedding

# --------------------------------------------------------------------------- the language


@dataclass(frozen=True)
class Token:
    """[w_i in symbols] (Boolean)."""

    symbols: tuple[str, ...]


@dataclass(frozen=True)
class Not:
    """1 - a (Boolean)."""

    a: str


@dataclass(frozen=True)
class And:
    """a and b (Boolean)."""

    a: str
    b: str


@dataclass(frozen=True)
class Or:
    """a or b (Boolean)."""

    a: str
    b: str


@dataclass(frozen=True)
class Psum:
    """max(0, sum_{j<i} ([plus_j] - [minus_j])) (integer in [0, i]); minus may be None."""

    plus: str
    minus: str | None = None


@dataclass(frozen=True)
class IsConst:
    """[v_i = c] for an integer sequence v (Boolean)."""

    v: str
    c: int


@dataclass(frozen=True)
class Aggregate:
    """value at the rightmost visible j with where_j and key_j = query_i + offset (fallback: the closest key; see the module docstring)."""

    key: str
    query: str
    offset: int
    where: str
    value: str
    mask: str = "strict"


@dataclass(frozen=True)
class Once:
    """[b_j for some j <= i] (Boolean)."""

    b: str


Op = Token | Not | And | Or | Psum | IsConst | Aggregate | Once
MASKS = ("strict", "causal")


@dataclass(frozen=True)
class Program:
    """An S-RASP program: definitions in order, then outputs (symbol, Boolean) by priority, and the default symbol."""

    name: str
    alphabet: tuple[str, ...]
    defs: tuple[tuple[str, Op], ...]
    outputs: tuple[tuple[str, str], ...]
    default: str

    def __post_init__(self) -> None:
        kinds: dict[str, str] = {}
        if not self.alphabet or len(set(self.alphabet)) != len(self.alphabet):
            raise ValueError(f"S-RASP program {self.name}: the alphabet must be non-empty without repeats")

        def need(name: str, kind: str, where: str) -> None:
            if name not in kinds:
                raise ValueError(f"S-RASP program {self.name}: {where} uses {name!r} before it is defined")
            if kinds[name] != kind:
                raise ValueError(f"S-RASP program {self.name}: {where} needs a {kind} sequence, {name!r} is {kinds[name]}")

        for name, op in self.defs:
            where = f"definition {name!r}"
            if name in kinds:
                raise ValueError(f"S-RASP program {self.name}: {name!r} is defined twice")
            if isinstance(op, Token):
                unknown = [s for s in op.symbols if s not in self.alphabet]
                if unknown or not op.symbols:
                    raise ValueError(f"S-RASP program {self.name}: {where} names symbols {unknown} not in the alphabet")
            elif isinstance(op, Not):
                need(op.a, "Boolean", where)
            elif isinstance(op, (And, Or)):
                need(op.a, "Boolean", where)
                need(op.b, "Boolean", where)
            elif isinstance(op, Psum):
                need(op.plus, "Boolean", where)
                if op.minus is not None:
                    need(op.minus, "Boolean", where)
            elif isinstance(op, IsConst):
                need(op.v, "integer", where)
                if not isinstance(op.c, int) or op.c < 0:
                    raise ValueError(f"S-RASP program {self.name}: {where} compares with {op.c!r}; constants are integers >= 0")
            elif isinstance(op, Aggregate):
                need(op.key, "integer", where)
                need(op.query, "integer", where)
                need(op.where, "Boolean", where)
                need(op.value, "Boolean", where)
                if op.mask not in MASKS:
                    raise ValueError(f"S-RASP program {self.name}: {where} has mask {op.mask!r}; expected one of {MASKS}")
            elif isinstance(op, Once):
                need(op.b, "Boolean", where)
            else:
                raise ValueError(f"S-RASP program {self.name}: {where} is not an S-RASP operation: {op!r}")
            kinds[name] = "integer" if isinstance(op, Psum) else "Boolean"
        if not self.outputs:
            raise ValueError(f"S-RASP program {self.name}: no outputs")
        for sym, b in self.outputs:
            need(b, "Boolean", f"output {sym!r}")
        syms = [s for s, _ in self.outputs] + [self.default]
        if len(set(syms)) != len(syms):
            raise ValueError(f"S-RASP program {self.name}: output symbols repeat: {syms}")

    @property
    def symbols(self) -> tuple[str, ...]:
        """Return the output symbols (priority order, then the default)."""
        return tuple(s for s, _ in self.outputs) + (self.default,)

    def uses(self, kind: type) -> bool:
        """Return whether some definition is of the given operation type."""
        return any(isinstance(op, kind) for _, op in self.defs)


# --------------------------------------------------------------------------- reference semantics


def evaluate(prog: Program, word: Sequence[str]) -> dict[str, list[int]]:
    """Return every sequence of the program on a word (exact integers; the semantics stated in the module docstring)."""
    n = len(word)
    if n == 0:
        raise ValueError("S-RASP programs run on non-empty words")
    bad = [c for c in word if c not in prog.alphabet]
    if bad:
        raise ValueError(f"symbols {sorted(set(bad))} are not in the alphabet {prog.alphabet}")
    val: dict[str, list[int]] = {}
    for name, op in prog.defs:
        if isinstance(op, Token):
            out = [int(c in op.symbols) for c in word]
        elif isinstance(op, Not):
            out = [1 - a for a in val[op.a]]
        elif isinstance(op, And):
            out = [a & b for a, b in zip(val[op.a], val[op.b])]
        elif isinstance(op, Or):
            out = [a | b for a, b in zip(val[op.a], val[op.b])]
        elif isinstance(op, Psum):
            s, out = 0, []
            minus = val[op.minus] if op.minus is not None else [0] * n
            for i in range(n):
                out.append(max(0, s))
                s += val[op.plus][i] - minus[i]
        elif isinstance(op, IsConst):
            out = [int(v == op.c) for v in val[op.v]]
        elif isinstance(op, Aggregate):
            key, query, where, value = val[op.key], val[op.query], val[op.where], val[op.value]
            out = []
            for i in range(n):
                keys = range(i) if op.mask == "strict" else range(i + 1)
                t = query[i] + op.offset
                best = max(keys, key=lambda j: (2 * where[j] - 2 * (key[j] - t) ** 2, j), default=None)
                out.append(0 if best is None else value[best])
        elif isinstance(op, Once):
            out = [int(v) for v in np.maximum.accumulate(val[op.b])]
        else:  # pragma: no cover - Program.__post_init__ refuses other ops
            raise AssertionError(op)
        val[name] = out
    return val


def run_program(prog: Program, word: Sequence[str]) -> list[str]:
    """Return the program's output symbol at every position of word."""
    val = evaluate(prog, word)
    return [next((s for s, b in prog.outputs if val[b][i]), prog.default) for i in range(len(word))]


# --------------------------------------------------------------------------- the compiler

#: Position features of every compiled program.
FEATURES = ("one", "i", "i^2", "1/max(i,1)", "i/n")


_Units = list[tuple[dict[int, float], float, dict[int, float]]]
_Terms = list[tuple[list[tuple[int, float]], list[tuple[int, float]]]]


def build_head(d: int, terms: _Terms, values: dict[int, dict[int, float]], mask: str) -> Head:
    """Return a head of width d with scores sum_t (sum_{(a,wa)} wa x_i[a]) (sum_{(b,wb)} wb x_j[b]) over score terms t.

    terms: [(query [(coordinate, weight)], key [(coordinate, weight)])], one per rank-one term
    (none: all scores 0); values: {destination coordinate: {source coordinate: weight}}.
    """
    k = max(1, len(terms))
    WQ, WK = np.zeros((d, k)), np.zeros((d, k))
    for t, (ql, kl) in enumerate(terms):
        for a, wa in ql:
            WQ[a, t] += wa
        for b, wb in kl:
            WK[b, t] += wb
    WV, WO = np.zeros((d, len(values))), np.zeros((len(values), d))
    for t, (dst, srcs) in enumerate(values.items()):
        for src, w in srcs.items():
            WV[src, t] += w
        WO[t, dst] = 1.0
    return Head(WQ, WK, WV, WO, mask)


_HeadSpec = tuple[_Terms, dict[int, dict[int, float]], str]


class _Builder:
    """Residual coordinates, and layers (heads, then FFN units) filled by a scheduler.

    Scheduling: every coordinate has a ready time (layer, stage), stage 0 = after the
    layer's heads, 1 = after its FFN; embeddings are ready at (-1, 1).  A head reads
    the layer's input, so it goes in the first layer after all its inputs are ready;
    an FFN unit reads the heads' output, so it may share a layer with the head whose
    output it reads.  Independent definitions share layers.
    """

    def __init__(self) -> None:
        self.names: list[str] = []
        self.ready: dict[int, tuple[int, int]] = {}
        self.layers: list[tuple[list[_HeadSpec], _Units]] = []

    def coord(self, name: str, ready: tuple[int, int] = (-1, 1)) -> int:
        self.names.append(name)
        self.ready[len(self.names) - 1] = ready
        return len(self.names) - 1

    def _grow(self, layer: int) -> None:
        while len(self.layers) <= layer:
            self.layers.append(([], []))

    def head_layer(self, inputs: list[int]) -> int:
        """Return the first layer whose heads can read all inputs."""
        return max((self.ready[c][0] + 1 for c in inputs), default=0)

    def ffn_layer(self, inputs: list[int]) -> int:
        """Return the first layer whose FFN can read all inputs."""
        return max((r[0] + (1 if r[1] == 1 else 0) for r in (self.ready[c] for c in inputs)), default=0)

    def add_head(self, layer: int, head: _HeadSpec, outputs: list[int]) -> tuple[int, int]:
        """Append a head to a layer; return its (layer, head index)."""
        self._grow(layer)
        self.layers[layer][0].append(head)
        for c in outputs:
            self.ready[c] = (layer, 0)
        return layer, len(self.layers[layer][0]) - 1

    def add_units(self, layer: int, units: _Units, outputs: list[int]) -> None:
        self._grow(layer)
        self.layers[layer][1].extend(units)
        for c in outputs:
            self.ready[c] = (layer, 1)

    @staticmethod
    def clamp01(units: _Units, w: dict[int, float], b: float, dst: int, sign: float = 1.0) -> None:
        """Add sign * clamp(w . y + b, 0, 1) into dst (two ReLU units)."""
        units.append((w, b, {dst: sign}))
        units.append((w, b - 1.0, {dst: -sign}))

    def build(self) -> list[Layer]:
        d = len(self.names)
        out = []
        for heads, units in self.layers:
            hs = [build_head(d, terms, values, mask) for terms, values, mask in heads]
            m = max(1, len(units))
            W1, b1, W2 = np.zeros((d, m)), np.zeros(m), np.zeros((m, d))
            for u, (w_in, bias, w_out) in enumerate(units):
                for k, wk in w_in.items():
                    W1[k, u] += wk
                b1[u] = bias
                for k, wk in w_out.items():
                    W2[u, k] += wk
            out.append(Layer(tuple(hs), W1, b1, W2, np.zeros(d)))
        return out


@dataclass(frozen=True)
class Compiled:
    """A compiled program: the model, the coordinates of every sequence, and those of the outputs (in ``Program.symbols`` order)."""

    program: Program
    model: Model
    coords: dict[str, tuple[int, ...]]  # Boolean: (c,); integer: (v, v^2)
    output_coords: tuple[int, ...]
    #: definition -> (layer, head): a Psum's lookup head (its averaging head: name + ".frac"), an Aggregate's, a Once's
    heads: dict[str, tuple[int, int]] | None = None

    def readout(self, x: np.ndarray) -> np.ndarray:
        """Return the output symbol indices from final activations (batch, n, d): the output coordinate holding the largest value."""
        return np.argmax(x[..., list(self.output_coords)], axis=-1).astype(np.int64)


def compile_program(prog: Program) -> Compiled:
    """Return the average-hard transformer computing prog (the encoding of the module docstring); run it with hard_mode="average".

    Aggregates with the same selector (key, query, offset, where, mask) share one head
    (one value column each): the same scores, so the same gap.
    """
    B = _Builder()
    feat = {f: B.coord(f) for f in FEATURES}
    one, pos, pos2, inv, posn = (feat[f] for f in FEATURES)
    tok = [B.coord(f"tok[{s}]") for s in prog.alphabet]
    coords: dict[str, tuple[int, ...]] = {}
    token_defs: dict[int, list[str]] = {}  # coordinate -> symbols it holds (filled by the embedding)
    shared: dict[tuple, tuple[int, int, _HeadSpec]] = {}  # aggregate selector -> (layer, head index, head)
    heads: dict[str, tuple[int, int]] = {}

    def ffn(name: str, inputs: list[int], units: _Units, c: int) -> None:
        """Place FFN units writing coordinate c (allocated for name) in the first layer whose FFN sees all inputs."""
        B.add_units(B.ffn_layer(inputs), units, [c])
        coords[name] = (c,)

    for name, op in prog.defs:
        if isinstance(op, Token):
            c = B.coord(name)
            token_defs[c] = list(op.symbols)
            coords[name] = (c,)
        elif isinstance(op, Not):
            (a,), c = coords[op.a], B.coord(name)
            ffn(name, [a], [({a: -1.0, one: 1.0}, 0.0, {c: 1.0})], c)  # 1 - a >= 0 on 0/1
        elif isinstance(op, And):
            (a,), (b,), c = coords[op.a], coords[op.b], B.coord(name)
            ffn(name, [a, b], [(_lin((a, 1.0), (b, 1.0)), -1.0, {c: 1.0})], c)
        elif isinstance(op, Or):
            (a,), (b,), c = coords[op.a], coords[op.b], B.coord(name)
            ffn(name, [a, b], [({a: 1.0}, 0.0, {c: 1.0}), ({b: 1.0}, 0.0, {c: 1.0}), (_lin((a, 1.0), (b, 1.0)), -1.0, {c: -1.0})], c)
        elif isinstance(op, Psum):
            frac = B.coord(f"{name}.frac")
            v, v2 = B.coord(name), B.coord(f"{name}^2")
            src = {coords[op.plus][0]: 1.0}
            if op.minus is not None:
                src[coords[op.minus][0]] = src.get(coords[op.minus][0], 0.0) - 1.0
            heads[f"{name}.frac"] = B.add_head(B.head_layer(list(src)), ([([], [])], {frac: src}, "strict"), [frac])
            lookup: _HeadSpec = ([([(frac, 2.0)], [(pos, 1.0)]), ([(inv, -1.0)], [(pos2, 1.0)])], {v: {pos: 1.0}, v2: {pos2: 1.0}}, "causal")
            heads[name] = B.add_head(B.head_layer([frac]), lookup, [v, v2])
            coords[name] = (v, v2)
        elif isinstance(op, IsConst):
            (v, _), c = coords[op.v], B.coord(name)
            units: _Units = []
            B.clamp01(units, {v: 4.0}, 2.0 - 4.0 * op.c, c)
            B.clamp01(units, {v: 4.0}, -1.0 - 4.0 * op.c, c, sign=-1.0)
            ffn(name, [v], units, c)
        elif isinstance(op, Aggregate):
            raw = B.coord(f"{name}.raw")
            kv, kv2 = coords[op.key]
            qv, qv2 = coords[op.query]
            (wh,), (val,) = coords[op.where], coords[op.value]
            selector = (op.key, op.query, op.offset, op.where, op.mask)
            if selector in shared and B.head_layer([val]) <= shared[selector][0]:
                layer, index, spec = shared[selector]
                spec[1][raw] = {val: 1.0}
                B.ready[raw] = (layer, 0)
                heads[name] = (layer, index)
            else:
                o = float(op.offset)
                # s = 2 where_j - 2 v2_j + j/n + 4 v_j (q_i + o) - 2 (q2_i + 2 o q_i + o^2)  [= 2 where_j - 2 (v_j - t_i)^2 + j/n]
                terms = [
                    ([(one, 1.0)], [(wh, 2.0), (kv2, -2.0), (posn, 1.0)]),
                    ([(qv, 4.0), (one, 4.0 * o)], [(kv, 1.0)]),
                    ([(qv2, -2.0), (qv, -4.0 * o), (one, -2.0 * o * o)], [(one, 1.0)]),
                ]
                spec = (terms, {raw: {val: 1.0}}, op.mask)
                layer, index = B.add_head(B.head_layer([kv, kv2, qv, qv2, wh, val]), spec, [raw])
                shared[selector] = (layer, index, spec)
                heads[name] = (layer, index)
            c = B.coord(name)
            ffn(name, [raw], _clean(B, raw, c), c)
        elif isinstance(op, Once):
            raw = B.coord(f"{name}.raw")
            (b,) = coords[op.b]
            heads[name] = B.add_head(B.head_layer([b]), ([([(one, 1.0)], [(b, 1.0)])], {raw: {b: 1.0}}, "causal"), [raw])
            c = B.coord(name)
            ffn(name, [raw], _clean(B, raw, c), c)
    # outputs: out_k = [b_k and no earlier b] = ReLU(b_k - sum of earlier b) on 0/1 values; default = 1 - clamp(sum, 0, 1)
    outs = [B.coord(f"out[{s}]") for s in prog.symbols]
    bools = [coords[b][0] for _, b in prog.outputs]
    units = []
    for k, (bc, oc) in enumerate(zip(bools, outs)):
        units.append((_lin((bc, 1.0), *((s, -1.0) for s in bools[:k])), 0.0, {oc: 1.0}))
    units.append(({one: 1.0}, 0.0, {outs[-1]: 1.0}))
    B.clamp01(units, _lin(*((s, 1.0) for s in bools)), 0.0, outs[-1], sign=-1.0)
    B.add_units(B.ffn_layer(bools), units, outs)

    d = len(B.names)
    WE = np.zeros((len(prog.alphabet), d))
    for k, sym in enumerate(prog.alphabet):
        WE[k, tok[k]] = 1.0
        for tc, syms in token_defs.items():
            if sym in syms:
                WE[k, tc] = 1.0
    PE = np.zeros((len(FEATURES), d))
    for r, feature in enumerate(FEATURES):
        PE[r, feat[feature]] = 1.0
    model = Model(prog.alphabet, WE, PositionEmbedding(FEATURES, PE), tuple(B.build()), prog.name)
    return Compiled(prog, model, coords, tuple(outs), heads)


def _lin(*terms: tuple[int, float]) -> dict[int, float]:
    """Return {coordinate: summed weight}: the same coordinate twice (And(a, a)) adds up instead of overwriting."""
    out: dict[int, float] = {}
    for c, w in terms:
        out[c] = out.get(c, 0.0) + w
    return out


def _clean(B: _Builder, raw: int, c: int) -> _Units:
    """Return the units writing clamp(2 raw - 1/2, 0, 1) into c (0/1 restored exactly from within 1/4)."""
    units: _Units = []
    B.clamp01(units, {raw: 2.0}, -0.5, c)
    return units


def claimed_gap(prog: Program, n: int) -> float:
    """Return the compiled program's gap lower bound at length n (module docstring): min over its attention kinds."""
    g = math.inf
    if prog.uses(Psum) and n >= 2:
        g = min(g, 1.0 / (n - 1))
    if prog.uses(Aggregate) and n >= 2:
        g = min(g, 1.0 / n)
    if prog.uses(Once) and n >= 2:
        g = min(g, 1.0)
    return g


def tau_for(n: int) -> float:
    """Return the compiled programs' temperature tau(n) = 1/(n ln(128 n^3)) (derivation in the module docstring)."""
    return 1.0 / (n * math.log(128.0 * n**3))


# --------------------------------------------------------------------------- Dyck-k

#: Bracket pairs of Dyck-k, k <= 4.
BRACKETS = (("(", ")"), ("[", "]"), ("{", "}"), ("<", ">"))


def dyck_program(k: int = 2) -> Program:
    """Return the Dyck-k prefix-validity program: per prefix w_0..w_i: 'in' Dyck-k, 'open' (a proper prefix of a Dyck-k word) or 'bad'.

    depth_i = max(0, #open - #close over w_0..w_{i-1}) (the depth BEFORE i; never
    clamped on a valid prefix).  A close at i with depth_i = 0 goes negative.
    Otherwise its partner is the rightmost open j < i with depth_j = depth_i - 1:
    every open strictly between the partner and i sits deeper (>= depth_i), so
    the rightmost such j is the partner.  The prefix is bad from the first
    close that goes negative or whose partner has another type; it is in Dyck-k
    when it is not bad and the depth after i, depth_i + [open] - [close], is 0,
    i.e. a close with depth_i = 1.
    """
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= len(BRACKETS):
        raise ValueError(f"Dyck-k needs 1 <= k <= {len(BRACKETS)}, got k = {k!r}")
    pairs = BRACKETS[:k]
    alphabet = tuple(c for p in pairs for c in p)
    defs: list[tuple[str, Op]] = [
        ("open", Token(tuple(o for o, _ in pairs))),
        ("close", Token(tuple(c for _, c in pairs))),
        ("depth", Psum("open", "close")),
        ("at0", IsConst("depth", 0)),
        ("at1", IsConst("depth", 1)),
        ("underflow", And("close", "at0")),
    ]
    mism = None
    for t, (o, c) in enumerate(pairs):
        defs += [
            (f"open{t}", Token((o,))),
            (f"close{t}", Token((c,))),
            (f"partner{t}", Aggregate("depth", "depth", -1, "open", f"open{t}", "strict")),
            (f"other{t}", Not(f"partner{t}")),
            (f"mism{t}", And(f"close{t}", f"other{t}")),
        ]
        if mism is None:
            mism = f"mism{t}"
        else:
            defs.append((f"mism<={t}", Or(mism, f"mism{t}")))
            mism = f"mism<={t}"
    assert mism is not None
    defs += [
        ("err", Or("underflow", mism)),
        ("bad", Once("err")),
        ("good", Not("bad")),
        ("closes0", And("close", "at1")),
        ("in", And("closes0", "good")),
    ]
    return Program(f"dyck-{k}", alphabet, tuple(defs), (("bad", "bad"), ("in", "in")), "open")


def reference_dyck(word: str, k: int = 2) -> list[str]:
    """Dyck-k prefix validity by a stack (independent of the S-RASP program): 'in', 'open' or 'bad' per prefix."""
    pairs = BRACKETS[:k]
    opens = {o: t for t, (o, _) in enumerate(pairs)}
    closes = {c: t for t, (_, c) in enumerate(pairs)}
    stack: list[int] = []
    out, bad = [], False
    for ch in word:
        if ch not in opens and ch not in closes:
            raise ValueError(f"{ch!r} is not a bracket of Dyck-{k}")
        if not bad:
            if ch in opens:
                stack.append(opens[ch])
            elif not stack or stack.pop() != closes[ch]:
                bad = True
        out.append("bad" if bad else ("in" if not stack else "open"))
    return out
