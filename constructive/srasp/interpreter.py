"""S-RASP, the reference interpreter: every sequence of a program on a word, in exact integers (the semantics of ``constructive.srasp.language``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hardsoft.constructive.srasp.language import Aggregate, BoolAnd, BoolNot, BoolOr, IsConst, Once, Program, Psum, Token


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
        if isinstance(op, Token):
            out = [int(c in op.symbols) for c in word]
        elif isinstance(op, BoolNot):
            out = [1 - a for a in val[op.a]]
        elif isinstance(op, BoolAnd):
            out = [a & b for a, b in zip(val[op.a], val[op.b])]
        elif isinstance(op, BoolOr):
            out = [a | b for a, b in zip(val[op.a], val[op.b])]
        elif isinstance(op, Psum):
            s, out = 0, []
            minus = val[op.minus] if op.minus is not None else [0] * n
            for i in range(n):
                out.append(max(0, s))
                s += val[op.plus][i] - minus[i]
        elif isinstance(op, IsConst):
            out = [int(v == op.c) for v in val[op.v]]
        elif isinstance(op, Aggregate):
            key, query, where, value = val[op.key], val[op.query], val[op.where], val[op.value]
            out = []
            for i in range(n):
                keys = range(i) if op.mask == "strict" else range(i + 1)
                t = query[i] + op.offset
                best = max(keys, key=lambda j: (2 * where[j] - 2 * (key[j] - t) ** 2, j), default=None)
                out.append(0 if best is None else value[best])
        elif isinstance(op, Once):
            out = [int(v) for v in np.maximum.accumulate(val[op.b])]
        else:  # pragma: no cover - Program.__post_init__ refuses other ops
            raise AssertionError(op)
        val[name] = out
    return val


def run_program(prog: Program, word: Sequence[str]) -> list[str]:
    """Return the program's output symbol at every position of word."""
    val = interpret(prog, word)
    return [next((s for s, b in prog.outputs if val[b][i]), prog.default) for i in range(len(word))]
