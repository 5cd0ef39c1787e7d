"""S-RASP, the text syntax: ``parse_program`` (text -> Program) and ``format_program`` (Program -> text), which round-trip.

The grammar is ``srasp.lark`` (package data, Lark LALR); the semantics of every
operation is ``constructive.srasp.language``; docs/srasp.md shows the syntax with
examples.  One program per file::

    # comment
    program "dyck-1"
    alphabet "(" ")"
    open = token("(")
    depth = strict_psum(open, close)
    at0 = depth == 0
    partner = rightmost j < i with depth[j] == depth[i] - 1 and open[j] value open default nearest
    output "bad" if bad, "in" if in, else "open"

Every error is one line, a ValueError naming the line and the column: ``line L, column C:
expected ...`` for text that does not parse, ``line L, column C: ...`` for a definition the
language refuses (a type error, an unbound name, a name bound twice, a cycle, an integer above
the bound, a symbol outside the alphabet), at the name or symbol the refusal names.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any, cast

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from hardsoft.constructive.gcpause import without_cycle_collection
from hardsoft.constructive.srasp import language as L

#: Words of the syntax; none may name a definition.
KEYWORDS = frozenset(
    "program alphabet output if then else not and or token true false index psum strict_psum once "
    "leftmost rightmost with value default nearest i j".split()
)
#: Readable names of the grammar's terminals, for "expected ..." messages.
_TERMINAL_NAMES = {
    "NAME": "a name",
    "INT": "an integer",
    "STRING": 'a quoted symbol ("a")',
    "_NL": "the end of the line",
    "CMP": "a comparison (== != < <= > >=)",
    "SIGN": "+ or -",
    "$END": "the end of the program",
}
#: Mask of a select, by the comparison of j with i written after "j" (none: every j).
_MASK_OF = {"<": "strict", "<=": "causal", ">": "strict_anticausal", ">=": "anticausal", None: "none"}
_MASK_TEXT = {mask: ("j" if cmp is None else f"j {cmp} i") for cmp, mask in _MASK_OF.items()}


@cache
def _grammar() -> Lark:
    """Return the LALR parser of srasp.lark (built once)."""
    text = resources.files("hardsoft.constructive.srasp").joinpath("srasp.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def _terminal_text(name: str) -> str:
    """Return how a terminal is shown in an error message."""
    if name in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[name]
    try:
        pattern = _grammar().get_terminal(name).pattern
    except KeyError:
        return name.lower()
    return f"'{pattern.value}'" if pattern.type == "str" else name.lower()


def _syntax_error(e: UnexpectedInput, text: str) -> ValueError:
    """Return the one-line error for text that does not parse: line, column, what was expected, what was found."""
    if isinstance(e, UnexpectedToken):
        expected = sorted({_terminal_text(t) for t in e.expected})
        found = "the end of the program" if e.token.type == "$END" else ("the end of the line" if e.token.type == "_NL" else repr(str(e.token)))
        line, col = e.line, e.column
        if e.token.type == "$END" or line is None or line < 0:
            lines = text.splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
    elif isinstance(e, UnexpectedCharacters):
        expected = sorted({_terminal_text(t) for t in e.allowed})
        pos = e.pos_in_stream if e.pos_in_stream is not None else len(text)
        found, line, col = repr(text[pos]) if pos < len(text) else "the end", e.line, e.column
    elif isinstance(e, UnexpectedEOF):
        expected = sorted({_terminal_text(t) for t in e.expected})
        lines = text.splitlines() or [""]
        found, line, col = "the end of the program", len(lines), len(lines[-1]) + 1
    else:  # pragma: no cover - Lark raises only the three above
        return ValueError(f"S-RASP syntax error: {e}".splitlines()[0])
    what = ", ".join(expected[:-1]) + (" or " if len(expected) > 1 else "") + expected[-1] if expected else "something else"
    return ValueError(f"line {line}, column {col}: expected {what}; found {found}")


def _string(tok: Any) -> str:
    """Return the symbol a quoted string denotes (JSON's escapes); a control character or a bad escape is a one-line ValueError."""
    try:
        return str(json.loads(str(tok)))
    except json.JSONDecodeError as e:  # the grammar's STRING admits what JSON does not
        shown = str(tok) if len(str(tok)) <= 20 else str(tok)[:17] + "..."
        raise ValueError(f"line {tok.line}, column {tok.column}: the quoted symbol {shown!r} is not a valid string ({e.msg})") from None


def _int(tok: Any) -> int:
    """Return an integer literal, refusing one above the bound before converting it."""
    digits = str(tok).lstrip("0") or "0"
    if len(digits) > len(str(L.MAX_INTEGER)) or int(digits) > L.MAX_INTEGER:
        shown = digits if len(digits) <= 20 else f"{digits[:8]}...({len(digits)} digits)"
        raise ValueError(f"line {tok.line}, column {tok.column}: the integer {shown} is above the bound {L.MAX_INTEGER}")
    return int(digits)


def _lin(tree: Tree) -> L.Lin:
    """Return the linear expression of a ``lin`` node: terms merged by name (zero coefficients dropped), constants summed."""
    coef: dict[str, int] = {}
    const, sign = 0, 1
    for child in tree.children:
        if isinstance(child, Token):  # SIGN
            sign = -1 if child == "-" else 1
            continue
        if child.data == "const_term":
            const += sign * _int(child.children[0])
        elif child.data == "name_term":
            name = str(child.children[0])
            coef[name] = coef.get(name, 0) + sign
        else:
            c, name = _int(child.children[0]), str(child.children[1])
            coef[name] = coef.get(name, 0) + sign * c
        sign = 1
    return L.Lin(tuple((c, x) for x, c in coef.items() if c != 0), const)


def _select(tree: Tree) -> L.Op:
    """Return the Select (or, with ``default nearest``, the Aggregate) of a ``select`` node."""
    kids: list[Any] = list(tree.children)
    direction = str(kids.pop(0).children[0])
    mask_cmp = str(kids.pop(0)) if isinstance(kids[0], Token) and kids[0].type == "CMP" else None
    line = tree.meta.line
    if mask_cmp not in _MASK_OF:
        raise ValueError(
            f"line {line}, column {tree.meta.column}: the mask compares j with i by {mask_cmp!r}; expected <, <=, > or >= (or no comparison)"
        )
    mask = _MASK_OF[mask_cmp]
    key = cmp = query = where = None
    offset = 0
    if isinstance(kids[0], Tree):
        sel = kids.pop(0)
        if sel.data == "where_only":
            where = str(sel.children[0])
        else:
            kc = sel.children[0]
            key, cmp, query = str(kc.children[0]), str(kc.children[1]), str(kc.children[2])
            if len(kc.children) == 5:
                offset = (-1 if kc.children[3] == "-" else 1) * _int(kc.children[4])
            if len(sel.children) == 2:
                where = str(sel.children[1])
    value, default = str(kids[0]), kids[1]
    if default.type == "NEAREST":
        if direction != "rightmost" or mask not in L.MASKS or cmp != "==" or where is None or key is None or query is None:
            need = "rightmost, j < i or j <= i, a key == query comparison and a where[j] filter"
            raise ValueError(f"line {line}, column {default.column}: 'default nearest' needs {need}")
        return L.Aggregate(key, query, offset, where, value, mask)
    return L.Select(direction, mask, key, cmp, query, offset, where, value, str(default))


def _op(tree: Tree) -> L.Op:
    """Return the operation of an expression node."""
    k, c = tree.data, cast(list[Any], tree.children)
    if k == "token":
        return L.Token(tuple(_string(t) for t in c))
    if k == "boolconst":
        return L.BoolConst(str(c[0]) == "true")
    if k == "not_":
        return L.BoolNot(str(c[0]))
    if k == "and_":
        return L.BoolAnd(str(c[0]), str(c[1]))
    if k == "or_":
        return L.BoolOr(str(c[0]), str(c[1]))
    if k == "cond":
        return L.Cond(str(c[0]), str(c[1]), str(c[2]))
    if k == "index":
        return L.Index()
    if k == "lin":
        return _lin(tree)
    if k == "compare":
        return L.Compare(str(c[1]), _lin(c[0]), _lin(c[2]))
    if k == "psum":
        return L.PrefixSum(_lin(c[0]))
    if k == "strict_psum":
        return L.Psum(str(c[0]), str(c[1]) if len(c) > 1 else None)
    if k == "once":
        return L.Once(str(c[0]))
    if k == "select":
        return _select(tree)
    raise AssertionError(k)  # pragma: no cover - the grammar has no other expression


@without_cycle_collection
def parse_program(text: str) -> L.Program:
    """Return the program a text denotes (the syntax of srasp.lark); ValueError, one line, naming line and column or definition."""
    if not isinstance(text, str):
        raise ValueError(f"an S-RASP program is text, got {type(text).__name__}")
    try:
        tree = _grammar().parse(text if text.endswith("\n") else text + "\n")
    except UnexpectedInput as e:
        raise _syntax_error(e, text) from None
    kids: list[Any] = list(tree.children)
    name = _string(kids[0])
    alphabet = tuple(_string(t) for t in kids[1:] if isinstance(t, Token))
    defs: list[tuple[str, L.Op]] = []
    places: list[tuple[tuple[int, int], dict[str, tuple[int, int]]]] = []  # per definition: its name's place, each word's first place
    out_tree = kids[-1]
    for node in kids:
        if isinstance(node, Tree) and node.data == "definition":
            dname = str(node.children[0])
            if dname in KEYWORDS:
                raise ValueError(f"line {node.meta.line}, column {node.meta.column}: {dname!r} is a keyword, not a name")
            places.append(((node.meta.line, node.meta.column), _words(node)))  # the definition starts with its name
            defs.append((dname, _op(node.children[1])))
    cases = [(_string(c.children[0]), str(c.children[1])) for c in out_tree.children if isinstance(c, Tree)]
    default = _string(out_tree.children[-1])
    try:
        return L.Program(name, alphabet, tuple(defs), tuple(cases), default)
    except L.ProgramError as e:
        here, words = places[e.index] if e.index is not None else ((out_tree.meta.line, out_tree.meta.column), _words(out_tree))
        named = [q for q in re.findall(r"'([^']*)'", str(e)) if q != e.definition and q in words][-1:]  # the last word it names, written here
        if "cycle of definitions: " in str(e):  # the operand this definition reads on the cycle
            named = [q for q in str(e).rsplit(": ", 1)[1].split(" -> ")[1:2] if q in words]
        line, col = words[named[0]] if named else here
        raise ValueError(f"line {line}, column {col}: {e}") from None


def _words(node: Tree) -> dict[str, tuple[int, int]]:
    """Return the first place of every name and quoted symbol written in a definition (or the output line): one operation, shallow."""
    found: dict[str, tuple[int, int]] = {}
    stack: list[Any] = list(reversed(node.children[1:] if node.data == "definition" else node.children))  # not the name it binds
    while stack:
        x = stack.pop()
        if isinstance(x, Tree):
            stack.extend(reversed(x.children))
        elif isinstance(x, Token) and x.type in ("NAME", "STRING"):
            word = _string(x) if x.type == "STRING" else str(x)
            found.setdefault(word, (int(x.line or 0), int(x.column or 0)))
    return found


# --------------------------------------------------------------------------- printing


def _quote(s: str) -> str:
    """Return s as a quoted string of the syntax."""
    return json.dumps(s, ensure_ascii=False)


def format_lin(e: L.Lin) -> str:
    """Return a linear expression in the text syntax (1*x written x, a zero constant omitted unless alone)."""
    parts: list[str] = []
    for c, x in e.terms:
        mag = x if abs(c) == 1 else f"{abs(c)}*{x}"
        parts.append(("-" if c < 0 else "") + mag if not parts else ("- " if c < 0 else "+ ") + mag)
    if e.const or not parts:
        parts.append(str(e.const) if not parts else ("- " if e.const < 0 else "+ ") + str(abs(e.const)))
    return " ".join(parts)


def format_op(op: L.Op) -> str:
    """Return the right-hand side of a definition in the text syntax."""
    if isinstance(op, L.Token):
        return "token(" + ", ".join(_quote(s) for s in op.symbols) + ")"
    if isinstance(op, L.BoolConst):
        return "true" if op.value else "false"
    if isinstance(op, L.BoolNot):
        return f"not {op.a}"
    if isinstance(op, L.BoolAnd):
        return f"{op.a} and {op.b}"
    if isinstance(op, L.BoolOr):
        return f"{op.a} or {op.b}"
    if isinstance(op, L.Cond):
        return f"if {op.b} then {op.x} else {op.y}"
    if isinstance(op, L.Index):
        return "index"
    if isinstance(op, L.Lin):
        return format_lin(op)
    if isinstance(op, L.Compare):
        return f"{format_lin(op.left)} {op.op} {format_lin(op.right)}"
    if isinstance(op, L.IsConst):
        return f"{op.v} == {op.c}"
    if isinstance(op, L.PrefixSum):
        return f"psum({format_lin(op.expr)})"
    if isinstance(op, L.Psum):
        return f"strict_psum({op.plus})" if op.minus is None else f"strict_psum({op.plus}, {op.minus})"
    if isinstance(op, L.Once):
        return f"once({op.b})"
    if isinstance(op, (L.Select, L.Aggregate)):
        key: str | None
        cmp: str | None
        query: str | None
        where: str | None
        if isinstance(op, L.Aggregate):
            direction, mask, key, cmp, query, offset, where, default = "rightmost", op.mask, op.key, "==", op.query, op.offset, op.where, "nearest"
        else:
            direction, mask, key, cmp, query, offset, where, default = (
                op.direction,
                op.mask,
                op.key,
                op.cmp,
                op.query,
                op.offset,
                op.where,
                op.default,
            )
        sel = []
        if key is not None:
            shift = "" if offset == 0 else f" {'-' if offset < 0 else '+'} {abs(offset)}"
            sel.append(f"{key}[j] {cmp} {query}[i]{shift}")
        if where is not None:
            sel.append(f"{where}[j]")
        with_ = f" with {' and '.join(sel)}" if sel else ""
        return f"{direction} {_MASK_TEXT[mask]}{with_} value {op.value} default {default}"
    raise ValueError(f"not an S-RASP operation: {op!r}")


def _check_name(name: str, what: str) -> None:
    """Refuse a name the text syntax cannot write (not an identifier, or a keyword)."""
    if not name.isidentifier() or not name.isascii() or name in KEYWORDS:
        raise ValueError(f"the {what} {name!r} cannot be written in the text syntax (names are ASCII identifiers other than keywords)")


def format_program(prog: L.Program) -> str:
    """Return the text of a program: parse_program(format_program(p)) == p for every program without IsConst (written as ==)."""
    if not isinstance(prog, L.Program):
        raise ValueError(f"format_program needs a Program, got {type(prog).__name__}")
    lines = [f"program {_quote(prog.name)}", "alphabet " + " ".join(_quote(a) for a in prog.alphabet)]
    for name, op in prog.defs:
        _check_name(name, "definition name")
        for x in L.operands(op):
            _check_name(x, "name")
        lines.append(f"{name} = {format_op(op)}")
    cases = "".join(f"{_quote(s)} if {b}, " for s, b in prog.outputs)
    lines.append(f"output {cases}else {_quote(prog.default)}")
    return "\n".join(lines) + "\n"
