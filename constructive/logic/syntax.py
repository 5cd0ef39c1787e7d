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
that make ``parse(str(f)) == f``.  Parse errors are ValueError naming the line, the column
(1-based) and what was expected.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from hardsoft.constructive.gcpause import without_cycle_collection
from hardsoft.spec.constants import MAX_INTEGER  # largest integer literal (the margin argument is there)

KEYWORDS = frozenset({"true", "false", "first", "last", "Y", "X", "S", "U"})
COMPARISONS = ("<", "<=", ">", ">=")
#: Deepest formula tree accepted (operators on one root-to-leaf path, a left-nested chain
#: a & a & ... counted in full).  Nothing recurses per level: the parser keeps its pending rules
#: on a list, and every later stage (printer, repr, hash, equality, compiler, evaluator, checks)
#: walks formulas with explicit stacks, so a formula built in Python deeper than this works too.
#: The bound admits 4,000-operation programs: the deepest family of benchmarks/languages.py, a
#: B-RASP chain whose every attention reads the one before, reaches 5 operators per operation.
MAX_DEPTH = 2**15


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
    """Return the dataclass-style repr of an AST value (``And(left=Atom(symbol='a'), ...)``), emitted part by part without recursion.

    Time linear in the text (a deep chain's nodes do not each build the text of everything below them).
    """
    out: list[str] = []
    emit: list[Any] = [root]
    while emit:
        x = emit.pop()
        if isinstance(x, _Literal):
            out.append(x.text)
        elif hasattr(x, "_fields"):
            parts: list[Any] = [_Literal(f"{type(x).__name__}(")]
            for k, n in enumerate(x._fields):
                parts += [_Literal((", " if k else "") + f"{n}="), getattr(x, n)]
            emit.extend(reversed([*parts, _Literal(")")]))
        elif isinstance(x, tuple):
            parts = [_Literal("(")]
            for k, v in enumerate(x):
                parts += ([_Literal(", ")] if k else []) + [v]
            emit.extend(reversed([*parts, _Literal(",)" if len(x) == 1 else ")")]))
        else:
            out.append(repr(x))
    return "".join(out)


@dataclass(frozen=True)
class _Literal:
    """A piece of text in ``_node_repr``'s output (distinct from the str values inside the AST, which print with quotes)."""

    text: str


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


#: Texts up to this many characters are kept on their node (printing every subformula of a tree then costs the texts' length);
#: a longer text is assembled from its parts each time it is printed, so a deep chain's subformulas do not each keep a copy
#: of nearly the whole formula (quadratic memory).
TEXT_CACHE_MAX = 4096


def _render(root: Any) -> str:
    """Return the text of an AST value (fewest parentheses that round-trip), without recursion, in time linear in the text.

    Texts of at most TEXT_CACHE_MAX characters are built bottom-up and kept on their node
    (nodes are immutable); a longer one is emitted part by part from an explicit stack.
    """
    if "_text" in root.__dict__:
        return str(root.__dict__["_text"])
    memo: dict[int, str | None] = {}  # id -> the node's text, None when it is longer than TEXT_CACHE_MAX
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
        pieces: list[str] = []
        size = 0
        for part in _parts(g):
            if isinstance(part, str):
                text: str | None = part
            else:
                inner = memo[id(part[0])]
                text = None if inner is None else f"({inner})" if part[1] else inner
            if text is None or size + len(text) > TEXT_CACHE_MAX:
                memo[id(g)] = None
                break
            pieces.append(text)
            size += len(text)
        else:
            memo[id(g)] = "".join(pieces)
            object.__setattr__(g, "_text", memo[id(g)])
    done = memo[id(root)]
    if done is not None:
        return done
    out: list[str] = []
    emit: list[Any] = [(root, False)]
    while emit:
        part = emit.pop()
        if isinstance(part, str):
            out.append(part)
            continue
        node, paren = part
        known = memo.get(id(node))
        if known is not None:
            out.append(f"({known})" if paren else known)
            continue
        emit.extend([")"] if paren else [])
        emit.extend(reversed(_parts(node)))
        emit.extend(["("] if paren else [])
    return "".join(out)


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


def _operand(f: Any, parenthesised: bool) -> tuple[Any, bool]:
    """Return an operand part: f, in parentheses when it binds looser than its place asks or is a comparison."""
    return f, parenthesised or isinstance(f, Compare)


def _parts(g: Any) -> list[Any]:
    """Return g's text as parts: literal strings and (operand, in parentheses) pairs, in order."""
    if isinstance(g, Atom):
        return [g.symbol]
    if isinstance(g, Const):
        return ["true" if g.value else "false"]
    if isinstance(g, First):
        return ["first"]
    if isinstance(g, Last):
        return ["last"]
    if isinstance(g, Mod):
        return [f"mod({g.modulus}, {g.residue})"]
    if isinstance(g, Pos):
        return [_print_pos(g)]
    if isinstance(g, (Not, Prev, Next)):
        op = "!" if isinstance(g, Not) else "Y " if isinstance(g, Prev) else "X "
        return [op, _operand(g.arg, _prec(g.arg) < _PREC_UNARY)]
    if isinstance(g, (And, Or, Since, Until)):
        op, prec = {And: ("&", _PREC_AND), Or: ("|", _PREC_OR), Since: ("S", _PREC_SINCE), Until: ("U", _PREC_SINCE)}[type(g)]
        return [_operand(g.left, _prec(g.left) < prec), f" {op} ", _operand(g.right, _prec(g.right) <= prec)]
    if isinstance(g, Count):
        return [f"#{g.direction}[", (g.arg, False), "]"]
    if isinstance(g, Compare):
        return [(g.lhs, False), f" {g.op} ", (g.rhs, False)]
    if isinstance(g, LinExpr):
        parts: list[Any] = []
        for c, t in g.terms:
            mag = abs(c)
            sign = ("-" if c < 0 else "") if not parts else ("- " if c < 0 else "+ ")
            if parts:
                parts.append(" ")
            parts += [sign + ("" if mag == 1 else f"{mag}*"), (t, False)]
        if g.const != 0 or not parts:
            if not parts:
                parts.append(str(g.const))
            else:
                parts.append(" " + ("- " if g.const < 0 else "+ ") + str(abs(g.const)))
        return parts
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
            raise ValueError(f"{_position(text, pos)}: unexpected character {text[pos]!r}")
        kind = m.lastgroup or "op"
        toks.append(_Tok(kind, m.group(kind), m.start(kind) + 1))
        pos = m.end()


def _position(text: str, offset: int) -> str:
    """Return "line L, column C" (both 1-based) of a 0-based offset into text."""
    line = text.count("\n", 0, offset) + 1
    return f"line {line}, column {offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


#: A parse step: a generator that yields the sub-parses it needs and returns its result (``_Parser.run`` drives them).
_Step = Generator[Any, Any, Any]


class _Parser:
    """Recursive descent written as generators: a rule yields the sub-rule it needs, and ``run`` keeps the pending rules on a list.

    So nesting costs list entries, not Python frames: no recursion limit is raised or reached,
    however deep the formula (the bound MAX_DEPTH is checked as the formula is built, with the
    column where it is passed).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokenize(text)
        self.k = 0
        self.level = 0  # parentheses, brackets and prefix operators open at the current token
        self.depths: dict[int, int] = {}  # id(node built here) -> its depth (operators on its longest path to a leaf)
        self.symbols: dict[str, tuple[int, int]] = {}  # symbol -> (line, column) of its first atom
        self.keep: list[Formula] = []  # the nodes whose ids are keys of depths

    @property
    def tok(self) -> _Tok:
        return self.toks[self.k]

    def where(self, t: _Tok) -> str:
        """Return the line and column of a token."""
        return _position(self.text, t.col - 1)

    def fail(self, expected: str) -> ValueError:
        t = self.tok
        found = "end of input" if t.kind == "end" else repr(t.text)
        return ValueError(f"{self.where(t)}: expected {expected}, found {found}")

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
                f"{self.where(self.tok)}: the formula is nested too deeply "
                f"({self.level - 1} levels of operators, parentheses or brackets; the bound is {MAX_DEPTH})"
            )

    def built(self, f: Formula, at: _Tok) -> Formula:
        """Return f after recording its depth; ValueError naming the operator's line and column when it passes MAX_DEPTH."""
        kids = children(f)
        d = (0 if isinstance(f, LEAF_TYPES) else 1) + max((self.depths.get(id(c), 0) for c in kids), default=0)
        if d > MAX_DEPTH:
            raise ValueError(f"{self.where(at)}: the formula is nested {d} operators deep here; the bound is {MAX_DEPTH}")
        if d:
            self.depths[id(f)] = d
            self.keep.append(f)
        return f

    def run(self, rule: _Step) -> Any:
        """Return the result of a rule, driving it and every sub-rule it yields with an explicit list (no recursion)."""
        pending: list[_Step] = [rule]
        value: Any = None
        while pending:
            try:
                sub = pending[-1].send(value)
            except StopIteration as done:
                pending.pop()
                value = done.value
                continue
            pending.append(sub)
            value = None
        return value

    def formula(self) -> _Step:
        self.enter()
        f = yield self.disj()
        self.level -= 1
        return f

    def disj(self) -> _Step:
        f = yield self.conj()
        while self.at("|"):
            op = self.tok
            self.k += 1
            f = self.built(Or(f, (yield self.conj())), op)
        return f

    def conj(self) -> _Step:
        f = yield self.since()
        while self.at("&"):
            op = self.tok
            self.k += 1
            f = self.built(And(f, (yield self.since())), op)
        return f

    def since(self) -> _Step:
        f = yield self.unary()
        while self.at("S", "U"):
            op = self.tok
            self.k += 1
            g = yield self.unary()
            f = self.built(Since(f, g) if op.text == "S" else Until(f, g), op)
        return f

    def unary(self) -> _Step:
        ops: list[_Tok] = []  # a run of prefix operators, applied innermost first (no recursion per operator)
        while self.at("!", "Y", "X"):
            ops.append(self.tok)
            self.k += 1
            self.enter()
        g = yield self.primary()
        for op in reversed(ops):
            g = self.built(Not(g) if op.text == "!" else Prev(g) if op.text == "Y" else Next(g), op)
        self.level -= len(ops)
        return g

    def primary(self) -> _Step:
        t = self.tok
        if self.at("("):
            self.k += 1
            f = yield self.formula()
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
            if t.text not in self.symbols:
                line = self.text.count("\n", 0, t.col - 1) + 1
                self.symbols[t.text] = (line, t.col - 1 - (self.text.rfind("\n", 0, t.col - 1) + 1) + 1)
            return Atom(t.text)
        if t.kind == "num" or self.at("#<", "#<=", "#>", "-"):
            lhs = yield self.linexpr()
            if not self.at(*COMPARISONS):
                raise self.fail("a comparison (<, <=, >, >=)")
            op = self.tok
            self.k += 1
            rhs = yield self.linexpr()
            return self.built(Compare(op.text, lhs, rhs), op)
        raise self.fail("a formula (symbol, true, false, first, last, '(', '!', 'Y', 'X', or a count comparison)")

    def linexpr(self) -> _Step:
        terms: list[tuple[int, Count]] = []
        const = 0
        sign = 1
        if self.at("-"):
            self.k += 1
            sign = -1
        while True:
            c, t = yield self.lterm()
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
                raise ValueError(f"{self.where(self.tok)}: {e}") from None

    def lterm(self) -> _Step:
        t = self.tok
        if t.kind == "num":
            value = self.integer(t)
            self.k += 1
            if self.at("*"):
                self.k += 1
                return value, (yield self.count())
            return value, None
        if self.at("#<", "#<=", "#>"):
            return 1, (yield self.count())
        raise self.fail("an integer or a count #<[...] / #<=[...] / #>[...]")

    def integer(self, t: _Tok) -> int:
        if len(t.text.lstrip("0")) > len(str(MAX_INTEGER)) or int(t.text) > MAX_INTEGER:
            shown = t.text if len(t.text) <= 20 else f"{t.text[:8]}... ({len(t.text)} digits)"
            raise ValueError(f"{self.where(t)}: the integer {shown} is above the bound {MAX_INTEGER} (a larger one would lose the margin)")
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
            raise ValueError(f"{self.where(t)}: {e}") from None

    def pos(self) -> Pos:
        """Parse '(' E op E' ')' after the keyword pos: E, E' integer combinations of i, n and constants."""
        self.eat("(", "'(' after pos")
        start = self.tok
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
            raise ValueError(f"{self.where(start)}: {e}") from None

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

    def count(self) -> _Step:
        if not self.at("#<", "#<=", "#>"):
            raise self.fail("a count #<[...], #<=[...] or #>[...]")
        d = self.tok.text[1:]
        self.k += 1
        self.eat("[", "'[' after the count operator")
        f = yield self.formula()
        self.eat("]", "']' closing the count")
        return Count(d, f)


@without_cycle_collection
def parse(text: str) -> Formula:
    """Return the formula written in ``text`` (ValueError naming the line, the column and what was expected).

    The parser keeps its pending rules on a list, not on Python's stack (``_Parser``): nesting
    (parentheses, count brackets, prefix operators) deeper than MAX_DEPTH, and a formula whose
    tree passes MAX_DEPTH operators on one path, are refused where the bound is passed.
    """
    if not isinstance(text, str):
        raise ValueError(f"a formula must be a string, got {type(text).__name__}")
    p = _Parser(text)
    if p.tok.kind == "end":
        raise p.fail("a formula")
    f = p.run(p.formula())
    if p.tok.kind != "end":
        raise p.fail("end of input or a binary operator (&, |, S, U)")
    object.__setattr__(f, "_symbols", p.symbols)  # where each symbol was written first (semantics.check_alphabet names it)
    return f  # every comparison's integers are within MAX_INTEGER: LinExpr refuses more


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
