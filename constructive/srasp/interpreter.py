"""S-RASP, the reference interpreter: every sequence of a program on a word, in exact integers (the semantics of ``constructive.srasp.language``).

Written for the reader, straight from the definitions (loops over positions and keys, no
vectorisation): it is what the compiled transformer is checked against.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence

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
    PrefixSum,
    Program,
    Psum,
    Select,
    Token,
)

#: The comparison operators, by their spelling in ``language.COMPARISONS``.
COMPARE: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def visible_keys(mask: str, i: int, n: int) -> range:
    """Return the keys j a query i sees under a mask (``language.SELECT_MASKS``)."""
    return {
        "strict": range(i),
        "causal": range(i + 1),
        "strict_anticausal": range(i + 1, n),
        "anticausal": range(i, n),
        "none": range(n),
    }[mask]


def _lin(e: Lin, val: dict[str, list[int]], i: int) -> int:
    """Return the value of a linear expression at position i."""
    return e.const + sum(c * val[x][i] for c, x in e.terms)


def interpret(prog: Program, word: Sequence[str]) -> dict[str, list[int]]:
    """Return every sequence of the program on a word (exact integers; the semantics of ``constructive.srasp.language``)."""
    n = len(word)
    if n == 0:
        raise ValueError("S-RASP programs run on non-empty words")
    bad = [c for c in word if c not in prog.alphabet]
    if bad:
        raise ValueError(f"symbols {sorted(set(bad))} are not in the alphabet {prog.alphabet}")
    val: dict[str, list[int]] = {}
    for name, op in prog.defs:
        out: list[int] = []
        if isinstance(op, Token):
            out = [int(c in op.symbols) for c in word]
        elif isinstance(op, BoolConst):
            out = [int(op.value)] * n
        elif isinstance(op, BoolNot):
            out = [1 - a for a in val[op.a]]
        elif isinstance(op, BoolAnd):
            out = [a & b for a, b in zip(val[op.a], val[op.b])]
        elif isinstance(op, BoolOr):
            out = [a | b for a, b in zip(val[op.a], val[op.b])]
        elif isinstance(op, Cond):
            out = [val[op.x][i] if val[op.b][i] else val[op.y][i] for i in range(n)]
        elif isinstance(op, Index):
            out = list(range(n))
        elif isinstance(op, Lin):
            out = [_lin(op, val, i) for i in range(n)]
        elif isinstance(op, Compare):
            out = [int(COMPARE[op.op](_lin(op.left, val, i), _lin(op.right, val, i))) for i in range(n)]
        elif isinstance(op, PrefixSum):
            out = [sum(_lin(op.expr, val, j) for j in range(i + 1)) for i in range(n)]
        elif isinstance(op, Psum):
            minus = val[op.minus] if op.minus is not None else [0] * n
            out = [max(0, sum(val[op.plus][j] - minus[j] for j in range(i))) for i in range(n)]
        elif isinstance(op, IsConst):
            out = [int(v == op.c) for v in val[op.v]]
        elif isinstance(op, Aggregate):
            key, query, where, value = val[op.key], val[op.query], val[op.where], val[op.value]
            for i in range(n):
                t = query[i] + op.offset
                best = max(visible_keys(op.mask, i, n), key=lambda j: (2 * where[j] - 2 * (key[j] - t) ** 2, j), default=None)
                out.append(0 if best is None else value[best])
        elif isinstance(op, Select):
            for i in range(n):
                chosen = [
                    j
                    for j in visible_keys(op.mask, i, n)
                    if (op.where is None or val[op.where][j])
                    and (op.key is None or op.query is None or op.cmp is None or COMPARE[op.cmp](val[op.key][j], val[op.query][i] + op.offset))
                ]
                if not chosen:
                    out.append(val[op.default][i])
                else:
                    out.append(val[op.value][chosen[0] if op.direction == "leftmost" else chosen[-1]])
        elif isinstance(op, Once):
            out = [int(any(val[op.b][: i + 1])) for i in range(n)]
        else:  # pragma: no cover - Program.__post_init__ refuses other ops
            raise AssertionError(op)
        val[name] = out
    return val


def outputs_of(prog: Program, val: dict[str, list[int]]) -> list[str]:
    """Return the output symbol at every position from the program's sequences (``interpret``'s result)."""
    n = len(next(iter(val.values()))) if val else 0
    return [next((s for s, b in prog.outputs if val[b][i]), prog.default) for i in range(n)]


def run_program(prog: Program, word: Sequence[str]) -> list[str]:
    """Return the program's output symbol at every position of word."""
    return outputs_of(prog, interpret(prog, word))
