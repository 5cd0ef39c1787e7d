"""The temporal-logic formula language (docs/temporal-logic.md): AST, parser and printer.

Grammar (loosest binding first; binary operators associate to the left)::

    formula    := or
    or         := and ('|' and)*
    and        := since ('&' since)*
    since      := unary (('S' | 'U') unary)*
    unary      := ('!' | 'Y' | 'X') unary | primary
    primary    := '(' formula ')' | 'true' | 'false' | 'first' | 'last' | mod | pos | SYMBOL | comparison
    mod        := 'mod' '(' INT ',' INT ')'          (i mod m = r: a monadic numerical predicate)
    pos        := 'pos' '(' poslin ('<' | '<=' | '>' | '>=') poslin ')'   (of i and n: a numerical predicate)
    poslin     := ['-'] pterm (('+' | '-') pterm)*
    pterm      := INT ['*' ('i' | 'n')] | 'i' | 'n'
    comparison := linexpr ('<' | '<=' | '>' | '>=') linexpr
    linexpr    := ['-'] lterm (('+' | '-') lterm)*
    lterm      := INT ['*' count] | count
    count      := '#<' '[' formula ']' | '#<=' '[' formula ']' | '#>' '[' formula ']'

SYMBOL is an identifier ([A-Za-z_][A-Za-z0-9_]*) other than the keywords
true, false, first, last, Y, X, S, U (``mod`` and ``pos`` are keywords only before '(').  ``str(f)`` prints with the fewest parentheses
that make ``parse(str(f)) == f``.  Parse errors are ValueError naming the column
(1-based) and what was expected.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from hardsoft.constructive.gcpause import without_cycle_collection
from hardsoft.spec.constants import MAX_INTEGER  # largest integer literal (the margin argument is there)

KEYWORDS = frozenset({"true", "false", "first", "last", "Y", "X", "S", "U"})
COMPARISONS = ("<", "<=", ">", ">=")
#: Deepest formula tree accepted (operators on one root-to-leaf path, a left-nested chain
#: a & a & ... counted in full).  The parser's recursive descent raises the recursion limit by
#: _FRAMES_PER_LEVEL frames per level (Python >= 3.11 runs Python-to-Python calls without the
#: C stack); every later stage (printer, repr, hash, equality, compiler, evaluator, checks)
#: walks formulas with explicit stacks, so a formula built in Python deeper than this works too.
MAX_DEPTH = 1000


# --------------------------------------------------------------------------- AST

_N = TypeVar("_N")


def _node(cls: type[_N]) -> type[_N]:
    """Give the frozen dataclass cls a hash is computed once, at construction, from its fields' (cached) hashes.

    The generated dataclass hash would recurse through the whole tree on every call (the
    compiler's dictionaries hashed each node once per ancestor: quadratic in a chain); the
    equality below compares hashes first and walks equal trees with an explicit stack, so
    neither recurses however deep the formula is.
    """
    dc: Any = cls
    names = tuple(f.name for f in dataclasses.fields(dc))
    init = dc.__init__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        object.__setattr__(self, "_hash", hash((dc.__name__, *(getattr(self, n) for n in names))))

    def __hash__(self: Any) -> int:
        return int(self._hash)

    def __eq__(self: Any, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not type(self):
            return NotImplemented
        return _tree_equal(self, other)

    def __reduce__(self: Any) -> tuple[Any, tuple[Any, ...]]:
        return dc, tuple(getattr(self, n) for n in names)  # rebuilt through __init__: the hash is recomputed

    dc.__init__, dc.__hash__, dc.__eq__, dc.__reduce__, dc.__repr__ = __init__, __hash__, __eq__, __reduce__, _node_repr
    dc._fields = names
    return dc  # type: ignore[no-any-return]


def _node_repr(root: Any) -> str:
    """Return the dataclass-style repr of an AST value (``And(left=Atom(symbol='a'), ...)``), built bottom-up without recursion."""
    memo: dict[int, str] = {}
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        x, ready = stack.pop()
        if id(x) in memo:
            continue
        if hasattr(x, "_fields"):
            kids = [getattr(x, n) for n in x._fields]
        elif isinstance(x, tuple):
            kids = list(x)
        else:
            memo[id(x)] = repr(x)
            continue
        if not ready:
            stack.append((x, True))
            stack.extend((k, False) for k in kids if id(k) not in memo)
        elif hasattr(x, "_fields"):
            memo[id(x)] = f"{type(x).__name__}(" + ", ".join(f"{n}={memo[id(k)]}" for n, k in zip(x._fields, kids)) + ")"
        else:
            memo[id(x)] = "(" + ", ".join(memo[id(k)] for k in kids) + ("," if len(kids) == 1 else "") + ")"
    return memo[id(root)]


def _tree_equal(a: Any, b: Any) -> bool:
    """Return whether two AST values are equal, walking them with an explicit stack (hashes compared first).

    Each pair of nodes is compared once: trees that share subtrees (a program's formula is a DAG
    whose tree is exponentially larger) are walked in time linear in their distinct node pairs.
    """
    stack = [(a, b)]
    seen: set[tuple[int, int]] = set()  # pairs already compared or on the stack (both trees keep them alive)
    while stack:
        x, y = stack.pop()
        if x is y or (id(x), id(y)) in seen:
            continue
        seen.add((id(x), id(y)))
        if type(x) is not type(y):
            return False
        if hasattr(x, "_fields"):
            if x._hash != y._hash:
                return False
            stack.extend((getattr(x, n), getattr(y, n)) for n in x._fields)
        elif isinstance(x, tuple):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif x != y:
            return False
    return True


@_node
@dataclass(frozen=True)
class Atom:
    """The symbol at position i is ``symbol``."""

    symbol: str

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class Const:
    """true or false at every position."""

    value: bool

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class First:
    """i = 0."""

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class Last:
    """i = n - 1."""

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class Mod:
    """i mod m = r (a monadic numerical predicate of position i; 1 <= m <= MAX_INTEGER, 0 <= r < m)."""

    modulus: int
    residue: int

    def __post_init__(self) -> None:
        m, r = self.modulus, self.residue
        if isinstance(m, bool) or not isinstance(m, int) or isinstance(r, bool) or not isinstance(r, int):
            raise ValueError(f"mod(m, r) needs integers, got {m!r}, {r!r}")
        if not 1 <= m <= MAX_INTEGER:
            raise ValueError(f"mod(m, r) needs 1 <= m <= {MAX_INTEGER} (the bound), got m = {m}")
        if not 0 <= r < m:
            raise ValueError(f"mod(m, r) needs 0 <= r < m, got r = {r} for m = {m}")

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class Pos:
    """pos(...): p*i + q*n + r > 0 (a monadic numerical predicate of position i and length n; |p|, |q|, |r| <= MAX_INTEGER).

    Written ``pos(E op E')`` with E, E' integer combinations of i, n and constants (``pos(2*i < n)``);
    the parser moves everything to one side (``>=`` is ``> -1``: the integers make it exact), so
    ``pos(2*i < n)`` is Pos(-2, 1, 0) and prints as ``pos(n > 2*i)``.
    """

    coef_i: int
    coef_n: int
    const: int

    def __post_init__(self) -> None:
        values = (self.coef_i, self.coef_n, self.const)
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            raise ValueError(f"pos(...) needs integer coefficients, got {values!r}")
        big = max(abs(v) for v in values)
        if big > MAX_INTEGER:
            shown = str(big) if big < 10**20 else f"about 10^{len(str(big)) - 1}"
            raise ValueError(f"pos(...) has a coefficient of size {shown} once moved to one side, above the bound {MAX_INTEGER}")

    def constant(self) -> bool | None:
        """Return the predicate's value if it is the same at every position of every length (n >= 1, 0 <= i < n), else None.

        The positions are i = b, n = 1 + a + b with a, b >= 0 integers, where
        p*i + q*n + r = (q + r) + q*a + (p + q)*b: at a = b = 0 it is q + r, and it grows
        without bound along a if q > 0 (falls if q < 0), along b if p + q > 0 (falls if < 0).
        So it is positive everywhere iff q + r > 0, q >= 0 and p + q >= 0, and nowhere
        positive iff q + r <= 0, q <= 0 and p + q <= 0; otherwise it takes both values.
        """
        p, q, r = self.coef_i, self.coef_n, self.const
        if q + r > 0 and q >= 0 and p + q >= 0:
            return True
        if q + r <= 0 and q <= 0 and p + q <= 0:
            return False
        return None

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class Not:
    """!f."""

    arg: Formula

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class And:
    """f & g."""

    left: Formula
    right: Formula

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class Or:
    """f | g."""

    left: Formula
    right: Formula

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class Prev:
    """Y f (strict previous): f holds at i - 1; false at i = 0."""

    arg: Formula

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class Next:
    """X f (strict next): f holds at i + 1; false at i = n - 1."""

    arg: Formula

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class Since:
    """f S g (strict): some j < i has g, and every k with j < k < i has f."""

    left: Formula
    right: Formula

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class Until:
    """f U g (strict): some j > i has g, and every k with i < k < j has f."""

    left: Formula
    right: Formula

    def __str__(self) -> str:
        return _render(self)


#: The count directions: strict past j < i, inclusive past j <= i, strict future j > i.
COUNT_DIRECTIONS = ("<", "<=", ">")


@_node
@dataclass(frozen=True)
class Count:
    """#<[f] (direction '<': positions j < i with f), #<=[f] ('<=': j <= i, position i included) or #>[f] ('>': j > i)."""

    direction: str
    arg: Formula

    def __post_init__(self) -> None:
        if self.direction not in COUNT_DIRECTIONS:
            raise ValueError(f"count direction must be '<', '<=' or '>', got {self.direction!r}")

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class LinExpr:
    """sum of coefficient * count, plus a constant (integers)."""

    terms: tuple[tuple[int, Count], ...]
    const: int = 0

    def __post_init__(self) -> None:
        values = [c for c, _ in self.terms] + [self.const]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            raise ValueError(f"coefficients and constants of a comparison must be Python ints, got {values!r}")
        total = sum(abs(v) for v in values)
        if total > MAX_INTEGER:
            shown = str(total) if total < 10**20 else f"about 10^{len(str(total)) - 1}"
            raise ValueError(f"a side of a comparison sums integers of size {shown}, above the bound {MAX_INTEGER} (larger ones lose the margin)")

    def __str__(self) -> str:
        return _render(self)


@_node
@dataclass(frozen=True)
class Compare:
    """lhs op rhs with op one of <, <=, >, >= (integer linear combinations of counts)."""

    op: str
    lhs: LinExpr
    rhs: LinExpr

    def __post_init__(self) -> None:
        if self.op not in COMPARISONS:
            raise ValueError(f"comparison must be one of {', '.join(COMPARISONS)}, got {self.op!r}")

    def __str__(self) -> str:
        return _render(self)


Formula = Atom | Const | First | Last | Mod | Pos | Not | And | Or | Prev | Next | Since | Until | Compare
FORMULA_TYPES = (Atom, Const, First, Last, Mod, Pos, Not, And, Or, Prev, Next, Since, Until, Compare)
#: The formulas without operators (atoms, constants, position predicates).
LEAF_TYPES = (Atom, Const, First, Last, Mod, Pos)

_PREC_OR, _PREC_AND, _PREC_SINCE, _PREC_UNARY = 1, 2, 3, 4


def _prec(f: Formula) -> int:
    """Return the binding strength of f's top operator (atoms and comparisons bind tightest)."""
    if isinstance(f, Or):
        return _PREC_OR
    if isinstance(f, And):
        return _PREC_AND
    if isinstance(f, (Since, Until)):
        return _PREC_SINCE
    if isinstance(f, (Not, Prev, Next)):
        return _PREC_UNARY
    return 5


def _render(root: Any) -> str:
    """Return the text of an AST value (fewest parentheses that round-trip), built bottom-up without recursion.

    Each node keeps its text once computed (nodes are immutable), so printing every
    subformula of a tree costs the length of the texts, not a walk per subformula.
    """
    if "_text" in root.__dict__:
        return str(root.__dict__["_text"])
    memo: dict[int, str] = {}
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        g, ready = stack.pop()
        if id(g) in memo:
            continue
        if "_text" in g.__dict__:
            memo[id(g)] = g.__dict__["_text"]
            continue
        if not ready:
            stack.append((g, True))
            stack.extend((c, False) for c in _print_children(g) if id(c) not in memo)
            continue
        text = _print_one(g, memo)
        object.__setattr__(g, "_text", text)
        memo[id(g)] = text
    return memo[id(root)]


def _print_children(g: Any) -> tuple[Any, ...]:
    """Return the AST values g's text is made of (formulas, counts, linear expressions)."""
    if isinstance(g, (Not, Prev, Next, Count)):
        return (g.arg,)
    if isinstance(g, (And, Or, Since, Until)):
        return (g.left, g.right)
    if isinstance(g, Compare):
        return (g.lhs, g.rhs)
    if isinstance(g, LinExpr):
        return tuple(t for _, t in g.terms)
    return ()


def _print_one(g: Any, memo: dict[int, str]) -> str:
    """Return g's text, its parts' texts being in memo."""
    if isinstance(g, Atom):
        return g.symbol
    if isinstance(g, Const):
        return "true" if g.value else "false"
    if isinstance(g, First):
        return "first"
    if isinstance(g, Last):
        return "last"
    if isinstance(g, Mod):
        return f"mod({g.modulus}, {g.residue})"
    if isinstance(g, Pos):
        return _print_pos(g)
    if isinstance(g, Not):
        return "!" + _wrap(g.arg, _PREC_UNARY, memo)
    if isinstance(g, Prev):
        return "Y " + _wrap(g.arg, _PREC_UNARY, memo)
    if isinstance(g, Next):
        return "X " + _wrap(g.arg, _PREC_UNARY, memo)
    if isinstance(g, (And, Or, Since, Until)):
        op, prec = {And: ("&", _PREC_AND), Or: ("|", _PREC_OR), Since: ("S", _PREC_SINCE), Until: ("U", _PREC_SINCE)}[type(g)]
        left = _wrap(g.left, prec, memo)
        right = memo[id(g.right)]
        if _prec(g.right) <= prec or isinstance(g.right, Compare):
            right = f"({right})"
        return f"{left} {op} {right}"
    if isinstance(g, Count):
        return f"#{g.direction}[{memo[id(g.arg)]}]"
    if isinstance(g, Compare):
        return f"{memo[id(g.lhs)]} {g.op} {memo[id(g.rhs)]}"
    if isinstance(g, LinExpr):
        parts: list[str] = []
        for c, t in g.terms:
            mag = abs(c)
            body = memo[id(t)] if mag == 1 else f"{mag}*{memo[id(t)]}"
            if not parts:
                parts.append(("-" if c < 0 else "") + body)
            else:
                parts.append(("- " if c < 0 else "+ ") + body)
        if g.const != 0 or not parts:
            if not parts:
                parts.append(str(g.const))
            else:
                parts.append(("- " if g.const < 0 else "+ ") + str(abs(g.const)))
        return " ".join(parts)
    raise TypeError(f"not a formula: {g!r}")


def _print_pos(g: Pos) -> str:
    """Return pos(L > R): the positive terms of p*i + q*n + r on the left, the negative ones on the right (0 for none)."""
    left: list[str] = []
    right: list[str] = []
    for c, var in ((g.coef_i, "i"), (g.coef_n, "n"), (g.const, "")):
        if c == 0:
            continue
        body = str(abs(c)) if not var else var if abs(c) == 1 else f"{abs(c)}*{var}"
        (left if c > 0 else right).append(body)
    return f"pos({' + '.join(left) or '0'} > {' + '.join(right) or '0'})"


def _wrap(f: Formula, prec: int, memo: dict[int, str]) -> str:
    """Print f, parenthesised when it binds looser than prec; a comparison that is an operand is always parenthesised."""
    s = memo[id(f)]
    if _prec(f) < prec or isinstance(f, Compare):
        return f"({s})"
    return s


def children(f: Formula) -> tuple[Formula, ...]:
    """Return the immediate subformulas of f (formulas inside count terms included, in order)."""
    if isinstance(f, (Not, Prev, Next)):
        return (f.arg,)
    if isinstance(f, (And, Or, Since, Until)):
        return (f.left, f.right)
    if isinstance(f, Compare):
        return tuple(t.arg for _, t in f.lhs.terms) + tuple(t.arg for _, t in f.rhs.terms)
    return ()


def _postorder(f: Formula) -> Iterator[Formula]:
    """Yield every node of f's tree (repeats included) children first, with an explicit stack (no recursion)."""
    stack: list[tuple[Formula, bool]] = [(f, False)]
    while stack:
        g, ready = stack.pop()
        if ready:
            yield g
            continue
        stack.append((g, True))
        stack.extend((c, False) for c in reversed(children(g)))


def subformulas(f: Formula) -> list[Formula]:
    """Return the subformulas of f in post-order (children before parents), each once (first occurrence)."""
    out: list[Formula] = []
    seen: set[int] = set()  # node identities already walked: a shared subtree is walked once
    index: set[Formula] = set()
    stack: list[tuple[Formula, bool]] = [(f, False)]
    while stack:
        g, ready = stack.pop()
        if ready:
            if g not in index:
                index.add(g)
                out.append(g)
            continue
        if id(g) in seen:
            continue
        seen.add(id(g))
        stack.append((g, True))
        stack.extend((c, False) for c in reversed(children(g)))
    return out


def symbols(f: Formula) -> set[str]:
    """Return the alphabet symbols f mentions."""
    return {g.symbol for g in subformulas(f) if isinstance(g, Atom)}


def size(f: Formula) -> int:
    """Return the number of operators in f (connectives, temporal operators, comparisons), repeated subtrees counted each time."""
    return sum(0 if isinstance(g, LEAF_TYPES) else 1 for g in _postorder(f))


# --------------------------------------------------------------------------- parser

_TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<id>[A-Za-z_][A-Za-z0-9_]*)|(?P<op><=|>=|#<=|#<|#>|[()\[\]!&|<>+\-*,]))")


@dataclass(frozen=True)
class _Tok:
    kind: str  # num, id, op, end
    text: str
    col: int  # 1-based


def _tokenize(text: str) -> list[_Tok]:
    toks: list[_Tok] = []
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            toks.append(_Tok("end", "", pos + 1))
            return toks
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise ValueError(f"column {pos + 1}: unexpected character {text[pos]!r}")
        kind = m.lastgroup or "op"
        toks.append(_Tok(kind, m.group(kind), m.start(kind) + 1))
        pos = m.end()


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokenize(text)
        self.k = 0
        self.level = 0  # parentheses, brackets and prefix operators open at the current token

    @property
    def tok(self) -> _Tok:
        return self.toks[self.k]

    def fail(self, expected: str) -> ValueError:
        t = self.tok
        found = "end of input" if t.kind == "end" else repr(t.text)
        return ValueError(f"column {t.col}: expected {expected}, found {found}")

    def eat(self, text: str, expected: str | None = None) -> _Tok:
        if self.tok.text != text or self.tok.kind == "end":
            raise self.fail(expected or repr(text))
        t = self.tok
        self.k += 1
        return t

    def at(self, *texts: str) -> bool:
        return self.tok.kind in ("op", "id") and self.tok.text in texts

    def enter(self) -> None:
        """Open one nesting level (a parenthesis, a count's bracket or a prefix operator); ValueError beyond MAX_DEPTH."""
        self.level += 1
        if self.level > MAX_DEPTH + 1:
            raise ValueError(
                f"column {self.tok.col}: the formula is nested too deeply "
                f"({self.level - 1} levels of operators, parentheses or brackets; the bound is {MAX_DEPTH})"
            )

    def formula(self) -> Formula:
        self.enter()
        f = self.disj()
        self.level -= 1
        return f

    def disj(self) -> Formula:
        f = self.conj()
        while self.at("|"):
            self.k += 1
            f = Or(f, self.conj())
        return f

    def conj(self) -> Formula:
        f = self.since()
        while self.at("&"):
            self.k += 1
            f = And(f, self.since())
        return f

    def since(self) -> Formula:
        f = self.unary()
        while self.at("S", "U"):
            op = self.tok.text
            self.k += 1
            g = self.unary()
            f = Since(f, g) if op == "S" else Until(f, g)
        return f

    def unary(self) -> Formula:
        ops: list[str] = []  # a run of prefix operators, applied innermost first (no recursion per operator)
        while self.at("!", "Y", "X"):
            ops.append(self.tok.text)
            self.k += 1
            self.enter()
        g = self.primary()
        for op in reversed(ops):
            g = Not(g) if op == "!" else Prev(g) if op == "Y" else Next(g)
        self.level -= len(ops)
        return g

    def primary(self) -> Formula:
        t = self.tok
        if self.at("("):
            self.k += 1
            f = self.formula()
            self.eat(")", "')' or a binary operator (&, |, S, U)")
            return f
        if t.kind == "id":
            if t.text in ("S", "U"):
                raise self.fail("a formula")
            self.k += 1
            if t.text == "true":
                return Const(True)
            if t.text == "false":
                return Const(False)
            if t.text == "first":
                return First()
            if t.text == "last":
                return Last()
            if t.text == "mod" and self.at("("):
                return self.mod()
            if t.text == "pos" and self.at("("):
                return self.pos()
            return Atom(t.text)
        if t.kind == "num" or self.at("#<", "#<=", "#>", "-"):
            lhs = self.linexpr()
            if not self.at(*COMPARISONS):
                raise self.fail("a comparison (<, <=, >, >=)")
            op = self.tok.text
            self.k += 1
            rhs = self.linexpr()
            return Compare(op, lhs, rhs)
        raise self.fail("a formula (symbol, true, false, first, last, '(', '!', 'Y', 'X', or a count comparison)")

    def linexpr(self) -> LinExpr:
        terms: list[tuple[int, Count]] = []
        const = 0
        sign = 1
        if self.at("-"):
            self.k += 1
            sign = -1
        while True:
            c, t = self.lterm()
            if t is None:
                const += sign * c
            else:
                terms.append((sign * c, t))
            if self.at("+", "-"):
                sign = 1 if self.tok.text == "+" else -1
                self.k += 1
                continue
            try:
                return LinExpr(tuple(terms), const)
            except ValueError as e:
                raise ValueError(f"column {self.tok.col}: {e}") from None

    def lterm(self) -> tuple[int, Count | None]:
        t = self.tok
        if t.kind == "num":
            value = self.integer(t)
            self.k += 1
            if self.at("*"):
                self.k += 1
                return value, self.count()
            return value, None
        if self.at("#<", "#<=", "#>"):
            return 1, self.count()
        raise self.fail("an integer or a count #<[...] / #<=[...] / #>[...]")

    def integer(self, t: _Tok) -> int:
        if len(t.text.lstrip("0")) > len(str(MAX_INTEGER)) or int(t.text) > MAX_INTEGER:
            shown = t.text if len(t.text) <= 20 else f"{t.text[:8]}... ({len(t.text)} digits)"
            raise ValueError(f"column {t.col}: the integer {shown} is above the bound {MAX_INTEGER} (a larger one would lose the margin)")
        return int(t.text)

    def mod(self) -> Mod:
        """Parse '(' m ',' r ')' after the keyword mod."""
        self.eat("(", "'(' after mod")
        ints = []
        for closing in (",", ")"):
            t = self.tok
            if t.kind != "num":
                raise self.fail("an integer in mod(m, r)")
            ints.append(self.integer(t))
            self.k += 1
            self.eat(closing, f"{closing!r} in mod(m, r)")
        try:
            return Mod(ints[0], ints[1])
        except ValueError as e:
            raise ValueError(f"column {t.col}: {e}") from None

    def pos(self) -> Pos:
        """Parse '(' E op E' ')' after the keyword pos: E, E' integer combinations of i, n and constants."""
        self.eat("(", "'(' after pos")
        col = self.tok.col
        lhs = self.pos_side()
        if not self.at(*COMPARISONS):
            raise self.fail("a comparison (<, <=, >, >=) in pos(...)")
        op = self.tok.text
        self.k += 1
        rhs = self.pos_side()
        self.eat(")", "')' closing pos(...)")
        big, small = (lhs, rhs) if op in (">", ">=") else (rhs, lhs)
        p, q, r = (x - y for x, y in zip(big, small))  # big op' small with op' in {>, >=}: p*i + q*n + r > 0 (or >= 0)
        try:
            return Pos(p, q, r + (1 if op in (">=", "<=") else 0))  # integers: x >= 0 iff x + 1 > 0
        except ValueError as e:
            raise ValueError(f"column {col}: {e}") from None

    def pos_side(self) -> tuple[int, int, int]:
        """Parse ['-'] term (('+' | '-') term)* with term := INT ['*' ('i' | 'n')] | 'i' | 'n'; return the coefficients of (i, n, 1)."""
        acc = [0, 0, 0]
        sign = 1
        if self.at("-"):
            self.k += 1
            sign = -1
        while True:
            t = self.tok
            if t.kind == "num":
                value = self.integer(t)
                self.k += 1
                slot = 2
                if self.at("*"):
                    self.k += 1
                    if not self.at("i", "n"):
                        raise self.fail("i or n after '*' in pos(...)")
                    slot = 0 if self.tok.text == "i" else 1
                    self.k += 1
            elif self.at("i", "n"):
                value, slot = 1, 0 if t.text == "i" else 1
                self.k += 1
            else:
                raise self.fail("an integer, i or n in pos(...)")
            acc[slot] += sign * value
            if not self.at("+", "-"):
                return acc[0], acc[1], acc[2]
            sign = 1 if self.tok.text == "+" else -1
            self.k += 1

    def count(self) -> Count:
        if not self.at("#<", "#<=", "#>"):
            raise self.fail("a count #<[...], #<=[...] or #>[...]")
        d = self.tok.text[1:]
        self.k += 1
        self.eat("[", "'[' after the count operator")
        f = self.formula()
        self.eat("]", "']' closing the count")
        return Count(d, f)


@without_cycle_collection
def parse(text: str) -> Formula:
    """Return the formula written in ``text`` (ValueError naming the column and what was expected).

    Nesting (parentheses, count brackets, prefix operators) deeper than MAX_DEPTH is refused
    while parsing; the recursive descent below that bound needs at most _FRAMES_PER_LEVEL
    Python frames per level, and the recursion limit is raised by that much for the parse.
    """
    if not isinstance(text, str):
        raise ValueError(f"a formula must be a string, got {type(text).__name__}")
    p = _Parser(text)
    if p.tok.kind == "end":
        raise p.fail("a formula")
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(old + _FRAMES_PER_LEVEL * (MAX_DEPTH + 2))
    try:
        f = p.formula()
    finally:
        sys.setrecursionlimit(old)
    if p.tok.kind != "end":
        raise p.fail("end of input or a binary operator (&, |, S, U)")
    deep = depth(f)
    if deep > MAX_DEPTH:
        raise ValueError(f"the formula is nested {deep} operators deep; the bound is {MAX_DEPTH}")
    return f  # every comparison's integers are within MAX_INTEGER: LinExpr refuses more


#: Python frames the parser spends per nesting level (formula, disj, conj, since, unary, primary, linexpr, lterm, count).
_FRAMES_PER_LEVEL = 10


def depth(f: Formula) -> int:
    """Return the number of operators on the longest root-to-leaf path of f (computed without recursion)."""
    best = 0
    stack: list[tuple[Formula, int]] = [(f, 0)]
    while stack:
        g, d = stack.pop()
        kids = children(g)
        here = d + (0 if isinstance(g, LEAF_TYPES) else 1)
        best = max(best, here)
        stack.extend((c, here) for c in kids)
    return best
