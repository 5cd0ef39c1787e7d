"""C-RASP (Yang and Chiang 2024, "Counting like transformers: compiling temporal counting logic into softmax transformers").

A program is a list of Boolean and count vectors over positions 0..n-1 of a word w, one line
each (grammar: crasp.lark; docs/languages.md)::

    # comment (a '#' not followed by '[')
    P = Q_a & !Q_b | true          Boolean operations (initial vectors Q_a(i) = [w_i = a])
    C = #[P]                       counting: C(i) = #[j <= i] P(j), the paper's INCLUSIVE prefix count
    E = 2*C - D + 1                linear combinations: integer coefficients and constants, + - and unary -
    B = E >= 0                     comparisons of counts (<, <=, >, >=, ==, !=): Boolean vectors
    F = B ? C : 3                  the conditional on counts: F(i) = C(i) if B(i) else 3
    output B

Each name has one type, Boolean or count, fixed by its definition; an operation applied to the
wrong type is an error naming the line.  The program accepts w when the (Boolean) output
vector is true at the last position n - 1.  Integer literals are at most ``MAX_INTEGER`` (the
TL compiler's bound, which keeps every comparison margin exact in float64).

``interpret`` is the definition written out position by position with Python integers;
``to_formulas`` turns every Boolean vector into a TL formula with the TL's inclusive past
count (#[j <= i] P is #<=[P]); only conditionals split a count expression into cases (``Piece``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import lark
import numpy as np

from hardsoft.constructive import logic as lg
from hardsoft.constructive.gcpause import without_cycle_collection
from hardsoft.constructive.lang.brasp import (
    FALSE,
    TRUE,
    BAnd,
    BConst,
    BNot,
    BooleanAst,
    BOr,
    Token,
    Var,
    clear_translation_caches,
    t_and,
    t_not,
    t_or,
)
from hardsoft.constructive.lang.grammar import load_parser, parse_text
from hardsoft.constructive.lang.program import (
    Binding,
    CompiledProgram,
    Positions,
    Where,
    at,
    check_nesting,
    check_symbols,
    compile_via_tl,
    end_of,
    order_bindings,
)
from hardsoft.constructive.logic.syntax import MAX_INTEGER

KEYWORDS = frozenset({"output", "true", "false"})
CMP_OPS = ("<", "<=", ">", ">=", "==", "!=")
#: The TL count C-RASP's #[j <= i] P translates to: the inclusive past count #<=[P].
COUNT_DIRECTION = "<="
#: Most cases one count expression may split into (each case is one TL comparison per use; only conditionals split).
MAX_PIECES = 64
TERMINALS = {
    "NAME": "a name",
    "TOKEN": "a token vector Q_<symbol>",
    "INT": "an integer",
    "CMP": "a comparison",
    "COUNT": "'#['",
    "OUTPUT": "'output'",
}


# --------------------------------------------------------------------------- AST (Boolean nodes shared with B-RASP)


@dataclass(frozen=True)
class Num:
    """An integer constant (>= 0; negative constants are Neg(Num))."""

    value: int


@dataclass(frozen=True)
class Count:
    """#[e]: C(i) = the number of j <= i where the Boolean e holds."""

    arg: Expr


@dataclass(frozen=True)
class Add:
    """a + b (counts)."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class Sub:
    """a - b (counts)."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class Neg:
    """-a (a count)."""

    arg: Expr


@dataclass(frozen=True)
class Scale:
    """k*a, k an integer >= 0."""

    k: int
    arg: Expr


@dataclass(frozen=True)
class Compare:
    """a op b, counts compared: a Boolean."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Cond:
    """c ? a : b, c a Boolean, a and b counts."""

    cond: Expr
    then: Expr
    other: Expr


Expr = Var | Token | BConst | BNot | BAnd | BOr | Num | Count | Add | Sub | Neg | Scale | Compare | Cond


@dataclass(frozen=True)
class Assign:
    """name = expr."""

    name: str
    expr: Expr


@dataclass(frozen=True)
class Program:
    """The statements in their order, and the output vector's name (and, not compared, where each part is written)."""

    statements: tuple[Assign, ...]
    output: str
    positions: Positions | None = field(default=None, compare=False, repr=False)


# --------------------------------------------------------------------------- parsing and types


def _integer(tok: Any) -> int:
    """Return an integer literal, refusing one above MAX_INTEGER (checked on the digits: no huge conversion)."""
    text = str(tok)
    if len(text.lstrip("0")) > len(str(MAX_INTEGER)) or int(text) > MAX_INTEGER:
        shown = text if len(text) <= 12 else text[:9] + "..."
        raise ValueError(f"line {tok.line}, column {tok.column}: the integer {shown} is above the bound {MAX_INTEGER}")
    return int(text)


#: The grammar's operator rules (the nesting bound counts them: program.MAX_NESTING per line).
OPERATORS = frozenset({"not_", "and_", "or_", "count", "add", "sub", "negate", "scale", "compare", "cond"})


@lark.v_args(meta=True)
class _ToAst(BooleanAst):
    """Lark tree -> C-RASP AST, without recursion; every node's and statement's place recorded in ``positions``."""

    def num(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(Num(_integer(c[0])), meta)

    def count(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(Count(c[1]), meta)

    def add(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(Add(c[0], c[1]), meta)

    def sub(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(Sub(c[0], c[1]), meta)

    def negate(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(Neg(c[0]), meta)

    def scale(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(Scale(_integer(c[0]), c[1]), meta)

    def compare(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(Compare(str(c[1]), c[0], c[2]), meta)

    def cond(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(Cond(c[0], c[1], c[2]), meta)

    def assign(self, meta: Any, c: list[Any]) -> tuple[Assign, Where]:
        return Assign(str(c[0]), c[1]), (c[0].line, c[0].column)

    def output(self, meta: Any, c: list[Any]) -> tuple[str, Where]:
        return str(c[0]), (c[0].line, c[0].column)


def _children(e: Expr) -> tuple[Expr, ...]:
    if isinstance(e, (BNot, Neg, Count)):
        return (e.arg,)
    if isinstance(e, Scale):
        return (e.arg,)
    if isinstance(e, (BAnd, BOr, Add, Sub, Compare)):
        return (e.left, e.right)
    if isinstance(e, Cond):
        return (e.cond, e.then, e.other)
    return ()


def expr_uses(e: Expr) -> list[str]:
    """Return the vector names an expression reads, in order of appearance."""
    out: list[str] = []
    stack = [e]
    while stack:
        g = stack.pop()
        if isinstance(g, Var):
            out.append(g.name)
        stack.extend(reversed(_children(g)))
    return list(dict.fromkeys(out))


def tokens(p: Program) -> set[str]:
    """Return the symbols whose initial vectors the program reads."""
    out: set[str] = set()
    stack: list[Expr] = [s.expr for s in p.statements]
    while stack:
        g = stack.pop()
        if isinstance(g, Token):
            out.add(g.symbol)
        stack.extend(_children(g))
    return out


BOOL, COUNT = "Boolean", "count"


def type_of(e: Expr, types: Mapping[str, str], line: int, positions: Positions | None = None) -> str:
    """Return BOOL or COUNT for an expression, or raise ValueError naming the place (line, and column when known) and the operation."""

    def place(x: Expr) -> str:
        w = positions.nodes.get(id(x)) if positions is not None else None
        return at(w) if w is not None else f"line {line}"

    def need(x: Expr, t: str, what: str) -> None:
        got = type_of(x, types, line, positions)
        if got != t:
            raise ValueError(f"{place(x)}: {what} needs a {t}, got a {got}")

    if isinstance(e, Var):
        return types[e.name]
    if isinstance(e, (Token, BConst)):
        return BOOL
    if isinstance(e, Num):
        return COUNT
    if isinstance(e, BNot):
        need(e.arg, BOOL, "'!'")
        return BOOL
    if isinstance(e, (BAnd, BOr)):
        op = "'&'" if isinstance(e, BAnd) else "'|'"
        need(e.left, BOOL, op)
        need(e.right, BOOL, op)
        return BOOL
    if isinstance(e, Count):
        need(e.arg, BOOL, "the count #[...]")
        return COUNT
    if isinstance(e, (Add, Sub)):
        op = "'+'" if isinstance(e, Add) else "'-'"
        need(e.left, COUNT, op)
        need(e.right, COUNT, op)
        return COUNT
    if isinstance(e, Neg):
        need(e.arg, COUNT, "unary '-'")
        return COUNT
    if isinstance(e, Scale):
        need(e.arg, COUNT, f"'{e.k}*'")
        return COUNT
    if isinstance(e, Compare):
        need(e.left, COUNT, f"the comparison '{e.op}'")
        need(e.right, COUNT, f"the comparison '{e.op}'")
        return BOOL
    need(e.cond, BOOL, "the condition of '? :'")
    need(e.then, COUNT, "a branch of '? :' (the paper's conditional is on counts)")
    need(e.other, COUNT, "a branch of '? :' (the paper's conditional is on counts)")
    return COUNT


def _uses_at(s: Assign, positions: Positions, here: Where) -> dict[str, Where]:
    """Return the first place each name a statement reads is written."""
    found: dict[str, Where] = {}
    stack: list[Expr] = [s.expr]
    while stack:
        g = stack.pop()
        if isinstance(g, Var):
            w = positions.of(g, here)
            found[g.name] = min(found.get(g.name, w), w)
        stack.extend(_children(g))
    return found


def check_types(p: Program, lines: Sequence[int] | None = None) -> dict[str, str]:
    """Return every vector's type (BOOL or COUNT); ValueError on a type error (naming its place) or a count output."""
    pos = p.positions
    lines = lines or [pos.statements.get(s.name, (0, 0))[0] if pos is not None else 0 for s in p.statements]
    where = {s.name: ln for s, ln in zip(p.statements, lines)}
    by_name = {s.name: s for s in p.statements}
    types: dict[str, str] = {}
    for name in order_bindings([Binding(s.name, ln, tuple(expr_uses(s.expr))) for s, ln in zip(p.statements, lines)], p.output, 0, KEYWORDS):
        types[name] = type_of(by_name[name].expr, types, where[name], pos)
    if types[p.output] != BOOL:
        oat = pos.output if pos is not None and pos.output is not None else None
        place = f"{at(oat)}: " if oat is not None else ""
        raise ValueError(f"{place}the output {p.output!r} is a count; the output must be a Boolean vector")
    return types


@without_cycle_collection
def parse(text: str) -> Program:
    """Return the program written in text (ValueError: line, column and what was expected; or the binding or type problem, and its place)."""
    tree = parse_text(load_parser("crasp.lark"), text, TERMINALS)
    check_nesting(tree, OPERATORS)
    ast = _ToAst()
    try:
        items = ast.transform(tree).children
    except lark.exceptions.VisitError as e:
        if isinstance(e.orig_exc, ValueError):
            raise ValueError(str(e.orig_exc)) from None
        raise
    positions = ast.positions
    positions.end = end_of(text)
    statements: list[Assign] = []
    outputs: list[tuple[str, Where]] = []
    bindings: list[Binding] = []
    for it in items:
        if isinstance(it[0], str):
            outputs.append(it)
            continue
        st, here = it
        statements.append(st)
        found = _uses_at(st, positions, here)
        positions.statements.setdefault(st.name, here)
        positions.uses.setdefault(st.name, found)
        names = tuple(expr_uses(st.expr))
        bindings.append(Binding(st.name, here[0], names, here[1], tuple(found.get(n, here) for n in names)))
    if len(outputs) > 1:
        raise ValueError(f"{at(outputs[1][1])}: a second 'output' line (the first is on line {outputs[0][1][0]})")
    output, oat = outputs[0] if outputs else (None, None)
    positions.output = oat
    order_bindings(bindings, output, oat[0] if oat else 0, KEYWORDS, oat, positions.end)
    assert output is not None
    p = Program(tuple(statements), output, positions)
    check_types(p)
    return p


# --------------------------------------------------------------------------- printing


# loosest first: ?: 0, | 1, & 2, ! 3, comparison 4, + - 5, unary - and k* 6, atoms 7
def _prec(e: Expr) -> int:
    return {Cond: 0, BOr: 1, BAnd: 2, BNot: 3, Compare: 4, Add: 5, Sub: 5, Neg: 6, Scale: 6}.get(type(e), 7)


def _wrap(e: Expr, at_least: int) -> str:
    s = format_expr(e)
    return f"({s})" if _prec(e) < at_least else s


def format_expr(e: Expr) -> str:
    """Return an expression with parentheses exactly where the grammar needs them to parse back to it."""
    if isinstance(e, Var):
        return e.name
    if isinstance(e, Token):
        return "Q_" + e.symbol
    if isinstance(e, BConst):
        return "true" if e.value else "false"
    if isinstance(e, Num):
        return str(e.value)
    if isinstance(e, Count):
        return f"#[{format_expr(e.arg)}]"
    if isinstance(e, BNot):
        return "!" + _wrap(e.arg, 5)  # !(a < b) rather than !a < b: the same tree, easier to read
    if isinstance(e, Neg):
        return "-" + _wrap(e.arg, 6)
    if isinstance(e, Scale):
        return f"{e.k}*" + _wrap(e.arg, 7)
    if isinstance(e, Compare):
        return f"{_wrap(e.left, 5)} {e.op} {_wrap(e.right, 5)}"
    if isinstance(e, Cond):
        return f"{_wrap(e.cond, 1)} ? {_wrap(e.then, 0)} : {_wrap(e.other, 0)}"
    op, p = {BAnd: ("&", 2), BOr: ("|", 1), Add: ("+", 5), Sub: ("-", 5)}[type(e)]
    assert isinstance(e, (BAnd, BOr, Add, Sub))
    return f"{_wrap(e.left, p)} {op} {_wrap(e.right, p + 1)}"


def format_program(p: Program) -> str:
    """Return the program's text, one statement per line, then the output line (parse(format_program(p)) == p)."""
    return "".join(f"{s.name} = {format_expr(s.expr)}\n" for s in p.statements) + f"output {p.output}\n"


# --------------------------------------------------------------------------- the interpreter (the paper's definitions)


def _eval(e: Expr, vec: Mapping[str, list[Any]], word: Sequence[str], i: int) -> Any:
    """Return the value (bool or int) of an expression at position i."""
    if isinstance(e, Var):
        return vec[e.name][i]
    if isinstance(e, Token):
        return word[i] == e.symbol
    if isinstance(e, (BConst, Num)):
        return e.value
    if isinstance(e, BNot):
        return not _eval(e.arg, vec, word, i)
    if isinstance(e, BAnd):
        return _eval(e.left, vec, word, i) and _eval(e.right, vec, word, i)
    if isinstance(e, BOr):
        return _eval(e.left, vec, word, i) or _eval(e.right, vec, word, i)
    if isinstance(e, Count):
        return sum(1 for j in range(i + 1) if _eval(e.arg, vec, word, j))
    if isinstance(e, Add):
        return _eval(e.left, vec, word, i) + _eval(e.right, vec, word, i)
    if isinstance(e, Sub):
        return _eval(e.left, vec, word, i) - _eval(e.right, vec, word, i)
    if isinstance(e, Neg):
        return -_eval(e.arg, vec, word, i)
    if isinstance(e, Scale):
        return e.k * _eval(e.arg, vec, word, i)
    if isinstance(e, Compare):
        a, b = _eval(e.left, vec, word, i), _eval(e.right, vec, word, i)
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[e.op]
    assert isinstance(e, Cond)
    return _eval(e.then, vec, word, i) if _eval(e.cond, vec, word, i) else _eval(e.other, vec, word, i)


def interpret_word(p: Program, word: Sequence[str]) -> dict[str, list[Any]]:
    """Return every vector of the program on one word: lists of bools (Boolean vectors) or ints (count vectors)."""
    by_name = {s.name: s for s in p.statements}
    vec: dict[str, list[Any]] = {}
    for name in order_bindings([Binding(s.name, 0, tuple(expr_uses(s.expr))) for s in p.statements], p.output, 0):
        vec[name] = [_eval(by_name[name].expr, vec, word, i) for i in range(len(word))]
    return vec


def interpret(p: Program, inputs: np.ndarray, alphabet: Sequence[str]) -> dict[str, np.ndarray]:
    """Return every vector on a (batch, n) array of symbol indices: (batch, n) bool or int64 arrays."""
    inputs = np.atleast_2d(np.asarray(inputs))
    check_symbols(tokens(p), alphabet, p.positions)
    types = check_types(p)
    rows = [interpret_word(p, [alphabet[int(v)] for v in row]) for row in inputs]
    return {
        s.name: np.array([r[s.name] for r in rows], dtype=bool if types[s.name] == BOOL else np.int64).reshape(inputs.shape) for s in p.statements
    }


def _eval_columns(e: Expr, vec: Mapping[str, np.ndarray], tok: Mapping[str, np.ndarray], n: int) -> np.ndarray:
    """Return an expression's values at every position, numpy-wide: Booleans as bool arrays, counts as arrays of Python ints."""
    if isinstance(e, Var):
        return vec[e.name]
    if isinstance(e, Token):
        return tok[e.symbol]
    if isinstance(e, BConst):
        return np.full(n, e.value)
    if isinstance(e, Num):
        return np.full(n, e.value, dtype=object)
    if isinstance(e, BNot):
        return ~_eval_columns(e.arg, vec, tok, n)
    if isinstance(e, (BAnd, BOr)):
        a, b = _eval_columns(e.left, vec, tok, n), _eval_columns(e.right, vec, tok, n)
        return a & b if isinstance(e, BAnd) else a | b
    if isinstance(e, Count):  # #[j <= i] P(j): the inclusive prefix sum
        return np.cumsum(_eval_columns(e.arg, vec, tok, n).astype(object))
    if isinstance(e, (Add, Sub)):
        a, b = _eval_columns(e.left, vec, tok, n), _eval_columns(e.right, vec, tok, n)
        return a + b if isinstance(e, Add) else a - b
    if isinstance(e, Neg):
        return -_eval_columns(e.arg, vec, tok, n)
    if isinstance(e, Scale):
        return e.k * _eval_columns(e.arg, vec, tok, n)
    if isinstance(e, Compare):
        a, b = _eval_columns(e.left, vec, tok, n), _eval_columns(e.right, vec, tok, n)
        op = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal, "==": np.equal, "!=": np.not_equal}[e.op]
        return np.asarray(op(a, b), dtype=bool)
    assert isinstance(e, Cond)
    return np.where(_eval_columns(e.cond, vec, tok, n), _eval_columns(e.then, vec, tok, n), _eval_columns(e.other, vec, tok, n))


def interpret_columns(p: Program, inputs: np.ndarray, alphabet: Sequence[str]) -> dict[str, np.ndarray]:
    """Return every vector on a (batch, n) array of symbol indices (``interpret``, numpy-wide: a count is the cumulative sum).

    For long words (sampled verification); exact (Python integers); tested equal to ``interpret``.
    """
    inputs = np.atleast_2d(np.asarray(inputs))
    check_symbols(tokens(p), alphabet, p.positions)
    types = check_types(p)
    by_name = {s.name: s for s in p.statements}
    order = order_bindings([Binding(s.name, 0, tuple(expr_uses(s.expr))) for s in p.statements], p.output, 0)
    rows = []
    for word in inputs:
        n = len(word)
        tok = {a: np.asarray(word == k) for k, a in enumerate(alphabet)}
        vec: dict[str, np.ndarray] = {}
        for name in order:
            vec[name] = np.broadcast_to(_eval_columns(by_name[name].expr, vec, tok, n), (n,))
        rows.append(vec)
    return {
        s.name: np.array([r[s.name] for r in rows], dtype=bool if types[s.name] == BOOL else np.int64).reshape(inputs.shape) for s in p.statements
    }


# --------------------------------------------------------------------------- translation to temporal logic


@dataclass(frozen=True)
class Piece:
    """One case of a count expression: where ``guard`` holds at i, the count equals sum_f terms[f] * #<=[f] + const.

    The guard is a conjunction of literals (formula, value) of Boolean vectors at the current
    position, from the conditions of conditionals (B ? C : D is C where B(i) holds and D where
    it does not).  A count expression is a list of pieces whose guards are exclusive and cover
    every position; without conditionals it is one piece.
    """

    guard: tuple[tuple[lg.Formula, bool], ...]
    terms: tuple[tuple[lg.Formula, int], ...]
    const: int


def _normal_guard(guard: dict[lg.Formula, bool], alphabet: Sequence[str]) -> tuple[tuple[lg.Formula, bool], ...] | None:
    """Return a guard without literals the alphabet decides, or None if it cannot hold (two symbols, or none, at one position)."""
    on = [f for f, v in guard.items() if v and isinstance(f, lg.Atom)]
    off = {f.symbol for f, v in guard.items() if not v and isinstance(f, lg.Atom)}
    if len(on) > 1 or (alphabet and off >= set(alphabet)):
        return None
    if on:  # the symbol at i is known: the other symbols' literals say nothing more
        return tuple((f, v) for f, v in guard.items() if not (isinstance(f, lg.Atom) and not v))
    return tuple(guard.items())


def _join(a: Piece, b: Piece, sign: int, alphabet: Sequence[str]) -> Piece | None:
    """Return the piece a + sign * b on the conjunction of their guards (None if the guards contradict)."""
    guard = dict(a.guard)
    for f, v in b.guard:
        if guard.get(f, v) != v:
            return None
        guard[f] = v
    g = _normal_guard(guard, alphabet)
    if g is None:
        return None
    terms = dict(a.terms)
    for f, c in b.terms:
        terms[f] = terms.get(f, 0) + sign * c
    return Piece(g, tuple((f, c) for f, c in terms.items() if c != 0), a.const + sign * b.const)


def _merge(pieces: list[Piece]) -> list[Piece]:
    """Return the pieces with equal forms merged where their guards differ in one literal's value only (f and !f)."""
    changed = True
    while changed:
        changed = False
        for x in range(len(pieces)):
            for y in range(x + 1, len(pieces)):
                p, q = pieces[x], pieces[y]
                if (p.terms, p.const) != (q.terms, q.const) or len(p.guard) != len(q.guard):
                    continue
                pd, qd = dict(p.guard), dict(q.guard)
                if pd.keys() != qd.keys():
                    continue
                diff = [f for f in pd if pd[f] != qd[f]]
                if len(diff) == 1:
                    merged = Piece(tuple((f, v) for f, v in p.guard if f != diff[0]), p.terms, p.const)
                    pieces = pieces[:x] + [merged] + pieces[x + 1 : y] + pieces[y + 1 :]
                    changed = True
                    break
            if changed:
                break
    return pieces


def _scaled(p: Piece, k: int) -> Piece:
    return Piece(p.guard, tuple((f, k * c) for f, c in p.terms if k * c != 0), k * p.const)


def _limit(pieces: list[Piece], where: str) -> list[Piece]:
    pieces = _merge(pieces)
    if len(pieces) > MAX_PIECES:
        raise ValueError(f"{where}: the count expression splits into {len(pieces)} cases at the current position (the bound is {MAX_PIECES})")
    return pieces


def _guard_formula(guard: Sequence[tuple[lg.Formula, bool]]) -> lg.Formula:
    out: lg.Formula = TRUE
    for f, v in guard:
        out = t_and(out, f if v else t_not(f))
    return out


def _decided(op: str, p: Piece) -> bool | None:
    """Return the comparison 'sum terms #<= + const  op  0' when the signs decide it for every word (counts are >= 0), else None."""
    coeffs = [c for _, c in p.terms]
    c = p.const
    if all(k > 0 for k in coeffs):  # the left side is >= c, and takes the value c (where no counted position is true yet)
        low = {">=": True if c >= 0 else None, ">": True if c > 0 else None, "<": False if c >= 0 else None, "<=": False if c > 0 else None}
        return low.get(op)
    if all(k < 0 for k in coeffs):  # the left side is <= c
        high = {"<=": True if c <= 0 else None, "<": True if c < 0 else None, ">": False if c <= 0 else None, ">=": False if c < 0 else None}
        return high.get(op)
    return None


def _comparison(op: str, p: Piece, where: str) -> lg.Formula:
    """Return the TL formula of 'sum terms #<= + const  op  0' (folded when the constant or the signs decide it)."""
    if not p.terms:
        c = p.const
        return lg.Const({"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0, "==": c == 0, "!=": c != 0}[op])
    if op == "==":
        return t_and(_comparison(">=", p, where), _comparison("<=", p, where))
    if op == "!=":
        return t_or(_comparison("<", p, where), _comparison(">", p, where))
    known = _decided(op, p)
    if known is not None:
        return lg.Const(known)
    size = sum(abs(c) for _, c in p.terms) + abs(p.const)
    if size > MAX_INTEGER:
        raise ValueError(f"{where}: the comparison needs integers summing to {size} in the temporal logic, above the bound {MAX_INTEGER}")
    return lg.Compare(op, lg.LinExpr(tuple((c, lg.Count(COUNT_DIRECTION, f)) for f, c in p.terms), p.const), lg.LinExpr((), 0))


class _Translator:
    """C-RASP expressions -> TL formulas (Boolean) or pieces (counts), for one alphabet."""

    def __init__(self, alphabet: Sequence[str], env: Mapping[str, Any]) -> None:
        self.alphabet = tuple(alphabet)
        self.env = env

    def split(self, c: lg.Formula, yes: list[Piece], no: list[Piece]) -> list[Piece]:
        """Return the pieces of 'c ? yes : no'."""
        out = [q for p in yes if (q := _join(Piece(((c, True),), (), 0), p, 1, self.alphabet)) is not None]
        return out + [q for p in no if (q := _join(Piece(((c, False),), (), 0), p, 1, self.alphabet)) is not None]

    def __call__(self, e: Expr, where: str) -> Any:
        """Return a Boolean expression's TL formula, or a count expression's pieces."""
        tr = self
        if isinstance(e, Var):
            return self.env[e.name]
        if isinstance(e, Token):
            return lg.Atom(e.symbol)
        if isinstance(e, BConst):
            return lg.Const(e.value)
        if isinstance(e, BNot):
            return t_not(tr(e.arg, where))
        if isinstance(e, BAnd):
            return t_and(tr(e.left, where), tr(e.right, where))
        if isinstance(e, BOr):
            return t_or(tr(e.left, where), tr(e.right, where))
        if isinstance(e, Num):
            return [Piece((), (), e.value)]
        if isinstance(e, Count):  # #[j <= i] f is the TL's inclusive count #<=[f]
            f = tr(e.arg, where)
            if f == FALSE:
                return [Piece((), (), 0)]
            return [Piece((), ((f, 1),), 0)]
        if isinstance(e, (Add, Sub)):
            a, b = tr(e.left, where), tr(e.right, where)
            sign = 1 if isinstance(e, Add) else -1
            return _limit([q for x in a for y in b if (q := _join(x, y, sign, self.alphabet)) is not None], where)
        if isinstance(e, Neg):
            return [_scaled(p, -1) for p in tr(e.arg, where)]
        if isinstance(e, Scale):
            return [_scaled(p, e.k) for p in tr(e.arg, where)] if e.k else [Piece((), (), 0)]
        if isinstance(e, Compare):
            a, b = tr(e.left, where), tr(e.right, where)
            diff = _limit([q for x in a for y in b if (q := _join(x, y, -1, self.alphabet)) is not None], where)
            out: lg.Formula = FALSE
            for p in diff:
                out = t_or(out, t_and(_guard_formula(p.guard), _comparison(e.op, p, where)))
            return out
        assert isinstance(e, Cond)
        c = tr(e.cond, where)
        then, other = tr(e.then, where), tr(e.other, where)
        if c == TRUE:
            return then
        if c == FALSE:
            return other
        return _limit(self.split(c, then, other), where)


def to_formulas(p: Program, alphabet: Sequence[str] = ()) -> tuple[dict[str, lg.Formula], dict[str, list[Piece]]]:
    """Return the TL formula of every Boolean vector and the pieces of every count vector (alphabet: prunes impossible cases)."""
    types = check_types(p)
    by_name = {s.name: s for s in p.statements}
    env: dict[str, Any] = {}
    tr = _Translator(alphabet, env)
    try:
        for name in order_bindings([Binding(s.name, 0, tuple(expr_uses(s.expr))) for s in p.statements], p.output, 0):
            known = p.positions.statements.get(name) if p.positions is not None else None
            env[name] = tr(by_name[name].expr, f"{at(known)}: vector {name!r}" if known else f"vector {name!r}")
    finally:
        clear_translation_caches()  # t_and's assume_symbol results, kept for this translation only
    return {k: v for k, v in env.items() if types[k] == BOOL}, {k: v for k, v in env.items() if types[k] == COUNT}


@without_cycle_collection
def compile_program(p: Program | str, alphabet: Sequence[str] = ("a", "b"), regime: str = "bounded") -> CompiledProgram:
    """Return the program compiled to one model through the TL compiler's counting constructions (ValueError on what it refuses)."""
    if isinstance(p, str):
        p = parse(p)
    check_symbols(tokens(p), alphabet, p.positions)
    booleans, counts = to_formulas(p, alphabet)
    return compile_via_tl("crasp", p, format_program(p), booleans, p.output, alphabet, regime, interpret, tuple(counts), p.positions)
