"""S-RASP, the language (RASP with prefix sums; Strobl et al. 2024, "Transformers as Transducers"): its operations and programs.

Corresponds to the paper's application "every S-RASP program is computed by an
AHAT, hence by a softmax transformer at a temperature set by its gap" (Yang et
al., section on applications).  This is the project's OWN fragment; its
reference semantics is ``constructive.srasp.interpreter``, its compilation to an
average-hard transformer ``constructive.srasp.compiler``.

The fragment
------------
Sequences are Boolean (one bit per position) or integer.  A program is a list
of named definitions, each one of:

* ``Token(symbols)``            [w_i in symbols]                                 Boolean
* ``BoolNot(a)``, ``BoolAnd(a, b)``, ``BoolOr(a, b)``                            Boolean
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
``constructive.srasp.compiler``); a program whose sums never go negative (Dyck's
depth on valid prefixes) sees the plain prefix sum.

Names: the position-wise Boolean operations are ``BoolNot`` / ``BoolAnd`` /
``BoolOr`` (operations on named Boolean sequences), distinct from the temporal
logic's formula connectives ``constructive.logic.Not`` / ``And`` / ``Or``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Token:
    """[w_i in symbols] (Boolean)."""

    symbols: tuple[str, ...]


@dataclass(frozen=True)
class BoolNot:
    """1 - a (Boolean)."""

    a: str


@dataclass(frozen=True)
class BoolAnd:
    """a and b (Boolean)."""

    a: str
    b: str


@dataclass(frozen=True)
class BoolOr:
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


Op = Token | BoolNot | BoolAnd | BoolOr | Psum | IsConst | Aggregate | Once
#: Masks an Aggregate may use.
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
            elif isinstance(op, BoolNot):
                need(op.a, "Boolean", where)
            elif isinstance(op, (BoolAnd, BoolOr)):
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
