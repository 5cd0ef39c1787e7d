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
  *lookup* head (Lemma 7's table lookup, with positions as the table;
  ``constructive.heads.position_lookup_spec``, shared with the temporal-logic compiler): causal,
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

The operations beyond the Dyck fragment
--------------------------------------
* Integers are held as affine forms over coordinates (``Affine``; ``Compiled.ints``), not
  as coordinates of their own: ``Index`` is the feature i (square i^2), a constant c is
  c * one (square c^2), ``Lin`` sums its operands' forms (no layer), a Boolean read as an
  integer is its own coordinate (and its own square).  A square (``Compiled.squares``)
  exists for the index, ``Psum``, Booleans, constants and a x + c of one of them:
  (a x + c)^2 = a^2 x^2 + 2 a c x + c^2 is affine in (x, x^2).
* ``Compare``: FFN on z = left - right, an integer (within 1/4 in soft mode):
  == is IsConst's clamp(4z + 2) - clamp(4z - 1), != one minus that, and
  > / >= / < / <= are clamp(2u - 1/2, 0, 1) for u = z, z + 1, -z, 1 - z (u >= 1 or u <= 0
  for integers): exact 0/1 from within 1/4.  No head.
* ``BoolConst``: true = ReLU(one); false: a coordinate nothing writes.  ``Cond`` on
  Booleans: ReLU(b + x - 1) + ReLU(y - b).  On integers x, y of degree <= 2 and growth
  C <= MAX_KEY_SCALE: y + b (x - y) by the big-M product of ``gated`` (below), |x - y| <= 2 C (i+1)
  (both of degree 0: |x - y| <= 2 C and a constant M, no head; degree 2: M (i+1)^2 from the gate head's copies of
  b i and b i^2);
  soft error <= max(err x, err y) + M (gate copy error): with b = 0 the product is exactly 0, with
  b = 1 it is x - y, so errors do not grow through nested conditionals.  Degree above 2: refused
  (|x - y| ~ n^d needs a big M of degree d, and no feature holds i^d beyond i^2).
* ``PrefixSum``: its argument must expand to a combination of Booleans, the index and 1;
  sum_{j<=i} b_j = S_b(i) + b_i with S_b the Psum construction above (averaging head, gap
  +inf; lookup head, gap >= 1/(n-1)), shared by every PrefixSum reading b;
  sum_{j<=i} j = (i^2 + i)/2 and sum_{j<=i} 1 = i + 1 are affine in the features.
  A bounded integer x (|x| <= C, a constant C <= MAX_PSUM_LEVELS, say a select of constants or a
  conditional) is its levels, x = sum_{k<=C} [x >= k] - sum_{k<=C} [x <= -k]: 2C Booleans by
  ``Compare``'s units (exact from within 1/4), each summed as above.  Anything else (a psum of a
  psum: squaring; an integer that grows with i) is refused.
* ``Select`` with a Boolean value: one head, mask as given,
  scores s_ij = 2 [where_j] - 2 (k_j - t_i)^2 + sigma j/n (sigma = +1 rightmost, -1
  leftmost; t_i = query_i + offset; the terms that are the same for every key of a query,
  -2 t_i^2 when the query has no square, are dropped: they change neither the max set nor
  softmax).  With no comparison the (k - t)^2 term is absent, with no where filter the
  2 [where] term.  As for the Aggregate, the levels 2 [where] - 2 d^2 are even integers and
  j/n in [0, 1) orders a level's keys: the maximum is unique, a match when one exists, and
  the gap is >= 1/n.  Values: the value, [where] (or one) and the key; then FFN stages
  value* = clean, where* = clean, eq = [key* - t_i = 0] (IsConst's units), found = where*
  and eq, output = ReLU(found + value* - 1) + ReLU(default - found).  Keys without a
  square and keys or queries growing faster than MAX_KEY_SCALE (i+1) are refused.
* ``Select`` with an integer value x (``select_output``), keys j <= i (mask causal or strict; keys after i below)
  and value and default of degree <= 1 with growth C <= MAX_KEY_SCALE, so |x_j|, |default_i| <= C (i+1).
  The same head and found test as above (the same scores: gap >= 1/n); its value column copies x_j's
  affine form raw (no clean-up), and the output is default + found * (x* - default), the product by
  a big M that grows like the position (``gated``): with z = x* - default (|z| <= 2C (i+1), M = 2C + 1)
  and P = found (i+1), found * z = ReLU(z - M (i+1 - P)) - ReLU(-z - M (i+1 - P)), exact for found in
  {0, 1} (with found = 0 the margin M (i+1) - |z| >= 1 keeps both units at 0 for z within 1 of an integer).
  P = found * i + found comes from the gated position head (``constructive.heads.gated_position_spec``:
  causal, s_ij = (2 found_i - 1) j, value j; gap 1).
  Soft copy error: keys differ from the chosen one by |x_j - x*| <= 2 C n, so the raw copy is off by
  <= 2 C n m (plus the value's own error) with m the mass off the top, m <= n (128 S n^3)^{-(1 - 1/(2n))} <= n (128 S n^3)^{-3/4}
  at tau = 1/(n ln(128 S n^3)) (n >= 2; the bound of the aggregate below with the scale S): the error is
  <= 2 C n^{-1/4} / (38 S^{3/4}) <= 1/19 once S >= C^2 (``note_scale`` on value and default, so the
  temperature scales with the bound 64 (i+1) as S = C^2 <= 64^2).  The gate head's copy is off by
  <= x/(1-x)^2, x = e^{-1/tau} = (128 S n^3)^{-n} (Lean: HardSoft.gated_position_copy, for every n), and enters
  times M <= 129: <= 129 * 4/1024^2 < 10^-3 (n = 2 is the worst case; n = 1 has one key).  The output
  is then within 1/4 of the integer, as every integer the model holds.  Value and default bounded by
  constants (degree 0, |x| <= C) compile under every mask: z is bounded by 2 C, so the product takes
  the constant M (``gated``: no gate head) and the copy is off by <= 2 C m.  Under a mask that shows keys
  after i (none, anticausal, strict_anticausal) with value or default of degree 1, |z| <= 2 C n: the slack is
  M n (1 - found) = M ((1 - found)(n - 1) + 1 - found), its first term from the gate head over every key with
  the gate negated (mask none, s_ij = (1 - 2 found_i) j, value j: n - 1 when found = 0, 0 when found = 1;
  ``gated``'s span "n"), the margin M n - |z| >= n >= 1, and the same Lean theorems with N = n keys.
* ``Select`` comparing by < <= > >= with the index as key and no where filter (``select_order``).
  The keys j < t of a contiguous
  mask end next to t, so the rightmost of them is the visible key nearest to t - 1 (a
  parabola, gap 2) and the leftmost the leftmost visible key (tie-break, gap 1/n); j > t
  mirrored; then found = [a key is visible] and [k* < t] (resp. > t).  By != on the index:
  two such selects (``select_not_equal``).
* ``Select`` comparing by < <= > >= != otherwise (``select_one_hot``): when the key or the query
  (plus the offset) is bounded by a constant C <= MAX_PSUM_LEVELS (degree 0), one-hot Booleans on
  the bounded side and thresholds on the other, a_v(j) = [k_j == v] and where_j, b_v(i) = [v CMP t_i]
  (bounded key; bounded query: b_v(i) = [t_i == v], a_v(j) = [k_j CMP v] and where_j), so
  sum_v a_v(j) b_v(i) = [k_j CMP t_i] and where_j =: sel(i, j) in {0, 1}; scores 2 sel(i, j) +- j/n
  (the no-comparison select's family; gap 1/n, exact in soft mode), found = sum_v AND(a_v(j*), b_v(i))
  cleaned.  With both sides unbounded (and not the index path) it is refused: k_j < t_i is no
  bilinear score of bounded dimension when both grow (docs/srasp.md, "Not compiled yet").

Definitions are scheduled into layers as early as their inputs allow (a head
reads the layer's input; an FFN unit may read the heads of its own layer);
Token needs no layer (it is the embedding).  Aggregates with the same selector
share one head.  The gap of a compiled program is at least
min(1/(n-1) if it has a Psum or PrefixSum, 1/n if it has an Aggregate or Select, 1 for Once).

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

With integers of growth C (|v_i| <= C (i+1)^d) compared or selected on, every error above
is multiplied by at most C (the forms' coefficients on leaking coordinates), the
selector's score error by C^2: the temperature is tau = 1/(n ln(128 S n^3)) with the
program's scale S = max(1, C^2) (``Compiled.scale``; S = 1 for Dyck), which divides x by S
and brings every bound back to the one above.  This is a derivation sketch, not a proof
for every n: the verification (``constructive.srasp.verify``) checks every cell on every
word up to the tested lengths at this temperature.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hardsoft.constructive.gcpause import without_cycle_collection
from hardsoft.constructive.heads import gated_position_spec, position_lookup_spec
from hardsoft.constructive.residual import HeadSpec, Residual, ScoreTerm, Unit, ValueTerm, clamp01
from hardsoft.constructive.srasp.language import (
    Aggregate,
    BoolAnd,
    BoolConst,
    BoolNot,
    BoolOr,
    Compare,
    Cond,
    Index,
    IsConst,
    Lin,
    Once,
    Op,
    PrefixSum,
    Program,
    Psum,
    Select,
    Token,
)
from hardsoft.spec.transformer import Model, Trace

#: Position features of every compiled program.
FEATURES = ("one", "i", "i^2", "1/max(i,1)", "i/n")

#: When a coordinate holds its value: (layer, stage), stage 0 = after the layer's heads, 1 = after its FFN.
Ready = tuple[int, int]
#: The embeddings (features, tokens) are ready before layer 0's heads.
EMBEDDED: Ready = (-1, 1)


#: Largest growth of the key or query of a compiled selector or aggregate, |v_i| <= MAX_KEY_SCALE (i+1): its
#: scores reach ~ 4 C^2 n^2, and the 1/n tie-break must stay far above float64's resolution there
#: (and above the hard modes' tie tolerance, spec.constants.TIE_RTOL): 4 * 64^2 * n^3 * 1024 * 2^-52 < 1/2 for n <= 2^7.
MAX_KEY_SCALE = 64
#: Largest bound C of an integer whose psum is compiled through its levels (|x| <= C: 2C Booleans, 4C heads).
MAX_PSUM_LEVELS = 16
#: Selector comparisons compiled by order (< <= > >=) or as != (the index path, or one-hot; ``select_one_hot``).
ORDER_COMPARISONS = ("<", "<=", ">", ">=", "!=")
#: The integers whose squares a compiled model holds (what an == selector's key may be).
_SQUARED = "the index, strict_psum, Booleans, constants or a*x + c of one of them"


@dataclass(frozen=True)
class Affine:
    """An affine form over residual coordinates: sum_c w[c] x[c] + const (how an integer definition is held)."""

    w: dict[int, float]
    const: float = 0.0

    def plus(self, other: Affine, scale: float = 1.0) -> Affine:
        """Return self + scale * other."""
        w = dict(self.w)
        for c, v in other.w.items():
            w[c] = w.get(c, 0.0) + scale * v
        return Affine({c: v for c, v in w.items() if v != 0.0}, self.const + scale * other.const)

    def scaled(self, scale: float) -> Affine:
        """Return scale * self."""
        return Affine({c: scale * v for c, v in self.w.items()} if scale else {}, scale * self.const)

    def evaluate(self, x: np.ndarray) -> np.ndarray:
        """Return the form's value on activations x (..., d)."""
        out = np.full(x.shape[:-1], self.const)
        for c, v in self.w.items():
            out = out + v * x[..., c]
        return out


@dataclass(frozen=True)
class Gate:
    """One big-M product b z = ReLU(z + s) - ReLU(-z + s) (``gated``; Lean: HardSoft.big_m_product, HardSoft.gated_slack_at_rule).

    coord  -- the coordinate the two units write (b z)
    gate   -- the Boolean b's coordinate
    big_m  -- M (2 C + 1, C the operands' growth)
    degree -- d: the hard slack is -M K (1 - b), K = (i+1)^d (d = 0: a constant, no head; 1, 2: from the gate head's copies)
    span   -- "i": K = (i+1)^d as above; "n": K = n, d = 1 (an integer select whose mask shows keys after i: the gate head
              over every key, ``gated``)
    layer  -- the layer (0-based) whose FFN holds the two units (the coordinate serves other values at other times)
    """

    coord: int
    gate: int
    big_m: float
    degree: int
    span: str = "i"
    layer: int = -1


@dataclass(frozen=True)
class Compiled:
    """A compiled program: the model, the coordinates of every sequence, and those of the outputs (in ``Program.symbols`` order)."""

    program: Program
    model: Model
    coords: dict[str, tuple[int, ...]]  # Boolean: (c,); integer: (v, v^2)
    output_coords: tuple[int, ...]
    #: definition -> (layer, head): a Psum's lookup head (its averaging head: name + ".frac"), an Aggregate's, a Once's
    heads: dict[str, tuple[int, int]] | None = None
    #: integer definition -> its value as an affine form over coordinates (every integer, the Psums' included)
    ints: dict[str, Affine] = field(default_factory=dict)
    #: integer definition -> its square as an affine form, where the compiled model holds it (keys of == selectors)
    squares: dict[str, Affine] = field(default_factory=dict)
    #: the temperature's scale S (1 unless integers with large constants are compared or selected on): tau_for(n, S)
    scale: float = 1.0
    #: integer definition -> its big-M product (an integer conditional's or integer-valued select's)
    gates: dict[str, Gate] = field(default_factory=dict)
    #: definition (and "name^2" for a square) -> the activation index where ``values`` reads it: the last stage at which
    #: every coordinate of it still holds it (coordinates serve several definitions in turn: ``Residual.compact``)
    stages: dict[str, int] = field(default_factory=dict)

    def tau(self, n: int) -> float:
        """Return the temperature at which soft mode decides like hard mode at length n (``tau_for`` with this program's scale)."""
        return tau_for(n, self.scale)

    def _at(self, acts: Any, name: str) -> np.ndarray:
        """Return the activations where a definition is read: activations[stages[name]] of every layer's, or the final ones alone."""
        if isinstance(acts, (list, tuple)):
            return np.asarray(acts[self.stages.get(name, len(acts) - 1)])
        if self.stages.get(name, self.model.depth) != self.model.depth:
            raise ValueError(f"reading {name!r} needs every layer's activations (a Trace): its coordinate serves a later definition")
        return np.asarray(acts)

    def values(self, activations: Any) -> dict[str, np.ndarray]:
        """Return every definition's value, (batch, n): Booleans by coordinate, integers by form, each read at its stage.

        ``activations``: a Trace or the list of every stage's activations (embedding first), or the final
        activations (batch, n, d) when every definition lasts to the end.
        """
        acts = activations.activations if isinstance(activations, Trace) else activations
        out = {name: self._at(acts, name)[..., c[0]] for name, c in self.coords.items() if name not in self.ints}
        out.update({name: f.evaluate(self._at(acts, name)) for name, f in self.ints.items()})
        return out

    def square_values(self, activations: Any) -> dict[str, np.ndarray]:
        """Return the squares the model holds ("name^2" -> (batch, n)), each read at its stage (as ``values``)."""
        acts = activations.activations if isinstance(activations, Trace) else activations
        return {f"{name}^2": f.evaluate(self._at(acts, f"{name}^2")) for name, f in self.squares.items()}

    def readout(self, x: Any) -> np.ndarray:
        """Return the output symbol indices from final activations (batch, n, d) (or a Trace): the output coordinate holding the largest value."""
        final = np.asarray(x.activations[-1] if isinstance(x, Trace) else x[-1] if isinstance(x, (list, tuple)) else x)
        return np.argmax(final[..., list(self.output_coords)], axis=-1).astype(np.int64)


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
        self.gates: dict[str, Gate] = {}
        self.ints: dict[str, Affine] = {}
        self.squares: dict[str, Affine] = {}
        #: integer definition -> its expansion over atoms ("b", Boolean name) / ("i",) / ("1",), where it is one
        self.expand: dict[str, dict[tuple[str, ...], int]] = {}
        self.strict_sums: dict[str, int] = {}  # Boolean name -> coordinate of sum_{j<i} b_j (PrefixSum's lookups)
        self.kinds = prog.kinds()
        self.growth = prog.growths()
        self.scale = 1.0
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
        lookup = position_lookup_spec(frac, self.pos, self.pos2, self.inv, [ValueTerm(v, {self.pos: 1.0}), ValueTerm(v2, {self.pos2: 1.0})], "causal")
        self.heads[name] = self.s.add_head(self.s.head_layer([frac]), lookup, [v, v2])
        self.coords[name] = (v, v2)
        self.ints[name], self.squares[name] = Affine({v: 1.0}), Affine({v2: 1.0})

    def is_const(self, name: str, op: IsConst) -> None:
        """IsConst: clamp(4(v - c) + 2, 0, 1) - clamp(4(v - c) - 1, 0, 1) (four units)."""
        v, c = self.coords[op.v][0], self.s.coord(_label("seq", name))
        units = clamp01({v: 4.0}, 2.0 - 4.0 * op.c, c) + clamp01({v: 4.0}, -1.0 - 4.0 * op.c, c, sign=-1.0)
        self.ffn(name, [v], units, c)

    def aggregate(self, name: str, op: Aggregate) -> None:
        """Aggregate: s_ij = 2 [where_j] - 2 (key_j - t_i)^2 + j/n copies the value into a raw coordinate, cleaned by the FFN."""
        k, k2, q, q2 = self.integer(op.key), self.square(op.key), self.integer(op.query), self.square(op.query)
        if k2 is None or q2 is None:
            missing = op.key if k2 is None else op.query
            raise self.refuse(
                name,
                f"{missing!r} has no square in the compiled model (aggregate keys and queries are {_SQUARED})",
            )
        for x in (op.key, op.query):
            self.check_key(name, x, "aggregate")
        self.note_scale(op.key, op.query)
        raw = self.s.coord(_label("raw", name))
        wh, val = self.bool(op.where), self.bool(op.value)
        selector = _Selector(op.key, op.query, op.offset, op.where, op.mask)
        placed = self.shared.get(selector)
        if placed is not None and self.s.head_layer([val]) <= placed.layer:
            self.s.add_value(placed, ValueTerm(raw, {val: 1.0}))
        else:
            o = float(op.offset)
            one = self.one
            # s = 2 where_j - 2 k2_j + j/n + 4 k_j (q_i + o) - 2 (q2_i + 2 o q_i + o^2)  [= 2 where_j - 2 (k_j - t_i)^2 + j/n]
            # (constants of the key-side forms are the same for every key of a query: dropped)
            tq, t2 = q.plus(Affine({}, o)), q2.plus(q, 2.0 * o).plus(Affine({}, o * o))
            scores = [
                ScoreTerm({one: 1.0}, _lin((wh, 2.0), *((c, -2.0 * v) for c, v in k2.w.items()), (self.posn, 1.0))),
                ScoreTerm(_lin(*((c, 4.0 * v) for c, v in tq.w.items()), (one, 4.0 * tq.const)), dict(k.w)),
                ScoreTerm(_lin(*((c, -2.0 * v) for c, v in t2.w.items()), (one, -2.0 * t2.const)), {one: 1.0}),
            ]
            spec = HeadSpec(scores, [ValueTerm(raw, {val: 1.0})], op.mask)
            reads = sorted(k.w) + sorted(k2.w) + sorted(q.w) + sorted(q2.w) + [wh, val]
            layer, index = self.s.add_head(self.s.head_layer(reads), spec, [raw])
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

    # ------------------------------------------------------------------ step 2b: the operations beyond the Dyck fragment

    def refuse(self, name: str, what: str) -> ValueError:
        """Return the one-line error for a definition the compiler cannot compile (the interpreter still runs it)."""
        return ValueError(f"S-RASP compiler: cannot compile definition {name!r} of program {self.prog.name}: {what}")

    def integer(self, x: str) -> Affine:
        """Return an integer (or a Boolean read as 0/1) as an affine form."""
        return self.ints[x] if x in self.ints else Affine({self.bool(x): 1.0})

    def square(self, x: str) -> Affine | None:
        """Return the square of an integer as an affine form, when the model holds it (a Boolean is its own square)."""
        return self.squares.get(x) if x in self.ints else Affine({self.bool(x): 1.0})

    def atoms(self, x: str) -> dict[tuple[str, ...], int] | None:
        """Return an integer's expansion over Booleans, the index and 1, if it has one."""
        return self.expand.get(x) if x in self.ints else {("b", x): 1}

    def linear(self, e: Lin) -> Affine:
        """Return a linear expression as an affine form."""
        f = Affine({}, float(e.const))
        for c, x in e.terms:
            f = f.plus(self.integer(x), float(c))
        return f

    def note_scale(self, *xs: str) -> None:
        """Raise the temperature's scale to C^2 for integers compared or selected on (their soft errors scale with C)."""
        for x in xs:
            self.scale = max(self.scale, float(self.growth[x][0]) ** 2)

    def check_key(self, name: str, x: str, what: str) -> None:
        """Refuse a selector key or query growing faster than MAX_KEY_SCALE (i+1) (the float64 margin of its scores)."""
        c, d = self.growth[x]
        if c > MAX_KEY_SCALE or d > 1:
            raise self.refuse(name, f"the {what}'s {x!r} grows like {c} (i+1)^{d}, above the bound {MAX_KEY_SCALE} (i+1)")

    def units_to(self, inputs: list[int], units: list[Unit], c: int) -> None:
        """Place units writing coordinate c in the first layer whose FFN sees all inputs."""
        self.s.add_units(self.s.ffn_layer(inputs), units, [c])

    def bool_const(self, name: str, op: BoolConst) -> None:
        """BoolConst: true = ReLU(one); false: a coordinate nothing writes (0)."""
        c = self.s.coord(_label("seq", name))
        if op.value:
            self.units_to([self.one], [Unit({self.one: 1.0}, 0.0, {c: 1.0})], c)
        self.coords[name] = (c,)

    def cond(self, name: str, op: Cond) -> None:
        """Cond on Booleans: ReLU(b + x - 1) + ReLU(y - b), exact on 0/1; on integers y + b (x - y) by ``gated`` (degree <= 2)."""
        if self.kinds[name] != "Boolean":
            for arm in (op.x, op.y):
                gc, gd = self.growth[arm]
                if gd > 2 or gc > MAX_KEY_SCALE:
                    raise self.refuse(name, f"the conditional's {arm!r} grows like {gc} (i+1)^{gd}, above the bound {MAX_KEY_SCALE} (i+1)^2")
            fy = self.integer(op.y)
            g = self.gated(name, self.bool(op.b), self.integer(op.x).plus(fy, -1.0), (op.x, op.y))
            self.ints[name] = Affine({g: 1.0}).plus(fy)
            return
        b, x, y, c = self.bool(op.b), self.bool(op.x), self.bool(op.y), self.s.coord(_label("seq", name))
        units = [Unit(_lin((b, 1.0), (x, 1.0)), -1.0, {c: 1.0}), Unit(_lin((y, 1.0), (b, -1.0)), 0.0, {c: 1.0})]
        self.ffn(name, [b, x, y], units, c)

    def index(self, name: str, op: Index) -> None:
        """Index: the features i and i^2 (no layer)."""
        self.ints[name], self.squares[name] = Affine({self.pos: 1.0}), Affine({self.pos2: 1.0})
        self.expand[name] = {("i",): 1}

    def lin(self, name: str, op: Lin) -> None:
        """Lin: an affine form over the operands' forms (no layer); its square when it is a x + c of one squared operand."""
        self.ints[name] = self.linear(op)
        c = float(op.const)
        if not op.terms:
            self.squares[name] = Affine({}, c * c)
        elif len(op.terms) == 1:
            a, x = float(op.terms[0][0]), op.terms[0][1]
            sq = self.square(x)
            if sq is not None:
                self.squares[name] = sq.scaled(a * a).plus(self.integer(x), 2.0 * a * c).plus(Affine({}, c * c))
        parts = [self.atoms(x) for _, x in op.terms]
        if all(p is not None for p in parts):
            ex: dict[tuple[str, ...], int] = {("1",): op.const} if op.const else {}
            for (k, _), p in zip(op.terms, parts):
                for atom, v in (p or {}).items():
                    ex[atom] = ex.get(atom, 0) + k * v
            self.expand[name] = {a: v for a, v in ex.items() if v}

    def compare(self, name: str, op: Compare) -> None:
        """Compare: FFN on z = left - right (an integer, within 1/4 in soft mode): == as IsConst, the others by clamp(2 u - 1/2)."""
        z = self.linear(op.left).plus(self.linear(op.right), -1.0)
        self.note_scale(*(x for _, x in op.left.terms + op.right.terms))
        c = self.s.coord(_label("seq", name))
        w, k = z.w, z.const

        def ge1(scale: float, shift: float, sign: float = 1.0) -> list[Unit]:  # clamp(2 u - 1/2, 0, 1) for u = scale z + shift
            return clamp01({q: 2.0 * scale * v for q, v in w.items()}, 2.0 * (scale * k + shift) - 0.5, c, sign)

        if op.op in ("==", "!="):
            units = clamp01({q: 4.0 * v for q, v in w.items()}, 2.0 + 4.0 * k, c) + clamp01(
                {q: 4.0 * v for q, v in w.items()}, -1.0 + 4.0 * k, c, sign=-1.0
            )
            if op.op == "!=":
                units = [Unit({self.one: 1.0}, 0.0, {c: 1.0})] + [Unit(u.w_in, u.bias, {c: -u.w_out[c]}) for u in units]
        else:
            units = {">": ge1(1.0, 0.0), ">=": ge1(1.0, 1.0), "<": ge1(-1.0, 0.0), "<=": ge1(-1.0, 1.0)}[op.op]
        self.ffn(name, sorted(w) or [self.one], units, c)

    def strict_sum(self, b: str) -> int:
        """Return the coordinate of sum_{j<i} b_j (the Psum construction, one per Boolean, shared by every PrefixSum)."""
        if b not in self.strict_sums:
            label = f"psum[{b}]"
            frac, v, v2 = self.s.coord(_label("frac", label)), self.s.coord(_label("seq", label)), self.s.coord(_label("square", label))
            average = HeadSpec([ScoreTerm()], [ValueTerm(frac, {self.bool(b): 1.0})], "strict")
            self.heads[f"{label}.frac"] = self.s.add_head(self.s.head_layer([self.bool(b)]), average, [frac])
            copies = [ValueTerm(v, {self.pos: 1.0}), ValueTerm(v2, {self.pos2: 1.0})]
            lookup = position_lookup_spec(frac, self.pos, self.pos2, self.inv, copies, "causal")
            self.heads[label] = self.s.add_head(self.s.head_layer([frac]), lookup, [v, v2])
            self.strict_sums[b] = v
        return self.strict_sums[b]

    def prefix_sum(self, name: str, op: PrefixSum) -> None:
        """PrefixSum: sum_{j<=i} of a combination of Booleans b (strict sum + b_i), the index ((i^2 + i)/2), 1 (i + 1) and bounded integers.

        A bounded integer x (|x_i| <= C for a constant C <= MAX_PSUM_LEVELS) is its levels:
        x = sum_{k=1..C} [x >= k] - sum_{k=1..C} [x <= -k] (``levels``), each a Boolean, so its psum is 2C
        psums of Booleans.
        """
        parts: dict[tuple[str, ...], int] = {("1",): op.expr.const} if op.expr.const else {}
        for k, x in op.expr.terms:
            p = self.atoms(x)
            if p is None:
                p = self.levels(name, x)
            for atom, v in p.items():
                parts[atom] = parts.get(atom, 0) + k * v
        f = Affine({})
        for atom, v in parts.items():
            if not v:
                continue
            if atom[0] == "b":
                term = Affine({self.strict_sum(atom[1]): 1.0}).plus(Affine({self.bool(atom[1]): 1.0}))
            elif atom[0] == "i":
                term = Affine({self.pos2: 0.5, self.pos: 0.5})
            else:
                term = Affine({self.pos: 1.0}, 1.0)
            f = f.plus(term, float(v))
        self.ints[name] = f

    def levels(self, name: str, x: str) -> dict[tuple[str, ...], int]:
        """Return a bounded integer x (|x_i| <= C <= MAX_PSUM_LEVELS) as sum_k [x >= k] - sum_k [x <= -k], k = 1..C.

        Each level is a Boolean coordinate computed by ``compare``'s units (exact from within 1/4),
        named ``<x>.ge<k>`` / ``<x>.le-<k>`` (never an interpreter definition) and shared by every
        psum of x.  x of growth degree > 0 or C above the bound is refused, naming it.
        """
        c, d = self.growth[x]
        if d > 0 or c > MAX_PSUM_LEVELS:
            raise self.refuse(
                name,
                f"psum of {x!r}, which grows like {c} (i+1)^{d}: a psum is compiled for combinations of Booleans, the index, "
                f"constants and integers bounded by a constant C <= {MAX_PSUM_LEVELS} (|x| <= C), not this",
            )
        self.note_scale(x)
        out: dict[tuple[str, ...], int] = {}
        for k in range(1, int(c) + 1):
            for op, sign, label in ((">=", 1, f"{x}.ge{k}"), ("<=", -1, f"{x}.le-{k}")):
                if label not in self.coords:
                    self.kinds[label] = "Boolean"
                    self.compare(label, Compare(op, Lin(((1, x),)), Lin((), sign * k)))
                out[("b", label)] = sign
        return out

    def select(self, name: str, op: Select) -> None:
        """Select (Boolean value): s_ij = 2 [where_j] - 2 (k_j - t_i)^2 +- j/n, then found = where* and [k* = t], out = found ? value* : default."""
        if self.kinds[name] != "Boolean":
            self.check_int_value(name, op)
        if op.cmp in ORDER_COMPARISONS:
            assert op.key is not None
            if op.where is None and self.integer(op.key) == Affine({self.pos: 1.0}):  # the index path: cheaper than the one-hot
                return self.select_order(name, op) if op.cmp != "!=" else self.select_not_equal(name, op)
            return self.select_one_hot(name, op)
        assert op.cmp in (None, "=="), op.cmp
        if op.cmp == "==" and op.key is not None and self.square(op.key) is None:  # no parabola without k^2: one-hot if bounded
            return self.select_one_hot(name, op)
        sigma = 1.0 if op.direction == "rightmost" else -1.0
        one = self.one
        wh = self.bool(op.where) if op.where is not None else None
        key_term: dict[int, float] = {self.posn: sigma}
        if wh is not None:
            key_term[wh] = key_term.get(wh, 0.0) + 2.0
        scores = [ScoreTerm({one: 1.0}, key_term)]
        raw_v, raw_w = self.s.coord(_label("raw", name)), self.s.coord(_label("raw-where", name))
        values = [self.value_term(raw_v, op.value), ValueTerm(raw_w, {wh if wh is not None else one: 1.0})]
        reads = self.value_reads(op.value) + ([wh] if wh is not None else [])
        t: Affine | None = None
        raw_k = None
        if op.key is not None and op.query is not None:
            for x in (op.key, op.query):
                self.check_key(name, x, "selector")
            k, k2 = self.integer(op.key), self.square(op.key)
            assert k2 is not None  # a key without a square went to ``select_one_hot`` above
            self.note_scale(op.key, op.query)
            t = self.integer(op.query).plus(Affine({}, float(op.offset)))
            # -2 (k_j - t_i)^2 = -2 k_j^2 + 4 k_j t_i - 2 t_i^2; key-only constants and -2 t_i^2 are the same for every key of query i
            for q, v in k2.w.items():
                key_term[q] = key_term.get(q, 0.0) - 2.0 * v
            tq = {q: 4.0 * v for q, v in t.w.items()}
            if t.const:
                tq[one] = tq.get(one, 0.0) + 4.0 * t.const
            scores.append(ScoreTerm(tq, dict(k.w)))
            t2 = self.square(op.query)
            if t2 is not None:  # keeps the row maximum near 2 (float64 resolution), as the Dyck aggregate does
                t2 = t2.plus(self.integer(op.query), 2.0 * op.offset).plus(Affine({}, float(op.offset) ** 2))
                q2 = {q: -2.0 * v for q, v in t2.w.items()}
                if t2.const:
                    q2[one] = q2.get(one, 0.0) - 2.0 * t2.const
                scores.append(ScoreTerm(q2, {one: 1.0}))
            raw_k = self.s.coord(_label("raw-key", name))
            kv = dict(k.w)
            if k.const:
                kv[one] = kv.get(one, 0.0) + k.const
            values.append(ValueTerm(raw_k, kv))
            reads += sorted(k.w) + sorted(k2.w) + sorted(t.w)
        spec = HeadSpec(scores, values, op.mask)
        self.heads[name] = self.s.add_head(self.s.head_layer(reads or [one]), spec, [v.target for v in values])
        vs = self.clean_value(name, raw_v)
        ws = self.s.coord(_label("where*", name))
        self.units_to([raw_w], _clean(raw_w, ws), ws)
        found = ws
        if raw_k is not None and t is not None:
            eq, found = self.s.coord(_label("key=query*", name)), self.s.coord(_label("found", name))
            z = Affine({raw_k: 1.0}).plus(t, -1.0)
            zw = {q: 4.0 * v for q, v in z.w.items()}
            self.units_to([raw_k] + sorted(t.w), clamp01(zw, 2.0 + 4.0 * z.const, eq) + clamp01(zw, -1.0 + 4.0 * z.const, eq, sign=-1.0), eq)
            self.units_to([ws, eq], [Unit(_lin((ws, 1.0), (eq, 1.0)), -1.0, {found: 1.0})], found)
        self.select_output(name, op, found, vs)

    def select_order(self, name: str, op: Select) -> None:
        """Select with key = the index, no where filter, comparison < <= > >=: the nearest or the extreme visible key, then a found test.

        j <= t is j < t + 1 and j >= t is j > t - 1.  The keys j < t (j > t) of a contiguous mask are
        an interval ending (starting) next to t: the rightmost (leftmost) of them is the visible key
        nearest to c = t - 1 (t + 1), the maximum of the parabola s_ij = -2 (j - c)^2 (Lemma 7's
        lookup, gap >= 2); the leftmost (rightmost) of them is the leftmost (rightmost) visible key,
        tie-breaking s_ij = -+ j/n (gap 1/n).  Either way the key chosen satisfies the comparison
        exactly when some visible key does: found = [a key is visible] and [k* < t] ([k* > t]).
        """
        assert op.key is not None and op.query is not None and op.cmp is not None
        assert op.where is None and self.integer(op.key) == Affine({self.pos: 1.0})  # ``select`` sends the other cases to ``select_one_hot``
        self.check_key(name, op.query, "selector")
        self.note_scale(op.query)
        below = op.cmp in ("<", "<=")
        shift = {"<": 0, "<=": 1, ">": 0, ">=": -1}[op.cmp]
        t = self.integer(op.query).plus(Affine({}, float(op.offset + shift)))  # the comparison is now j < t or j > t
        one = self.one
        nearest = (op.direction == "rightmost") == below
        if nearest:  # -2 (j - c)^2 = -2 j^2 + 4 c j + (per-query constant, dropped), c = t -+ 1
            c = t.plus(Affine({}, -1.0 if below else 1.0))
            cq = {q: 4.0 * v for q, v in c.w.items()}
            if c.const:
                cq[one] = cq.get(one, 0.0) + 4.0 * c.const
            scores = [ScoreTerm({one: 1.0}, {self.pos2: -2.0}), ScoreTerm(cq, {self.pos: 1.0})]
        else:
            scores = [ScoreTerm({one: 1.0}, {self.posn: 1.0 if op.direction == "rightmost" else -1.0})]
        raw_v, raw_w, raw_k = (self.s.coord(_label(role, name)) for role in ("raw", "raw-where", "raw-key"))
        values = [self.value_term(raw_v, op.value), ValueTerm(raw_w, {one: 1.0}), ValueTerm(raw_k, {self.pos: 1.0})]
        spec = HeadSpec(scores, values, op.mask)
        self.heads[name] = self.s.add_head(self.s.head_layer(self.value_reads(op.value) + sorted(t.w)), spec, [raw_v, raw_w, raw_k])
        vs = self.clean_value(name, raw_v)
        ws = self.s.coord(_label("where*", name))
        self.units_to([raw_w], _clean(raw_w, ws), ws)
        ok, found = self.s.coord(_label("key-cmp-query*", name)), self.s.coord(_label("found", name))
        z = Affine({raw_k: 1.0}).plus(t, -1.0)  # k* - t, an integer: [z < 0] = clamp(-2z - 1/2), [z > 0] = clamp(2z - 1/2)
        sign = -1.0 if below else 1.0
        self.units_to([raw_k] + sorted(t.w), clamp01({q: 2.0 * sign * v for q, v in z.w.items()}, 2.0 * sign * z.const - 0.5, ok), ok)
        self.units_to([ws, ok], [Unit(_lin((ws, 1.0), (ok, 1.0)), -1.0, {found: 1.0})], found)
        self.select_output(name, op, found, vs)

    def select_not_equal(self, name: str, op: Select) -> None:
        """Select with key = the index, no where filter, comparison !=: two order selects, the nearer side the farther's default.

        The keys j != t of a contiguous mask are those below t and those above it, and every key above
        t is right of every key below it: the rightmost key with j != t is the rightmost key with
        j > t when one is visible, else the rightmost with j < t, else none (leftmost: j < t first,
        then j > t).  So the select is ``rightmost ... j > t value x default (rightmost ... j < t
        value x default d)``: an inner order select under the internal name ``<name>.below``
        (``.above`` for leftmost; never an interpreter definition, so the verification compares only
        the outer), and the outer order select whose default is the inner's result.  Each is
        ``select_order`` with its own gap and found test; no new head family.
        """
        assert op.key is not None and op.query is not None
        assert op.where is None and self.integer(op.key) == Affine({self.pos: 1.0})  # ``select`` sends the other cases to ``select_one_hot``
        outer, inner_cmp, side = (">", "<", "below") if op.direction == "rightmost" else ("<", ">", "above")
        inner = f"{name}.{side}"
        self.kinds[inner], self.growth[inner] = self.kinds[name], self.growth[name]
        self.select_order(inner, Select(op.direction, op.mask, op.key, inner_cmp, op.query, op.offset, None, op.value, op.default))
        self.select_order(name, Select(op.direction, op.mask, op.key, outer, op.query, op.offset, None, op.value, inner))

    def select_one_hot(self, name: str, op: Select) -> None:
        """Select comparing by < <= > >= != (or == with a key the model holds no square of) with a bounded key or query: one-hot.

        One-hot Booleans, s_ij = 2 sel(i, j) + sigma j/n, then a found test.

        Write t_i = q_i + c (c the offset), sel(i, j) = [k_j CMP t_i] and where_j (where_j = 1 without a filter),
        sigma = +1 rightmost, -1 leftmost.  ``one_hot_values`` picks the bounded side and its range V (C <=
        MAX_PSUM_LEVELS, the bound of ``levels``; both bounded: the smaller C, the key on a tie):

        * bounded key, V = -C..C (0..1 for a Boolean key) holding every k_j: key-side a_v(j) = [k_j == v] and where_j,
          query-side b_v(i) = [v CMP t_i].  k_j equals exactly one v in V, so sum_v a_v(j) b_v(i) = where_j [k_j CMP t_i].
        * bounded query, V = c-C..c+C (c..c+1 for a Boolean query) holding every t_i: query-side b_v(i) = [t_i == v],
          key-side a_v(j) = [k_j CMP v] and where_j; t_i equals exactly one v in V: the same sum.

        Either way sum_v a_v(j) b_v(i) = sel(i, j), a 0/1 number, bilinear in (query, key).  Every a_v, b_v is a Boolean
        coordinate: ``compare``'s units on an affine form (exact 0/1 from within 1/4; the unbounded side may grow, as
        any comparison's operand), ANDed with where by ``bool_and``'s unit; internal definitions named by what they
        hold (``k==v``, ``v<q+c``, ``k<v&w``, ...; no identifier), shared by every select reading them and never compared
        with the interpreter.

        The head (``one_hot_select_spec``): one score term 2 b_v(i) a_v(j) per v and the tie-break term sigma j/n, so
        s_ij = 2 sel(i, j) + sigma j/n: exactly the scores of the select with no comparison (2 [w_j] +- j/n; Lemma 8's
        bounded tie-break scores K (sel_j +- j/N) with K = 2, N = 2n).  sigma j/n lies in (-1, 1), so every key with
        sel = 1 scores above every key with sel = 0, and keys of one level differ by >= 1/n: the maximum j* is unique,
        the rightmost (leftmost) visible key with sel(i, j*) = 1 when one exists, and the gap is >= 1/n.  The scores are
        products of exact 0/1 coordinates plus the feature i/n, |s| <= 3, exact in soft mode too: the head needs no
        C^2 in the temperature's scale S (the comparison units building a_v, b_v note their operands' C^2, as every
        comparison does; ``compare``).

        found: the head copies a_v(j*) for every v (raw copies in [0, 1], averages with weights alpha_j), and the FFN
        writes y = sum_v ReLU(copy_v + b_v(i) - 1) = sum_{v: b_v(i) = 1} copy_v = sum_j alpha_j sel(i, j) (b_v exact
        0/1; AND = ReLU(a + b - 1)): sel(i, j*) in hard mode, within the mass off the top m in soft mode, and 0 when no
        key is visible (every copy 0).  Cleaned (clamp(2 y - 1/2)), found = [some visible key has sel = 1] exactly once
        m < 1/4; m <= n e^{-(1/n)/tau} = 1/(128 S n^2) at ``tau_for``.  Then out = found ? value* : default
        (``select_output``; integer values by the big-M product, as every select).
        """
        assert op.key is not None and op.query is not None and op.cmp is not None
        side, values = self.one_hot_values(name, op)
        k, q, c, cmp = op.key, op.query, op.offset, op.cmp
        t = f"{q}{c:+d}" if c else q  # the label of q + c
        key_side, query_side = [], []
        for v in values:
            if side == "key":
                a = self.internal(f"{k}=={v}", Compare("==", Lin(((1, k),)), Lin((), v)))
                b = self.internal(f"{v}{cmp}{t}", Compare(cmp, Lin((), v), Lin(((1, q),), c)))
            else:
                b = self.internal(f"{t}=={v}", Compare("==", Lin(((1, q),), c), Lin((), v)))
                a = self.internal(f"{k}{cmp}{v}", Compare(cmp, Lin(((1, k),)), Lin((), v)))
            if op.where is not None:
                a = self.internal(f"{a}&{op.where}", BoolAnd(a, op.where))
            key_side.append(self.bool(a))
            query_side.append(self.bool(b))
        raw_v = self.s.coord(_label("raw", name))
        raws = [self.s.coord(_label(f"raw-key{v}", name)) for v in values]
        copies = [self.value_term(raw_v, op.value)] + [ValueTerm(r, {a: 1.0}) for r, a in zip(raws, key_side)]
        sigma = 1.0 if op.direction == "rightmost" else -1.0
        spec = one_hot_select_spec(list(zip(query_side, key_side)), self.one, self.posn, sigma, copies, op.mask)
        reads = self.value_reads(op.value) + key_side + query_side
        self.heads[name] = self.s.add_head(self.s.head_layer(reads), spec, [raw_v] + raws)
        vs = self.clean_value(name, raw_v)
        raw_found, found = self.s.coord(_label("raw-found", name)), self.s.coord(_label("found", name))
        units = [Unit(_lin((r, 1.0), (b, 1.0)), -1.0, {raw_found: 1.0}) for r, b in zip(raws, query_side)]
        self.units_to(raws + query_side, units, raw_found)
        self.units_to([raw_found], _clean(raw_found, found), found)
        self.select_output(name, op, found, vs)

    def one_hot_values(self, name: str, op: Select) -> tuple[str, range]:
        """Return the side of an order or != selector to one-hot ("key" or "query") and the values V its k_j (q_i + c) takes.

        A side is bounded when its growth has degree 0 and |k_j| <= C (|q_i + c| <= C + |c|) with C <= MAX_PSUM_LEVELS;
        V = -C..C (0..1 for a Boolean), shifted by c on the query side.  Both bounded: the smaller C (the key on a tie).
        Neither: refused in one line, naming both growths and the bound.
        """
        assert op.key is not None and op.query is not None
        ck, dk = self.growth[op.key]
        cq, dq = self.growth[op.query]
        c = op.offset
        options: list[tuple[int, int, str, range]] = []
        if dk == 0 and ck <= MAX_PSUM_LEVELS:
            lo, hi = (0, 1) if self.kinds[op.key] == "Boolean" else (-int(ck), int(ck))
            options.append((int(ck), 0, "key", range(lo, hi + 1)))
        if dq == 0 and cq + abs(c) <= MAX_PSUM_LEVELS:
            lo, hi = (c, c + 1) if self.kinds[op.query] == "Boolean" else (c - int(cq), c + int(cq))
            options.append((int(cq) + abs(c), 1, "query", range(lo, hi + 1)))
        if not options:
            t = f"{op.query!r} {'+' if c >= 0 else '-'} {abs(c)}" if c else repr(op.query)
            other = f"its key has a square in the model ({_SQUARED})" if op.cmp == "==" else "its key is the index with no where filter"
            raise self.refuse(
                name,
                f"a selector comparing by {op.cmp} compiles only when its key or its query is bounded by a constant C <= {MAX_PSUM_LEVELS} "
                f"(one-hot), or {other}; the key {op.key!r} grows like {ck} (i+1)^{dk}, "
                f"the query {t} like {cq + abs(c)} (i+1)^{dq}",
            )
        return min(options)[2:]

    def internal(self, label: str, op: Compare | BoolAnd) -> str:
        """Return an internal Boolean definition (a comparison or an AND; never an interpreter name), made once and shared."""
        if label not in self.coords:
            self.kinds[label] = "Boolean"
            if isinstance(op, Compare):
                self.compare(label, op)
            else:
                self.bool_and(label, op)
        return label

    def check_int_value(self, name: str, op: Select) -> None:
        """Refuse an integer-valued select outside the compiled case: value and default of degree <= 1 and growth <= MAX_KEY_SCALE
        (under every mask: keys after i take the big M of ``gated``'s span "n")."""
        for x in (op.value, op.default):
            c, d = self.growth[x]
            if d > 1 or c > MAX_KEY_SCALE:
                raise self.refuse(name, f"the select's value or default {x!r} grows like {c} (i+1)^{d}, above the bound {MAX_KEY_SCALE} (i+1)")
        self.note_scale(op.value, op.default)

    def value_term(self, raw: int, x: str) -> ValueTerm:
        """Return the value column copying x_j into raw (a Boolean's coordinate, or an integer's affine form, its constant through one)."""
        if self.kinds[x] == "Boolean":
            return ValueTerm(raw, {self.bool(x): 1.0})
        f = self.integer(x)
        w = dict(f.w)
        if f.const:
            w[self.one] = w.get(self.one, 0.0) + f.const
        return ValueTerm(raw, w or {self.one: 0.0})

    def value_reads(self, x: str) -> list[int]:
        """Return the coordinates a value column of x reads."""
        return [self.bool(x)] if self.kinds[x] == "Boolean" else sorted(self.integer(x).w) or [self.one]

    def clean_value(self, name: str, raw_v: int) -> int:
        """Return the coordinate of the chosen value: a Boolean's cleaned copy (value*), an integer's raw copy (no clean-up)."""
        if self.kinds[name] != "Boolean":
            return raw_v
        vs = self.s.coord(_label("value*", name))
        self.units_to([raw_v], _clean(raw_v, vs), vs)
        return vs

    def select_output(self, name: str, op: Select, found: int, vs: int) -> None:
        """Write found ? value* : default: Booleans mixed by ReLUs; integers by the big-M product of the module docstring."""
        if self.kinds[name] == "Boolean":
            d, c = self.bool(op.default), self.s.coord(_label("seq", name))
            units = [Unit(_lin((found, 1.0), (vs, 1.0)), -1.0, {c: 1.0}), Unit(_lin((d, 1.0), (found, -1.0)), 0.0, {c: 1.0})]
            self.ffn(name, [found, vs, d], units, c)
            return
        dflt = self.integer(op.default)
        span = "i" if op.mask in ("causal", "strict") else "n"  # keys after i: the chosen value grows like n, not i
        c = self.gated(name, found, Affine({vs: 1.0}).plus(dflt, -1.0), (op.value, op.default), span)
        self.ints[name] = Affine({c: 1.0}).plus(dflt)

    def gated(self, name: str, b: int, z: Affine, operands: tuple[str, str], span: str = "i") -> int:
        """Return a coordinate holding b * z for a Boolean b and an integer z with |z| <= 2 C (i+1), C the operands' largest growth.

        Big M = 2 C + 1 times the position: b z = ReLU(z - M (i+1 - P)) - ReLU(-z - M (i+1 - P)), P = b (i+1) from the
        gated position head.  With b = 0 the margin M (i+1) - |z| >= i + 1 >= 1 keeps both units at 0 for z within 1 of
        an integer, so the result is exactly 0 (errors of z do not pass); with b = 1 it is z (errors of z pass unchanged).
        When both operands are bounded by constants (degree 0), |z| <= 2 C and the big M is the constant M: b z =
        ReLU(z - M (1 - b)) - ReLU(-z - M (1 - b)), no head (the same margin M - |z| >= 1 with b = 0).  With an
        operand of degree 2 (a conditional only), |z| <= 2 C (i+1)^2 and the slack is M (i+1)^2 (1 - b), from the gate
        head's copies of b i and b i^2.

        ``span`` = "n" (an integer select whose mask shows keys after i, operands of degree <= 1): the chosen value is
        bounded only by C n, so the slack is M n (1 - b) = M ((1 - b)(n - 1) + 1 - b), the first term from the gate head
        over every key with the gate negated (mask none, scores (1 - 2 b_i) j: key n - 1 when b = 0, key 0 when b = 1;
        ``gated_position_spec(..., mask="none", negate=True)``).  The margin M n - |z| >= n >= 1 with b = 0, and the
        soft slack is within M x/(1-x)^2 of the hard one: HardSoft.gated_slack_at_rule with N = n keys and the gate 1 - b.
        """
        m = 2.0 * max(float(self.growth[x][0]) for x in operands) + 1.0
        c = self.s.coord(_label("seq", name))
        degree = max(self.growth[x][1] for x in operands)
        if degree == 0:  # |z| <= 2 C: a constant big M, no head: -M (1 - b)
            slack, reads = Affine({b: m}, -m), [b]
        elif span == "n":  # |z| <= 2 C n: -M ((1 - b)(n - 1) + 1 - b)
            assert degree == 1, degree
            gn = self.s.coord(_label("gate*n", name))
            spec = gated_position_spec(b, self.one, self.pos, gn, mask="none", negate=True)
            self.heads[f"{name}.gate"] = self.s.add_head(self.s.head_layer([b]), spec, [gn])
            slack, reads = Affine({gn: -m, b: m}, -m), [gn, b]
        elif degree == 1:
            gi = self.s.coord(_label("gate*i", name))
            self.heads[f"{name}.gate"] = self.s.add_head(self.s.head_layer([b]), gated_position_spec(b, self.one, self.pos, gi), [gi])
            slack, reads = Affine({self.pos: -m, gi: m, b: m}, -m), [gi, b]  # -M (i + 1 - P)
        else:  # |z| <= 2 C (i+1)^2: -M ((i+1)^2 - b (i+1)^2) = -M (i^2 + 2i + 1) + M (Q + 2 P + b), P = b i, Q = b i^2
            gi, gi2 = self.s.coord(_label("gate*i", name)), self.s.coord(_label("gate*i^2", name))
            spec = gated_position_spec(b, self.one, self.pos, gi, (self.pos2, gi2))
            self.heads[f"{name}.gate"] = self.s.add_head(self.s.head_layer([b]), spec, [gi, gi2])
            slack, reads = Affine({self.pos2: -m, self.pos: -2.0 * m, gi2: m, gi: 2.0 * m, b: m}, -m), [gi, gi2, b]
        units = [Unit(dict(f.w), f.const, {c: sign}) for sign in (1.0, -1.0) for f in [z.scaled(sign).plus(slack)]]
        layer = self.s.ffn_layer(reads + sorted(z.w))
        self.s.add_units(layer, units, [c])
        self.gates[name] = Gate(c, b, m, degree, span if degree else "i", layer)
        return c

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

    def share_coordinates(self, outs: tuple[int, ...]) -> tuple[tuple[int, ...], dict[str, int]]:
        """Step 4a: let coordinates serve several definitions in turn (``Residual.compact``); rename every coordinate held.

        Each definition (and each square) must hold its value in every one of its coordinates at the
        stage it is ready (after the layer that writes the last of them), the outputs at the end.
        Returns the renamed outputs and each definition's reading stage: the last stage at which all
        its coordinates still hold it.
        """
        res = self.s.res
        ready = {c: (0 if r == EMBEDDED else r[0] + 1) for c, r in self.s.ready.items()}
        forms: dict[str, set[int]] = {}
        for name, cs in self.coords.items():
            forms.setdefault(name, set()).update(cs)
        for name, f in self.ints.items():
            forms.setdefault(name, set()).update(f.w)
        for name, f in self.squares.items():
            forms.setdefault(f"{name}^2", set()).update(f.w)
        L = len(res.layers)
        observe: dict[int, list[int]] = {c: [L] for c in outs}
        at: dict[str, int] = {}
        for name, held in forms.items():
            at[name] = max((ready.get(c, 0) for c in held), default=0)
            for c in held:
                observe.setdefault(c, []).append(at[name])
        embedded = [*self.feature.values(), *self.tok, *self.token_defs]
        shared = res.compact(observe, embedded)
        new = shared.new
        stages = {name: min((shared.spans[c][1] // 2 for c in held), default=L) for name, held in forms.items()}
        remap = lambda f: Affine({new[c]: w for c, w in f.w.items()}, f.const)  # noqa: E731
        self.coords = {name: tuple(new[c] for c in cs) for name, cs in self.coords.items()}
        self.ints = {name: remap(f) for name, f in self.ints.items()}
        self.squares = {name: remap(f) for name, f in self.squares.items()}
        self.gates = {name: dataclasses.replace(g, coord=new[g.coord], gate=new[g.gate]) for name, g in self.gates.items()}
        self.token_defs = {new[c]: syms for c, syms in self.token_defs.items()}
        self.tok = [new[c] for c in self.tok]
        return tuple(new[c] for c in outs), stages


def one_hot_select_spec(pairs: list[tuple[int, int]], one: int, posn: int, sigma: float, values: list[ValueTerm], mask: str) -> HeadSpec:
    """Return the one-hot select's head (``_ProgramCompiler.select_one_hot``): s_ij = 2 sum_v b_v(i) a_v(j) + sigma j/n.

    pairs -- (query-side b_v, key-side a_v) coordinates, one score term (query 2 b_v, key a_v) each; then the tie-break
    term (query one, key sigma i/n).  With sum_v b_v a_v = sel in {0, 1}: 2 sel + sigma j/n, the tie-break family.
    """
    scores = [ScoreTerm({b: 2.0}, {a: 1.0}) for b, a in pairs] + [ScoreTerm({one: 1.0}, {posn: sigma})]
    return HeadSpec(scores, values, mask)


_DEFINITION: dict[type, Callable[[_ProgramCompiler, str, Op], None]] = {
    Token: _ProgramCompiler.token,  # type: ignore[dict-item]
    BoolNot: _ProgramCompiler.bool_not,  # type: ignore[dict-item]
    BoolAnd: _ProgramCompiler.bool_and,  # type: ignore[dict-item]
    BoolOr: _ProgramCompiler.bool_or,  # type: ignore[dict-item]
    Psum: _ProgramCompiler.psum,  # type: ignore[dict-item]
    IsConst: _ProgramCompiler.is_const,  # type: ignore[dict-item]
    Aggregate: _ProgramCompiler.aggregate,  # type: ignore[dict-item]
    Once: _ProgramCompiler.once,  # type: ignore[dict-item]
    BoolConst: _ProgramCompiler.bool_const,  # type: ignore[dict-item]
    Cond: _ProgramCompiler.cond,  # type: ignore[dict-item]
    Index: _ProgramCompiler.index,  # type: ignore[dict-item]
    Lin: _ProgramCompiler.lin,  # type: ignore[dict-item]
    Compare: _ProgramCompiler.compare,  # type: ignore[dict-item]
    PrefixSum: _ProgramCompiler.prefix_sum,  # type: ignore[dict-item]
    Select: _ProgramCompiler.select,  # type: ignore[dict-item]
}


@without_cycle_collection
def compile_program(prog: Program) -> Compiled:
    """Return the average-hard transformer computing prog (the encoding of the module docstring); run it with hard_mode="average".

    Steps: (1) the position features and one coordinate per symbol; (2) each
    definition in order, scheduled as early as its inputs allow (Aggregates with the
    same selector (key, query, offset, where, mask) share one head, one value column
    each: the same scores, so the same gap); (3) the output coordinates; (4) coordinates
    shared by definitions whose values are needed at disjoint times (``share_coordinates``),
    the embeddings, and every layer built at the final width.
    """
    if not isinstance(prog, Program):
        raise ValueError(f"compile_program needs a Program, got {type(prog).__name__}")
    pc = _ProgramCompiler(prog)
    for name, op in prog.defs:
        _DEFINITION[type(op)](pc, name, op)
    outs, stages = pc.share_coordinates(pc.outputs())
    return Compiled(prog, pc.model(), pc.coords, outs, pc.heads, pc.ints, pc.squares, pc.scale, pc.gates, stages)


def claimed_gap(prog: Program, n: int) -> float:
    """Return the compiled program's gap lower bound at length n (module docstring): min over its attention kinds."""
    g = math.inf
    if (prog.uses(Psum) or prog.uses(PrefixSum)) and n >= 2:
        g = min(g, 1.0 / (n - 1))
    if (prog.uses(Aggregate) or prog.uses(Select)) and n >= 2:
        g = min(g, 1.0 / n)
    if prog.uses(Once) and n >= 2:
        g = min(g, 1.0)
    return g


def tau_for(n: int, scale: float = 1.0) -> float:
    """Return the compiled programs' temperature tau(n) = 1/(n ln(128 S n^3)), S the program's scale (1 for Dyck; module docstring)."""
    return 1.0 / (n * math.log(128.0 * scale * n**3))
