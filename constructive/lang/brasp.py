"""B-RASP (Yang, Chiang and Angluin 2024, "Masked hard-attention transformers recognize exactly the star-free languages").

A program is a list of Boolean vectors over positions 0..n-1 of a word w, one line each
(grammar: brasp.lark; docs/languages.md)::

    # comment
    A = Q_a & !Q_b | true                              position-wise Boolean operation
    P = rightmost past [A@i & !B@j] V default D        attention
    output P

* ``Q_a`` is the initial vector Q_a(i) = [w_i = a];
* ``!``, ``&``, ``|``, ``true``, ``false`` act position-wise;
* attention ``P = DIR MASK [S] V default D`` is the paper's P(i) = DIR_j [M(i,j), S(i,j)] V(j) : D(i):
  among the positions j with M(i, j) (past: j < i, future: j > i, all: every j) and S(i, j),
  take the leftmost (DIR = leftmost) or the rightmost one, j*, and P(i) = V(j*); if there is
  none, P(i) = D(i).  S is a Boolean expression of query vectors ``A@i`` and key vectors
  ``B@j``; V is a Boolean expression of vectors at j, D one of vectors at i.

The program accepts w when the output vector is true at the last position n - 1.
Names are bound once; a name may be used before its line, but no vector may depend on
itself.  ``interpret`` is the definition above written out position by position;
``to_formulas`` turns every vector into a TL formula (the attention operations become
since / until formulas, module ``translate`` below) and ``compile_program`` compiles them.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import lark
import numpy as np

from hardsoft.constructive import logic as lg
from hardsoft.constructive.gcpause import without_cycle_collection
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

DIRECTIONS = ("leftmost", "rightmost")
MASKS = ("past", "future", "all")
KEYWORDS = frozenset({"leftmost", "rightmost", "past", "future", "all", "default", "output", "true", "false"})
#: Most distinct query vectors one selector may read (the translation splits on each of their 2^m values).
MAX_QUERY_VECTORS = 6
#: Readable names of the grammar's terminals (parse errors).
TERMINALS = {
    "NAME": "a name",
    "TOKEN": "a token vector Q_<symbol>",
    "SIDEREF": "a vector at i or j (A@i, B@j)",
    "DIRECTION": "leftmost or rightmost",
    "MASK": "past, future or all",
    "TRUE": "true",
    "FALSE": "false",
    "DEFAULT": "'default'",
    "OUTPUT": "'output'",
}


# --------------------------------------------------------------------------- AST


@dataclass(frozen=True)
class Var:
    """A vector by name; side is '' (a position-wise expression), 'i' (query side of a selector) or 'j' (key side)."""

    name: str
    side: str = ""


@dataclass(frozen=True)
class Token:
    """The initial vector Q_symbol(i) = [w_i = symbol]."""

    symbol: str


@dataclass(frozen=True)
class BConst:
    """true or false at every position."""

    value: bool


@dataclass(frozen=True)
class BNot:
    """!e."""

    arg: Expr


@dataclass(frozen=True)
class BAnd:
    """e & f."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class BOr:
    """e | f."""

    left: Expr
    right: Expr


Expr = Var | Token | BConst | BNot | BAnd | BOr


@dataclass(frozen=True)
class Assign:
    """name = expr (position-wise)."""

    name: str
    expr: Expr


@dataclass(frozen=True)
class Attend:
    """name = direction mask [selector] value default default_."""

    name: str
    direction: str
    mask: str
    selector: Expr
    value: Expr
    default: Expr


Statement = Assign | Attend


@dataclass(frozen=True)
class Program:
    """The statements in their order, and the output vector's name (and, not compared, where each part is written)."""

    statements: tuple[Statement, ...]
    output: str
    positions: Positions | None = field(default=None, compare=False, repr=False)


# --------------------------------------------------------------------------- parsing


#: The grammar's operator rules (the nesting bound counts them: program.MAX_NESTING per line).
OPERATORS = frozenset({"not_", "and_", "or_"})


@lark.v_args(meta=True)
class BooleanAst(lark.visitors.Transformer_NonRecursive):
    """Lark tree -> AST for the Boolean expressions B-RASP and C-RASP share, without recursion; every node's place in ``positions``."""

    def __init__(self) -> None:
        super().__init__()
        self.positions = Positions()

    def _at(self, node: Any, meta: Any) -> Any:
        self.positions.nodes[id(node)] = (meta.line, meta.column)
        return node

    def var(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(Var(str(c[0])), meta)

    def token(self, meta: Any, c: list[Any]) -> Expr:
        symbol = str(c[0])[2:]
        self.positions.tokens[symbol] = min(self.positions.tokens.get(symbol, (meta.line, meta.column)), (meta.line, meta.column))
        return self._at(Token(symbol), meta)

    def true(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(BConst(True), meta)

    def false(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(BConst(False), meta)

    def not_(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(BNot(c[0]), meta)

    def and_(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(BAnd(c[0], c[1]), meta)

    def or_(self, meta: Any, c: list[Any]) -> Expr:
        return self._at(BOr(c[0], c[1]), meta)


@lark.v_args(meta=True)
class _ToAst(BooleanAst):
    """Lark tree -> B-RASP AST, without recursion; every node's and statement's place recorded in ``positions``."""

    def sideref(self, meta: Any, c: list[Any]) -> Expr:
        name, side = str(c[0]).split("@")
        if name.startswith("Q_") and side == "j":  # a token vector at the key side is the token itself
            return self.token(meta, [name])
        return self._at(Var(name, side), meta)

    def assign(self, meta: Any, c: list[Any]) -> tuple[Statement, Where]:
        return Assign(str(c[0]), c[1]), (c[0].line, c[0].column)

    def attend(self, meta: Any, c: list[Any]) -> tuple[Statement, Where]:
        return Attend(str(c[0]), str(c[1]), str(c[2]), c[3], c[4], c[5]), (c[0].line, c[0].column)

    def output(self, meta: Any, c: list[Any]) -> tuple[str, Where]:
        return str(c[0]), (c[0].line, c[0].column)


def _statement_exprs(s: Statement) -> list[Expr]:
    """Return a statement's expressions in text order."""
    return [s.expr] if isinstance(s, Assign) else [s.selector, s.value, s.default]


def _uses_at(s: Statement, positions: Positions, here: Where) -> dict[str, Where]:
    """Return the first place each name a statement reads is written."""
    found: dict[str, Where] = {}
    for e in _statement_exprs(s):
        stack: list[Expr] = [e]
        while stack:
            g = stack.pop()
            if isinstance(g, Var) and not g.name.startswith("Q_"):
                w = positions.of(g, here)
                found[g.name] = min(found.get(g.name, w), w)
            elif isinstance(g, BNot):
                stack.append(g.arg)
            elif isinstance(g, (BAnd, BOr)):
                stack.extend((g.right, g.left))
    return found


@without_cycle_collection
def parse(text: str) -> Program:
    """Return the program written in text (ValueError: line, column and what was expected; or the binding problem, and its place)."""
    tree = parse_text(load_parser("brasp.lark"), text, TERMINALS)
    check_nesting(tree, OPERATORS)
    ast = _ToAst()
    items = ast.transform(tree).children
    positions = ast.positions
    positions.end = end_of(text)
    statements: list[Statement] = []
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
        names = uses(st)
        bindings.append(Binding(st.name, here[0], names, here[1], tuple(found.get(n, here) for n in names)))
    if len(outputs) > 1:
        raise ValueError(f"{at(outputs[1][1])}: a second 'output' line (the first is on line {outputs[0][1][0]})")
    output, oat = outputs[0] if outputs else (None, None)
    positions.output = oat
    order_bindings(bindings, output, oat[0] if oat else 0, KEYWORDS, oat, positions.end)
    assert output is not None
    return Program(tuple(statements), output, positions)


def expr_uses(e: Expr) -> list[str]:
    """Return the vector names an expression reads (token vectors excluded), in order of appearance."""
    out: list[str] = []
    stack: list[Expr] = [e]
    while stack:
        g = stack.pop()
        if isinstance(g, Var) and not g.name.startswith("Q_"):
            out.append(g.name)
        elif isinstance(g, BNot):
            stack.append(g.arg)
        elif isinstance(g, (BAnd, BOr)):
            stack.extend((g.right, g.left))
    return list(dict.fromkeys(out))


def uses(s: Statement) -> tuple[str, ...]:
    """Return the vector names a statement reads."""
    if isinstance(s, Assign):
        return tuple(expr_uses(s.expr))
    return tuple(dict.fromkeys(expr_uses(s.selector) + expr_uses(s.value) + expr_uses(s.default)))


def tokens(p: Program) -> set[str]:
    """Return the symbols whose initial vectors the program reads."""
    out: set[str] = set()
    for s in p.statements:
        for e in [s.expr] if isinstance(s, Assign) else [s.selector, s.value, s.default]:
            stack: list[Expr] = [e]
            while stack:
                g = stack.pop()
                if isinstance(g, Token):
                    out.add(g.symbol)
                elif isinstance(g, Var) and g.name.startswith("Q_"):
                    out.add(g.name[2:])
                elif isinstance(g, BNot):
                    stack.append(g.arg)
                elif isinstance(g, (BAnd, BOr)):
                    stack.extend((g.left, g.right))
    return out


# --------------------------------------------------------------------------- printing

_PREC = {BOr: 1, BAnd: 2, BNot: 3}


def _prec(e: Expr) -> int:
    return _PREC.get(type(e), 4)


def format_expr(e: Expr) -> str:
    """Return an expression with the fewest parentheses that parse back to it (& binds tighter than |, both left-associative)."""
    if isinstance(e, Var):
        return f"{e.name}@{e.side}" if e.side else e.name
    if isinstance(e, Token):
        return "Q_" + e.symbol
    if isinstance(e, BConst):
        return "true" if e.value else "false"
    if isinstance(e, BNot):
        inner = format_expr(e.arg)
        return "!" + (f"({inner})" if _prec(e.arg) < 3 else inner)
    op = "&" if isinstance(e, BAnd) else "|"
    p = _prec(e)
    left, right = format_expr(e.left), format_expr(e.right)
    if _prec(e.left) < p:
        left = f"({left})"
    if _prec(e.right) <= p:
        right = f"({right})"
    return f"{left} {op} {right}"


def _format_selector(e: Expr) -> str:
    """Return a selector (token vectors at j print as Q_a@j)."""
    return format_expr(_mark_keys(e))


def _mark_keys(e: Expr) -> Expr:
    if isinstance(e, Token):
        return Var("Q_" + e.symbol, "j")
    if isinstance(e, BNot):
        return BNot(_mark_keys(e.arg))
    if isinstance(e, (BAnd, BOr)):
        return type(e)(_mark_keys(e.left), _mark_keys(e.right))
    return e


def format_program(p: Program) -> str:
    """Return the program's text: one statement per line, then the output line (parse(format_program(p)) == p)."""
    lines = []
    for s in p.statements:
        if isinstance(s, Assign):
            lines.append(f"{s.name} = {format_expr(s.expr)}")
        else:
            lines.append(
                f"{s.name} = {s.direction} {s.mask} [{_format_selector(s.selector)}] {format_expr(s.value)} default {format_expr(s.default)}"
            )
    lines.append(f"output {p.output}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- the interpreter (the paper's definitions)


def _eval(e: Expr, vec: Mapping[str, list[bool]], word: Sequence[str], i: int, j: int) -> bool:
    """Return the value of an expression; position-wise vectors and key vectors are read at j, query vectors at i."""
    if isinstance(e, Var):
        name, at = e.name, (i if e.side == "i" else j)
        return word[at] == name[2:] if name.startswith("Q_") else vec[name][at]
    if isinstance(e, Token):
        return word[j] == e.symbol
    if isinstance(e, BConst):
        return e.value
    if isinstance(e, BNot):
        return not _eval(e.arg, vec, word, i, j)
    if isinstance(e, BAnd):
        return _eval(e.left, vec, word, i, j) and _eval(e.right, vec, word, i, j)
    return _eval(e.left, vec, word, i, j) or _eval(e.right, vec, word, i, j)


def _masked(mask: str, i: int, j: int) -> bool:
    """Return M(i, j): past j < i, future j > i, all: always."""
    return j < i if mask == "past" else j > i if mask == "future" else True


def interpret_word(p: Program, word: Sequence[str]) -> dict[str, list[bool]]:
    """Return every vector of the program on one word (a sequence of symbols), as the paper defines them."""
    n = len(word)
    order = order_bindings([Binding(s.name, 0, uses(s)) for s in p.statements], p.output, 0)
    by_name = {s.name: s for s in p.statements}
    vec: dict[str, list[bool]] = {}
    for name in order:
        s = by_name[name]
        if isinstance(s, Assign):
            vec[name] = [_eval(s.expr, vec, word, i, i) for i in range(n)]
            continue
        out = []
        for i in range(n):
            chosen = [j for j in range(n) if _masked(s.mask, i, j) and _eval(s.selector, vec, word, i, j)]
            if chosen:
                j = min(chosen) if s.direction == "leftmost" else max(chosen)
                out.append(_eval(s.value, vec, word, j, j))
            else:
                out.append(_eval(s.default, vec, word, i, i))
        vec[name] = out
    return vec


def interpret(p: Program, inputs: np.ndarray, alphabet: Sequence[str]) -> dict[str, np.ndarray]:
    """Return every vector of the program on a (batch, n) array of symbol indices, as (batch, n) bool arrays."""
    inputs = np.atleast_2d(np.asarray(inputs))
    check_symbols(tokens(p), alphabet, p.positions)
    rows = [interpret_word(p, [alphabet[int(v)] for v in row]) for row in inputs]
    return {s.name: np.array([r[s.name] for r in rows], dtype=bool).reshape(inputs.shape) for s in p.statements}


def _eval_columns(e: Expr, vec: Mapping[str, np.ndarray], tok: Mapping[str, np.ndarray], query: Mapping[str, bool] | None = None) -> Any:
    """Return an expression's values at every position, numpy-wide (a (n,) bool array or a constant); in a selector, the query
    vectors (side i) take the constants in ``query`` and the key vectors are read at j (one expression: its nesting is bounded)."""
    if isinstance(e, Var):
        if e.side == "i":
            assert query is not None
            return np.bool_(query[e.name])
        return tok[e.name[2:]] if e.name.startswith("Q_") else vec[e.name]
    if isinstance(e, Token):
        return tok[e.symbol]
    if isinstance(e, BConst):
        return np.bool_(e.value)
    if isinstance(e, BNot):
        return ~_eval_columns(e.arg, vec, tok, query)
    if isinstance(e, BAnd):
        return _eval_columns(e.left, vec, tok, query) & _eval_columns(e.right, vec, tok, query)
    return _eval_columns(e.left, vec, tok, query) | _eval_columns(e.right, vec, tok, query)


def _chosen_key(direction: str, mask: str, selected: np.ndarray) -> np.ndarray:
    """Return, for every query i, the key the attention chooses among the selected j that M(i, j) shows (-1: none).

    By prefix scans: the rightmost selected j < i is the running maximum of the selected indices before i; the leftmost
    selected j < i is the first selected index, if it is before i; the future masks mirror these; ``all`` takes the first
    (last) selected index of the word.
    """
    n = len(selected)
    idx = np.arange(n)
    marked = np.where(selected, idx, -1)
    first = int(np.argmax(selected)) if selected.any() else -1
    last = int(n - 1 - np.argmax(selected[::-1])) if selected.any() else -1
    if mask == "all":
        return np.full(n, first if direction == "leftmost" else last)
    if mask == "past":
        if direction == "rightmost":  # max{j < i : S(j)}: the running maximum up to i - 1
            before = np.maximum.accumulate(marked)
            return np.concatenate([[-1], before[:-1]])
        return np.where((first >= 0) & (first < idx), first, -1)
    if direction == "leftmost":  # min{j > i : S(j)}: the running minimum from the right, from i + 1
        big = np.where(selected, idx, n)
        after = np.minimum.accumulate(big[::-1])[::-1]
        nxt = np.concatenate([after[1:], [n]])
        return np.where(nxt < n, nxt, -1)
    return np.where(last > idx, last, -1)


def interpret_columns_word(p: Program, word: np.ndarray, alphabet: Sequence[str]) -> dict[str, np.ndarray]:
    """Return every vector on one word (symbol indices) as (n,) bool arrays: the paper's definitions, numpy-wide, in time O(n 2^m).

    A position-wise expression elementwise; an attention split on the values sigma of the m query vectors its selector
    reads (as the translation to TL does, m <= MAX_QUERY_VECTORS): for each sigma the key-only selector S_sigma(j) is a
    vector, the chosen key for every query by prefix scans (``_chosen_key``), and query i takes the sigma of its own query
    values; P(i) = V(j*) with a chosen j*, else D(i).  For long words (sampled verification); tested equal to
    ``interpret_word``, which reads the definitions position by position.
    """
    n = len(word)
    tok = {a: np.asarray(word == k) for k, a in enumerate(alphabet)}
    for a in tokens(p) - set(alphabet):
        tok[a] = np.zeros(n, dtype=bool)
    order = order_bindings([Binding(s.name, 0, uses(s)) for s in p.statements], p.output, 0)
    by_name = {s.name: s for s in p.statements}
    vec: dict[str, np.ndarray] = {}
    for name in order:
        s = by_name[name]
        if isinstance(s, Assign):
            vec[name] = np.broadcast_to(_eval_columns(s.expr, vec, tok), (n,)).copy()
            continue
        value = np.broadcast_to(_eval_columns(s.value, vec, tok), (n,))
        default = np.broadcast_to(_eval_columns(s.default, vec, tok), (n,))
        qs = query_vectors(s.selector)
        qvals = [tok[q[2:]] if q.startswith("Q_") else vec[q] for q in qs]
        chosen = np.full(n, -1)
        for values in itertools.product((True, False), repeat=len(qs)):
            here = np.ones(n, dtype=bool)  # the queries whose own query values are sigma
            for qv, v in zip(qvals, values):
                here &= qv if v else ~qv
            if here.any():
                selected = np.broadcast_to(_eval_columns(s.selector, vec, tok, dict(zip(qs, values))), (n,))
                chosen = np.where(here, _chosen_key(s.direction, s.mask, selected), chosen)
        vec[name] = np.where(chosen >= 0, value[np.maximum(chosen, 0)], default)
    return vec


def interpret_columns(p: Program, inputs: np.ndarray, alphabet: Sequence[str]) -> dict[str, np.ndarray]:
    """Return every vector on a (batch, n) array of symbol indices as (batch, n) bool arrays (``interpret``, numpy-wide)."""
    inputs = np.atleast_2d(np.asarray(inputs))
    check_symbols(tokens(p), alphabet, p.positions)
    rows = [interpret_columns_word(p, row, alphabet) for row in inputs]
    return {s.name: np.array([r[s.name] for r in rows], dtype=bool).reshape(inputs.shape) for s in p.statements}


# --------------------------------------------------------------------------- translation to temporal logic

TRUE, FALSE = lg.Const(True), lg.Const(False)

#: The rules of the translation (each a branch of ``attention_formula``, ``_to_formulas``, ``t_since``/``t_until``,
#: ``t_not``/``t_and``/``t_or``): ``rule_hits`` counts how often each fires, so a test can show that a random
#: generator reaches every one (tests/constructive/test_brasp_rules.py).
TRANSLATION_RULES: tuple[str, ...] = (
    *(f"attend {d} {m}" for m in MASKS for d in DIRECTIONS),
    "attend: no key can be selected (K = false)",
    "selector: keys only",
    "selector: split on query vectors",
    "since",
    "since: false S g = Y g",
    "since: f S false = false",
    "until",
    "until: false U g = X g",
    "until: f U false = false",
    "not",
    "not: constant",
    "not: double negation",
    "and",
    "and: two symbols",
    "and: a symbol decides the other side",
    "and: constant",
    "or",
    "or: constant",
)
_HITS: Counter[str] | None = None


class rule_hits:
    """Context manager counting the translation rules fired inside it: ``with rule_hits() as hits: to_formulas(p)``."""

    def __enter__(self) -> Counter[str]:
        global _HITS
        self._saved = _HITS
        _HITS = Counter()
        return _HITS

    def __exit__(self, *exc: Any) -> None:
        global _HITS
        _HITS = self._saved


def _hit(rule: str) -> None:
    """Count one firing of a translation rule (inside ``rule_hits``)."""
    if _HITS is not None:
        _HITS[rule] += 1


def t_not(f: lg.Formula) -> lg.Formula:
    """Return !f, folding constants and double negation."""
    if isinstance(f, lg.Const):
        _hit("not: constant")
        return lg.Const(not f.value)
    if isinstance(f, lg.Not):
        _hit("not: double negation")
        return f.arg
    _hit("not")
    return lg.Not(f)


#: assume_symbol's results during one translation (to_formulas clears them): symbol -> id(node) -> rewritten node.
_ASSUMED: dict[str, dict[int, lg.Formula]] = {}
_KEEP: list[lg.Formula] = []


def assume_symbol(g: lg.Formula, symbol: str) -> lg.Formula:
    """Return g with the position's symbol known: a Boolean combination's atoms become true (symbol) or false (any other).

    Only the Boolean structure at the current position is rewritten; temporal operators and
    counts read other positions and are left as they are.
    """
    boolean = (lg.Not, lg.And, lg.Or)
    memo = _ASSUMED.setdefault(symbol, {})  # id(node) -> rewritten, across calls: a shared node is rewritten once (linear in the DAG)
    if id(g) in memo:
        return memo[id(g)]
    stack: list[tuple[lg.Formula, bool]] = [(g, False)]
    while stack:
        x, ready = stack.pop()
        if id(x) in memo:
            continue
        _KEEP.append(x)  # the node stays alive while its id is a key of the memo
        if isinstance(x, lg.Atom):
            memo[id(x)] = lg.Const(x.symbol == symbol)
        elif not isinstance(x, boolean):
            memo[id(x)] = x
        elif not ready:
            stack.append((x, True))
            stack.extend((c, False) for c in lg.children(x) if id(c) not in memo)
        elif isinstance(x, lg.Not):
            memo[id(x)] = t_not(memo[id(x.arg)])
        elif isinstance(x, lg.And):
            memo[id(x)] = t_and(memo[id(x.left)], memo[id(x.right)])
        else:
            memo[id(x)] = t_or(memo[id(x.left)], memo[id(x.right)])
        done = memo.get(id(x))
        if done is not None and id(done) not in memo:  # a rewritten node has its atoms decided already: rewriting it again gives itself
            _KEEP.append(done)
            memo[id(done)] = done
    return memo[id(g)]


def t_and(f: lg.Formula, g: lg.Formula) -> lg.Formula:
    """Return f & g, folding constants; next to a symbol, the other side's atoms are decided (assume_symbol)."""
    if isinstance(f, lg.Atom) and isinstance(g, lg.Atom):  # one symbol per position
        _hit("and: two symbols")
        return f if f == g else FALSE
    if isinstance(f, lg.Atom):
        _hit("and: a symbol decides the other side")
        g = assume_symbol(g, f.symbol)
    elif isinstance(g, lg.Atom):
        _hit("and: a symbol decides the other side")
        f = assume_symbol(f, g.symbol)
    if f == FALSE or g == FALSE or f == TRUE or g == TRUE:
        _hit("and: constant")
        return FALSE if f == FALSE or g == FALSE else (g if f == TRUE else f)
    _hit("and")
    return f if f is g else lg.And(f, g)


def t_or(f: lg.Formula, g: lg.Formula) -> lg.Formula:
    """Return f | g, folding constants."""
    if f == TRUE or g == TRUE or f == FALSE or g == FALSE:
        _hit("or: constant")
        return TRUE if f == TRUE or g == TRUE else (g if f == FALSE else f)
    _hit("or")
    return f if f is g else lg.Or(f, g)


def t_since(f: lg.Formula, g: lg.Formula) -> lg.Formula:
    """Return f S g (false S g is Y g; f S false is false)."""
    if g == FALSE:
        _hit("since: f S false = false")
        return FALSE
    _hit("since: false S g = Y g" if f == FALSE else "since")
    return lg.Prev(g) if f == FALSE else lg.Since(f, g)


def t_until(f: lg.Formula, g: lg.Formula) -> lg.Formula:
    """Return f U g (false U g is X g; f U false is false)."""
    if g == FALSE:
        _hit("until: f U false = false")
        return FALSE
    _hit("until: false U g = X g" if f == FALSE else "until")
    return lg.Next(g) if f == FALSE else lg.Until(f, g)


def _formula(e: Expr, env: Mapping[str, lg.Formula], query: Mapping[str, bool] | None = None) -> lg.Formula:
    """Return the TL formula of an expression; in a selector, query vectors take the values in query."""
    if isinstance(e, Var):
        if e.side == "i":
            assert query is not None
            return lg.Const(query[e.name])
        return lg.Atom(e.name[2:]) if e.name.startswith("Q_") else env[e.name]
    if isinstance(e, Token):
        return lg.Atom(e.symbol)
    if isinstance(e, BConst):
        return lg.Const(e.value)
    if isinstance(e, BNot):
        return t_not(_formula(e.arg, env, query))
    if isinstance(e, BAnd):
        return t_and(_formula(e.left, env, query), _formula(e.right, env, query))
    return t_or(_formula(e.left, env, query), _formula(e.right, env, query))


def attention_formula(direction: str, mask: str, K: lg.Formula, V: lg.Formula, D: lg.Formula) -> lg.Formula:
    """Return the TL formula of DIR_j [M(i,j), K(j)] V(j) : D(i), K a key-only selector.

    rightmost past: the nearest j < i with K:   (!K) S (K & V), else no K before: !(true S K) & D;
    leftmost past:  the first K overall, if before i: true S (K & !(true S K) & V);
    leftmost/rightmost future: the mirror images with U;
    all: the leftmost K is before i, at i, or (none before and not at i) after i; symmetrically for rightmost.
    """
    if K == FALSE:
        _hit("attend: no key can be selected (K = false)")
        return D
    _hit(f"attend {direction} {mask}")
    past_any, fut_any = t_since(TRUE, K), t_until(TRUE, K)
    rp = t_since(t_not(K), t_and(K, V))  # rightmost past
    lf = t_until(t_not(K), t_and(K, V))  # leftmost future
    lp = t_since(TRUE, t_and(t_and(K, t_not(past_any)), V))  # the first K overall, before i
    rf = t_until(TRUE, t_and(t_and(K, t_not(fut_any)), V))  # the last K overall, after i
    if mask == "past":
        return t_or(rp if direction == "rightmost" else lp, t_and(t_not(past_any), D))
    if mask == "future":
        return t_or(lf if direction == "leftmost" else rf, t_and(t_not(fut_any), D))
    near, here_first, far, far_any = all_mask_sides(direction, lp=lp, rf=rf, lf=lf, rp=rp, past_any=past_any, fut_any=fut_any)
    # near | (none on the near side) & (K & V at i | !K & (far | no K on the far side & D)), each operand once
    rest = t_or(t_and(K, V), t_and(t_not(K), t_or(far, t_and(t_not(far_any), D))))
    return t_or(near, t_and(here_first, rest))


def all_mask_sides(
    direction: str, *, lp: lg.Formula, rf: lg.Formula, lf: lg.Formula, rp: lg.Formula, past_any: lg.Formula, fut_any: lg.Formula
) -> tuple[lg.Formula, lg.Formula, lg.Formula, lg.Formula]:
    """Return (near, none on the near side, far, any K on the far side) of an ``all`` mask.

    leftmost: the first K overall is before i (lp), else at i, else the NEAREST K after i (lf: the
    leftmost of them); rightmost: the last K overall is after i (rf), else at i, else the nearest K
    before i (rp: the rightmost of them).  The far side picks the key nearest to i, the near side the
    one farthest from it (tests/constructive/test_brasp_rules.py checks both sides on every word).
    """
    if direction == "leftmost":
        return lp, t_not(past_any), lf, fut_any
    return rf, t_not(fut_any), rp, past_any


def query_vectors(e: Expr) -> list[str]:
    """Return the query-side vector names a selector reads (A@i), in order of appearance."""
    out: list[str] = []
    stack: list[Expr] = [e]
    while stack:
        g = stack.pop()
        if isinstance(g, Var) and g.side == "i":
            out.append(g.name)
        elif isinstance(g, BNot):
            stack.append(g.arg)
        elif isinstance(g, (BAnd, BOr)):
            stack.extend((g.right, g.left))
    return list(dict.fromkeys(out))


def _query_formula(name: str, env: Mapping[str, lg.Formula]) -> lg.Formula:
    return lg.Atom(name[2:]) if name.startswith("Q_") else env[name]


def to_formulas(p: Program) -> dict[str, lg.Formula]:
    """Return every vector's TL formula (the same truth value at every position of every word).

    An attention whose selector reads query vectors q_1..q_m is split on their 2^m values:
    P = OR_sigma (q = sigma at i) & A_sigma, A_sigma the attention with the key-only selector S[q := sigma].
    """
    try:
        return _to_formulas(p)
    finally:
        clear_translation_caches()


def clear_translation_caches() -> None:
    """Forget assume_symbol's results (called at the end of every translation, B-RASP's and C-RASP's)."""
    _ASSUMED.clear()
    _KEEP.clear()


def _to_formulas(p: Program) -> dict[str, lg.Formula]:
    """Return every vector's TL formula (``to_formulas``, whose caches this fills)."""
    by_name = {s.name: s for s in p.statements}
    env: dict[str, lg.Formula] = {}
    for name in order_bindings([Binding(s.name, 0, uses(s)) for s in p.statements], p.output, 0):
        s = by_name[name]
        if isinstance(s, Assign):
            env[name] = _formula(s.expr, env)
            continue
        qs = query_vectors(s.selector)
        if len(qs) > MAX_QUERY_VECTORS:
            raise ValueError(
                f"the selector of {name!r} reads {len(qs)} query vectors; the translation splits on each of their values, at most {MAX_QUERY_VECTORS}"
            )
        V, D = _formula(s.value, env), _formula(s.default, env)
        _hit("selector: split on query vectors" if qs else "selector: keys only")
        total: lg.Formula = FALSE
        for values in itertools.product((True, False), repeat=len(qs)):
            sigma = dict(zip(qs, values))
            K = _formula(s.selector, env, sigma)
            guard: lg.Formula = TRUE
            for q, v in sigma.items():
                qf = _query_formula(q, env)
                guard = t_and(guard, qf if v else t_not(qf))
            total = t_or(total, t_and(guard, attention_formula(s.direction, s.mask, K, V, D)))
        env[name] = total
    return env


@without_cycle_collection
def compile_program(p: Program | str, alphabet: Sequence[str] = ("a", "b"), regime: str = "bounded") -> CompiledProgram:
    """Return the program compiled to one model through the TL compiler (ValueError on what it refuses)."""
    if isinstance(p, str):
        p = parse(p)
    check_symbols(tokens(p), alphabet, p.positions)
    return compile_via_tl("brasp", p, format_program(p), to_formulas(p), p.output, alphabet, regime, interpret, positions=p.positions)
