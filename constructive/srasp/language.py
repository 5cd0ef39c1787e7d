"""S-RASP, the language (RASP with prefix sums; Strobl et al. 2025, "Transformers as Transducers"): its operations and programs.

Corresponds to the paper's application "every S-RASP program is computed by an
AHAT, hence by a softmax transformer at a temperature set by its gap" (Yang et
al., section on applications).  The reference semantics is
``constructive.srasp.interpreter``, the text syntax ``constructive.srasp.parser``,
the compilation to an average-hard transformer ``constructive.srasp.compiler``;
``docs/srasp.md`` lists where the conventions differ from Strobl et al.'s.

Vectors
-------
A program is a list of named definitions; each names a Boolean vector (one bit
per position) or an integer vector (one exact Python int per position).
Positions are i = 0..n-1.  A Boolean may stand where an integer is expected (it
counts as 0/1, the Iverson bracket); an integer where a Boolean is expected is a
type error.

Operations (``text syntax`` in brackets)
-----------------------------------------
* ``Token(symbols)``          [token("a", "b")]     [w_i in symbols]                     Boolean
* ``BoolConst(value)``        [true], [false]                                            Boolean
* ``BoolNot(a)``, ``BoolAnd(a, b)``, ``BoolOr(a, b)``  [not a], [a and b], [a or b]      Boolean
* ``Cond(b, x, y)``           [if b then x else y]  x_i if b_i else y_i   Boolean when x, y both are
* ``Index()``                 [index]               i                                    integer
* ``Lin(terms, const)``       [3*x - y + 2]         sum_k c_k x_k + c                    integer
* ``Compare(op, left, right)`` [x + 1 < 2*y]        [left_i op right_i], op in = != < <= > >=   Boolean
* ``PrefixSum(expr)``         [psum(x - y)]         sum_{j <= i} expr_j (INCLUSIVE, Strobl et al.'s)  integer
* ``Psum(plus, minus)``       [strict_psum(p, m)]   max(0, sum_{j < i} ([p_j] - [m_j])) (strict, clamped)  integer
* ``Once(b)``                 [once(b)]             [b_j for some j <= i]                Boolean
* ``Select(...)``             [rightmost j < i with k[j] == q[i] + 1 and w[j] value v default d]
      Strobl et al.'s attention: among the keys j allowed by the mask (j < i, j <= i,
      j > i, j >= i, or every j) that satisfy the selector (key_j CMP query_i + offset,
      and where_j), the leftmost or rightmost one's value_j; default_i when there is none.
* ``Aggregate(...)``          [rightmost j < i with k[j] == q[i] - 1 and w[j] value v default nearest]
      the Dyck program's aggregate: as Select with CMP "=" and rightmost, but with no
      match the value at the rightmost visible j maximising 2 [where_j] - 2 (key_j - query_i
      - offset)^2 (the nearest key), and 0 when no key is visible.

The program's output at each position is the first symbol of ``outputs`` whose
Boolean holds, else ``default``.

Integers: every literal (constant, coefficient, offset) is at most ``MAX_INTEGER``
in absolute value, and so is every definition's growth constant C (|v_i| <= C (i+1)^d,
the bound ``growth`` computes); a program above it is refused with the bound named.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Largest literal and largest growth constant C (|v_i| <= C (i+1)^d) of an integer definition.  The
#: compiled comparisons decide an integer z with a margin of 1/4; C up to 10^6 keeps that margin
#: exactly representable in float64 for every n up to 2^12 (10^6 * 2^24 < 2^53 / 64); larger
#: constants would silently lose it.  (The same bound as the temporal logic's, constructive.logic.syntax.)
MAX_INTEGER = 10**6

#: Comparison operators (position-wise and in selectors), in the text syntax's spelling.
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
#: Masks of Select / Aggregate: the spec's mask kinds, and the key range each allows.
MASKS = ("strict", "causal")
SELECT_MASKS = {"strict": "j < i", "causal": "j <= i", "strict_anticausal": "j > i", "anticausal": "j >= i", "none": "every j"}
DIRECTIONS = ("leftmost", "rightmost")


class ProgramError(ValueError):
    """A program refused by validation: one line, naming the definition (``definition``, None for the program as a whole)."""

    def __init__(self, message: str, definition: str | None = None, index: int | None = None) -> None:
        super().__init__(message)
        self.definition = definition
        self.index = index


@dataclass(frozen=True)
class Token:
    """[w_i in symbols] (Boolean)."""

    symbols: tuple[str, ...]


@dataclass(frozen=True)
class BoolConst:
    """The constant Boolean vector (true or false at every position)."""

    value: bool


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
class Cond:
    """x_i if b_i else y_i (Boolean when x and y are, integer otherwise)."""

    b: str
    x: str
    y: str


@dataclass(frozen=True)
class Index:
    """The position index i (integer)."""


@dataclass(frozen=True)
class Lin:
    """sum_k c_k x_k + const (integer); terms (coefficient, name), coefficients non-zero, names distinct."""

    terms: tuple[tuple[int, str], ...] = ()
    const: int = 0


@dataclass(frozen=True)
class Compare:
    """[left_i op right_i] for integer expressions left, right (Boolean); op one of COMPARISONS."""

    op: str
    left: Lin
    right: Lin


@dataclass(frozen=True)
class PrefixSum:
    """sum_{j <= i} expr_j, the inclusive prefix sum (integer; Strobl et al.'s psum)."""

    expr: Lin


@dataclass(frozen=True)
class Psum:
    """max(0, sum_{j<i} ([plus_j] - [minus_j])) (integer in [0, i]); minus may be None."""

    plus: str
    minus: str | None = None


@dataclass(frozen=True)
class IsConst:
    """[v_i = c] for an integer sequence v (Boolean); the text syntax writes it as the comparison v == c."""

    v: str
    c: int


@dataclass(frozen=True)
class Aggregate:
    """value at the rightmost visible j with where_j and key_j = query_i + offset (fallback: the nearest key; see the module docstring)."""

    key: str
    query: str
    offset: int
    where: str
    value: str
    mask: str = "strict"


@dataclass(frozen=True)
class Select:
    """Strobl et al.'s attention: value_j at the leftmost / rightmost j in the mask with [key_j cmp query_i + offset] and where_j, else default_i.

    key, cmp and query are all None (no comparison) or all given; where None means no key filter.
    """

    direction: str
    mask: str
    key: str | None
    cmp: str | None
    query: str | None
    offset: int
    where: str | None
    value: str
    default: str


@dataclass(frozen=True)
class Once:
    """[b_j for some j <= i] (Boolean)."""

    b: str


Op = Token | BoolConst | BoolNot | BoolAnd | BoolOr | Cond | Index | Lin | Compare | PrefixSum | Psum | IsConst | Aggregate | Select | Once


def operands(op: Op) -> tuple[str, ...]:
    """Return the names an operation reads, in order (repeats kept)."""
    if isinstance(op, (Token, BoolConst, Index)):
        return ()
    if isinstance(op, BoolNot):
        return (op.a,)
    if isinstance(op, (BoolAnd, BoolOr)):
        return (op.a, op.b)
    if isinstance(op, Cond):
        return (op.b, op.x, op.y)
    if isinstance(op, Lin):
        return tuple(x for _, x in op.terms)
    if isinstance(op, Compare):
        return tuple(x for _, x in op.left.terms + op.right.terms)
    if isinstance(op, PrefixSum):
        return tuple(x for _, x in op.expr.terms)
    if isinstance(op, Psum):
        return (op.plus,) if op.minus is None else (op.plus, op.minus)
    if isinstance(op, IsConst):
        return (op.v,)
    if isinstance(op, Aggregate):
        return (op.key, op.query, op.where, op.value)
    if isinstance(op, Select):
        return tuple(x for x in (op.key, op.query, op.where, op.value, op.default) if x is not None)
    if isinstance(op, Once):
        return (op.b,)
    raise ProgramError(f"not an S-RASP operation: {op!r}")


#: Growth of an integer vector: (C, d) with |v_i| <= C (i+1)^d for every i (Booleans: (1, 0)).
Growth = tuple[int, int]


def _lin_growth(lin: Lin, growth: dict[str, Growth]) -> Growth:
    """Return the growth of a linear expression from its terms' growths."""
    c, d = abs(lin.const), 0
    for coef, x in lin.terms:
        gc, gd = growth[x]
        c, d = c + abs(coef) * gc, max(d, gd)
    return c, d


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
        growth: dict[str, Growth] = {}
        if not self.alphabet or len(set(self.alphabet)) != len(self.alphabet):
            raise ProgramError(f"S-RASP program {self.name}: the alphabet must be non-empty without repeats")
        for k, (name, op) in enumerate(self.defs):
            try:
                kind = self._check(name, op, kinds, growth)
                if kind == "integer":
                    g = self._growth(op, growth)
                    if g[0] > MAX_INTEGER:
                        raise ProgramError(f"S-RASP program {self.name}: {name!r} can reach {g[0]} (i+1)^{g[1]}, above the bound {MAX_INTEGER}", name)
                    growth[name] = g
                else:
                    growth[name] = (1, 0)
            except ProgramError as e:
                raise ProgramError(str(e), name, k) from None
            kinds[name] = kind
        if not self.outputs:
            raise ProgramError(f"S-RASP program {self.name}: no outputs")
        for sym, b in self.outputs:
            if b not in kinds:
                raise ProgramError(f"S-RASP program {self.name}: output {sym!r} uses {b!r}, which is not defined")
            if kinds[b] != "Boolean":
                raise ProgramError(f"S-RASP program {self.name}: output {sym!r} needs a Boolean, {b!r} is an integer")
        syms = [s for s, _ in self.outputs] + [self.default]
        if len(set(syms)) != len(syms):
            raise ProgramError(f"S-RASP program {self.name}: output symbols repeat: {syms}")

    def _check(self, name: str, op: Op, kinds: dict[str, str], growth: dict[str, Growth]) -> str:
        """Return the kind of definition name (Boolean or integer), or raise ProgramError naming the problem."""
        where = f"definition {name!r}"

        def fail(msg: str) -> ProgramError:
            return ProgramError(f"S-RASP program {self.name}: {where} {msg}", name)

        if name in kinds:
            raise fail("is defined twice (every name is bound once)")
        names = operands(op)
        missing = [self._unbound(name, x) for x in names if x not in kinds]
        if missing:  # a cycle first, it explains the forward references on it
            raise fail(next((m for m in missing if "cycle" in m), missing[0]))

        def boolean(*xs: str | None) -> None:
            for x in xs:
                if x is not None and kinds[x] != "Boolean":
                    raise fail(f"needs a Boolean sequence, {x!r} is integer")

        def literal(v: object, what: str) -> None:
            if not isinstance(v, int) or isinstance(v, bool):
                raise fail(f"has {what} {v!r}; expected an integer")
            if abs(v) > MAX_INTEGER:
                digits = str(abs(v)) if abs(v).bit_length() < 64 else f"of about {int(abs(v).bit_length() * 0.30103) + 1} digits"
                raise fail(f"has {what} {digits}, above the bound {MAX_INTEGER}")

        def lin(e: Lin) -> None:
            if not isinstance(e, Lin):
                raise fail(f"needs a linear expression, got {e!r}")
            literal(e.const, "the constant")
            seen = set()
            for coef, x in e.terms:
                literal(coef, "the coefficient")
                if coef == 0 or x in seen:
                    raise fail(f"has a zero or repeated term {coef}*{x}")
                seen.add(x)

        if isinstance(op, Token):
            unknown = [s for s in op.symbols if s not in self.alphabet]
            if unknown or not op.symbols:
                raise fail(f"names symbols {unknown} not in the alphabet")
            return "Boolean"
        if isinstance(op, BoolConst):
            if not isinstance(op.value, bool):
                raise fail(f"has the Boolean constant {op.value!r}")
            return "Boolean"
        if isinstance(op, (BoolNot, BoolAnd, BoolOr, Once)):
            boolean(*names)
            return "Boolean"
        if isinstance(op, Cond):
            boolean(op.b)
            return "Boolean" if kinds[op.x] == kinds[op.y] == "Boolean" else "integer"
        if isinstance(op, Index):
            return "integer"
        if isinstance(op, Lin):
            lin(op)
            return "integer"
        if isinstance(op, Compare):
            if op.op not in COMPARISONS:
                raise fail(f"has comparison {op.op!r}; expected one of {' '.join(COMPARISONS)}")
            lin(op.left)
            lin(op.right)
            return "Boolean"
        if isinstance(op, PrefixSum):
            lin(op.expr)
            return "integer"
        if isinstance(op, Psum):
            boolean(*names)
            return "integer"
        if isinstance(op, IsConst):
            if kinds[op.v] != "integer":
                raise fail(f"needs an integer sequence, {op.v!r} is Boolean")
            literal(op.c, "the constant")
            if op.c < 0:
                raise fail(f"compares with {op.c!r}; constants are integers >= 0")
            return "Boolean"
        if isinstance(op, Aggregate):  # key and query: integers, or Booleans read as 0/1 (as everywhere an integer is expected)
            boolean(op.where, op.value)
            literal(op.offset, "the offset")
            if op.mask not in MASKS:
                raise fail(f"has mask {op.mask!r}; expected one of {MASKS}")
            return "Boolean"
        if isinstance(op, Select):
            if op.direction not in DIRECTIONS:
                raise fail(f"has direction {op.direction!r}; expected leftmost or rightmost")
            if op.mask not in SELECT_MASKS:
                raise fail(f"has mask {op.mask!r}; expected one of {', '.join(SELECT_MASKS)}")
            if (op.key is None) != (op.query is None) or (op.key is None) != (op.cmp is None):
                raise fail("has a comparison with a side missing")
            if op.cmp is not None and op.cmp not in COMPARISONS:
                raise fail(f"has comparison {op.cmp!r}; expected one of {' '.join(COMPARISONS)}")
            literal(op.offset, "the offset")
            if op.key is None and op.offset != 0:
                raise fail("has an offset but no comparison")
            boolean(op.where)
            return "Boolean" if kinds[op.value] == kinds[op.default] == "Boolean" else "integer"
        raise fail(f"is not an S-RASP operation: {op!r}")

    def _unbound(self, name: str, x: str) -> str:
        """Return why definition name may not read x: x is not defined, defined later, or on a cycle through name."""
        later = {n: op for n, op in self.defs}
        if x not in later:
            return f"uses {x!r}, which is not defined"
        if x == name:
            return f"is on a cycle of definitions: {name} -> {name}"
        parent: dict[str, str] = {x: name}
        stack = [x]
        while stack:  # depth-first over the definitions' operands from x; reaching name again closes a cycle
            y = stack.pop()
            for z in operands(later[y]):
                if z == name:
                    path = [y]
                    while path[-1] != name:
                        path.append(parent[path[-1]])
                    return "is on a cycle of definitions: " + " -> ".join([name] + path[::-1][1:] + [name])
                if z in later and z not in parent:
                    parent[z] = y
                    stack.append(z)
        return f"uses {x!r} before it is defined"

    @staticmethod
    def _growth(op: Op, growth: dict[str, Growth]) -> Growth:
        """Return (C, d) with |v_i| <= C (i+1)^d for an integer definition, from its operands' growths."""
        if isinstance(op, Index):
            return 1, 1
        if isinstance(op, Lin):
            return _lin_growth(op, growth)
        if isinstance(op, PrefixSum):
            c, d = _lin_growth(op.expr, growth)
            return c, d + 1
        if isinstance(op, Psum):
            return 1, 1
        if isinstance(op, Cond):
            (cx, dx), (cy, dy) = growth[op.x], growth[op.y]
            return max(cx, cy), max(dx, dy)
        if isinstance(op, Select):
            (cv, dv), (cd, dd) = growth[op.value], growth[op.default]
            return max(cv, cd), max(dv, dd)
        raise AssertionError(op)  # pragma: no cover - only integer operations reach here

    def kinds(self) -> dict[str, str]:
        """Return {name: 'Boolean' | 'integer'} for every definition."""
        kinds: dict[str, str] = {}
        for name, op in self.defs:
            kinds[name] = self._check(name, op, kinds, {})
        return kinds

    def growths(self) -> dict[str, Growth]:
        """Return {name: (C, d)}, |v_i| <= C (i+1)^d, for every definition (Booleans (1, 0))."""
        kinds = self.kinds()
        growth: dict[str, Growth] = {}
        for name, op in self.defs:
            growth[name] = self._growth(op, growth) if kinds[name] == "integer" else (1, 0)
        return growth

    @property
    def symbols(self) -> tuple[str, ...]:
        """Return the output symbols (priority order, then the default)."""
        return tuple(s for s, _ in self.outputs) + (self.default,)

    def uses(self, kind: type) -> bool:
        """Return whether some definition is of the given operation type."""
        return any(isinstance(op, kind) for _, op in self.defs)
