"""The compiler's description of its own model, as the data of a certificate (lean/HardSoft/Cert/Check.lean).

A compiled formula (``compiler.compile_formula``) becomes two exact objects:

* ``Certificate``: the formula as a DAG (``Node``: children by index, children first), what
  each residual coordinate holds over the layers (``Span``s of a ``Role``: nothing, a position
  feature, or the 0/1 value of node ``g``; a coordinate holds several in turn when the compiler
  shares it over time, ``constructive.residual.Residual.compact``), the coordinate of every node,
  the Boolean nodes that share a coordinate (``Equiv``), and per layer which construction each
  head is (``HeadD``: family, select, value terms) and what each group of FFN units computes
  (``GroupD``: the clamp of an attended node, its eraser, a truth table, a circuit gate, or the
  clearing of a coordinate whose value is no longer needed), with the regime's constants (``c``,
  ``K``) as exact rationals;
* ``ModelW``: the model's weights as exact rationals (every float64 is one), each matrix as the
  sparse columns (``W_Q``, ``W_K``, ``W_V``, ``W_1``) or rows (``W_O``, ``W_2``, ``WE``, ``PE``) that
  Lean's ``ModelW`` stores.

Both mirror the Lean structures field by field (``Certificate`` is Lean's ``HardSoft.Cert``); the
Lean checker ``check`` decides whether the weights are exactly what the description says, and its
soundness theorem makes that a statement for every length n.  The description is read off the
compiler's own schedule, layout and compaction (``describe`` replays the compiler's steps,
``compiler._schedule`` to ``Residual.compact``, and refuses when the replay differs from the
compiled model).

Comparisons of inclusive counts (``#<=``) are described by their count heads (``cnt``), their sign
heads (``sign``), the FFN group writing their one-position correction W (``single``) and the roles of
their V and W coordinates (``val``, ``single``); comparisons of strict counts of one direction (``#<``
or ``#>``) by the group or position-embedding entry writing their constant (``pre``), their count heads
without a constant column, and their sign head of orientation -1 when the constant is negative,
cleaned by the flipped pair (``pairFlip``); a Boolean node reading such a comparison in its sign
head's layer clamps its effective value 1 - s (the checker's ``flipOf``, derived from the layer, not
described).  Comparisons mixing past and future counts (``mixed``), unbounded regime: by their count
heads' average columns (``CntD.avg``, role ``avg``), their lookups over positions (``plk``), the clamp of
their copies (``mix``) and the copies' erasers (``copyErase``), at the mixed rule tau = c/max(n-1, 1).
Bounded regime: by the groups writing each counted node's value / n (``scale``, role ``scaled``), the
count heads' average columns over those (``CntD.sc``, role ``avgN``), the group writing the constant
(r - 1/2)/n into V (``vpre``), the lookups over positions p/n adding c_k p/n into V (``plkN``; V is then
N/n, approximately in soft mode: role ``vmix``), the sign head reading that V, and V's clearing, at the
rule tau = c/(n^2 max(n-1, 1)).  A comparison with no count left (a constant, ``Node.cmp [] r``) is a
symbol-only node, [r > 0], written by the word embedding.  Outside the checker's fragment
(``NotCertifiable``, one line naming the construct): a model with a position-embedding table, a BOS
token or an output layer, a weight that is not finite.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from hardsoft.constructive.logic import compiler as cc
from hardsoft.constructive.logic import syntax as sx
from hardsoft.constructive.residual import Compaction
from hardsoft.spec.transformer import Model, predicate_feature

#: The exponent k of the checker's bound exp(-gamma) <= (1 + gamma/k)^(-k) on every head's mass off its target.
EXP_K = 16
#: Largest exponent k the description tries for a mixed comparison's copy error (``mixed_exp_k``).
MAX_EXP_K = 1024
#: Most extra leaves shown to make a Boolean node's three-valued evaluation total (``_extra_leaves``).
MAX_EXTRA_LEAVES = 10


class NotCertifiable(Exception):
    """The program or model lies outside the checker's fragment (one line naming the construct); not bad input, not a bug."""


# ---------------------------------------------------------------- the data (Lean: Logic.lean, Model.lean, Check.lean)

#: Feature names of ``spec.transformer.PE_FEATURES`` -> Lean's ``Feat`` constructors (without parameters).
FEATURES: dict[str, str] = {
    "one": "one",
    "is_first": "isFirst",
    "is_last": "isLast",
    "i/n": "iOverN",
    "parity": "parity",
    "1/max(i,1)": "invMaxI",
    "1/max(n-1-i,1)": "invMaxRest",
    "i": "idx",
    "i^2": "idxSq",
    "n": "len",
    "n*parity": "lenParity",
    "(i/n)^2": "iOverNSq",
    "1/n": "invN",
}
#: Masks of ``spec.constants.MASK_KINDS`` -> Lean's ``Mask`` constructors.
MASKS: dict[str, str] = {"none": "none", "causal": "causal", "strict": "strict", "anticausal": "anticausal", "strict_anticausal": "strictAnti"}
#: The head families of Check.lean (``Family``): tie-breaking past / future, bounded / unbounded, the unbounded lookups,
#: the count head and the sign head of a comparison of counts, and a mixed comparison's lookup over positions (unbounded
#: ``plk``: keys p, into a copy; bounded ``plkN``: keys p/n, into the comparison's V).
FAMILIES = ("tbPastB", "tbFutB", "tbPastU", "tbFutU", "lkPast", "lkFut", "cnt", "sign", "plk", "plkN")


@dataclass(frozen=True)
class Feat:
    """A position feature (Lean ``Feat``): ``kind`` a constructor name, ``args`` (m, r) of ``modEq``, (p, q, r) of ``lin``."""

    kind: str
    args: tuple[int, ...] = ()


@dataclass(frozen=True)
class Node:
    """One node of the formula DAG (Lean ``Node``): kind and arguments (children by index; a symbol index; a Boolean; integers)."""

    kind: str  # atom const not and or first last prev next since until modEq lin cmp
    args: tuple[int | bool, ...] = ()
    #: ``cmp`` only: the terms (c_k, direction, x_k) of sum_k c_k #_k[x_k] + r > 0 (``args`` is (r,)); direction "<", "<=" or ">"
    terms: tuple[tuple[int, str, int], ...] = ()


@dataclass(frozen=True)
class Role:
    """What a coordinate holds at a layer boundary (Lean ``Role``).

    "zero"; "feat" (the feature ``feat``); "node" (node ``node``'s value); for an inclusive comparison
    ``node``: "val" (its V = (sum_k c_k #<=_k + r - 1/2) / (i+1)) and "single" (its W = [n = 1 and not holds]);
    "avg" (a mixed comparison's average of the count ``#_d[node]``: the count over its number of keys, 0 with none).
    Bounded mixed comparisons: "scaled" (node ``node``'s value / n), "avgN" (the count ``#_d[node]`` / n / its number of
    keys), "vpre" (comparison ``node``'s constant (r - 1/2)/n) and "vmix" (its V = N/n after the lookups: approximate,
    within 1/(4n), in soft mode; Lean ``Role.approx``).
    """

    kind: str
    feat: Feat | None = None
    node: int = 0
    #: "avg" and "avgN" only: the count's direction, "<" or ">"
    d: str = ""


@dataclass(frozen=True)
class Span:
    """A coordinate's role from layer boundary ``start`` on, until boundary ``stop`` (excluded; None: to the end) (Lean ``Span``)."""

    role: Role
    start: int
    stop: int | None = None


@dataclass(frozen=True)
class TermD:
    """One value term of a head: the attended node (its coordinate is the target) and the node read at the chosen key."""

    node: int
    src: int


@dataclass(frozen=True)
class CntD:
    """One value column of a count head (Lean ``CntD``): ``coef`` times node ``src``'s value (None: is_first, for the
    constant) into V of comparison ``g`` at ``vc``."""

    g: int
    vc: int
    src: int | None
    coef: Fraction
    #: an average column of a mixed comparison's count (Lean ``CntD.avg``): ``src`` = ``g`` = the counted node, ``coef`` 1,
    #: writing the role "avg" into ``vc``
    avg: bool = False
    #: a bounded average column (Lean ``CntD.sc``): it reads the coordinate ``sc`` holding ``src``'s value / n (role "scaled")
    #: and writes the role "avgN" into ``vc``
    sc: int | None = None


@dataclass(frozen=True)
class HeadD:
    """One head: its family, select node (``None``: every key selected), anchored select or not, value terms.

    The count head (``fam`` "cnt") has no select and no terms, its direction ``d`` and its columns ``cnt``;
    the sign head ("sign") has one term (its comparison's node, read from itself), orientation ``o``, V's
    coordinate ``vc`` and W's ``wc`` (Lean ``Family.cnt d ts``, ``Family.sign o vc wc``).
    """

    fam: str
    sel: int | None
    anchored: bool
    terms: tuple[TermD, ...]
    d: str = "<="
    cnt: tuple[CntD, ...] = ()
    o: bool = True
    vc: int = 0
    wc: int | None = None
    #: "plk" (Lean ``Family.plk d x ac cc``): the lookup over positions of the count ``#_d[x]``, its average at ``ac``,
    #: its copy at ``cc``
    x: int = 0
    ac: int = 0
    cc: int = 0
    #: "plkN" (Lean ``Family.plkN d x ac vs``, bounded): the lookup over positions p/n of the count ``#_d[x]``, its average
    #: at ``ac``; one value column per (comparison, its V's coordinate) in ``vs``, adding c_k p/n into that V
    vs: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class GroupD:
    """A group of consecutive FFN units and what it computes (Lean ``GroupD``).

    "pair" (clamp of attended node ``node``, 2 units), "pairFlip" (the clamp of 1 - its raw value, for a sign head of
    orientation -1, 2 units), "pre" (a strict comparison ``node``'s constant times the feature at ``src`` into its V at
    ``vc``, 2 units), "eraser" (1 unit), "table" (``inputs``,
    ``extra`` leaves, the clamped ``assigns``, ``neg``), "gate" (``inputs``, its one
    assignment ``assigns[0]`` (Lean's ``sigma``), ``neg``), "clear" (-ReLU(x) + ReLU(-x) on
    coordinate ``node``, 2 units: for "clear", ``node`` is a coordinate, Lean's ``clear c``), and
    "single" (inclusive comparison ``node``'s W at ``wc`` from its V at ``vc``, 2 units with the
    constant ``M``; Lean's ``single g vc wc M``); bounded mixed comparisons: "scale" (node ``node``'s
    value / n into ``vc`` from the feature 1/n, 2 units; Lean ``scale x sc``) and "vpre" (comparison
    ``node``'s constant (r - 1/2) times the feature 1/n at ``src`` into its V at ``vc``, 2 units;
    Lean ``vpre g vc f``).
    """

    kind: str
    node: int
    inputs: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()
    assigns: tuple[tuple[bool, ...], ...] = ()
    neg: bool = False
    vc: int = 0
    wc: int = 0
    M: Fraction = Fraction(0)
    src: int = 0


@dataclass(frozen=True)
class LayerD:
    """One layer of the description: heads in the model's order, unit groups in order."""

    heads: tuple[HeadD, ...]
    groups: tuple[GroupD, ...]


@dataclass(frozen=True)
class Equiv:
    """Node ``node`` shares node ``like``'s coordinate: the same Boolean function of ``leaves``."""

    node: int
    like: int
    leaves: tuple[int, ...]


@dataclass(frozen=True)
class Certificate:
    """A compiled model's description (Lean ``HardSoft.Cert``), every constant exact."""

    prog: tuple[Node, ...]
    nsym: int
    spans: tuple[tuple[Span, ...], ...]
    coord: tuple[int, ...]
    equiv: tuple[Equiv, ...]
    root: int
    bounded: bool
    c: Fraction
    K: Fraction
    exp_k: int
    layers: tuple[LayerD, ...]
    #: the mixed comparisons' rule tau(n) = c / max(n-1, 1) (unbounded), c / (n^2 max(n-1, 1)) (bounded) (Lean ``Cert.mixed``)
    mixed: bool = False


SVec = tuple[tuple[int, Fraction], ...]


@dataclass(frozen=True)
class HeadW:
    """One head's weights: W_Q, W_K, W_V by columns, W_O by rows, and its mask (a Lean ``Mask`` name)."""

    q: tuple[SVec, ...]
    k: tuple[SVec, ...]
    v: tuple[SVec, ...]
    o: tuple[SVec, ...]
    mask: str


@dataclass(frozen=True)
class UnitW:
    """One hidden unit: its column of W_1, its entry of b_1, its row of W_2."""

    win: SVec
    bias: Fraction
    wout: SVec


@dataclass(frozen=True)
class LayerW:
    """One layer's weights: heads, hidden units, output bias b_2."""

    heads: tuple[HeadW, ...]
    units: tuple[UnitW, ...]
    b2: SVec


@dataclass(frozen=True)
class ModelW:
    """A model's weights as Lean's ``ModelW``: width, WE rows per symbol, PE rows with their feature, layers."""

    d: int
    we: tuple[SVec, ...]
    pe: tuple[tuple[Feat, SVec], ...]
    layers: tuple[LayerW, ...]

    @property
    def parameters(self) -> int:
        """Return the number of nonzero weights (the entries of every sparse vector, biases included)."""
        n = sum(len(r) for r in self.we) + sum(len(r) for _, r in self.pe)
        for L in self.layers:
            n += len(L.b2) + sum(len(u.win) + len(u.wout) + 1 for u in L.units)
            n += sum(len(c) for h in L.heads for c in (*h.q, *h.k, *h.v, *h.o))
        return n


# ---------------------------------------------------------------- weights


def feature_of(name: str) -> Feat:
    """Return the Lean feature of a position-feature name (NotCertifiable for one the checker does not know)."""
    if name in FEATURES:
        return Feat(FEATURES[name])
    kind = predicate_feature(name)
    if kind is None:
        raise NotCertifiable(f"the position feature {name!r} is not one the checker knows")
    return Feat("modEq" if kind[0] == "mod" else "lin", tuple(kind[1]))


def exact(x: float, where: str) -> Fraction:
    """Return a float64 as the exact rational it is (NotCertifiable when it is not finite)."""
    if not math.isfinite(x):
        raise NotCertifiable(f"{where} holds {x}, not a finite number")
    return Fraction(x)


def sparse(vec: np.ndarray, where: str) -> SVec:
    """Return a vector's nonzero entries as (index, exact value), in index order."""
    return tuple((k, exact(v, where)) for k, v in enumerate(np.asarray(vec, dtype=np.float64).tolist()) if v != 0.0)


def model_weights(m: Model) -> ModelW:
    """Return a model's weights as exact sparse rows and columns (NotCertifiable for what the checker's transformer does not have)."""
    if m.bos_token is not None or m.output is not None or m.PE.table is not None:
        what = "a BOS token" if m.bos_token is not None else "an output layer" if m.output is not None else "a position-embedding table"
        raise NotCertifiable(f"the model has {what}, which the checker's transformer does not have")
    layers = []
    for li, L in enumerate(m.layers, start=1):
        heads = []
        for hi, h in enumerate(L.heads):
            w = f"layer {li} head {hi}"
            if h.mask not in MASKS:
                raise NotCertifiable(f"{w}: mask {h.mask!r} is not one the checker knows")
            heads.append(
                HeadW(
                    tuple(sparse(h.W_Q[:, t], f"{w} W_Q") for t in range(h.W_Q.shape[1])),
                    tuple(sparse(h.W_K[:, t], f"{w} W_K") for t in range(h.W_K.shape[1])),
                    tuple(sparse(h.W_V[:, t], f"{w} W_V") for t in range(h.W_V.shape[1])),
                    tuple(sparse(h.W_O[t, :], f"{w} W_O") for t in range(h.W_O.shape[0])),
                    MASKS[h.mask],
                )
            )
        units = tuple(
            UnitW(sparse(L.W1[:, u], f"layer {li} W1"), exact(float(L.b1[u]), f"layer {li} b1"), sparse(L.W2[u, :], f"layer {li} W2"))
            for u in range(L.W1.shape[1])
        )
        layers.append(LayerW(tuple(heads), units, sparse(L.b2, f"layer {li} b2")))
    pe = tuple((feature_of(f), sparse(row, f"PE {f}")) for f, row in zip(m.PE.features, m.PE.matrix))
    return ModelW(m.d, tuple(sparse(r, "WE") for r in m.WE), pe, tuple(layers))


# ---------------------------------------------------------------- the formula DAG


def _node_of(g: sx.Formula, idx: dict[sx.Formula, int], alphabet: tuple[str, ...], label: Callable[[sx.Formula], str]) -> Node:
    """Return the Lean node of one subformula (children by their schedule index)."""
    if isinstance(g, sx.Atom):
        return Node("atom", (alphabet.index(g.symbol),))
    if isinstance(g, sx.Const):
        return Node("const", (bool(g.value),))
    if isinstance(g, sx.Not):
        return Node("not", (idx[g.arg],))
    if isinstance(g, (sx.And, sx.Or, sx.Since, sx.Until)):
        kind = {sx.And: "and", sx.Or: "or", sx.Since: "since", sx.Until: "until"}[type(g)]
        return Node(kind, (idx[g.left], idx[g.right]))
    if isinstance(g, sx.First):
        return Node("first")
    if isinstance(g, sx.Last):
        return Node("last")
    if isinstance(g, sx.Prev):
        return Node("prev", (idx[g.arg],))
    if isinstance(g, sx.Next):
        return Node("next", (idx[g.arg],))
    if isinstance(g, sx.Mod):
        return Node("modEq", (g.modulus, g.residue))
    if isinstance(g, sx.Pos):
        return Node("lin", (g.coef_i, g.coef_n, g.const))
    if isinstance(g, sx.Compare):
        return _cmp_node(g, idx, label)
    raise NotCertifiable(f"not certifiable: {label(g)} is not a node of the temporal logic")


def _cmp_node(g: sx.Compare, idx: dict[sx.Formula, int], label: Callable[[sx.Formula], str]) -> Node:
    """Return the Lean node ``cmp`` of a comparison of counts: sum_k c_k #_k + r > 0 (integers), read off the syntax.

    ``>``: lhs - rhs > 0; ``>=``: lhs - rhs + 1 > 0; ``<``: rhs - lhs > 0; ``<=``: rhs - lhs + 1 > 0 (every count
    is an integer, so E >= 0 is E + 1 > 0).  Terms counting the same node in the same direction are added
    (first occurrence's place, lhs before rhs) and zero ones dropped, which changes no sum.  This is the
    theorem's meaning, so it is computed here from the formula, not taken from the compiler: the checker
    then requires the model's count columns to be these terms one for one and its constant r - 1/2 (the
    compiler's ``_canonical_compare`` merges the same way; a compiler that did not would be rejected).
    """
    sign = 1 if g.op in (">", ">=") else -1
    merged: dict[tuple[str, int], int] = {}
    for side, e in ((1, g.lhs), (-1, g.rhs)):
        for c, t in e.terms:
            if t.arg not in idx:
                raise NotCertifiable(f"not certifiable: {label(g)} counts a node the schedule does not list")
            key = (t.direction, idx[t.arg])
            merged[key] = merged.get(key, 0) + sign * side * c
    terms = tuple((c, d, x) for (d, x), c in merged.items() if c != 0)
    r = sign * (g.lhs.const - g.rhs.const) + (1 if g.op in (">=", "<=") else 0)
    return Node("cmp", (r,), terms)


def formula_dag(f: sx.Formula | str, alphabet: Sequence[str] = ("a", "b"), regime: str = "bounded") -> tuple[tuple[Node, ...], int]:
    """Return (the formula as the certificate's DAG, the root's index): the compiler's schedule order, children first.

    The same DAG ``describe`` writes as ``prog``, for any formula of the logic (comparisons of mixed counts
    included, which ``describe`` refuses).
    """
    if isinstance(f, str):
        f = sx.parse(f)
    sched = cc._schedule(f, tuple(alphabet), regime)
    idx = {g: k for k, g in enumerate(sched.nodes)}
    return tuple(_node_of(g, idx, tuple(alphabet), sched.label) for g in sched.nodes), idx[f]


def holds_values(prog: Sequence[Node], word: Sequence[int]) -> list[list[bool]]:
    """Return Logic.lean's ``holds prog word n g i`` for every node g and position i < n = len(word), node by node.

    The semantics the certificate's theorem states, computed: children before parents (a child not before its
    node makes the node false, as ``holdsF`` says); a comparison ``cmp`` is sum_k c_k #_k + r > 0 with #_k the
    positions j < i (``<``), j <= i (``<=``) or i < j < n (``>``) where node x_k holds.
    """
    n = len(word)
    val: list[list[bool]] = []
    for g, nd in enumerate(prog):
        k, a = nd.kind, nd.args
        row: list[bool] = []
        for i in range(n):
            if k == "atom":
                v = word[i] == a[0]
            elif k == "const":
                v = bool(a[0])
            elif k == "not":
                v = int(a[0]) < g and not val[int(a[0])][i]
            elif k in ("and", "or"):
                x, y = int(a[0]), int(a[1])
                v = x < g and y < g and ((val[x][i] and val[y][i]) if k == "and" else (val[x][i] or val[y][i]))
            elif k == "first":
                v = i == 0
            elif k == "last":
                v = i + 1 == n
            elif k in ("prev", "next"):
                j = i - 1 if k == "prev" else i + 1
                v = 0 <= j < n and int(a[0]) < g and val[int(a[0])][j]
            elif k in ("since", "until"):
                x, y = int(a[0]), int(a[1])
                js = range(i - 1, -1, -1) if k == "since" else range(i + 1, n)
                v = False
                if x < g and y < g:
                    for j in js:  # the nearest witness of y; x must hold strictly between
                        if val[y][j]:
                            v = True
                            break
                        if not val[x][j]:
                            break
            elif k == "modEq":
                v = (i % int(a[0]) == int(a[1])) if int(a[0]) else i == int(a[1])
            elif k == "lin":
                v = 0 < int(a[0]) * i + int(a[1]) * n + int(a[2])
            elif k == "cmp":
                ok = all(x < g for _, _, x in nd.terms)
                total = int(a[0])
                for c, d, x in nd.terms:
                    js = range(0, i) if d == "<" else range(0, i + 1) if d == "<=" else range(i + 1, n)
                    total += c * sum(1 for j in js if ok and val[x][j])
                v = ok and total > 0
            else:
                raise ValueError(f"unknown node kind {k!r}")
            row.append(v)
        val.append(row)
    return val


def all_assignments(m: int) -> list[tuple[bool, ...]]:
    """Return every assignment of m Booleans, in Check.lean's ``allAssign`` order (true first)."""
    if m == 0:
        return [()]
    rest = all_assignments(m - 1)
    return [(True, *r) for r in rest] + [(False, *r) for r in rest]


def keval(prog: Sequence[Node], leaves: Sequence[int], rho: Sequence[bool], fuel: int, g: int) -> bool | None:
    """Return Logic.lean's ``keval``: node g's three-valued value when the leaves take the values rho (None: unknown)."""
    if fuel == 0:
        return None
    if g in leaves:
        k = list(leaves).index(g)
        return rho[k] if k < len(rho) else False
    nd = prog[g] if g < len(prog) else Node("const", (False,))
    if nd.kind == "const":
        return bool(nd.args[0])
    if nd.kind == "not":
        x = int(nd.args[0])
        if not x < g:
            return None
        u = keval(prog, leaves, rho, fuel - 1, x)
        return None if u is None else not u
    if nd.kind in ("and", "or"):
        x, y = int(nd.args[0]), int(nd.args[1])
        if not (x < g and y < g):
            return None
        u, v = keval(prog, leaves, rho, fuel - 1, x), keval(prog, leaves, rho, fuel - 1, y)
        if nd.kind == "and":
            return False if (u is False or v is False) else True if (u is True and v is True) else None
        return True if (u is True or v is True) else False if (u is False and v is False) else None
    return None


def _unknown_leaves(prog: Sequence[Node], leaves: Sequence[int], fuel: int, g: int, out: list[int]) -> None:
    """Append the nodes below g (through not / and / or) that are neither leaves nor constants: where keval says "unknown"."""
    if fuel == 0 or g in leaves:
        return
    nd = prog[g]
    if nd.kind == "const":
        return
    if nd.kind in ("not", "and", "or"):
        for x in nd.args:
            _unknown_leaves(prog, leaves, fuel - 1, int(x), out)
        return
    if g not in out:
        out.append(g)


def _extra_leaves(
    prog: Sequence[Node], inputs: list[int], nodes: list[int], agrees: Callable[[tuple[bool, ...], list[bool | None]], bool]
) -> list[int]:
    """Return the extra leaves that make every node's keval total over inputs + extra, checking ``agrees`` on every assignment.

    A Boolean node's plan reads only the leaves its value depends on; the checker enumerates
    assignments with Kleene evaluation, which needs a value for every leaf it meets, so leaves
    the value does not depend on are added (and enumerated) until evaluation is total.
    """
    extra: list[int] = []
    while True:
        leaves = inputs + extra
        total = True
        for rho in all_assignments(len(leaves)):
            vals = [keval(prog, leaves, rho, g + 1, g) for g in nodes]
            if any(v is None for v in vals):
                total = False
                break
            if not agrees(rho, vals):
                raise RuntimeError(f"internal: a Boolean plan disagrees with its node at {rho}")
        if total:
            return extra
        out: list[int] = []
        for g in nodes:
            _unknown_leaves(prog, leaves, g + 1, g, out)
        if not out or len(extra) >= MAX_EXTRA_LEAVES:
            raise NotCertifiable("not certifiable: a Boolean node's table needs too many leaves to show")
        extra.append(out[0])


# ---------------------------------------------------------------- the description


def describe(cf: cc.CompiledFormula, exp_k: int = EXP_K) -> Certificate:
    """Return the certificate of a compiled formula: its DAG, layout, heads and FFN groups as the compiler built them.

    Replays the compiler's steps (``compiler._schedule`` to ``Residual.compact``, with
    ``_anchored_select`` for the selects); a replay that differs from the compiled model is an
    internal error (RuntimeError).  NotCertifiable for a program outside the checker's fragment.
    """
    f, alphabet, regime = cf.formula, tuple(cf.alphabet), cf.regime
    sched = cc._schedule(f, alphabet, regime)
    _m_max, K, c = cc._score_scale(sched)
    lay = cc._allocate(sched)
    emb, orientation = cc._embeddings(sched, lay)
    if sched.depth:
        lay.res.layer(sched.depth - 1)
    cc._place_heads(sched, lay, K, orientation)
    cc._place_ffns(sched, lay, orientation)
    shared = lay.res.compact(cc._observations(sched, lay, f), sorted(emb.coordinates()), cc.zeroed(sched, lay))
    if [shared.new[lay.clean[g]] for g in sched.subs] != list(cf.coords) or shared.d != cf.model.d or K != cf.K or c != cf.c:
        raise RuntimeError("internal: the replayed layout differs from the compiled one")
    nodes = sched.nodes
    idx = {g: k for k, g in enumerate(nodes)}
    prog = tuple(_node_of(g, idx, alphabet, sched.label) for g in nodes)
    equiv = []
    for g2, g1 in sched.shared.items():
        ins = [idx[x] for x in sched.plan[g2].inputs]
        ex = _extra_leaves(list(prog), ins, [idx[g2], idx[g1]], lambda rho, v: v[0] == v[1])
        equiv.append(Equiv(idx[g2], idx[g1], tuple(ins + ex)))
    spans, clears = _spans(sched, lay, idx, shared)
    heads = _heads(cf, sched, lay, idx, shared)
    groups = _groups(sched, lay, idx, list(prog), shared)
    layers = tuple(LayerD(tuple(heads[t]), tuple(groups[t]) + tuple(clears.get(t + 1, ()))) for t in range(sched.depth))
    mixed = bool(cf.mixed_scale)
    c_rule = Fraction(cf.mixed_c) if mixed else Fraction(c)
    if mixed:
        exp_k = mixed_exp_k(c_rule, cf.mixed_scale, exp_k)
    return Certificate(
        prog, len(alphabet), spans, tuple(shared.new[lay.clean[g]] for g in nodes), tuple(equiv), idx[f], regime == "bounded",
        c_rule, Fraction(K), exp_k, layers, mixed,
    )  # fmt: skip


def err_lk(c: Fraction, k: int) -> Fraction:
    """Return Check.lean's ``errLk``: the rational bound (1 + (1/c)/k)^(-k) >= exp(-1/c) on a lookup over positions' x at tau = c/max(n-1, 1)."""
    return 1 / (1 + (1 / c) / k) ** k


def copy_err(c: Fraction, k: int) -> Fraction:
    """Return Check.lean's ``copyErr``: 2x/(1-x)^2 at x = ``err_lk``, the bound on a copied count's error (Lemma 7 over positions)."""
    x = err_lk(c, k)
    return 2 * x / ((1 - x) * (1 - x))


def mixed_exp_k(c: Fraction, scale: int, k: int) -> int:
    """Return the least k' = k 2^j (j >= 0, k' <= MAX_EXP_K) whose copy error leaves a mixed comparison of sum_k |c_k| <= ``scale`` its
    clamp's tolerance (``scale * copy_err(c, k') <= 1/4``, Check.lean's ``mix`` group); NotCertifiable past MAX_EXP_K."""
    while scale * copy_err(c, k) > Fraction(1, 4):
        k *= 2
        if k > MAX_EXP_K:
            raise NotCertifiable(f"not certifiable: no bound (1 + g/k)^(-k) with k <= {MAX_EXP_K} shows a copy error within 1/(4 {scale})")
    return k


def _spans(
    sched: cc._Schedule, lay: cc._Layout, idx: dict[sx.Formula, int], shared: Compaction
) -> tuple[tuple[tuple[Span, ...], ...], dict[int, list[GroupD]]]:
    """Return what every coordinate holds, span by span, and the clearing groups of each layer (1-based), as ``Residual.compact`` shared them.

    Each coordinate before compaction holds one role: a position feature from boundary 0, or
    the value of the first node laid out there (the node a shared Boolean node is equivalent to)
    from its time.  A shared coordinate holds its old coordinates in turn, in the order they
    became busy; each but the last is erased by two units in the FFN of the first layer at or
    after its last use (``Residual.compact``): its span stops at that layer, which clears it.
    The clearing units of a layer follow its other units in the order the compactor appended
    them (by when the coordinate's next holder becomes busy).
    """
    roles: dict[int, tuple[Role, int]] = {lay.res[name]: (Role("feat", feature_of(name)), 0) for name in lay.features}
    for g in sched.nodes:
        k = lay.clean[g]
        if k not in roles:
            roles[k] = (Role("node", node=idx[g]), sched.time[g])
    for g, w in lay.single.items():  # an inclusive comparison's V and W: written in the layer of its count heads
        roles[lay.value[g]] = (Role("val", node=idx[g]), sched.time[g] - 1)
        roles[w] = (Role("single", node=idx[g]), sched.time[g] - 1)
    then: dict[int, tuple[Role, int]] = {}  # a strict comparison's V: first its constant (pre), then V from its count heads' layer
    until: dict[int, int] = {}  # a bounded mixed comparison's V: erased by its sign head's FFN (compiler._place_ffns)
    for g, v in lay.value.items():
        if g in lay.single:
            continue
        t = sched.time[g]
        if sched.is_mixed(g):  # bounded: (r - 1/2)/n from layer t - 2 (vpre), N/n from its lookups' layer t - 1 (vmix) to t
            roles[v] = (Role("vpre", node=idx[g]), t - 2)
            then[v] = (Role("vmix", node=idx[g]), t - 1)
            until[v] = t
        else:
            roles[v] = (Role("pre", node=idx[g]), 0 if t - 1 < 2 else t - 2)
            then[v] = (Role("val", node=idx[g]), t - 1)
    for (term, t), (average, second) in lay.lookups.items():  # a mixed comparison's count, per count and comparison time t:
        d, x = term.direction, idx[term.arg]
        if sched.regime == "bounded":  # its value / n from layer t - 3 (scale), its average / n from the count heads' layer t - 2
            roles[second] = (Role("scaled", node=x), t - 3)
            roles[average] = (Role("avgN", node=x, d=d), t - 2)
        else:  # its average from the count heads' layer t - 1; its copy lives inside layer t only (written by the lookup, erased
            roles[average] = (Role("avg", node=x, d=d), t - 1)  # by the same FFN): 0 at every boundary
            roles[second] = (Role("zero"), t)
    if len(roles) != len(shared.new):
        raise RuntimeError("internal: a coordinate holds neither a feature nor a node")
    first = [a for a, _ in shared.spans]
    holders: list[list[int]] = [[] for _ in range(shared.d)]
    for old in sorted(range(len(shared.new)), key=lambda o: (first[o], o)):
        holders[shared.new[old]].append(old)
    spans: list[tuple[Span, ...]] = []
    pending: dict[int, list[tuple[tuple[int, int], int]]] = {}
    for k, olds in enumerate(holders):
        out = []
        for j, old in enumerate(olds):
            role, start = roles[old]
            stop = None
            if j + 1 < len(olds):  # erased for the next holder (Residual.compact's erase layer), unless the model zeroed it
                nxt = olds[j + 1]
                stop = max(1, math.ceil((shared.spans[old][1] + 1) / 2))
                if old not in shared.spared:
                    pending.setdefault(stop, []).append(((first[nxt], nxt), k))
            if old in then:
                out.append(Span(role, start, then[old][1]))
                role, start = then[old]
            if old in until:  # erased by the compiler before the compactor's own erase (if any, which then erases a 0)
                out.append(Span(role, start, until[old]))
                continue
            out.append(Span(role, start, stop))
        spans.append(tuple(out))
    clears = {l: [GroupD("clear", k) for _, k in sorted(cs)] for l, cs in pending.items()}
    return tuple(spans), clears


def _heads(cf: cc.CompiledFormula, sched: cc._Schedule, lay: cc._Layout, idx: dict[sx.Formula, int], shared: Compaction) -> list[list[HeadD]]:
    """Return each layer's heads: the family of each attended node's head, its select and value terms, merged as the compiler merged them.

    An inclusive comparison g (time t) has one count head per term in layer t - 1 (``cnt``: the
    term's column, and after the first term the constant's, through is_first; the compiler merges
    every count head of a layer into one) and its sign head in layer t (``sign``: V's and W's
    coordinates, orientation +1).
    """
    calls: list[tuple[int, str, HeadD]] = []
    placed: set[tuple[sx.Count, int]] = set()
    for g in sched.nodes:
        if sched.is_symbolic(g):
            continue
        t = sched.time[g]
        bounded = sched.regime == "bounded"
        if isinstance(g, (sx.Prev, sx.Next)):
            past = isinstance(g, sx.Prev)
            fam = ("tbPastB" if past else "tbFutB") if bounded else ("lkPast" if past else "lkFut")
            calls.append((t, "", HeadD(fam, None, False, (TermD(idx[g], idx[g.arg]),))))
        elif isinstance(g, (sx.Since, sx.Until)):
            fam = ("tbPast" if isinstance(g, sx.Since) else "tbFut") + ("B" if bounded else "U")
            anchored = cc._anchored_select(sched, g) is not None
            calls.append((t, "", HeadD(fam, idx[sched.beta[g]], anchored, (TermD(idx[g], idx[g.right]),))))
        elif isinstance(g, sx.Compare) and sched.is_mixed(g) and bounded:  # compiler._place_heads: per count, its average (once per
            vc = shared.new[lay.value[g]]  # count and layer) and its lookup adding c_k p/n into V (merged per count); then the sign
            for _, term in sched.compare_terms(g)[1]:
                average, scaled = (shared.new[k] for k in lay.lookups[(term, t)])
                x = idx[term.arg]
                if (term, t) not in placed:
                    placed.add((term, t))
                    col = CntD(x, average, x, Fraction(1), True, scaled)
                    calls.append((t - 2, "count", HeadD("cnt", None, False, (), term.direction, (col,))))
                calls.append((t - 1, "position-lookup", HeadD("plkN", None, False, (), term.direction, x=x, ac=average, vs=((idx[g], vc),))))
            const = sched.compare_terms(g)[2]
            calls.append((t, "sign", HeadD("sign", None, False, (TermD(idx[g], idx[g]),), o=const > 0, vc=vc, wc=None)))
        elif isinstance(g, sx.Compare) and sched.is_mixed(g):  # compiler._place_heads: per count not yet placed, its average and lookup
            for _, term in sched.compare_terms(g)[1]:
                if (term, t) in placed:
                    continue
                placed.add((term, t))
                average, copy = (shared.new[k] for k in lay.lookups[(term, t)])
                x = idx[term.arg]
                calls.append((t - 1, "count", HeadD("cnt", None, False, (), term.direction, (CntD(x, average, x, Fraction(1), True),))))
                calls.append((t, "position-lookup", HeadD("plk", None, False, (), term.direction, x=x, ac=average, cc=copy)))
        elif isinstance(g, sx.Compare):
            direction, terms, const = sched.compare_terms(g)
            vc = shared.new[lay.value[g]]
            wc = shared.new[lay.single[g]] if g in lay.single else None
            for k, (cf_k, term) in enumerate(terms):
                cols = [CntD(idx[g], vc, idx[term.arg], Fraction(cf_k))]
                if k == 0 and direction == "<=":
                    cols.append(CntD(idx[g], vc, None, Fraction(const)))
                calls.append((t - 1, "count", HeadD("cnt", None, False, (), direction, tuple(cols))))
            o = direction == "<=" or const > 0  # compiler._embeddings' orientation
            calls.append((t, "sign", HeadD("sign", None, False, (TermD(idx[g], idx[g]),), o=o, vc=vc, wc=wc)))
    if len(calls) != len(cf.heads):
        raise RuntimeError("internal: the replayed heads differ from the compiled ones")
    per_layer: list[dict[int, HeadD]] = [{} for _ in range(sched.depth)]
    for (t, construction, hd), info in zip(calls, cf.heads):
        if info.layer != t or (construction and info.construction != construction):
            raise RuntimeError("internal: the replayed heads differ from the compiled ones")
        old = per_layer[t - 1].get(info.index)
        if old is None:
            per_layer[t - 1][info.index] = hd
        elif hd.fam == "plkN" and (old.fam, old.d, old.x, old.ac) == ("plkN", hd.d, hd.x, hd.ac):
            per_layer[t - 1][info.index] = HeadD("plkN", None, False, (), hd.d, x=hd.x, ac=hd.ac, vs=(*old.vs, *hd.vs))
        elif hd.fam == "cnt" and (old.fam, old.d) == ("cnt", hd.d):
            per_layer[t - 1][info.index] = HeadD("cnt", None, False, (), hd.d, (*old.cnt, *hd.cnt))
        elif hd.fam not in ("cnt", "sign") and (old.fam, old.sel, old.anchored) == (hd.fam, hd.sel, hd.anchored):
            per_layer[t - 1][info.index] = HeadD(hd.fam, hd.sel, hd.anchored, (*old.terms, *hd.terms))
        else:
            raise RuntimeError("internal: two constructions merged into one head")
    return [[hs[k] for k in sorted(hs)] for hs in per_layer]


def _flipped(sched: cc._Schedule, g: sx.Formula) -> bool:
    """Return whether g is a strict comparison whose sign head has orientation -1 (constant < 0): its raw value is near 1 - [g]."""
    if not isinstance(g, sx.Compare) or sched.is_symbolic(g) or sched.is_clamped(g):
        return False
    direction, _, const = sched.compare_terms(g)
    return direction != "<=" and const < 0


def _table_agrees(assigns: tuple[tuple[bool, ...], ...], neg: bool, m: int) -> Callable[[tuple[bool, ...], list[bool | None]], bool]:
    """Return the test that a table group's clamped assignments (complemented when ``neg``) are its node's value on an assignment."""
    return lambda rho, v: v[0] == ((rho[:m] in assigns) != neg)


def _groups(sched: cc._Schedule, lay: cc._Layout, idx: dict[sx.Formula, int], prog: list[Node], shared: Compaction) -> list[list[GroupD]]:
    """Return each layer's FFN unit groups in the compiler's order: node clamps (pair, table, gate) and an inclusive comparison's W
    (single, in its count heads' layer), then the erasers."""
    out: list[list[GroupD]] = [[] for _ in range(sched.depth)]
    for g, v in lay.value.items():  # compiler._embeddings: a strict comparison's constant * f_dir, in the layer before its counts
        direction, _, _ = sched.compare_terms(g)  # type: ignore[arg-type]
        if direction == cc.MIXED:  # bounded: the constant * 1/n, in the layer before its lookups (t - 2 >= 2)
            out[sched.time[g] - 3].append(GroupD("vpre", idx[g], vc=shared.new[v], src=shared.new[lay.res["1/n"]]))
        elif direction != "<=" and sched.time[g] - 1 >= 2:
            feat = lay.res["1/max(i,1)" if direction == "<" else "1/max(n-1-i,1)"]
            out[sched.time[g] - 3].append(GroupD("pre", idx[g], vc=shared.new[v], src=shared.new[feat]))
    for g in sched.nodes:
        if sched.is_symbolic(g) or isinstance(g, (sx.First, sx.Last, sx.Mod, sx.Pos)) or g in sched.shared:
            continue
        if sched.is_clamped(g):  # compiler._mixed_units: clamp(2N + 1/2) from the copies, one per term of the node, in its order
            t = sched.time[g]
            copies = {(term.direction, idx[term.arg]): shared.new[cp] for (term, u), (_, cp) in lay.lookups.items() if u == t}
            out[t - 1].append(GroupD("mix", idx[g], tuple(copies[(d, x)] for _, d, x in prog[idx[g]].terms)))
            continue
        if g in lay.single:  # compiler._inclusive_units: M = sum_k |c_k| + |const| + 1
            _, terms, const = sched.compare_terms(g)  # type: ignore[arg-type]
            big = sum(abs(Fraction(c)) for c, _ in terms) + abs(Fraction(const)) + 1
            vc, wc = shared.new[lay.value[g]], shared.new[lay.single[g]]
            out[sched.time[g] - 2].append(GroupD("single", idx[g], vc=vc, wc=wc, M=big))
        groups = out[sched.time[g] - 1]
        if g not in sched.plan:
            groups.append(GroupD("pairFlip" if _flipped(sched, g) else "pair", idx[g]))
            continue
        plan = sched.plan[g]
        use, sign = plan.assignments()
        ins = [idx[x] for x in plan.inputs]
        neg = sign < 0
        assigns = tuple(tuple(bool(b) for b in s) for s in use)
        if plan.form == "circuit":
            groups.append(GroupD("gate", idx[g], tuple(ins), (), assigns, neg))
            continue
        ex = _extra_leaves(prog, ins, [idx[g]], _table_agrees(assigns, neg, len(ins)))
        groups.append(GroupD("table", idx[g], tuple(ins), tuple(ex), assigns, neg))
    for g in lay.scratch:
        out[sched.time[g] - 1].append(GroupD("eraser", idx[g]))
    if sched.regime == "unbounded":
        for (_, t), (_, cp) in lay.lookups.items():  # compiler._place_ffns: x - ReLU(x) on every copy
            out[t - 1].append(GroupD("copyErase", shared.new[cp]))
        return out
    for (term, t), (_, sc) in lay.lookups.items():  # compiler._place_ffns: b/n = ReLU(1/n) - ReLU(1/n - b), three layers before the sign
        out[t - 4].append(GroupD("scale", idx[term.arg], vc=shared.new[sc]))
    for g, v in lay.value.items():  # compiler._place_ffns: V - ReLU(V) + ReLU(-V) after the sign head (a clear)
        if sched.is_mixed(g):
            out[sched.time[g] - 1].append(GroupD("clear", shared.new[v]))
    return out
