"""S-RASP, the compiler: a program (``constructive.srasp.language``) to an average-hard transformer, one parameter set for every n.

Corresponds to the paper's application "every S-RASP program is computed by an
AHAT, hence by a softmax transformer at a temperature set by its gap" (Yang et
al., section on applications).  This is the project's OWN encoding, stated here
in full; it is not Strobl et al.'s simulation.  The model is written through
``constructive.residual`` (named coordinates, heads from score / value terms,
FFN units).

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
  integer.  ``BoolNot``/``BoolAnd``/``BoolOr``: FFN, 1 - a, ReLU(a + b - 1),
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
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from hardsoft.constructive.residual import HeadSpec, Residual, ScoreTerm, Unit, ValueTerm, clamp01
from hardsoft.constructive.srasp.language import Aggregate, BoolAnd, BoolNot, BoolOr, IsConst, Once, Op, Program, Psum, Token
from hardsoft.spec.transformer import Model

#: Position features of every compiled program.
FEATURES = ("one", "i", "i^2", "1/max(i,1)", "i/n")

#: When a coordinate holds its value: (layer, stage), stage 0 = after the layer's heads, 1 = after its FFN.
Ready = tuple[int, int]
#: The embeddings (features, tokens) are ready before layer 0's heads.
EMBEDDED: Ready = (-1, 1)


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


@dataclass(frozen=True)
class _Selector:
    """What fixes an Aggregate's scores: Aggregates with equal selectors share one head (one value column each)."""

    key: str
    query: str
    offset: int
    where: str
    mask: str


@dataclass
class _SharedHead:
    """An Aggregate head already placed: its layer, index in the layer, and its (still open) spec."""

    layer: int
    index: int
    spec: HeadSpec


@dataclass
class _Schedule:
    """The residual stream of one compilation, and when each coordinate is ready (the scheduling rule of the module docstring).

    A head reads the layer's input, so it goes in the first layer after all its inputs
    are ready; an FFN unit reads the heads' output, so it may share a layer with the
    head whose output it reads.  Independent definitions share layers.
    """

    res: Residual = field(default_factory=Residual)
    ready: dict[int, Ready] = field(default_factory=dict)

    def coord(self, label: str, ready: Ready = EMBEDDED) -> int:
        """Return a fresh coordinate (ready at ``ready``; the scheduler moves it when a head or unit writes it)."""
        c = self.res.add(label)
        self.ready[c] = ready
        return c

    def head_layer(self, inputs: list[int]) -> int:
        """Return the first layer whose heads can read all inputs."""
        return max((self.ready[c][0] + 1 for c in inputs), default=0)

    def ffn_layer(self, inputs: list[int]) -> int:
        """Return the first layer whose FFN can read all inputs."""
        return max((r[0] + (1 if r[1] == 1 else 0) for r in (self.ready[c] for c in inputs)), default=0)

    def add_head(self, layer: int, spec: HeadSpec, outputs: list[int]) -> tuple[int, int]:
        """Append a head to a layer; return its (layer, head index)."""
        plan = self.res.layer(layer)
        plan.heads.append(spec)
        for c in outputs:
            self.ready[c] = (layer, 0)
        return layer, len(plan.heads) - 1

    def add_value(self, shared: _SharedHead, value: ValueTerm) -> None:
        """Add a value column to a placed head (its scores, hence its gap, unchanged)."""
        shared.spec.values.append(value)
        self.ready[value.target] = (shared.layer, 0)

    def add_units(self, layer: int, units: list[Unit], outputs: list[int]) -> None:
        """Append FFN units to a layer."""
        self.res.layer(layer).units.extend(units)
        for c in outputs:
            self.ready[c] = (layer, 1)


def _label(role: str, name: str) -> str:
    """Return the coordinate label of one role of a definition (``role:'name'``: distinct for distinct definitions and roles)."""
    return f"{role}:{name!r}"


def _lin(*terms: tuple[int, float]) -> dict[int, float]:
    """Return {coordinate: summed weight}: the same coordinate twice (BoolAnd(a, a)) adds up instead of overwriting."""
    out: dict[int, float] = {}
    for c, w in terms:
        out[c] = out.get(c, 0.0) + w
    return out


def _clean(raw: int, c: int) -> list[Unit]:
    """Return the units writing clamp(2 raw - 1/2, 0, 1) into c (0/1 restored exactly from within 1/4)."""
    return clamp01({raw: 2.0}, -0.5, c)


class _ProgramCompiler:
    """One compilation: the steps of ``compile_program``, one method per kind of definition (the encoding of the module docstring)."""

    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.s = _Schedule()
        self.coords: dict[str, tuple[int, ...]] = {}
        self.token_defs: dict[int, tuple[str, ...]] = {}  # coordinate -> symbols it holds (filled by the embedding)
        self.shared: dict[_Selector, _SharedHead] = {}
        self.heads: dict[str, tuple[int, int]] = {}
        # step 1: the position features, then one coordinate per symbol
        self.feature = {f: self.s.coord(f) for f in FEATURES}
        self.one, self.pos, self.pos2, self.inv, self.posn = (self.feature[f] for f in FEATURES)
        self.tok = [self.s.coord(f"tok:{a!r}") for a in prog.alphabet]

    def bool(self, name: str) -> int:
        """Return the coordinate of a Boolean sequence."""
        return self.coords[name][0]

    def ffn(self, name: str, inputs: list[int], units: list[Unit], c: int) -> None:
        """Place FFN units writing coordinate c (allocated for name) in the first layer whose FFN sees all inputs."""
        self.s.add_units(self.s.ffn_layer(inputs), units, [c])
        self.coords[name] = (c,)

    # ------------------------------------------------------------------ step 2: the definitions

    def token(self, name: str, op: Token) -> None:
        """Token: a coordinate set by the word embedding (no layer)."""
        c = self.s.coord(_label("seq", name))
        self.token_defs[c] = op.symbols
        self.coords[name] = (c,)

    def bool_not(self, name: str, op: BoolNot) -> None:
        """BoolNot: 1 - a (one unit; 1 - a >= 0 on 0/1)."""
        a, c = self.bool(op.a), self.s.coord(_label("seq", name))
        self.ffn(name, [a], [Unit({a: -1.0, self.one: 1.0}, 0.0, {c: 1.0})], c)

    def bool_and(self, name: str, op: BoolAnd) -> None:
        """BoolAnd: ReLU(a + b - 1)."""
        a, b, c = self.bool(op.a), self.bool(op.b), self.s.coord(_label("seq", name))
        self.ffn(name, [a, b], [Unit(_lin((a, 1.0), (b, 1.0)), -1.0, {c: 1.0})], c)

    def bool_or(self, name: str, op: BoolOr) -> None:
        """BoolOr: a + b - ReLU(a + b - 1)."""
        a, b, c = self.bool(op.a), self.bool(op.b), self.s.coord(_label("seq", name))
        units = [Unit({a: 1.0}, 0.0, {c: 1.0}), Unit({b: 1.0}, 0.0, {c: 1.0}), Unit(_lin((a, 1.0), (b, 1.0)), -1.0, {c: -1.0})]
        self.ffn(name, [a, b], units, c)

    def psum(self, name: str, op: Psum) -> None:
        """Psum: the averaging head (all scores 0) writes S_i / i, the lookup head turns it into (v, v^2) = (S_i, S_i^2)."""
        frac = self.s.coord(_label("frac", name))
        v, v2 = self.s.coord(_label("seq", name)), self.s.coord(_label("square", name))
        src = {self.bool(op.plus): 1.0}
        if op.minus is not None:
            src[self.bool(op.minus)] = src.get(self.bool(op.minus), 0.0) - 1.0
        average = HeadSpec([ScoreTerm()], [ValueTerm(frac, src)], "strict")
        self.heads[f"{name}.frac"] = self.s.add_head(self.s.head_layer(list(src)), average, [frac])
        # s_ip = 2 p f_i - p^2 / max(i, 1)
        scores = [ScoreTerm({frac: 2.0}, {self.pos: 1.0}), ScoreTerm({self.inv: -1.0}, {self.pos2: 1.0})]
        lookup = HeadSpec(scores, [ValueTerm(v, {self.pos: 1.0}), ValueTerm(v2, {self.pos2: 1.0})], "causal")
        self.heads[name] = self.s.add_head(self.s.head_layer([frac]), lookup, [v, v2])
        self.coords[name] = (v, v2)

    def is_const(self, name: str, op: IsConst) -> None:
        """IsConst: clamp(4(v - c) + 2, 0, 1) - clamp(4(v - c) - 1, 0, 1) (four units)."""
        v, c = self.coords[op.v][0], self.s.coord(_label("seq", name))
        units = clamp01({v: 4.0}, 2.0 - 4.0 * op.c, c) + clamp01({v: 4.0}, -1.0 - 4.0 * op.c, c, sign=-1.0)
        self.ffn(name, [v], units, c)

    def aggregate(self, name: str, op: Aggregate) -> None:
        """Aggregate: s_ij = 2 [where_j] - 2 (key_j - t_i)^2 + j/n copies the value into a raw coordinate, cleaned by the FFN."""
        raw = self.s.coord(_label("raw", name))
        kv, kv2 = self.coords[op.key]
        qv, qv2 = self.coords[op.query]
        wh, val = self.bool(op.where), self.bool(op.value)
        selector = _Selector(op.key, op.query, op.offset, op.where, op.mask)
        placed = self.shared.get(selector)
        if placed is not None and self.s.head_layer([val]) <= placed.layer:
            self.s.add_value(placed, ValueTerm(raw, {val: 1.0}))
        else:
            o = float(op.offset)
            one = self.one
            # s = 2 where_j - 2 v2_j + j/n + 4 v_j (q_i + o) - 2 (q2_i + 2 o q_i + o^2)  [= 2 where_j - 2 (v_j - t_i)^2 + j/n]
            scores = [
                ScoreTerm({one: 1.0}, {wh: 2.0, kv2: -2.0, self.posn: 1.0}),
                ScoreTerm({qv: 4.0, one: 4.0 * o}, {kv: 1.0}),
                ScoreTerm({qv2: -2.0, qv: -4.0 * o, one: -2.0 * o * o}, {one: 1.0}),
            ]
            spec = HeadSpec(scores, [ValueTerm(raw, {val: 1.0})], op.mask)
            layer, index = self.s.add_head(self.s.head_layer([kv, kv2, qv, qv2, wh, val]), spec, [raw])
            placed = self.shared[selector] = _SharedHead(layer, index, spec)
        self.heads[name] = (placed.layer, placed.index)
        c = self.s.coord(_label("seq", name))
        self.ffn(name, [raw], _clean(raw, c), c)

    def once(self, name: str, op: Once) -> None:
        """Once: a causal head with score b_j (gap 1) copies b into a raw coordinate, cleaned by the FFN."""
        raw = self.s.coord(_label("raw", name))
        b = self.bool(op.b)
        spec = HeadSpec([ScoreTerm({self.one: 1.0}, {b: 1.0})], [ValueTerm(raw, {b: 1.0})], "causal")
        self.heads[name] = self.s.add_head(self.s.head_layer([b]), spec, [raw])
        c = self.s.coord(_label("seq", name))
        self.ffn(name, [raw], _clean(raw, c), c)

    # ------------------------------------------------------------------ step 3: the outputs

    def outputs(self) -> tuple[int, ...]:
        """Write one coordinate per output symbol: out_k = ReLU(b_k - sum of earlier b) on 0/1 values; default = 1 - clamp(sum, 0, 1)."""
        outs = [self.s.coord(f"out:{sym!r}") for sym in self.prog.symbols]
        bools = [self.bool(b) for _, b in self.prog.outputs]
        units = [Unit(_lin((bc, 1.0), *((s, -1.0) for s in bools[:k])), 0.0, {oc: 1.0}) for k, (bc, oc) in enumerate(zip(bools, outs))]
        units.append(Unit({self.one: 1.0}, 0.0, {outs[-1]: 1.0}))
        units += clamp01(_lin(*((s, 1.0) for s in bools)), 0.0, outs[-1], sign=-1.0)
        self.s.add_units(self.s.ffn_layer(bools), units, outs)
        return tuple(outs)

    # ------------------------------------------------------------------ step 4: the model

    def model(self) -> Model:
        """Return the model: WE sets each symbol's coordinate and the Tokens holding it, PE the position features."""
        res, al = self.s.res, self.prog.alphabet
        rows = {sym: {self.tok[k]: 1.0, **{tc: 1.0 for tc, syms in self.token_defs.items() if sym in syms}} for k, sym in enumerate(al)}
        return Model(al, res.word_embedding(al, rows), res.position_embedding(FEATURES), res.build_layers(), self.prog.name)


_DEFINITION: dict[type, Callable[[_ProgramCompiler, str, Op], None]] = {
    Token: _ProgramCompiler.token,  # type: ignore[dict-item]
    BoolNot: _ProgramCompiler.bool_not,  # type: ignore[dict-item]
    BoolAnd: _ProgramCompiler.bool_and,  # type: ignore[dict-item]
    BoolOr: _ProgramCompiler.bool_or,  # type: ignore[dict-item]
    Psum: _ProgramCompiler.psum,  # type: ignore[dict-item]
    IsConst: _ProgramCompiler.is_const,  # type: ignore[dict-item]
    Aggregate: _ProgramCompiler.aggregate,  # type: ignore[dict-item]
    Once: _ProgramCompiler.once,  # type: ignore[dict-item]
}


def compile_program(prog: Program) -> Compiled:
    """Return the average-hard transformer computing prog (the encoding of the module docstring); run it with hard_mode="average".

    Steps: (1) the position features and one coordinate per symbol; (2) each
    definition in order, scheduled as early as its inputs allow (Aggregates with the
    same selector (key, query, offset, where, mask) share one head, one value column
    each: the same scores, so the same gap); (3) the output coordinates; (4) the
    embeddings, and every layer built at the final width.
    """
    pc = _ProgramCompiler(prog)
    for name, op in prog.defs:
        _DEFINITION[type(op)](pc, name, op)
    outs = pc.outputs()
    return Compiled(prog, pc.model(), pc.coords, outs, pc.heads)


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
