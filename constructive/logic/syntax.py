"""The temporal-logic formula language (docs/temporal-logic.md): AST, parser and printer.

Grammar (loosest binding first; binary operators associate to the left)::

    formula    := or
    or         := and ('|' and)*
    and        := since ('&' since)*
    since      := unary (('S' | 'U') unary)*
    unary      := ('!' | 'Y' | 'X') unary | primary
    primary    := '(' formula ')' | 'true' | 'false' | 'first' | 'last' | SYMBOL | comparison
    comparison := linexpr ('<' | '<=' | '>' | '>=') linexpr
    linexpr    := ['-'] lterm (('+' | '-') lterm)*
    lterm      := INT ['*' count] | count
    count      := '#<' '[' formula ']' | '#>' '[' formula ']'

SYMBOL is an identifier ([A-Za-z_][A-Za-z0-9_]*) other than the keywords
true, false, first, last, Y, X, S, U.  ``str(f)`` prints with the fewest parentheses
that make ``parse(str(f)) == f``.  Parse errors are ValueError naming the column
(1-based) and what was expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

KEYWORDS = frozenset({"true", "false", "first", "last", "Y", "X", "S", "U"})
COMPARISONS = ("<", "<=", ">", ">=")
#: Largest integer literal (constant or coefficient) of a count comparison.  The compiled comparison
#: decides sum_k c_k #_k + c_0 >= 0 with a margin of 1/2 in these integer units, carried in float64
#: next to counts up to n; literals up to 10^6 keep that margin exactly representable for every n
#: up to 2^20 (10^6 * 2^20 < 2^53 / 8), larger ones would silently lose it.
MAX_INTEGER = 10**6
#: Deepest formula tree accepted (operators on one root-to-leaf path, a left-nested chain
#: a & a & ... counted in full): every later stage (printer, compiler, checks) recurses that deep.
MAX_DEPTH = 200


# --------------------------------------------------------------------------- AST


@dataclass(frozen=True)
class Atom:
    """The symbol at position i is ``symbol``."""

    symbol: str

    def __str__(self) -> str:
        return self.symbol


@dataclass(frozen=True)
class Const:
    """true or false at every position."""

    value: bool

    def __str__(self) -> str:
        return "true" if self.value else "false"


@dataclass(frozen=True)
class First:
    """i = 0."""

    def __str__(self) -> str:
        return "first"


@dataclass(frozen=True)
class Last:
    """i = n - 1."""

    def __str__(self) -> str:
        return "last"


@dataclass(frozen=True)
class Not:
    """!f."""

    arg: Formula

    def __str__(self) -> str:
        return "!" + _wrap(self.arg, _PREC_UNARY)


@dataclass(frozen=True)
class And:
    """f & g."""

    left: Formula
    right: Formula

    def __str__(self) -> str:
        return _binary(self, "&", _PREC_AND)


@dataclass(frozen=True)
class Or:
    """f | g."""

    left: Formula
    right: Formula

    def __str__(self) -> str:
        return _binary(self, "|", _PREC_OR)


@dataclass(frozen=True)
class Prev:
    """Y f (strict previous): f holds at i - 1; false at i = 0."""

    arg: Formula

    def __str__(self) -> str:
        return "Y " + _wrap(self.arg, _PREC_UNARY)


@dataclass(frozen=True)
class Next:
    """X f (strict next): f holds at i + 1; false at i = n - 1."""

    arg: Formula

    def __str__(self) -> str:
        return "X " + _wrap(self.arg, _PREC_UNARY)


@dataclass(frozen=True)
class Since:
    """f S g (strict): some j < i has g, and every k with j < k < i has f."""

    left: Formula
    right: Formula

    def __str__(self) -> str:
        return _binary(self, "S", _PREC_SINCE)


@dataclass(frozen=True)
class Until:
    """f U g (strict): some j > i has g, and every k with i < k < j has f."""

    left: Formula
    right: Formula

    def __str__(self) -> str:
        return _binary(self, "U", _PREC_SINCE)


@dataclass(frozen=True)
class Count:
    """#<[f] (direction '<': positions j < i with f) or #>[f] (direction '>': positions j > i)."""

    direction: str
    arg: Formula

    def __post_init__(self) -> None:
        if self.direction not in ("<", ">"):
            raise ValueError(f"count direction must be '<' or '>', got {self.direction!r}")

    def __str__(self) -> str:
        return f"#{self.direction}[{self.arg}]"


@dataclass(frozen=True)
class LinExpr:
    """sum of coefficient * count, plus a constant (integers)."""

    terms: tuple[tuple[int, Count], ...]
    const: int = 0

    def __str__(self) -> str:
        parts: list[str] = []
        for c, t in self.terms:
            mag = abs(c)
            body = str(t) if mag == 1 else f"{mag}*{t}"
            if not parts:
                parts.append(("-" if c < 0 else "") + body)
            else:
                parts.append(("- " if c < 0 else "+ ") + body)
        if self.const != 0 or not parts:
            if not parts:
                parts.append(str(self.const))
            else:
                parts.append(("- " if self.const < 0 else "+ ") + str(abs(self.const)))
        return " ".join(parts)


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
        return f"{self.lhs} {self.op} {self.rhs}"


Formula = Atom | Const | First | Last | Not | And | Or | Prev | Next | Since | Until | Compare


def _cache_hash(cls: Any) -> None:
    """Make cls's dataclass hash computed once per node (a formula that shares subtrees is hashed in time linear in its DAG).

    The cached value is dropped when the node is pickled: string hashes differ between processes.
    """
    field_hash = cls.__hash__

    def __hash__(self: Any) -> int:
        h = self.__dict__.get("_hash")
        if h is None:
            h = field_hash(self)
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self: Any) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    cls.__hash__ = __hash__
    cls.__getstate__ = __getstate__


for _cls in (Not, And, Or, Prev, Next, Since, Until, Count, LinExpr, Compare):
    _cache_hash(_cls)
FORMULA_TYPES = (Atom, Const, First, Last, Not, And, Or, Prev, Next, Since, Until, Compare)

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


def _wrap(f: Formula, prec: int) -> str:
    """Print f, parenthesised when it binds looser than prec; a comparison that is an operand is always parenthesised."""
    s = str(f)
    if _prec(f) < prec or isinstance(f, Compare):
        return f"({s})"
    return s


def _binary(f: And | Or | Since | Until, op: str, prec: int) -> str:
    """Print a left-associative binary operator."""
    left = _wrap(f.left, prec)
    right = str(f.right)
    if _prec(f.right) <= prec or isinstance(f.right, Compare):
        right = f"({right})"
    return f"{left} {op} {right}"


def children(f: Formula) -> tuple[Formula, ...]:
    """Return the immediate subformulas of f (formulas inside count terms included, in order)."""
    if isinstance(f, (Not, Prev, Next)):
        return (f.arg,)
    if isinstance(f, (And, Or, Since, Until)):
        return (f.left, f.right)
    if isinstance(f, Compare):
        return tuple(t.arg for _, t in f.lhs.terms) + tuple(t.arg for _, t in f.rhs.terms)
    return ()


def subformulas(f: Formula) -> list[Formula]:
    """Return the subformulas of f in post-order (children before parents), each once (first occurrence)."""
    out: list[Formula] = []
    seen: set[Formula] = set()

    def visit(g: Formula) -> None:
        if g in seen:  # its whole subtree is already listed: a formula that shares subtrees is walked once per node
            return
        for c in children(g):
            visit(c)
        if g not in seen:
            seen.add(g)
            out.append(g)

    visit(f)
    return out


def symbols(f: Formula) -> set[str]:
    """Return the alphabet symbols f mentions."""
    return {g.symbol for g in subformulas(f) if isinstance(g, Atom)}


def size(f: Formula) -> int:
    """Return the number of operators in f (connectives, temporal operators, comparisons), repeated subtrees counted each time."""
    return (0 if isinstance(f, (Atom, Const, First, Last)) else 1) + sum(size(c) for c in children(f))


# --------------------------------------------------------------------------- parser

_TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<id>[A-Za-z_][A-Za-z0-9_]*)|(?P<op><=|>=|#<|#>|[()\[\]!&|<>+\-*]))")


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

    def formula(self) -> Formula:
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
        if self.at("!"):
            self.k += 1
            return Not(self.unary())
        if self.at("Y", "X"):
            op = self.tok.text
            self.k += 1
            g = self.unary()
            return Prev(g) if op == "Y" else Next(g)
        return self.primary()

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
            return Atom(t.text)
        if t.kind == "num" or self.at("#<", "#>", "-"):
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
            return LinExpr(tuple(terms), const)

    def lterm(self) -> tuple[int, Count | None]:
        t = self.tok
        if t.kind == "num":
            value = self.integer(t)
            self.k += 1
            if self.at("*"):
                self.k += 1
                return value, self.count()
            return value, None
        if self.at("#<", "#>"):
            return 1, self.count()
        raise self.fail("an integer or a count #<[...] / #>[...]")

    def integer(self, t: _Tok) -> int:
        if len(t.text.lstrip("0")) > len(str(MAX_INTEGER)) or int(t.text) > MAX_INTEGER:
            shown = t.text if len(t.text) <= 20 else f"{t.text[:8]}... ({len(t.text)} digits)"
            raise ValueError(f"column {t.col}: the integer {shown} is above the bound {MAX_INTEGER} (a larger one would lose the margin)")
        return int(t.text)

    def count(self) -> Count:
        if not self.at("#<", "#>"):
            raise self.fail("a count #<[...] or #>[...]")
        d = self.tok.text[1]
        self.k += 1
        self.eat("[", "'[' after the count operator")
        f = self.formula()
        self.eat("]", "']' closing the count")
        return Count(d, f)


def parse(text: str) -> Formula:
    """Return the formula written in ``text`` (ValueError naming the column and what was expected)."""
    if not isinstance(text, str):
        raise ValueError(f"a formula must be a string, got {type(text).__name__}")
    p = _Parser(text)
    if p.tok.kind == "end":
        raise p.fail("a formula")
    try:
        f = p.formula()
    except RecursionError:
        raise ValueError(f"column {p.tok.col}: the formula is nested too deeply for this parser") from None
    if p.tok.kind != "end":
        raise p.fail("end of input or a binary operator (&, |, S, U)")
    deep = depth(f)
    if deep > MAX_DEPTH:
        raise ValueError(f"the formula is nested {deep} operators deep; the bound is {MAX_DEPTH}")
    for g in subformulas(f):
        if isinstance(g, Compare):
            for side in (g.lhs, g.rhs):
                total = sum(abs(c) for c, _ in side.terms) + abs(side.const)
                if total > MAX_INTEGER:
                    raise ValueError(f"the comparison {g} sums integers of size {total}, above the bound {MAX_INTEGER}")
    return f


def depth(f: Formula) -> int:
    """Return the number of operators on the longest root-to-leaf path of f (computed without recursion)."""
    best = 0
    stack: list[tuple[Formula, int]] = [(f, 0)]
    while stack:
        g, d = stack.pop()
        kids = children(g)
        here = d + (0 if isinstance(g, (Atom, Const, First, Last)) else 1)
        best = max(best, here)
        stack.extend((c, here) for c in kids)
    return best
